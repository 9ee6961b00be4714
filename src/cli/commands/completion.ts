/** `node-check completion bash|zsh`: prints the completion script (see src/cli/completion.ts). */
import type { Settings } from '../../settings.js';
import type { CliIo } from '../io.js';
import { allFindingKinds } from '../../catalog/findings.js';
import { completionScript, type CompletionShell } from '../completion.js';

export async function runCompletion(_settings: Settings, io: CliIo, args: Record<string, unknown>): Promise<number> {
  io.stdout(completionScript(args['shell'] as CompletionShell, allFindingKinds().map((kind) => kind.id)));
  return 0;
}
