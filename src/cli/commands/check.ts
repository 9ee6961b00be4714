/** `node-check check` (the default): inspect and report; exit 0 / 1 / 2 (DESIGN §4.2). */
import type { Settings } from '../../settings.js';
import type { CliIo } from '../io.js';
import { runNodeCheck } from '../../run-node-check.js';
import { exitCodeFor } from '../../model/report.js';
import { renderJson } from '../../render/json.js';
import { renderText } from '../../render/text.js';

export async function runCheck(settings: Settings, io: CliIo): Promise<number> {
  const report = await runNodeCheck(settings, { applyFallback: false, timeoutMs: () => settings.timeoutSeconds * 1000 });
  io.stdout(settings.output === 'json' ? renderJson(report) : renderText(report, { color: settings.color }));
  return exitCodeFor(report);
}
