/**
 * cpuManagerPolicy as the container manager's cpumanager.NewManager takes it
 * (pkg/kubelet/cm/cpumanager/cpu_manager.go, the same cases 1.24-1.37; called unconditionally
 * from 1.26, behind the CPUManager gate before): "none" passes; any other name than "static" is
 * `unknown policy: "%s"`; "static" needs a CPU reservation: GetNodeAllocatableReservation
 * (pkg/kubelet/cm/node_container_manager_linux.go) keeps only non-zero sums of systemReserved and
 * kubeReserved (reservedSystemCPUs replaces both with its CPU count), so without one it is
 * "[cpumanager] unable to determine reserved CPU resources for static policy". A static policy
 * with a reservation depends on the machine's topology and the policy's checkpoint: not modelled.
 */
import { parseQuantity } from './quantity.js';
import { reservedAfterCpuOverride, type ResourceMap } from './reserved.js';

export type CpuManagerCheck = { readonly ok: true } | { readonly ok: false; readonly error: string } | { readonly undecidable: string };

export function checkCpuManagerPolicy(policy: string, reserved: { kubeReserved?: ResourceMap; systemReserved?: ResourceMap; reservedSystemCPUs?: string }): CpuManagerCheck {
  if (policy === '' || policy === 'none') return { ok: true };
  if (policy !== 'static') return { ok: false, error: `unknown policy: "${policy}"` };
  const { kube, system } = reservedAfterCpuOverride(reserved);
  const signs = [kube?.['cpu'], system?.['cpu']].filter((v): v is string => v !== undefined).map((v) => parseQuantity(v));
  if (signs.some((s) => !s.ok || s.sign < 0)) return { undecidable: 'cpuManagerPolicy static with a CPU reservation node-check cannot add up' };
  if (signs.every((s) => s.ok && s.sign === 0)) return { ok: false, error: '[cpumanager] unable to determine reserved CPU resources for static policy' };
  return { undecidable: 'cpuManagerPolicy static with a CPU reservation: the static policy checks it against the machine\'s CPU topology and its checkpoint (/var/lib/kubelet/cpu_manager_state), which node-check does not model' };
}
