/** `node-check explain <finding-id>`. */
import type { Settings } from '../../settings.js';
import type { CliIo } from '../io.js';
import { allFindingKinds, findingKind } from '../../catalog/findings.js';
import { renderExplanation } from '../../render/explain.js';
import { ExitCode } from '../../model/report.js';

export async function runExplain(_settings: Settings, io: CliIo, args: Record<string, unknown>): Promise<number> {
  const id = String(args['finding-id'] ?? '');
  const kind = findingKind(id);
  if (!kind) {
    io.stderr(`node-check: unknown finding id "${id}". Known ids:\n${allFindingKinds().map((k) => `  ${k.id}`).join('\n')}\n`);
    return ExitCode.usage;
  }
  io.stdout(renderExplanation(kind));
  return 0;
}
