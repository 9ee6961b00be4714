/**
 * Ahead of the next upgrade: what the next modelled kubelet minors would refuse in this node's
 * configuration, as warnings naming the minor. Kubelet may be up to three minors older than the
 * API server (kubernetes.io version skew policy, 1.28+), so an upgrade can jump that far: the next
 * three modelled minors are replayed with the same node (src/start/), and every flag on the command
 * line that one of them no longer registers is named (pflag stops at the first; an admin needs
 * them all). Never changes the answer: only the known minor's rules decide. Not on preflight
 * (EvaluateOptions.upgradeWarnings: it answers for the kubelet starting now). Not for OpenShift's
 * kubelet: there an upgrade brings the kubelet together with the machine-config operator's new
 * rendered configuration, which `check --machine-config` replays (docs/runbooks/before-upgrade-openshift.md). Pure.
 */
import type { Finding } from '../model/findings.js';
import type { NodeModel } from '../model/node.js';
import type { KubeletFlavor } from '../kubelet/flavor.js';
import { describeMinors, MODELLED_MINORS, requireTraits } from '../kubelet/version.js';
import { flavorFlagTable, normalizeKubeletFlagName, shorthandFlag, type FlagSpec } from '../kubelet/command-line/flag-table.js';
import { StartContext } from '../start/start-context.js';
import { simulateStart } from '../start/simulate-start.js';
import { START_SEQUENCE } from '../start/start-sequence.js';
import { flagOrigin } from '../start/argument-origin.js';

export const NEXT_MINORS_FINDING = 'newer-kubelet-refuses';
/** How many minors ahead: the kubelet–API server skew an upgrade may jump. */
export const MINORS_AHEAD = 3;

interface Refusal {
  readonly key: string;
  readonly minor: number;
  readonly message: string;
  readonly remediation: string;
  readonly path?: string;
}

/**
 * Warnings for the minors after `minor`; `nowFailing` are the errors of the known minor, which a
 * warning does not repeat (the same id and path: already fatal now).
 */
export function nextMinorWarnings(model: NodeModel, minor: number, flavor: KubeletFlavor, nowFailing: readonly Finding[]): Finding[] {
  const ahead = MODELLED_MINORS.filter((m) => m > minor && m <= minor + MINORS_AHEAD);
  if (ahead.length === 0 || !model.kubelet || flavor === 'openshift') return [];
  const current = flavorFlagTable(minor, flavor)?.table;
  const refusals: Refusal[] = [];
  for (const next of ahead) {
    const removed = current ? removedFlags(model, current, next, flavor) : [];
    refusals.push(...removed);
    const simulation = simulateStart(new StartContext(model, next, requireTraits(next), flavor), START_SEQUENCE);
    const failure = simulation.failure;
    if (!failure) continue;
    // An unknown flag is named above with every other removed one.
    if (failure.findingId === 'kubelet-flag-unknown' && removed.length > 0) continue;
    if (nowFailing.some((f) => f.id === failure.findingId && f.path === failure.path)) continue;
    refusals.push({
      key: `${failure.findingId}\u0000${failure.path ?? ''}`,
      minor: next,
      message: `${failure.findingId}: ${failure.message}`,
      remediation: failure.remediation,
      ...(failure.path ? { path: failure.path } : {}),
    });
  }
  // One warning per cause, told as the first minor that refuses it says it, naming every minor that does.
  const byKey = new Map<string, { first: Refusal; minors: number[] }>();
  for (const refusal of refusals) {
    const entry = byKey.get(refusal.key) ?? { first: refusal, minors: [] };
    entry.minors.push(refusal.minor);
    byKey.set(refusal.key, entry);
  }
  return [...byKey.values()].map(({ first, minors }) => ({
    id: NEXT_MINORS_FINDING,
    severity: 'warning' as const,
    message: `Kubelet ${describeMinors(minors)} will not start with this: ${first.message}`,
    remediation: `Before upgrading kubelet to 1.${first.minor}: ${first.remediation}`,
    ...(first.path ? { path: first.path } : {}),
  }));
}

/** Flags on the command line that this minor registers and kubelet 1.`next` does not. */
function removedFlags(model: NodeModel, current: ReadonlyMap<string, FlagSpec>, next: number, flavor: KubeletFlavor): Refusal[] {
  const table = flavorFlagTable(next, flavor)?.table;
  if (!table) return [];
  const known = (t: ReadonlyMap<string, FlagSpec>, name: string) => t.has(name) || (name.length === 1 && shorthandFlag(t, name) !== undefined);
  const out: Refusal[] = [];
  for (const written of model.kubelet?.flags.occurrences.keys() ?? []) {
    const name = normalizeKubeletFlagName(written);
    if (!known(current, name) || known(table, name)) continue;
    const origin = flagOrigin(model, written);
    out.push({
      key: `flag\u0000${name}`,
      minor: next,
      message: `kubelet 1.${next} has no --${name} flag and exits at start: "failed to parse kubelet flag: unknown flag: --${name}"${origin ? ` (--${name} comes from ${origin.sentence})` : ''}`,
      remediation: `remove --${name} from kubelet's command line${origin ? ` (${origin.path})` : ''}, or move its setting into the --config file where it has a KubeletConfiguration field.`,
      ...(origin ? { path: origin.path } : {}),
    });
  }
  return out;
}
