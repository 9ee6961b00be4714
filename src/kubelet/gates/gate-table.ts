/**
 * Kubelet's registered feature gates per modelled minor (./data/minors.ts) and flavour: upstream's from
 * src/kubelet/data/feature-gates.generated.ts (read from kubelet's source at each minor's tag),
 * OpenShift's from upstream's with the fork's differences applied
 * (src/kubelet/data/openshift-feature-gates.generated.ts, read from MicroShift's vendored fork).
 * AllAlpha/AllBeta are component-base's special gates (featuregate/feature_gate.go: Alpha, default
 * false, in every version); they are always known.
 */
import { GATE_HISTORY, type GateRow } from '../data/feature-gates.generated.js';
import { OPENSHIFT_KUBELETS, type OpenShiftKubelet } from '../data/openshift-feature-gates.generated.js';
import { isModelledMinor } from '../data/minors.js';
import type { KubeletFlavor } from '../flavor.js';

export type PreRelease = 'PreAlpha' | 'Alpha' | 'Beta' | 'GA' | 'Deprecated';
export interface GateSpec {
  readonly default: boolean;
  readonly preRelease: PreRelease;
  readonly lockToDefault: boolean;
  /** The gates this one needs enabled (component-base AddDependencies, 1.35+), sorted. */
  readonly dependencies?: readonly string[];
}

export const SPECIAL_GATES = ['AllAlpha', 'AllBeta'] as const;

const SPECIAL_SPEC: GateSpec = { default: false, preRelease: 'Alpha', lockToDefault: false };
const cache = new Map<string, MinorGates>();

/**
 * The OpenShift kubelet fork of `minor` as read from MicroShift (unknown-gate and node-label
 * carries, gate differences), or undefined when no OpenShift release with that kubelet was read.
 */
export function openshiftKubelet(minor: number): OpenShiftKubelet | undefined {
  return Object.hasOwn(OPENSHIFT_KUBELETS, minor) ? OPENSHIFT_KUBELETS[minor] : undefined;
}

/**
 * The gates kubelet `minor` of `flavor` registers, with their spec there; undefined outside
 * the modelled minors, and for OpenShift's kubelet of a minor whose fork was not read.
 */
export function gatesFor(minor: number, flavor: KubeletFlavor = 'upstream'): ReadonlyMap<string, GateSpec> | undefined {
  if (!isModelledMinor(minor)) return undefined;
  if (flavor === 'openshift' && !openshiftKubelet(minor)) return undefined;
  const key = `${flavor} ${minor}`;
  let gates = cache.get(key);
  if (!gates) {
    gates = new MinorGates(minor, flavor === 'openshift' ? openshiftKubelet(minor) : undefined);
    cache.set(key, gates);
  }
  return gates;
}

function specOfRow([, , def, stage, locked, dependencies]: readonly [unknown, unknown, number, string, number, (readonly string[])?]): GateSpec {
  return { default: def === 1, preRelease: stage as PreRelease, lockToDefault: locked === 1, ...(dependencies ? { dependencies } : {}) };
}

/** Upstream's spec of a gate at `minor`, or undefined when upstream's kubelet does not register it. */
function upstreamSpec(minor: number, name: string): GateSpec | undefined {
  const rows: readonly GateRow[] = Object.hasOwn(GATE_HISTORY, name) ? GATE_HISTORY[name]! : [];
  const row = rows.find(([from, to]) => from <= minor && minor <= to);
  return row ? specOfRow(row) : undefined;
}

function specAt(minor: number, name: string, fork: OpenShiftKubelet | undefined): GateSpec | undefined {
  if ((SPECIAL_GATES as readonly string[]).includes(name)) return SPECIAL_SPEC;
  if (fork && Object.hasOwn(fork.gates, name)) {
    const row = fork.gates[name];
    return row ? specOfRow([0, 0, ...row]) : undefined;
  }
  return upstreamSpec(minor, name);
}

/**
 * One minor's gates, each built when first looked up: a start looks up the few gates its flags
 * and config name, and `check` does so for thirteen minors of ~250 gates each. Walking them
 * (size, iteration: the dependency checks of 1.35+) builds them all, in table order.
 */
class MinorGates implements ReadonlyMap<string, GateSpec> {
  private readonly looked = new Map<string, GateSpec | undefined>();
  private all: Map<string, GateSpec> | undefined;

  constructor(
    private readonly minor: number,
    private readonly fork: OpenShiftKubelet | undefined,
  ) {}

  get(name: string): GateSpec | undefined {
    if (this.all) return this.all.get(name);
    if (!this.looked.has(name)) this.looked.set(name, specAt(this.minor, name, this.fork));
    return this.looked.get(name);
  }

  has(name: string): boolean {
    return this.get(name) !== undefined;
  }

  private every(): Map<string, GateSpec> {
    if (!this.all) {
      const all = new Map<string, GateSpec>();
      const names = new Set([...SPECIAL_GATES, ...Object.keys(GATE_HISTORY), ...Object.keys(this.fork?.gates ?? {})]);
      for (const name of names) {
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
