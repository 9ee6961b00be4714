/**
 * Kubelet's registered feature gates per minor (1.24..1.36), from src/kubelet/data/feature-gates.generated.ts.
 * AllAlpha/AllBeta are component-base's special gates (featuregate/feature_gate.go: Alpha, default false, in
 * every version); they are always known.
 */
import {
  GATE_DEPENDENCIES,
  GATE_DEPENDENCIES_VERIFIED,
  GATE_HISTORY,
  GATE_TABLE_COMPLETE,
} from '../data/feature-gates.generated.js';

export type PreRelease = 'PreAlpha' | 'Alpha' | 'Beta' | 'GA' | 'Deprecated';
export interface GateSpec {
  readonly default: boolean;
  readonly preRelease: PreRelease;
  readonly lockToDefault: boolean;
  readonly dependencies?: readonly string[];
  /** false when default/stage/lock come from backfilled history (1.24-1.30), from a snapshot older than the
   * minor, or were not read: a verdict that depends on them is not certain. */
  readonly verified: boolean;
}

export const FIRST_MINOR = 24;
export const LAST_MINOR = 36;
export const SPECIAL_GATES = ['AllAlpha', 'AllBeta'] as const;

const cache = new Map<number, Map<string, GateSpec>>();

/** Gates certainly registered at `minor` with their spec there; undefined outside 1.24..1.36. */
export function gatesFor(minor: number): ReadonlyMap<string, GateSpec> | undefined {
  if (!Number.isInteger(minor) || minor < FIRST_MINOR || minor > LAST_MINOR) return undefined;
  const hit = cache.get(minor);
  if (hit) return hit;
  const deps = GATE_DEPENDENCIES[minor] ?? (minor > 35 ? GATE_DEPENDENCIES[35] : undefined);
  const map = new Map<string, GateSpec>();
  for (const special of SPECIAL_GATES) map.set(special, { default: false, preRelease: 'Alpha', lockToDefault: false, verified: true });
  for (const name in GATE_HISTORY) {
    // A plain loop: this runs for every gate of every minor `check` evaluates (issue 12).
    let row: (typeof GATE_HISTORY)[string]['rows'][number] | undefined;
    for (const candidate of GATE_HISTORY[name]!.rows) {
      if (candidate[0] <= minor && minor <= candidate[1]) {
        row = candidate;
        break;
      }
    }
    if (!row) continue;
    const [, , def, stage, locked, verified] = row;
    const known = def !== -1 && stage !== '?';
    const dependencies = deps?.[name];
    map.set(name, {
      default: def === 1,
      preRelease: known ? (stage as PreRelease) : 'GA',
      lockToDefault: locked === 1,
      ...(dependencies ? { dependencies } : {}),
      verified: known && verified === 1,
    });
  }
  cache.set(minor, map);
  return map;
}

/** Whether every gate registered at `minor` is in gatesFor(minor) or reported by gateMembership as uncertain. */
export function gateTableComplete(minor: number): boolean {
  return GATE_TABLE_COMPLETE.includes(minor);
}

/** Whether the dependency lists of `minor` were read from that minor's source (only 1.35). */
export function gateDependenciesVerified(minor: number): boolean {
  return GATE_DEPENDENCIES_VERIFIED.includes(minor);
}

/**
 * 'known' (registered: gatesFor(minor) has it), 'absent' (certainly not registered) or 'uncertain'.
 */
/**
 * For a gate whose registration at `minor` is uncertain: the default it is certainly locked to if it is still
 * registered (locks are terminal), else undefined.
 */
export function lockedIfRegistered(minor: number, name: string): boolean | undefined {
  const hit = GATE_HISTORY[name]?.lockedIfPresent?.find(([m]) => m === minor);
  return hit ? hit[1] === 1 : undefined;
}

export function gateMembership(minor: number, name: string): 'known' | 'absent' | 'uncertain' {
  const gates = gatesFor(minor);
  if (!gates) return 'uncertain';
  if (gates.has(name)) return 'known';
  const history = GATE_HISTORY[name];
  if (history?.uncertain?.includes(minor)) return 'uncertain';
  if (history?.absent?.includes(minor)) return 'absent';
  return gateTableComplete(minor) ? 'absent' : 'uncertain';
}
