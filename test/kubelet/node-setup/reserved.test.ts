import t from 'tap';
import { checkReservedResources, parseMapStringString, resourceListErrors } from '../../../src/kubelet/node-setup/reserved.js';
import { NEXT_MINOR } from '../../../src/kubelet/data/minors.js';

const RE = "'^([+-]?[0-9.]+)([eEinumkKMGTP]*[-+]?[0-9]*)$'";

// OpenShift 4.15 (kubelet 1.28) unit: --system-reserved=cpu=${SYSTEM_RESERVED_CPU},memory=${SYSTEM_RESERVED_MEMORY},ephemeral-storage=${SYSTEM_RESERVED_ES}
function openshiftSystemReserved(cpu: string, memory: string, es: string): Record<string, string> {
  const parsed = parseMapStringString([`cpu=${cpu},memory=${memory},ephemeral-storage=${es}`]);
  if (!parsed.ok) throw new Error(parsed.error);
  return parsed.map;
}

t.test('OpenShift 4.15 unit with SYSTEM_RESERVED_CPU unset: fatal empty quantity', async (t) => {
  const f = checkReservedResources(28, { systemReserved: openshiftSystemReserved('', '1Gi', '1Gi'), path: '/etc/node-sizing.env' })!;
  t.equal(f.findingId, 'system-reserved-unparsable');
  t.equal(
    f.kubeletError,
    `failed to run Kubelet: --system-reserved value failed to parse: failed to parse quantity "" for "cpu" resource: quantities must match the regular expression ${RE}`,
  );
  t.equal(f.inexact, undefined, 'one bad entry: exact');
  t.equal(f.path, '/etc/node-sizing.env');
});

t.test('all three variables unset: still fatal, text depends on Go map order', async (t) => {
  const f = checkReservedResources(28, { systemReserved: openshiftSystemReserved('', '', '') })!;
  t.equal(f.findingId, 'system-reserved-unparsable');
  t.equal(f.inexact, true);
  t.match(f.kubeletError, /^failed to run Kubelet: --system-reserved value failed to parse: failed to parse quantity "" for "(cpu|memory|ephemeral-storage)" resource: /);
});

t.test('--reserved-cpus overrides the cpu entries before parsing', async (t) => {
  t.equal(checkReservedResources(28, { systemReserved: openshiftSystemReserved('', '1Gi', '1Gi'), reservedSystemCPUs: '0-1' }), undefined);
  t.equal(checkReservedResources(28, { kubeReserved: { cpu: 'lots' }, reservedSystemCPUs: '0' }), undefined);
  t.ok(checkReservedResources(28, { systemReserved: { cpu: '' }, reservedSystemCPUs: 'bad' }), 'unparsable reserved-cpus does not override');
});

t.test('unsupported resource, negative value, kube before system', async (t) => {
  t.equal(
    checkReservedResources(33, { kubeReserved: { 'nvidia.com/gpu': '1' } })!.kubeletError,
    'failed to run Kubelet: --kube-reserved value failed to parse: cannot reserve "nvidia.com/gpu" resource',
  );
  t.equal(
    checkReservedResources(27, { systemReserved: { memory: '-1Gi' } })!.kubeletError,
    'failed to run Kubelet: --system-reserved value failed to parse: resource quantity for "memory" cannot be negative: -1Gi',
  );
  const both = checkReservedResources(36, { kubeReserved: { memory: '1GB' }, systemReserved: { cpu: '' } })!;
  t.equal(both.findingId, 'kube-reserved-unparsable');
  t.equal(both.kubeletError, `failed to run Kubelet: --kube-reserved value failed to parse: failed to parse quantity "1GB" for "memory" resource: quantities must match the regular expression ${RE}`);
  t.equal(checkReservedResources(30, { kubeReserved: { cpu: '100m', memory: '1Gi', 'ephemeral-storage': '1Gi', pid: '1000' } }), undefined);
  t.equal(checkReservedResources(30, { systemReserved: {} }), undefined);
  t.equal(checkReservedResources(NEXT_MINOR, { systemReserved: { cpu: '' } }), undefined, 'unmodelled minor');
  t.same(resourceListErrors({ cpu: '1mi' }), [`failed to parse quantity "1mi" for "cpu" resource: unable to parse quantity's suffix`]);
});

t.test('MapStringString flag parsing', async (t) => {
  t.same(parseMapStringString([' cpu = 1 ,, memory=2Gi', 'cpu=3']), { ok: true, map: { cpu: '3', memory: '2Gi' } });
  t.same(parseMapStringString(['cpu']), { ok: false, value: 'cpu', error: 'malformed pair, expect string=string' });
  t.same(parseMapStringString(['cpu=a=b']), { ok: true, map: { cpu: 'a=b' } });
});

t.test('before 1.27 run() returns parseResourceList\'s error as it is, and the quantity\'s error unwrapped (v1.26.15; the real kubelet 1.24.17)', async (t) => {
  const f = checkReservedResources(24, { systemReserved: { cpu: 'lots' } })!;
  t.equal(f.kubeletError, `failed to run Kubelet: quantities must match the regular expression ${RE}`);
  t.equal(checkReservedResources(26, { kubeReserved: { gpu: '1' } })!.kubeletError, 'failed to run Kubelet: cannot reserve "gpu" resource');
  t.match(checkReservedResources(27, { systemReserved: { cpu: 'lots' } })!.kubeletError, /^failed to run Kubelet: --system-reserved value failed to parse: failed to parse quantity "lots" for "cpu" resource: /);
});
