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
  type GateRow,
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

const cache = new Map<number, MinorGates>();

/** Gates certainly registered at `minor` with their spec there; undefined outside 1.24..1.36. */
export function gatesFor(minor: number): ReadonlyMap<string, GateSpec> | undefined {
  if (!Number.isInteger(minor) || minor < FIRST_MINOR || minor > LAST_MINOR) return undefined;
  let gates = cache.get(minor);
  if (!gates) {
    gates = new MinorGates(minor);
    cache.set(minor, gates);
  }
  return gates;
}

/** A gate's spec at `minor`, or undefined when it is not certainly registered there. */
function specAt(minor: number, name: string): GateSpec | undefined {
  if ((SPECIAL_GATES as readonly string[]).includes(name)) return { default: false, preRelease: 'Alpha', lockToDefault: false, verified: true };
  const history = Object.hasOwn(GATE_HISTORY, name) ? GATE_HISTORY[name] : undefined;
  let row: GateRow | undefined;
  for (const candidate of history?.rows ?? []) {
    if (candidate[0] <= minor && minor <= candidate[1]) {
      row = candidate;
      break;
    }
  }
  if (!row) return undefined;
  const [, , def, stage, locked, verified] = row;
  const known = def !== -1 && stage !== '?';
  const dependencies = (GATE_DEPENDENCIES[minor] ?? (minor > 35 ? GATE_DEPENDENCIES[35] : undefined))?.[name];
  return {
    default: def === 1,
    preRelease: known ? (stage as PreRelease) : 'GA',
    lockToDefault: locked === 1,
    ...(dependencies ? { dependencies } : {}),
    verified: known && verified === 1,
  };
}

/**
 * One minor's gates, each built when first looked up: a start looks up the few gates its flags
 * and config name, and `check` does so for thirteen minors of ~420 gates each (issue 12). Walking
 * them (size, iteration: the dependency checks of 1.35+) builds them all, in table order.
 */
class MinorGates implements ReadonlyMap<string, GateSpec> {
  private readonly looked = new Map<string, GateSpec | undefined>();
  private all: Map<string, GateSpec> | undefined;

  constructor(private readonly minor: number) {}

  get(name: string): GateSpec | undefined {
    if (this.all) return this.all.get(name);
    if (!this.looked.has(name)) this.looked.set(name, specAt(this.minor, name));
    return this.looked.get(name);
  }

  has(name: string): boolean {
    return this.get(name) !== undefined;
  }

  private every(): Map<string, GateSpec> {
    if (!this.all) {
      const all = new Map<string, GateSpec>();
      for (const name of [...SPECIAL_GATES, ...Object.keys(GATE_HISTORY)]) {
        const spec = this.get(name);
        if (spec) all.set(name, spec);
      }
      this.all = all;
    }
    return this.all;
  }

  get size(): number {
    return this.every().size;
  }

  forEach(callback: (value: GateSpec, key: string, map: ReadonlyMap<string, GateSpec>) => void, thisArg?: unknown): void {
    this.every().forEach((value, key) => callback.call(thisArg, value, key, this));
  }

  entries(): MapIterator<[string, GateSpec]> {
    return this.every().entries();
  }

  keys(): MapIterator<string> {
    return this.every().keys();
  }

  values(): MapIterator<GateSpec> {
    return this.every().values();
  }

  [Symbol.iterator](): MapIterator<[string, GateSpec]> {
    return this.every()[Symbol.iterator]();
  }
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
