import t from 'tap';
import { allValues, lastValue, locateKubelet, parseKubeletFlags } from '../../src/kubelet/flags.js';

t.test('--a=b and --a b are the same; the last occurrence wins', async (t) => {
  const flags = parseKubeletFlags([
    '--image-credential-provider-config', '/first.yaml',
    '--image-credential-provider-config=/second.yaml',
  ]);
  t.equal(lastValue(flags, 'image-credential-provider-config'), '/second.yaml');
  t.same(allValues(flags, 'image-credential-provider-config'), ['/first.yaml', '/second.yaml']);
});

t.test('underscores equal dashes in flag names (WordSepNormalizeFunc)', async (t) => {
  const flags = parseKubeletFlags(['--image_credential_provider_bin_dir=/plugins']);
  t.equal(lastValue(flags, 'image-credential-provider-bin-dir'), '/plugins');
});

t.test('a value flag takes the next argument even when it starts with a dash', async (t) => {
  const flags = parseKubeletFlags(['--image-credential-provider-config', '--image-credential-provider-bin-dir=/x']);
  t.equal(lastValue(flags, 'image-credential-provider-config'), '--image-credential-provider-bin-dir=/x');
  t.equal(lastValue(flags, 'image-credential-provider-bin-dir'), undefined);
});

t.test('boolean flags never consume the next argument', async (t) => {
  const flags = parseKubeletFlags(['--register-node', '--image-credential-provider-config=/c.yaml', '--fail-swap-on', 'false']);
  t.equal(lastValue(flags, 'register-node'), 'true');
  t.equal(lastValue(flags, 'image-credential-provider-config'), '/c.yaml');
  t.same(flags.positional, ['false'], 'kubelet would reject "false" as an unknown command');
});

t.test('an unknown flag followed by a flag is taken as boolean', async (t) => {
  const flags = parseKubeletFlags(['--some-new-bool', '--image-credential-provider-bin-dir=/p']);
  t.equal(lastValue(flags, 'image-credential-provider-bin-dir'), '/p');
});

t.test('empty values are values; a trailing value flag without one is reported', async (t) => {
  const flags = parseKubeletFlags(['--image-credential-provider-config=', '--config']);
  t.equal(lastValue(flags, 'image-credential-provider-config'), '');
  t.same(flags.missingValue, ['config']);
});

t.test('"--" ends the flags; shorthands -v and -h', async (t) => {
  const flags = parseKubeletFlags(['-v=2', '-v', '4', '-h', '--', '--image-credential-provider-config=/x']);
  t.same(allValues(flags, 'v'), ['2', '4']);
  t.equal(lastValue(flags, 'help'), 'true');
  t.equal(lastValue(flags, 'image-credential-provider-config'), undefined);
  t.same(flags.positional, ['--image-credential-provider-config=/x']);
});

t.test('kubelet is found behind wrappers', async (t) => {
  const openshift = locateKubelet(['/usr/local/bin/kubenswrapper', '/usr/bin/kubelet', '--v=2']);
  t.same(openshift, { wrapper: ['/usr/local/bin/kubenswrapper'], kubeletPath: '/usr/bin/kubelet', args: ['--v=2'] });
  const hyperkube = locateKubelet(['/usr/bin/hyperkube', 'kubelet', '--config=/c']);
  t.equal(hyperkube?.kubeletPath, '/usr/bin/hyperkube');
  t.same(hyperkube?.args, ['--config=/c']);
  t.equal(locateKubelet(['/usr/bin/containerd']), undefined);
});
