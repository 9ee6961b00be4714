/**
 * cpuset.Parse and CPUSet.String() (the Linux CPU list format, "0-5,34,46-48"), as kubelet uses
 * them for --reserved-cpus: ValidateKubeletConfiguration rejects a bad syntax (aggregated with the
 * other validation errors), and run() -> getReservedCPUs checks the set against the online CPUs.
 *
 * Kubelet 1.24-1.27 import k8s.io/kubernetes/pkg/kubelet/cm/cpuset (pkg/kubelet/apis/config/
 * validation/validation.go at v1.24.17..v1.27.16), 1.28+ k8s.io/utils/cpuset (the same file at
 * v1.28.15..v1.37.2). Parse is the same function in both but for the reversed-range text:
 * pkg/kubelet/cm/cpuset/cpuset.go at v1.24.17, v1.25.16 and v1.26.15 says
 * "invalid range %q (%d >= %d)"; at v1.27.16 it says "%d > %d", as k8s.io/utils/cpuset/cpuset.go
 * does in every version kubelet 1.28.15..1.37.2 requires (go.mod).
 */
import { goAtoi } from '../go/strconv.js';
import { goQuote } from '../go/quote.js';

export type CpusetParse = { readonly ok: true; readonly cpus: readonly number[] } | { readonly ok: false; readonly error: string };

/** Larger ranges are refused here rather than expanded (kubelet would allocate them; no real host has them). */
const MAX_EXPANDED = 1 << 20;

/** The comparison the reversed-range error prints for this kubelet minor (see above). */
export function reversedRangeOperator(minor: number): '>=' | '>' {
  return minor <= 26 ? '>=' : '>';
}

/**
 * cpuset.Parse: comma-separated elements, each N or N-M (strings.SplitN on "-", 2 parts),
 * strconv.Atoi on each bound, no trimming. Empty is the empty set. `minor` picks the
 * reversed-range text.
 */
export function parseCpuset(s: string, minor: number): CpusetParse {
  return parse(s, minor);
}

/** The CPUs of a list, or undefined when cpuset.Parse fails (for callers that need no error text). */
export function cpusetMembers(s: string): readonly number[] | undefined {
  const parsed = parse(s, undefined);
  return parsed.ok ? parsed.cpus : undefined;
}

function parse(s: string, minor: number | undefined): CpusetParse {
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
      return { ok: false, error: `invalid range ${goQuote(r)} (${start.value} ${minor === undefined ? '>' : reversedRangeOperator(minor)} ${end.value})` };
    }
    if (end.value - start.value > MAX_EXPANDED) return { ok: false, error: `range ${goQuote(r)} too large to model` };
    for (let e = start.value; e <= end.value; e++) cpus.add(e);
  }
  return { ok: true, cpus: [...cpus].sort((a, b) => a - b) };
}

/** CPUSet.String(): sorted, consecutive runs as "a-b". */
export function formatCpuset(cpus: readonly number[]): string {
  const sorted = [...new Set(cpus)].sort((a, b) => a - b);
  const parts: string[] = [];
  for (let i = 0; i < sorted.length; ) {
    let j = i;
    while (j + 1 < sorted.length && sorted[j + 1] === sorted[j]! + 1) j++;
    parts.push(i === j ? `${sorted[i]}` : `${sorted[i]}-${sorted[j]}`);
    i = j + 1;
  }
  return parts.join(',');
}
