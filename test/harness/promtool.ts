// The real promtool (Debian's prometheus package): lint an exposition, check and unit-test rules.
// Exit codes of `check metrics` (promtool 2.42): 0 clean, 3 lint findings, 1 parse error.
import { execa } from 'execa';
import { toolPath } from './tools.js';

export interface PromtoolResult {
  exitCode: number;
  stdout: string;
  stderr: string;
}

async function promtool(args: readonly string[], input?: string): Promise<PromtoolResult> {
  const result = await execa(toolPath('promtool') ?? 'promtool', args, {
    input: input ?? '',
    reject: false,
    timeout: 60_000,
  });
  if (result.timedOut) throw new Error(`promtool ${args.join(' ')} timed out`);
  if (result.exitCode === undefined) throw new Error(`promtool did not run: ${result.message}`);
  return { exitCode: result.exitCode, stdout: String(result.stdout), stderr: String(result.stderr) };
}

/** `promtool check metrics` on the text exposition (read from stdin). */
export function checkMetrics(text: string): Promise<PromtoolResult> {
  return promtool(['check', 'metrics'], text);
}

/** `promtool test rules FILE`: runs the rule unit tests a test file describes. */
export function testRules(file: string): Promise<PromtoolResult> {
  return promtool(['test', 'rules', file]);
}

/** `promtool check rules FILE`: validates an alerting/recording rules file. */
export function checkRules(file: string): Promise<PromtoolResult> {
  return promtool(['check', 'rules', file]);
}
