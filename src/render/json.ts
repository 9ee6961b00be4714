/** `--output json`: one object on stdout (docs/json.md). Fields may be added, never changed. */
import type { Report } from '../model/report.js';

export function renderJson(report: Report): string {
  // The contract's field order first (docs/json.md "The object"), then whatever was added since.
  const { schemaVersion, kubeletWillStart, kubeletVersion, kubelet, findings, fallback, ...added } = report;
  return JSON.stringify({ schemaVersion, kubeletWillStart, kubeletVersion, kubelet, findings, fallback, ...added }, null, 2) + '\n';
}
