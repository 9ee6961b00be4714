/**
 * --kube-reserved / --system-reserved (KubeletConfiguration kubeReserved / systemReserved) as
 * run() parses them, after cAdvisor's machine info and --reserved-cpus, before the container manager.
 * Source: cmd/kubelet/app/server.go run() and parseResourceList at v1.24.17-v1.37.2: the wrappings
 * "--kube-reserved value failed to parse: %w" / "--system-reserved value failed to parse: %w" from
 * v1.27.16 on, the error returned unwrapped at v1.24.17-v1.26.15.
 *
 * Go ranges over the map, so when several entries are bad the one reported depends on map order:
 * the verdict is certain, the text is then marked inexact.
 */
import { goQuote } from '../../go/quote.js';
import { isModelledMinor } from '../data/minors.js';
import { wrapStepError, type StartStepId } from '../data/start-sequence.js';
import { cpusetMembers } from '../../kubernetes/cpuset.js';
import { parseQuantity } from '../../kubernetes/quantity.js';
import type { NodeSetupFailure } from './types.js';

/** v1.ResourceCPU, v1.ResourceMemory, v1.ResourceEphemeralStorage, pidlimit.PIDs */
export const RESERVABLE_RESOURCES = ['cpu', 'memory', 'ephemeral-storage', 'pid'] as const;

export type ResourceMap = Readonly<Record<string, string>>;

/** The errors parseResourceList could return for this map (one per bad key, in insertion order).
 * Before 1.27 it returns resource.ParseQuantity's error as it is (cmd/kubelet/app/server.go at v1.26.15). */
export function resourceListErrors(m: ResourceMap | undefined, minor = 27): string[] {
  const errors: string[] = [];
  if (!m) return errors;
  for (const [k, v] of Object.entries(m)) {
    if (!(RESERVABLE_RESOURCES as readonly string[]).includes(k)) {
      errors.push(`cannot reserve ${goQuote(k)} resource`);
      continue;
    }
    const q = parseQuantity(v);
    if (!q.ok) errors.push(minor >= 27 ? `failed to parse quantity ${goQuote(v)} for ${goQuote(k)} resource: ${q.error}` : q.error);
    else if (q.sign === -1) errors.push(`resource quantity for ${goQuote(k)} cannot be negative: ${v}`);
  }
  return errors;
}

export interface ReservedInput {
  /** Effective kubeReserved map (config file, drop-ins, then --kube-reserved). */
  readonly kubeReserved?: ResourceMap;
  /** Effective systemReserved map. */
  readonly systemReserved?: ResourceMap;
  /** Effective reservedSystemCPUs (--reserved-cpus). */
  readonly reservedSystemCPUs?: string;
  /** Where the maps came from, for the finding (a unit, an env file or the config file). */
  readonly path?: string;
}

/**
 * When --reserved-cpus is set, run() drops "cpu" from kubeReserved and overwrites systemReserved
 * "cpu" with the CPU count before parsing, so a bad cpu quantity there is never seen.
 * An unparsable --reserved-cpus fails earlier (validation), so it is left alone here.
 */
export function reservedAfterCpuOverride(input: ReservedInput): { kube?: ResourceMap; system?: ResourceMap } {
  const out: { kube?: ResourceMap; system?: ResourceMap } = {};
  if (input.kubeReserved) out.kube = input.kubeReserved;
  if (input.systemReserved) out.system = input.systemReserved;
  const cpus = input.reservedSystemCPUs ? cpusetMembers(input.reservedSystemCPUs) : undefined; // only the count matters
  if (cpus && cpus.length > 0) {
    if (input.kubeReserved) {
      const { cpu: _dropped, ...rest } = input.kubeReserved;
      out.kube = rest;
    }
    out.system = { ...(input.systemReserved ?? {}), cpu: String(cpus.length) };
  }
  return out;
}

function failure(minor: number, which: 'kube' | 'system', errors: readonly string[], path?: string): NodeSetupFailure | undefined {
  const step: StartStepId = which === 'kube' ? 'run:kube-reserved' : 'run:system-reserved';
  const distinct = [...new Set(errors)];
  const kubeletError = wrapStepError(minor, step, distinct[0]!);
  if (kubeletError === undefined) return undefined;
  const flag = which === 'kube' ? '--kube-reserved' : '--system-reserved';
  const field = which === 'kube' ? 'kubeReserved' : 'systemReserved';
  return {
    findingId: which === 'kube' ? 'kube-reserved-unparsable' : 'system-reserved-unparsable',
    kubeletError,
    message:
      `${flag} (${field}) has ${distinct.length === 1 ? 'an entry' : `${distinct.length} entries`} kubelet cannot parse: ` +
      distinct.join('; ') +
      (distinct.length > 1 ? ' (kubelet reports whichever it meets first in Go map order)' : ''),
    remediation:
      `Give every ${flag} entry a quantity such as cpu=500m, memory=1Gi, ephemeral-storage=1Gi or pid=1000 ` +
      '(only cpu, memory, ephemeral-storage and pid can be reserved); an empty value usually means an environment variable in the unit was not set.',
    ...(path === undefined ? {} : { path }),
    ...(distinct.length > 1 ? { inexact: true } : {}),
  };
}

/**
 * Checks the reserved maps for kubelet `minor` (a modelled minor; undefined for any other or when they parse).
 * kubeReserved is parsed before systemReserved.
 */
export function checkReservedResources(minor: number, input: ReservedInput): NodeSetupFailure | undefined {
  if (!isModelledMinor(minor)) return undefined;
  const { kube, system } = reservedAfterCpuOverride(input);
  const kubeErrors = resourceListErrors(kube, minor);
  if (kubeErrors.length > 0) return failure(minor, 'kube', kubeErrors, input.path);
  const systemErrors = resourceListErrors(system, minor);
  if (systemErrors.length > 0) return failure(minor, 'system', systemErrors, input.path);
  return undefined;
}

/**
 * cliflag.MapStringString.Set (the --kube-reserved / --system-reserved flag type): comma-separated
 * key=value pairs, trimmed, empty items skipped, repeated flags merge. The error is what pflag
 * wraps as `invalid argument "<v>" for "--<flag>" flag: <error>` (a step parse-flags failure).
 */
export function parseMapStringString(values: readonly string[]): { ok: true; map: Record<string, string> } | { ok: false; value: string; error: string } {
  const map: Record<string, string> = {};
  for (const value of values) {
    for (const item of value.split(',')) {
      const s = item.trim();
      if (s === '') continue;
      const eq = s.indexOf('=');
      if (eq === -1) return { ok: false, value, error: 'malformed pair, expect string=string' };
      map[s.slice(0, eq).trim()] = s.slice(eq + 1).trim();
    }
  }
  return { ok: true, map };
}
