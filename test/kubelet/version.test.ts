import t from 'tap';
import { describeMinors, parseKubeletVersion, requireTraits, traitsFor } from '../../src/kubelet/version.js';
import { NEXT_MINOR } from '../../src/kubelet/data/minors.js';

t.test('versions as kubelet --version and users write them', async (t) => {
  t.match(parseKubeletVersion('Kubernetes v1.28.7'), { major: 1, minor: 28, patch: 7 });
  t.match(parseKubeletVersion('v1.29.5+5f5f6b3'), { minor: 29, patch: 5 });
  t.match(parseKubeletVersion('1.30.0-rc.1'), { minor: 30, patch: 0 });
  t.match(parseKubeletVersion('1.31'), { minor: 31, patch: 0 });
  t.equal(parseKubeletVersion('2.0.0'), undefined);
  t.equal(parseKubeletVersion('latest'), undefined);
});

t.test('generation boundaries (src/kubelet/data/credential-provider-traits.ts PROVENANCE)', async (t) => {
  t.equal(requireTraits(29).pluginBinaryCheck, 'stat');
  t.equal(requireTraits(30).pluginBinaryCheck, 'lookpath');
  t.equal(requireTraits(31).strictDecoding, false);
  t.equal(requireTraits(32).strictDecoding, true);
  t.equal(requireTraits(32).duplicateProviderNames, 'fatal-at-registration');
  t.equal(requireTraits(33).duplicateProviderNames, 'validation');
  t.equal(requireTraits(34).duplicateProviderNames, 'merge');
  t.equal(requireTraits(33).configMayBeDirectory, false);
  t.equal(requireTraits(34).configMayBeDirectory, true);
  t.equal(traitsFor(NEXT_MINOR), undefined, 'an unreleased minor is not modelled');
  t.equal(traitsFor(23), undefined, 'a minor before 1.24 is not modelled');
  t.throws(() => requireTraits(NEXT_MINOR));
});

t.test('minor lists read as ranges', async (t) => {
  t.equal(describeMinors([30, 31, 32, 26, 34]), '1.26, 1.30-1.32, 1.34');
  t.equal(describeMinors([28]), '1.28');
});
