/**
 * cpuManagerPolicy as the container manager's cpumanager.NewManager takes it
 * (pkg/kubelet/cm/cpumanager/cpu_manager.go, the same cases 1.24-1.37; called unconditionally
 * from 1.26, behind the CPUManager gate before), after its host checks (swap, cgroup root): last
 * in run:container-manager. "none" passes; any other name than "static" is `unknown policy:
 * "%s"`; "static" needs a CPU reservation: GetNodeAllocatableReservation
 * (pkg/kubelet/cm/node_container_manager_linux.go) keeps only non-zero sums of systemReserved and
 * kubeReserved (reservedSystemCPUs replaces both with its CPU count), so without one it is
 * "[cpumanager] unable to determine reserved CPU resources for static policy". A static policy
 * with a reservation depends on the machine's topology and the policy's checkpoint: not modelled.
 */
import type { FindingKind } from '../../catalog/findings.js';
import { MODELLED_RANGE } from '../../kubelet/data/minors.js';
import { reservedAfterCpuOverride, type ResourceMap } from '../../kubelet/node-setup/reserved.js';
import { parseQuantity } from '../../kubernetes/quantity.js';
import { cannotTell, PASS, type GoAnswer } from '../../model/verdict.js';
import { atConfig, runFails, type Rule } from '../rule.js';

const KINDS = [
  {
    id: 'kubelet-cpu-manager-policy-invalid',
    title: 'cpuManagerPolicy (--cpu-manager-policy) is unknown, or static without a CPU reservation',
    severity: 'error',
    versions: `all (${MODELLED_RANGE}; 1.24-1.25 with the CPUManager gate on)`,
    messageId: '9c41e6a0b3d24f7e8a15c2d90e7b4f63',
    meaning:
      'The container manager creates the CPU manager before "Started kubelet". A policy other than none or static exits with status 1 ("failed to run Kubelet: unknown policy: \\"x\\""); static without systemReserved.cpu, kubeReserved.cpu or reservedSystemCPUs exits with "[cpumanager] unable to determine reserved CPU resources for static policy".',
    fix: 'Set cpuManagerPolicy to none, or to static with a CPU reservation (kubeReserved.cpu, systemReserved.cpu or reservedSystemCPUs).',
  },
] as const satisfies readonly FindingKind[];

export function checkCpuManagerPolicy(policy: string, reserved: { kubeReserved?: ResourceMap; systemReserved?: ResourceMap; reservedSystemCPUs?: string }): GoAnswer {
  if (policy === '' || policy === 'none') return { ok: true };
  if (policy !== 'static') return { ok: false, error: `unknown policy: "${policy}"` };
  const { kube, system } = reservedAfterCpuOverride(reserved);
  const signs = [kube?.['cpu'], system?.['cpu']].filter((v): v is string => v !== undefined).map((v) => parseQuantity(v));
  if (signs.some((s) => !s.ok || s.sign < 0)) return { undecidable: 'cpuManagerPolicy static with a CPU reservation node-check cannot add up' };
  if (signs.every((s) => s.ok && s.sign === 0)) return { ok: false, error: '[cpumanager] unable to determine reserved CPU resources for static policy' };
  return { undecidable: 'cpuManagerPolicy static with a CPU reservation: the static policy checks it against the machine\'s CPU topology and its checkpoint (/var/lib/kubelet/cpu_manager_state), which node-check does not model' };
}

export const cpuManagerRule: Rule<typeof KINDS> = {
  id: 'run/cpu-manager',
  step: 'run:container-manager',
  kinds: KINDS,
  inputs: { fields: { cpuManagerPolicy: 'the container manager\'s cpumanager.NewManager (kubelet-cpu-manager-policy-invalid); static with a CPU reservation: undecided' } },
  decide(context) {
    if (context.minor < 26 && !context.gateEnabled('CPUManager')) return PASS;
    const policy = context.configString('cpuManagerPolicy') ?? '';
    const kubeReserved = context.configMap('kubeReserved');
    const systemReserved = context.configMap('systemReserved');
    const reservedSystemCPUs = context.configString('reservedSystemCPUs');
    const cpu = checkCpuManagerPolicy(policy, {
      ...(kubeReserved ? { kubeReserved } : {}),
      ...(systemReserved ? { systemReserved } : {}),
      ...(reservedSystemCPUs !== undefined ? { reservedSystemCPUs } : {}),
    });
    if ('undecidable' in cpu) return cannotTell(cpu.undecidable, context.configPath);
    if (cpu.ok) return PASS;
    return runFails(context, cpu.error, {
      findingId: 'kubelet-cpu-manager-policy-invalid',
      message: `Kubelet 1.${context.minor} cannot create its CPU manager (cpuManagerPolicy ${JSON.stringify(policy)}, --cpu-manager-policy): ${cpu.error}.`,
      remediation: policy === 'static' ? 'Reserve CPUs for the static policy (kubeReserved.cpu or systemReserved.cpu, or reservedSystemCPUs), or set cpuManagerPolicy: none.' : 'Set cpuManagerPolicy to none or static.',
      ...atConfig(context),
    });
  },
};
