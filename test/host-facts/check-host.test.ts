// Kubelet's host-dependent start checks over synthetic host facts: the exact text per minor,
// kubelet's order, and cannot-tell when a fact was not checked.
import t from 'tap';
import { checkHostPreconditions, defaultsFor, firstFailure, type HostKubeletConfig } from '../../src/host-facts/check-host.js';
import { cgroupV1RuleFor, swapTextFor } from '../../src/host-facts/data.js';
import { isFailure, type PreconditionOutcome } from '../../src/systemd-preconditions/outcome.js';
import type { HostFacts } from '../../src/host-facts/types.js';
import { MODELLED_MINORS, NEXT_MINOR } from '../../src/kubelet/data/minors.js';

const GOOD_SYSCTLS = {
  'vm/overcommit_memory': { value: 1 },
  'vm/panic_on_oom': { value: 0 },
  'kernel/panic': { value: 10 },
  'kernel/panic_on_oops': { value: 1 },
  'kernel/keys/root_maxkeys': { value: 1000000 },
  'kernel/keys/root_maxbytes': { value: 25000000 },
};
const HEALTHY: HostFacts = {
  swaps: { present: true, lines: ['Filename\t\t\t\tType\t\tSize\t\tUsed\t\tPriority'] },
  cgroupVersion: 2,
  sysctls: GOOD_SYSCTLS,
  criSocket: { kind: 'socket', endpoint: 'unix:///run/containerd/containerd.sock', path: '/run/containerd/containerd.sock' },
  onlineCpus: '0-3',
};
const SWAP_LINES = ['Filename\t\t\t\tType\t\tSize\t\tUsed\t\tPriority', '/dev/dm-1                               partition\t16760828\t0\t-2'];

function config(minor: number, overrides: Partial<HostKubeletConfig> = {}): HostKubeletConfig {
  return { ...defaultsFor(minor)!, containerRuntimeEndpoint: 'unix:///run/containerd/containerd.sock', ...overrides };
}
const failures = (o: PreconditionOutcome[]) => o.filter(isFailure);

t.test('a healthy host: nothing for any modelled minor', async (t) => {
  for (const minor of MODELLED_MINORS) t.same(checkHostPreconditions({ minor, config: config(minor), facts: HEALTHY }), [], `1.${minor}`);
});

t.test('minors not modelled are not answered', async (t) => {
  t.match(checkHostPreconditions({ minor: NEXT_MINOR, config: config(36), facts: HEALTHY }), [{ undecidable: /outside the modelled versions/ }]);
  t.equal(defaultsFor(23), undefined);
  t.equal(swapTextFor(NEXT_MINOR), undefined);
  t.equal(cgroupV1RuleFor(NEXT_MINOR), undefined);
});

t.test('swap on with failSwapOn: the old text with /proc/swaps contents up to 1.30, the new one from 1.31', async (t) => {
  const facts = { ...HEALTHY, swaps: { present: true as const, lines: SWAP_LINES } };
  const old = firstFailure(checkHostPreconditions({ minor: 28, config: config(28), facts }));
  t.equal(old?.kubeletError, `failed to run Kubelet: running with swap on is not supported, please disable swap! or set --fail-swap-on flag to false. /proc/swaps contained: [${SWAP_LINES[0]} ${SWAP_LINES[1]}]`);
  t.equal(old?.inexact, undefined);
  t.equal(old?.exitStatus, 1);
  const newest = firstFailure(checkHostPreconditions({ minor: 36, config: config(36), facts }));
  t.equal(newest?.kubeletError, 'failed to run Kubelet: running with swap on is not supported, please disable swap or set --fail-swap-on flag to false');
  t.equal(newest?.inexact, undefined);
  t.equal(firstFailure(checkHostPreconditions({ minor: 30, config: config(30), facts }))?.kubeletError, old?.kubeletError, '1.30 still prints the contents');
  t.equal(firstFailure(checkHostPreconditions({ minor: 31, config: config(31), facts }))?.inexact, true, '1.31-1.34: the "!" is not pinned');
  t.same(checkHostPreconditions({ minor: 28, config: config(28, { failSwapOn: false }), facts }), [], 'failSwapOn: false starts');
  t.same(checkHostPreconditions({ minor: 28, config: config(28), facts: { ...HEALTHY, swaps: { present: false } } }), [], 'no /proc/swaps means no swap');
});

t.test('cgroup v1: only from 1.31, only with failCgroupV1 (default true from 1.35)', async (t) => {
  const facts = { ...HEALTHY, cgroupVersion: 1 as const };
  t.same(checkHostPreconditions({ minor: 30, config: config(30), facts }), [], '1.30 has no failCgroupV1');
  t.same(checkHostPreconditions({ minor: 34, config: config(34), facts }), [], '1.34 defaults to false');
  const opted = firstFailure(checkHostPreconditions({ minor: 33, config: config(33, { failCgroupV1: true }), facts }));
  t.equal(opted?.kubeletError, 'failed to validate kubelet configuration, error: kubelet is configured to not run on a host using cgroup v1. cgroup v1 support is in maintenance mode');
  t.equal(opted?.findingId, 'host-cgroup-v1');
  const byDefault = firstFailure(checkHostPreconditions({ minor: 35, config: config(35), facts }));
  t.equal(byDefault?.kubeletError, 'failed to validate kubelet configuration, error: kubelet is configured to not run on a host using cgroup v1. cgroup v1 support is unsupported and will be removed in a future release');
  t.same(checkHostPreconditions({ minor: 35, config: config(35, { failCgroupV1: false }), facts }), []);
});

t.test('protectKernelDefaults: one wrong sysctl is exact, several are in Go map order (inexact)', async (t) => {
  const one = { ...HEALTHY, sysctls: { ...GOOD_SYSCTLS, 'kernel/panic': { value: 0 } } };
  const f = firstFailure(checkHostPreconditions({ minor: 30, config: config(30, { protectKernelDefaults: true }), facts: one }));
  t.equal(f?.kubeletError, 'invalid kernel flag: kernel/panic, expected value: 10, actual value: 0');
  t.equal(f?.inexact, undefined);
  t.match(f?.message, /Failed to start ContainerManager/);
  const two = { ...HEALTHY, sysctls: { ...GOOD_SYSCTLS, 'kernel/panic': { value: 0 }, 'kernel/keys/root_maxkeys': { error: 'open /proc/sys/kernel/keys/root_maxkeys: no such file or directory' } } };
  const g = firstFailure(checkHostPreconditions({ minor: 30, config: config(30, { protectKernelDefaults: true }), facts: two }));
  t.equal(g?.kubeletError, '[invalid kernel flag: kernel/panic, expected value: 10, actual value: 0, open /proc/sys/kernel/keys/root_maxkeys: no such file or directory]');
  t.equal(g?.inexact, true);
  t.same(checkHostPreconditions({ minor: 30, config: config(30), facts: one }), [], 'without protectKernelDefaults kubelet sets them itself');
});

t.test('the CRI socket: missing is a likely failure, marked inexact; 1.27+ has the full prefix', async (t) => {
  const facts = { ...HEALTHY, criSocket: { kind: 'missing' as const, endpoint: '/var/run/crio/crio.sock', path: '/var/run/crio/crio.sock' } };
  const f = firstFailure(checkHostPreconditions({ minor: 29, config: config(29, { containerRuntimeEndpoint: '/var/run/crio/crio.sock' }), facts }));
  t.equal(
    f?.kubeletError,
    'failed to run Kubelet: validate service connection: validate CRI v1 runtime API for endpoint "/var/run/crio/crio.sock": rpc error: code = Unavailable desc = connection error: desc = "transport: Error while dialing: dial unix /var/run/crio/crio.sock: connect: no such file or directory"',
  );
  t.equal(f?.inexact, true);
  t.match(f?.message, /fixes itself/);
  const old = firstFailure(checkHostPreconditions({ minor: 26, config: config(26), facts }));
  t.match(old?.kubeletError, /^rpc error: code = Unavailable/, 'before 1.27 only the gRPC part is claimed');
  t.same(checkHostPreconditions({ minor: 29, config: config(29), facts: { ...HEALTHY, criSocket: { kind: 'not-unix', endpoint: 'tcp://x:1' } } }), []);
});

t.test('reserved CPUs must be online; the online set is printed in cpuset form', async (t) => {
  const f = firstFailure(checkHostPreconditions({ minor: 32, config: config(32, { reservedSystemCPUs: '1,2' }), facts: { ...HEALTHY, onlineCpus: '0-1' } }));
  t.equal(f?.kubeletError, 'failed to run Kubelet: reserved-cpus: 1,2 is not a subset of online-cpus: 0-1');
  t.same(checkHostPreconditions({ minor: 32, config: config(32, { reservedSystemCPUs: '0,3' }), facts: HEALTHY }), []);
  t.match(checkHostPreconditions({ minor: 32, config: config(32, { reservedSystemCPUs: '0, 1' }), facts: HEALTHY }), [{ undecidable: /does not parse/ }]);
});

t.test("kubelet's order: cgroup v1, CRI, reserved CPUs, swap, kernel tunables", async (t) => {
  const broken: HostFacts = {
    swaps: { present: true, lines: SWAP_LINES },
    cgroupVersion: 1,
    sysctls: { ...GOOD_SYSCTLS, 'vm/overcommit_memory': { value: 0 } },
    criSocket: { kind: 'missing', endpoint: 'unix:///run/containerd/containerd.sock', path: '/run/containerd/containerd.sock' },
    onlineCpus: '0',
  };
  const outcomes = checkHostPreconditions({ minor: 35, config: config(35, { protectKernelDefaults: true, reservedSystemCPUs: '3' }), facts: broken });
  t.same(failures(outcomes).map((f) => f.findingId), ['host-cgroup-v1', 'host-cri-socket-missing', 'host-reserved-cpus-offline', 'host-swap-on', 'host-kernel-tunables']);
  t.equal(firstFailure(outcomes)?.findingId, 'host-cgroup-v1');
});

t.test('facts that were not checked give cannot-tell, never a pass', async (t) => {
  const outcomes = checkHostPreconditions({ minor: 35, config: config(35, { protectKernelDefaults: true, reservedSystemCPUs: '0' }), facts: {} });
  t.equal(failures(outcomes).length, 0);
  t.same(outcomes.map((o) => ('undecidable' in o ? o.findingId : 'failure')), ['host-cgroup-v1', 'host-cri-socket-missing', 'host-reserved-cpus-offline', 'host-swap-on', 'host-kernel-tunables']);
});

