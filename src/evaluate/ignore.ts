/**
 * --ignore ID: demotes known findings the way kubeadm's --ignore-preflight-errors does. The
 * prediction (`kubeletWillStart`) stays what kubelet will do; the ignored findings are marked, and
 * when every finding behind a "will not start" or "cannot tell" is ignored, the exit code is 0
 * (exitCodeFor). Kubelet stops at its first failure, so nothing after an ignored error was
 * replayed: the text and JSON say so. Pure.
 */
import type { Finding } from '../model/findings.js';
import type { Report } from '../model/report.js';

/** `--ignore all` demotes every finding, as kubeadm's `--ignore-preflight-errors=all`. */
export const IGNORE_ALL = 'all';

export interface IgnoreList {
  /** Known finding ids (as the catalog spells them), or just IGNORE_ALL. */
  readonly ids: readonly string[];
  /** Words that are no finding id. */
  readonly unknown: readonly string[];
  /** A problem with the list as a whole (IGNORE_ALL beside single ids, as kubeadm refuses it). */
  readonly problem?: string;
}

/**
 * kubeadm's habits for --ignore-preflight-errors (cmd/kubeadm/app/util/config/common.go
 * ValidateIgnorePreflightErrors at v1.36.5): a word may hold several ids separated by commas, ids
 * match in any case, and "all" stands for every check but not beside single ones.
 */
export function readIgnoreList(words: readonly string[], known: readonly string[]): IgnoreList {
  const byLowerCase = new Map(known.map((id) => [id.toLowerCase(), id]));
  const ids: string[] = [];
  const unknown: string[] = [];
  for (const word of words.flatMap((w) => w.split(','))) {
    const lower = word.trim().toLowerCase();
    if (lower === '') continue;
    const id = lower === IGNORE_ALL ? IGNORE_ALL : byLowerCase.get(lower);
    if (id === undefined) unknown.push(word.trim());
    else if (!ids.includes(id)) ids.push(id);
  }
  if (ids.includes(IGNORE_ALL) && ids.length > 1) return { ids, unknown, problem: `don't name single finding ids beside "${IGNORE_ALL}"` };
  return { ids, unknown };
}

export function applyIgnores(report: Report, ids: readonly string[]): Report {
  if (ids.length === 0) return report;
  const wanted = new Set(ids);
  const all = wanted.has(IGNORE_ALL);
  const findings: Finding[] = report.findings.map((f) => (all || wanted.has(f.id) ? { ...f, ignored: true as const } : f));
  const deciding = findings.filter((f) => (report.kubeletWillStart === false ? f.severity === 'error' : report.kubeletWillStart === null ? f.id === 'cannot-decide' || f.severity === 'error' : false));
  const verdictIgnored = deciding.length > 0 && deciding.every((f) => f.ignored);
  return { ...report, findings, ignored: { ids: [...new Set(ids)], findings: findings.filter((f) => f.ignored).length, verdictIgnored } };
}

