// evaluateNodeSetup: every offline Run() failure for one minor, in kubelet's step order, each tagged
// with the start step it belongs to (cloud init in run(), reserved maps, --node-ip, NewMainKubelet).
import t from 'tap';
import { evaluateNodeSetup } from '../../../src/kubelet/node-setup/index.js';
import { NEXT_MINOR } from '../../../src/kubelet/data/minors.js';

const off = () => false;
const on = () => true;

t.test('nothing set: no failures; a minor not modelled: undefined', async (t) => {
  t.same(evaluateNodeSetup(30, {}, off), []);
  t.equal(evaluateNodeSetup(NEXT_MINOR, { cloudProvider: 'foo' }, off), undefined);
  t.equal(evaluateNodeSetup(23, {}, off), undefined);
});

t.test('1.28: cloud init, then the reserved maps, then --node-ip', async (t) => {
  const out = evaluateNodeSetup(28, { cloudProvider: 'foo', kubeReserved: { gpu: '1' }, nodeIP: '10.0.0.1,10.0.0.2', reservedPath: '/etc/kubernetes/kubelet.conf' }, off)!;
  t.same(out.map((o) => o.step), ['run:cloud-init', 'run:kube-reserved', 'run:node-ip']);
  t.match(out[0]!.result, { findingId: 'cloud-provider-unknown', kubeletError: 'failed to run Kubelet: unknown cloud provider "foo"' });
  t.match(out[1]!.result, { findingId: 'kube-reserved-unparsable', kubeletError: 'failed to run Kubelet: --kube-reserved value failed to parse: cannot reserve "gpu" resource', path: '/etc/kubernetes/kubelet.conf' });
  t.match(out[2]!.result, { kubeletError: 'failed to run Kubelet: bad --node-ip "10.0.0.1,10.0.0.2": must contain either a single IP or a dual-stack pair of IPs' });
});

t.test('systemReserved is parsed after kubeReserved; --reserved-cpus overrides the cpu entries first', async (t) => {
  const out = evaluateNodeSetup(30, { systemReserved: { memory: '-1Gi' } }, off)!;
  t.same(out.map((o) => o.step), ['run:system-reserved']);
  t.match(out[0]!.result, { findingId: 'system-reserved-unparsable', kubeletError: 'failed to run Kubelet: --system-reserved value failed to parse: resource quantity for "memory" cannot be negative: -1Gi' });
  t.same(evaluateNodeSetup(30, { kubeReserved: { cpu: 'abc' }, systemReserved: { cpu: 'abc' }, reservedSystemCPUs: '0-1' }, off), [], 'the bad cpu quantities are never parsed');
});

t.test('NewMainKubelet\'s disabled-provider check comes after --node-ip', async (t) => {
  const out = evaluateNodeSetup(29, { cloudProvider: 'gce', nodeIP: '10.0.0.1,10.0.0.2' }, on)!;
  t.same(out.map((o) => o.step), ['run:node-ip', 'run:create-kubelet']);
  t.match(out[1]!.result, { findingId: 'cloud-provider-disabled', kubeletError: 'failed to run Kubelet: failed to create kubelet: cloud provider "gce" was specified, but built-in cloud providers are disabled. Please set --cloud-provider=external and migrate to an external cloud provider' });
  const undecided = evaluateNodeSetup(29, { cloudProvider: 'gce' }, off)!;
  t.same(undecided.map((o) => o.step), ['run:cloud-init'], 'an in-tree provider with the gate off initialises against the cloud');
  t.ok('undecidable' in undecided[0]!.result);
});

t.test('--cloud-config is opened first (klog.Fatalf, status 255)', async (t) => {
  const out = evaluateNodeSetup(28, { cloudProvider: 'gce', cloudConfigFile: '/etc/kubernetes/cloud.conf', cloudConfigOpens: false }, off)!;
  t.match(out[0]!.result, { findingId: 'cloud-config-unopenable', exitStatus: 255, path: '/etc/kubernetes/cloud.conf' });
  t.match((out[0]!.result as { kubeletError: string }).kubeletError, /^Couldn't open cloud provider configuration \/etc\/kubernetes\/cloud\.conf: /);
  t.ok('undecidable' in evaluateNodeSetup(28, { cloudProvider: 'gce', cloudConfigFile: '/etc/kubernetes/cloud.conf' }, off)![0]!.result, 'whether it opens is a host fact');
});

t.test('OpenShift 1.24-1.30: an in-tree provider name is not decided', async (t) => {
  const out = evaluateNodeSetup(28, { cloudProvider: 'azure' }, off, 'openshift')!;
  t.ok('undecidable' in out[0]!.result);
  t.same(evaluateNodeSetup(28, { cloudProvider: 'external' }, off, 'openshift'), []);
});
