/** `--output json`: one object on stdout (DESIGN §4.3). Fields may be added, never changed. */
import type { Report } from '../model/report.js';

export function renderJson(report: Report): string {
  // The contract's field order first (DESIGN §4.3), then whatever was added since.
  const { schemaVersion, kubeletWillStart, kubeletVersion, kubelet, findings, fallback, ...added } = report;
  return JSON.stringify({ schemaVersion, kubeletWillStart, kubeletVersion, kubelet, findings, fallback, ...added }, null, 2) + '\n';
}
