/**
 * Swap with failSwapOn: NewContainerManager's first host check (pkg/kubelet/cm/container_manager_linux.go,
 * called from run()). The decision and its per-minor words are src/host-facts/check-host.ts and
 * data.ts; /proc/swaps is a host fact, read on the live root only.
 */
import type { FindingKind } from '../../catalog/findings.js';
import { HOST_FINDING } from '../../host-facts/check-host.js';
import { hostVerdict } from '../host-verdict.js';
import { type Rule } from '../rule.js';

const KINDS = [
  {
    id: 'host-swap-on',
    title: 'Swap is on and failSwapOn is true',
    severity: 'error',
    versions: 'all (message changes in newer minors)',
    messageId: '53890f67f4ee4749bd4ce8244d003dd0',
    meaning:
      'With failSwapOn (the default) kubelet refuses a host with active swap: "failed to run Kubelet: running with swap on is not supported, please disable swap! or set --fail-swap-on flag to false. /proc/swaps contained: [...]" (up to 1.30; 1.31+ without the contents, 1.35+: "... please disable swap or set --fail-swap-on flag to false"), exit status 1.',
    fix: 'swapoff -a and remove the swap from /etc/fstab (or zram), or set failSwapOn: false (and memorySwap.swapBehavior on 1.28+).',
  },
] as const satisfies readonly FindingKind[];

export const swapRule: Rule<typeof KINDS> = {
  id: 'run/swap',
  step: 'run:container-manager',
  kinds: KINDS,
  inputs: { fields: { failSwapOn: 'the container manager swap check (live root)' } },
  hostFacts: ['swaps'],
  decide: (context) => hostVerdict(context, HOST_FINDING.swap, 'swaps'),
};
