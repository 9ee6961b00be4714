/**
 * --ignore ID: demotes known findings the way kubeadm's --ignore-preflight-errors does. The
 * prediction (`kubeletWillStart`) stays what kubelet will do; the ignored findings are marked, and
 * when every finding behind a "will not start" or "cannot tell" is ignored, the exit code is 0
 * (exitCodeFor). Kubelet stops at its first failure, so nothing after an ignored error was
 * replayed: the text and JSON say so. Pure.
 */
import type { Finding } from '../model/findings.js';
import type { Report } from '../model/report.js';

export function applyIgnores(report: Report, ids: readonly string[]): Report {
  if (ids.length === 0) return report;
  const wanted = new Set(ids);
  const findings: Finding[] = report.findings.map((f) => (wanted.has(f.id) ? { ...f, ignored: true as const } : f));
  const deciding = findings.filter((f) => (report.kubeletWillStart === false ? f.severity === 'error' : report.kubeletWillStart === null ? f.id === 'cannot-decide' || f.severity === 'error' : false));
  const verdictIgnored = deciding.length > 0 && deciding.every((f) => f.ignored);
  return { ...report, findings, ignored: { ids: [...new Set(ids)], findings: findings.filter((f) => f.ignored).length, verdictIgnored } };
}

