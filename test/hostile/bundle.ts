/** The shipped bundle, built once if missing, and a runner that never inherits the host's settings. */
import { spawnSync, type SpawnSyncReturns } from 'node:child_process';
import { existsSync } from 'node:fs';
import * as path from 'node:path';
import { fileURLToPath } from 'node:url';

export const repo = fileURLToPath(new URL('../..', import.meta.url));
export const bundle = path.join(repo, 'dist/node-check.cjs');
if (!existsSync(bundle)) spawnSync(process.execPath, [path.join(repo, 'scripts/build.mjs')], { stdio: 'inherit' });
export const env = { PATH: process.env.PATH ?? '', NODE_CHECK_CONFIG: '' };

export function runBundle(args: readonly string[], options: { timeoutMs?: number; input?: string } = {}): SpawnSyncReturns<string> & { ms: number } {
  const started = Date.now();
  const result = spawnSync(process.execPath, [bundle, ...args], { encoding: 'utf8', env, timeout: options.timeoutMs ?? 60_000, input: options.input });
  return Object.assign(result, { ms: Date.now() - started });
}

/** No V8 abort, no JavaScript stack trace. */
export const NO_CRASH = /FATAL ERROR|Last few GCs|^\s+at .*\(.*:\d+:\d+\)$|internal error/m;
