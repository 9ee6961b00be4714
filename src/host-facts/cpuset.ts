/**
 * k8s.io/utils/cpuset Parse and CPUSet.String() (the Linux CPU list format, "0-3,8"), as kubelet
 * uses them for --reserved-cpus. Pure.
 */

/** The CPUs in a list, or undefined when cpuset.Parse would fail (no trimming, like Go). */
export function parseCpuList(list: string): number[] | undefined {
  if (list === '') return [];
  const cpus = new Set<number>();
  for (const part of list.split(',')) {
    const bounds = part.split('-');
    if (bounds.length > 2) return undefined;
    const start = atoi(bounds[0]!);
    const end = bounds.length === 2 ? atoi(bounds[1]!) : start;
    if (start === undefined || end === undefined || start > end) return undefined;
    for (let cpu = start; cpu <= end; cpu++) cpus.add(cpu);
  }
  return [...cpus].sort((a, b) => a - b);
}

/** CPUSet.String(): sorted, consecutive runs as "a-b". */
export function formatCpuList(cpus: readonly number[]): string {
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

/** strconv.Atoi for CPU numbers: optional sign, decimal digits, nothing else. */
function atoi(text: string): number | undefined {
  if (!/^[+-]?\d+$/.test(text)) return undefined;
  const value = Number(text);
  return Number.isSafeInteger(value) && value >= 0 ? value : undefined;
}
