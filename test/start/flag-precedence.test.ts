// kubeletConfigFlagPrecedence (cmd/kubelet/app/server.go): after --config and --config-dir are merged,
// kubelet parses its command line again into that configuration, so flags bound to fields win.
import t from 'tap';
import { applyFlagPrecedence } from '../../src/start/flag-precedence.js';
import { NEXT_MINOR } from '../../src/kubelet/data/minors.js';

const occ = (pairs: readonly (readonly [string, string])[]): Map<string, string[]> => {
  const m = new Map<string, string[]>();
  for (const [k, v] of pairs) m.set(k, [...(m.get(k) ?? []), v]);
  return m;
};

t.test('scalar flags replace the file\'s field with their last value, converted to the field\'s type', async (t) => {
  const file = { maxPods: 50, failSwapOn: true, nodeStatusUpdateFrequency: '10s', maxOpenFiles: 10, podCIDR: '10.0.0.0/24', other: 'kept' };
  const out = applyFlagPrecedence(30, file, occ([
    ['max-pods', '100'], ['max-pods', '110'],
    ['fail-swap-on', 'false'],
    ['node-status-update-frequency', '20s'],
    ['max-open-files', '0x10'],
    ['pod-cidr', '10.1.0.0/16'],
  ]));
  t.same(out, { maxPods: 110, failSwapOn: false, nodeStatusUpdateFrequency: '20s', maxOpenFiles: 16, podCIDR: '10.1.0.0/16', other: 'kept' });
  t.same(file.maxPods, 50, 'the file\'s object is not changed');
});

t.test('Go bool spellings: t, T, 1, TRUE are true; an unparsable value (refused by step 1) leaves the file\'s', async (t) => {
  for (const v of ['t', 'T', '1', 'TRUE', 'True']) t.equal(applyFlagPrecedence(30, { failSwapOn: false }, occ([['fail-swap-on', v]]))['failSwapOn'], true, v);
  for (const v of ['f', 'F', '0', 'FALSE']) t.equal(applyFlagPrecedence(30, { failSwapOn: true }, occ([['fail-swap-on', v]]))['failSwapOn'], false, v);
  t.equal(applyFlagPrecedence(30, { failSwapOn: true }, occ([['fail-swap-on', 'yes']]))['failSwapOn'], true);
  t.equal(applyFlagPrecedence(30, { maxPods: 7 }, occ([['max-pods', 'abc']]))['maxPods'], 7);
});

t.test('a string slice appends across occurrences and replaces the file\'s list', async (t) => {
  const out = applyFlagPrecedence(30, { clusterDNS: ['192.168.0.10'] }, occ([['cluster-dns', '10.0.0.10,10.0.0.11'], ['cluster-dns', '10.0.0.12']]));
  t.same(out['clusterDNS'], ['10.0.0.10', '10.0.0.11', '10.0.0.12']);
  t.same(applyFlagPrecedence(30, { clusterDNS: ['192.168.0.10'] }, occ([['cluster-dns', '']]))['clusterDNS'], [], 'an empty value is the empty list');
});

t.test('map flags replace the file\'s map on their first Set and merge later ones', async (t) => {
  const file = { kubeReserved: { memory: '1Gi', pid: '100' }, evictionHard: { 'imagefs.available': '15%' } };
  const out = applyFlagPrecedence(30, file, occ([
    ['kube-reserved', 'cpu=500m, memory=2Gi'], ['kube-reserved', 'ephemeral-storage=1Gi'],
    ['eviction-hard', 'memory.available<100Mi,nodefs.available<10%'],
    ['cpu-manager-policy-options', 'full-pcpus-only=true'],
  ]));
  t.same(out['kubeReserved'], { cpu: '500m', memory: '2Gi', 'ephemeral-storage': '1Gi' }, 'pid from the file is gone');
  t.same(out['evictionHard'], { 'memory.available': '100Mi', 'nodefs.available': '10%' });
  t.same(out['cpuManagerPolicyOptions'], { 'full-pcpus-only': 'true' });
});

t.test('--feature-gates: the flags win, and kubelet adds back the file\'s gates they did not name', async (t) => {
  const out = applyFlagPrecedence(30, { featureGates: { A: false, B: false } }, occ([['feature-gates', 'A=true'], ['feature-gates', 'C=false']]));
  t.same(out['featureGates'], { A: true, B: false, C: false });
  t.same(applyFlagPrecedence(30, {}, occ([['feature-gates', 'A=true']]))['featureGates'], { A: true }, 'no file gates');
});

t.test('flags bound to nested fields set them in copies; unbound flags and minors without a flag table leave the configuration alone', async (t) => {
  const file = { authentication: { anonymous: { enabled: false }, webhook: { enabled: true } }, logging: { verbosity: 2 } };
  const out = applyFlagPrecedence(30, file, occ([['anonymous-auth', 'true'], ['v', '4'], ['logging-format', 'json'], ['client-ca-file', '/etc/ca.crt'], ['config', '/etc/k.conf'], ['no-such-flag', 'x']]));
  t.same(out, { authentication: { anonymous: { enabled: true }, webhook: { enabled: true }, x509: { clientCAFile: '/etc/ca.crt' } }, logging: { verbosity: 4, format: 'json' } });
  t.same(file, { authentication: { anonymous: { enabled: false }, webhook: { enabled: true } }, logging: { verbosity: 2 } }, 'the file\'s objects are not changed');
  t.same(applyFlagPrecedence(30, file, occ([['config', '/etc/k.conf'], ['no-such-flag', 'x']])), file);
  const outside = { maxPods: 50 };
  t.equal(applyFlagPrecedence(NEXT_MINOR, outside, occ([['max-pods', '110']])), outside, '1.NEXT_MINOR is not modelled');
  t.equal(applyFlagPrecedence(23, outside, occ([['max-pods', '110']])), outside);
});

t.test('int flags parse as pflag does (strconv.ParseInt base 0): octal and underscores', async (t) => {
  const config = applyFlagPrecedence(30, {}, new Map([['max-pods', ['010']], ['pods-per-core', ['1_000']]]));
  t.equal(config['maxPods'], 8, '"010" is octal for Go');
  t.equal(config['podsPerCore'], 1000, '"1_000" is 1000 with base 0');
});
