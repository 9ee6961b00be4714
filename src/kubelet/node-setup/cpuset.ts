/**
 * cpuset.Parse of k8s.io/utils/cpuset (kubelet 1.28+; before that pkg/kubelet/cm/cpuset, which
 * k8s.io/utils/cpuset was copied from, commit 3aa0d1f "add origin comment") and the kubelet
 * messages around it.
 *
 * --reserved-cpus (reservedSystemCPUs) is parsed twice: ValidateKubeletConfiguration rejects a bad
 * syntax (step validate-config, aggregated with the other validation errors), and run() ->
 * getReservedCPUs checks the set against the online CPUs (a host fact, not decided here).
 */
import { goQuote } from '../../go/quote.js';
import { isModelledMinor } from '../data/minors.js';

export type CpusetParse = { readonly ok: true; readonly cpus: readonly number[] } | { readonly ok: false; readonly error: string };

const INT64_MAX = 9223372036854775807n;
const INT64_MIN = -9223372036854775808n;

/** strconv.Atoi on a 64-bit platform, with its error text. */
export function goAtoi(s: string): { ok: true; value: number } | { ok: false; error: string } {
  if (!/^[+-]?[0-9]+$/.test(s)) return { ok: false, error: `strconv.Atoi: parsing ${goQuote(s)}: invalid syntax` };
  const v = BigInt(s);
  if (v > INT64_MAX || v < INT64_MIN) return { ok: false, error: `strconv.Atoi: parsing ${goQuote(s)}: value out of range` };
  return { ok: true, value: Number(v) };
}

/** Larger ranges are refused here rather than expanded (kubelet would allocate them; no real host has them). */
const MAX_EXPANDED = 1 << 20;

/**
 * The reversed-range text changed from "invalid range %q (%d >= %d)" (kubernetes commit 0e7c4f7,
 * 2021-03) to "invalid range %q (%d > %d)" (commit b911e13, 2023-01-27, "Fix Parse() error message",
 * both in the history k8s.io/utils imported from pkg/kubelet/cm/cpuset). 2023-01-27 falls in the
 * 1.27 cycle: 1.24-1.26 use ">=", 1.28+ ">"; 1.27 is taken as ">" but not pinned.
 */
export function reversedRangeOperator(minor: number): '>=' | '>' {
  return minor <= 26 ? '>=' : '>';
}

/** cpuset.Parse: "0-5,34,46-48". Empty is the empty set. `minor` picks the reversed-range text. */
export function parseCpuset(s: string, minor = 36): CpusetParse {
  if (s === '') return { ok: true, cpus: [] };
  const cpus = new Set<number>();
  for (const r of s.split(',')) {
    const dash = r.indexOf('-');
    if (dash === -1) {
      const elem = goAtoi(r);
      if (!elem.ok) return elem;
      cpus.add(elem.value);
      continue;
    }
    const start = goAtoi(r.slice(0, dash));
    if (!start.ok) return start;
    const end = goAtoi(r.slice(dash + 1));
    if (!end.ok) return end;
    if (start.value > end.value) {
      return { ok: false, error: `invalid range ${goQuote(r)} (${start.value} ${reversedRangeOperator(minor)} ${end.value})` };
    }
    if (end.value - start.value > MAX_EXPANDED) return { ok: false, error: `range ${goQuote(r)} too large to model` };
    for (let e = start.value; e <= end.value; e++) cpus.add(e);
  }
  return { ok: true, cpus: [...cpus].sort((a, b) => a - b) };
}

/**
 * The ValidateKubeletConfiguration message for an unparsable reservedSystemCPUs (one element of the
 * aggregate in "failed to validate kubelet configuration, error: …"):
 * "invalid configuration: unable to parse reservedSystemCPUs (--reserved-cpus) %v, error: %w".
 * Read in a 1.30-era validation.go (index id 4640499) and in the table-driven validation test
 * (index id 9350235) that kubernetes PR #105360 ("Refactor kubelet config validation tests",
 * merged 2021-10, so 1.23) introduced together with the "invalid configuration:" prefixes; the older
 * "unable to parse reservedSystemCPUs (--reserved-cpus), error: %v" (index id 524546562) predates
 * 1.24. So every modelled minor uses the new text.
 */
export function reservedCpusValidationMessage(minor: number, value: string): { readonly text: string; readonly inexact: boolean } | undefined {
  if (!isModelledMinor(minor)) return undefined;
  const parsed = parseCpuset(value, minor);
  if (parsed.ok) return undefined;
  return {
    text: `invalid configuration: unable to parse reservedSystemCPUs (--reserved-cpus) ${value}, error: ${parsed.error}`,
    inexact: minor === 27 && parsed.error.startsWith('invalid range'),
  };
}
