/** `--output json`: one object on stdout (DESIGN §4.3). Fields may be added, never changed. */
import type { Report } from '../model/report.js';

export function renderJson(report: Report): string {
  return JSON.stringify(report, null, 2) + '\n';
}
