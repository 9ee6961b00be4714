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

/** cpuset.Parse: "0-5,34,46-48". Empty is the empty set. */
export function parseCpuset(s: string): CpusetParse {
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
    if (start.value > end.value) return { ok: false, error: `invalid range ${goQuote(r)} (${start.value} > ${end.value})` };
    if (end.value - start.value > MAX_EXPANDED) return { ok: false, error: `range ${goQuote(r)} too large to model` };
    for (let e = start.value; e <= end.value; e++) cpus.add(e);
  }
  return { ok: true, cpus: [...cpus].sort((a, b) => a - b) };
}

/**
 * The ValidateKubeletConfiguration message for an unparsable reservedSystemCPUs (one element of the
 * aggregate in "failed to validate kubelet configuration, error: …"). The wording changed once:
 *  - old: "unable to parse reservedSystemCPUs (--reserved-cpus), error: %v" (a validation.go copy
 *    that still builds logs.NewOptions(), i.e. <=1.24 — index id 524546562);
 *  - new: "invalid configuration: unable to parse reservedSystemCPUs (--reserved-cpus) %v, error: %w"
 *    (1.30-era validation.go, index id 4640499, and its test, index id 9350235).
 * The minor where it changed (1.25-1.29) was not pinned, so those minors get verified: false.
 */
export function reservedCpusValidationMessage(
  minor: number,
  value: string,
): { readonly text: string; readonly verified: boolean } | undefined {
  if (minor < 24 || minor > 36) return undefined;
  const parsed = parseCpuset(value);
  if (parsed.ok) return undefined;
  if (minor === 24) return { text: `unable to parse reservedSystemCPUs (--reserved-cpus), error: ${parsed.error}`, verified: false };
  return {
    text: `invalid configuration: unable to parse reservedSystemCPUs (--reserved-cpus) ${value}, error: ${parsed.error}`,
    verified: minor >= 30,
  };
}
