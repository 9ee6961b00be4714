import t from 'tap';
import { describeMinors, parseKubeletVersion, traitsFor } from '../../src/kubelet/version.js';

t.test('versions as kubelet --version and users write them', async (t) => {
  t.match(parseKubeletVersion('Kubernetes v1.28.7'), { major: 1, minor: 28, patch: 7 });
  t.match(parseKubeletVersion('v1.29.5+5f5f6b3'), { minor: 29, patch: 5 });
  t.match(parseKubeletVersion('1.30.0-rc.1'), { minor: 30, patch: 0 });
  t.match(parseKubeletVersion('1.31'), { minor: 31, patch: 0 });
  t.equal(parseKubeletVersion('2.0.0'), undefined);
  t.equal(parseKubeletVersion('latest'), undefined);
});

t.test('generation boundaries (research §0)', async (t) => {
  t.equal(traitsFor(29).pluginBinaryCheck, 'stat');
  t.equal(traitsFor(30).pluginBinaryCheck, 'lookpath');
  t.equal(traitsFor(31).strictDecoding, false);
  t.equal(traitsFor(32).strictDecoding, true);
  t.equal(traitsFor(32).duplicateProviderNames, 'fatal-at-registration');
  t.equal(traitsFor(33).duplicateProviderNames, 'validation');
  t.equal(traitsFor(34).duplicateProviderNames, 'merge');
  t.equal(traitsFor(33).configMayBeDirectory, false);
  t.equal(traitsFor(34).configMayBeDirectory, true);
  t.equal(traitsFor(40).minor, 35, 'newer minors use the newest modelled rules');
  t.equal(traitsFor(20).minor, 26, 'older minors use the oldest modelled rules');
});

t.test('minor lists read as ranges', async (t) => {
  t.equal(describeMinors([30, 31, 32, 26, 34]), '1.26, 1.30-1.32, 1.34');
  t.equal(describeMinors([28]), '1.28');
});
