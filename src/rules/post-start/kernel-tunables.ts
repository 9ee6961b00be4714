/**
 * protectKernelDefaults: after "Started kubelet" the container manager's Start checks the kernel
 * tunables it would otherwise set (pkg/kubelet/cm/container_manager_linux.go setupNode) and
 * kubelet exits; not a "command failed" line. The decision is src/host-facts/check-host.ts; the
 * sysctls are a host fact, read on the live root only.
 */
import type { FindingKind } from '../../catalog/findings.js';
import { HOST_FINDING } from '../../host-facts/check-host.js';
import { hostVerdict } from '../host-verdict.js';
import { type Rule } from '../rule.js';

const KINDS = [
  {
    id: 'host-kernel-tunables',
    title: 'Kernel tunables differ from what kubelet requires with protectKernelDefaults',
    severity: 'error',
    versions: 'all',
    messageId: '9df5df822fa14806b73ff63f9595eb14',
    meaning:
      'With protectKernelDefaults: true (OpenShift sets it) kubelet does not set vm.overcommit_memory=1, vm.panic_on_oom=0, kernel.panic=10, kernel.panic_on_oops=1, kernel.keys.root_maxkeys=1000000, kernel.keys.root_maxbytes=25000000 but requires them: a few seconds after "Started kubelet" it logs "Failed to start ContainerManager" err="invalid kernel flag: kernel/panic, expected value: 10, actual value: 0" and exits with status 1.',
    fix: 'Ship the sysctls in /etc/sysctl.d/ and run sysctl --system (OpenShift: the MCO drop-in), or set protectKernelDefaults: false.',
  },
] as const satisfies readonly FindingKind[];

export const kernelTunablesRule: Rule<typeof KINDS> = {
  id: 'post-start/kernel-tunables',
  step: 'post-start',
  kinds: KINDS,
  inputs: { fields: { protectKernelDefaults: 'the container manager kernel tunables (live root, after start)' } },
  hostFacts: ['sysctls'],
  decide: (context) => hostVerdict(context, HOST_FINDING.kernelTunables, 'sysctls', true),
};
