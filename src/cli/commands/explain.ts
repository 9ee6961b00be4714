/** `node-check explain <finding-id>`. */
import type { Settings } from '../../settings.js';
import type { CliIo } from '../io.js';
import { allFindingKinds, findingKind } from '../../catalog/findings.js';
import { renderExplanation } from '../../render/explain.js';
import { ExitCode } from '../../model/report.js';
import { didYouMean } from '../../lib/suggest.js';

export async function runExplain(settings: Settings, io: CliIo, args: Record<string, unknown>): Promise<number> {
  const id = String(args['finding-id'] ?? '');
  const kind = findingKind(id);
  if (!kind) {
    const ids = allFindingKinds().map((k) => k.id);
    io.stderr(`node-check: unknown finding id "${id}".${didYouMean(id, ids)} Known ids:\n${ids.map((k) => `  ${k}`).join('\n')}\n`);
    return ExitCode.usage;
  }
  io.stdout(settings.output === 'json' ? `${JSON.stringify({ schemaVersion: 1, ...kind }, null, 2)}\n` : renderExplanation(kind));
  return 0;
}
