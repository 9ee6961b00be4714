/**
 * Emulates component-base featureGate.SetFromMap as kubelet calls it (cmd/kubelet/app/server.go: once with the
 * flag-based config's featureGates, again after --config/--config-dir are merged). Pure.
 *
 * Source: kubernetes/component-base featuregate/feature_gate.go at v0.24.0..v0.36.0 (on disk, read with git show):
 * - v0.24..v0.30 (kubelet 1.24-1.30): SetFromMap ranges over the given map (Go map order: random) and returns the
 *   FIRST error: `unrecognized feature gate: X` or `cannot set feature gate X to V, feature is locked to D`.
 * - v0.31..v0.36 (1.31+): SetFromMap merges the map into enabledRaw (everything set so far) and validates all of
 *   it (unsafeSetFromMap): locked and PreAlpha errors are collected, an unknown gate returns at once with the
 *   errors collected so far; the result is utilerrors.NewAggregate (1 error: its text; more: "[e1, e2]").
 *   PreAlpha text: v0.31-v0.34 `cannot set feature gate X to V, feature is PreAlpha at emulated version 1.NN`,
 *   v0.35+ `..., min compatibility version 1.MM` (MM = NN-1, NewVersionedFeatureGate's default).
 * - v0.35+ (1.35+): when there is no other error, dependencies are checked in SetFromMap itself:
 *   `X is enabled, but depends on features that are disabled: [D1 D2]` (map order: random).
 * - OpenShift's fork (openshift/kubernetes, vendored by openshift/microshift at each release, read by
 *   scripts/generate/feature-gates-openshift.mjs): vendor/k8s.io/component-base/featuregate/feature_gate.go
 *   only `klog.Warningf("unrecognized feature gate: %s", k)`s an unknown gate and skips it (every release
 *   4.12-4.23, openshiftKubelet(minor).unknownGateWarns); locked/PreAlpha/dependency errors as upstream. Its
 *   gates themselves are the fork's (gatesFor(minor, 'openshift')).
 */
import type { KubeletFlavor } from '../flavor.js';
import { isModelledMinor, MODELLED_RANGE } from '../data/minors.js';
import { gatesFor, openshiftKubelet, type GateSpec } from './gate-table.js';
import { aggregateError } from '../../kubernetes/aggregate.js';

export type SetFeatureGatesResult =
  | { ok: true; enabled: (name: string) => boolean; overrides: Record<string, boolean>; warnings: string[] }
  | { ok: false; error: string; inexact?: boolean; allErrors: string[] }
  | { undecidable: string };

/** The prefix kubelet (1.24+) puts before a SetFromMap error (cmd/kubelet/app/server.go at v1.24.17-v1.37.2). */
export const KUBELET_GATE_ERROR_PREFIX = 'failed to set feature gates from initial flags-based config: ';

const goBool = (v: boolean) => (v ? 'true' : 'false');

export function setFeatureGates(
  minor: number,
  flavor: KubeletFlavor,
  requested: Readonly<Record<string, boolean>>,
  already: Readonly<Record<string, boolean>> = {},
): SetFeatureGatesResult {
  if (!isModelledMinor(minor)) return { undecidable: `kubelet 1.${minor} is outside the modelled versions (${MODELLED_RANGE})` };
  // An OpenShift kubelet whose fork was not read (1.24, before MicroShift's first release 4.12):
  // upstream's gates, an unknown gate only warns (as in every release read), and a value upstream
  // locks is "cannot tell" (the fork may differ there).
  const fork = flavor === 'openshift' ? openshiftKubelet(minor) : undefined;
  const forkUnread = flavor === 'openshift' && !fork;
  const gates = gatesFor(minor, forkUnread ? 'upstream' : flavor)!;
  const warnsOnUnknown = flavor === 'openshift' && (fork?.unknownGateWarns ?? true);
  const versioned = minor >= 31;
  // 1.31+: the whole enabledRaw is validated; before, only this call's map.
  const toCheck: Record<string, boolean> = versioned ? { ...already, ...requested } : { ...requested };
  const names = Object.keys(toCheck).sort();

  const warnings: string[] = [];
  const unknown: string[] = [];
  const locked: string[] = [];
  const preAlpha: string[] = [];

  for (const name of names) {
    const value = toCheck[name]!;
    const spec = gates.get(name);
    if (!spec) {
      unknown.push(name);
      continue;
    }
    if (spec.lockToDefault && spec.default !== value) {
      if (forkUnread) return { undecidable: `OpenShift's kubelet 1.${minor}: its fork was not read, and upstream locks ${name} to ${goBool(spec.default)}` };
      locked.push(`cannot set feature gate ${name} to ${goBool(value)}, feature is locked to ${goBool(spec.default)}`);
      continue;
    }
    if (spec.preRelease === 'PreAlpha') {
      const tail = minor >= 35 ? `, min compatibility version 1.${minor - 1}` : '';
      preAlpha.push(`cannot set feature gate ${name} to ${goBool(value)}, feature is PreAlpha at emulated version 1.${minor}${tail}`);
      continue;
    }
    if (spec.preRelease === 'Deprecated' || spec.preRelease === 'GA') warnings.push(stageWarning(minor, spec.preRelease, name, value));
  }

  const unknownErrors = warnsOnUnknown ? [] : unknown.map((n) => `unrecognized feature gate: ${n}`);
  if (warnsOnUnknown) for (const n of [...unknown].reverse()) warnings.unshift(`unrecognized feature gate: ${n}`);
  const definite = [...locked, ...preAlpha, ...unknownErrors];
  if (definite.length > 0) return fatal(definite, versioned, unknownErrors.length > 0);

  // Effective values: explicit ones, AllAlpha/AllBeta for the rest of their stage, then defaults.
  const overrides: Record<string, boolean> = { ...already, ...requested };
  const enabled = (name: string): boolean => {
    if (name in overrides && gates.has(name)) return overrides[name]!;
    const spec = gates.get(name);
    if (!spec) return false;
    if (spec.preRelease === 'Alpha' && 'AllAlpha' in overrides && !['AllAlpha', 'AllBeta'].includes(name)) return overrides['AllAlpha']!;
    if (spec.preRelease === 'Beta' && 'AllBeta' in overrides) return overrides['AllBeta']!;
    return spec.default;
  };

  if (minor >= 35) {
    const depErrors: string[] = [];
    for (const [name, spec] of gatesWithDependencies(gates)) {
      if (!enabled(name)) continue;
      const disabled = (spec.dependencies ?? []).filter((d) => gates.has(d) && !enabled(d));
      if (disabled.length) depErrors.push(`${name} is enabled, but depends on features that are disabled: [${disabled.join(' ')}]`);
    }
    if (depErrors.length) {
      return { ok: false, error: aggregateError(depErrors), allErrors: depErrors, ...(depErrors.length > 1 ? { inexact: true } : {}) };
    }
  }
  return { ok: true, enabled, overrides, warnings };
}

/** The gates that declare dependencies, in name order: computed once per gate table. */
const dependencyCache = new WeakMap<object, readonly (readonly [string, GateSpec])[]>();
function gatesWithDependencies(gates: ReadonlyMap<string, GateSpec>): readonly (readonly [string, GateSpec])[] {
  let list = dependencyCache.get(gates);
  if (!list) {
    list = [...gates.entries()].filter(([, spec]) => spec.dependencies?.length).sort(([a], [b]) => (a < b ? -1 : 1));
    dependencyCache.set(gates, list);
  }
  return list;
}

/**
 * The warning for a GA/deprecated gate set explicitly: klog.Warningf up to component-base v0.35, a structured
 * logger.Info from v0.36 (featuregate/feature_gate.go).
 */
function stageWarning(minor: number, stage: 'GA' | 'Deprecated', name: string, value: boolean): string {
  const word = stage === 'GA' ? 'GA' : 'deprecated';
  if (minor >= 36) return `"Warning: setting ${word} feature gate. It will be removed in a future release." featureGate="${name}" value=${goBool(value)}`;
  return `Setting ${word} feature gate ${name}=${goBool(value)}. It will be removed in a future release.`;
}

function fatal(errors: string[], versioned: boolean, hasUnknown: boolean): SetFeatureGatesResult {
  // Before 1.31 the first error in (random) map order is returned; from 1.31 the collected ones are aggregated,
  // an unknown gate cutting the walk short. We print the errors in name order (one valid outcome).
  let error: string;
  if (!versioned) error = errors[0]!;
  else if (hasUnknown) {
    const firstUnknown = errors.find((e) => e.startsWith('unrecognized feature gate: '))!;
    error = aggregateError(errors.filter((e) => !e.startsWith('unrecognized feature gate: ')).concat(firstUnknown));
  } else error = aggregateError(errors);
  const inexact = errors.length > 1;
  return { ok: false, error, allErrors: errors, ...(inexact ? { inexact: true } : {}) };
}

export interface GateFinding {
  readonly findingId: 'feature-gate-unknown' | 'feature-gate-locked' | 'feature-gate-prealpha' | 'feature-gate-dependency';
  readonly kubeletError: string;
  readonly message: string;
  readonly remediation: string;
  readonly exitStatus: 1;
  readonly inexact?: boolean;
}

/**
 * The start failure kubelet (1.24+, cmd/kubelet/app/server.go) reports for a refused SetFromMap:
 * err="failed to set feature gates from initial flags-based config: <error>", exit status 1.
 * Kind: the first collected error's (with several, which one kubelet prints is random: inexact).
 */
export function gateFailure(result: SetFeatureGatesResult, minor: number): GateFinding | undefined {
  if (!('ok' in result) || result.ok) return undefined;
  const first = result.allErrors[0] ?? result.error;
  const findingId = first.startsWith('unrecognized feature gate: ')
    ? 'feature-gate-unknown'
    : first.includes(', feature is locked to ')
      ? 'feature-gate-locked'
      : first.includes(' feature is PreAlpha at emulated version ')
        ? 'feature-gate-prealpha'
        : 'feature-gate-dependency';
  const remediation = {
    'feature-gate-unknown': `Remove the gate from --feature-gates and featureGates: kubelet 1.${minor} does not have it.`,
    'feature-gate-locked': `Remove the gate setting: kubelet 1.${minor} only accepts its locked value.`,
    'feature-gate-prealpha': `Remove the gate setting: it does not exist yet at kubelet 1.${minor}.`,
    'feature-gate-dependency': 'Enable the gates it depends on as well, or disable the dependent gate.',
  }[findingId];
  return {
    findingId,
    kubeletError: KUBELET_GATE_ERROR_PREFIX + result.error,
    message: `kubelet 1.${minor} refuses its feature gates: ${result.error}`,
    remediation,
    exitStatus: 1,
    ...(result.inexact ? { inexact: true } : {}),
  };
}
