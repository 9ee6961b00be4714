/** The first SIGTERM/SIGINT ends every command promptly, leaving no lock behind. */
import t from 'tap';
import { spawn } from 'node:child_process';
import { existsSync, mkdirSync, writeFileSync } from 'node:fs';
import * as path from 'node:path';
import { brokenAcrNode } from '../helpers/node-root.js';
import { bundle, env } from './bundle.js';

function run(args: string[]) {
  const child = spawn(process.execPath, [bundle, ...args], { env, stdio: ['ignore', 'pipe', 'pipe'] });
  let stderr = '';
  child.stderr.on('data', (chunk) => (stderr += chunk));
  const exited = new Promise<{ code: number | null; signal: string | null; stderr: string }>((resolve) => child.on('exit', (code, signal) => resolve({ code, signal, stderr })));
  return { child, exited };
}

t.test('preflight waiting on the fallback lock stops at the first SIGTERM', async (t) => {
  const root = brokenAcrNode(t.testdir());
  // A live holder: this test process, so the lock is not stale and preflight waits (20 s).
  mkdirSync(path.join(root, 'run/node-check'), { recursive: true });
  const lock = path.join(root, 'run/node-check/lock');
  writeFileSync(lock, JSON.stringify({ pid: process.pid, startTime: null, createdAt: new Date().toISOString(), token: 'x' }));
  for (const [signal, code] of [['SIGTERM', 143], ['SIGINT', 130]] as const) {
    const { child, exited } = run(['preflight', '--root', root, '--kubelet-version', '1.28.7', '--fallback', '--no-journal', '--no-metrics', '--timeout', '30']);
    await new Promise((r) => setTimeout(r, 1500));
    const sent = Date.now();
    child.kill(signal);
    const result = await exited;
    t.equal(result.code, code, `${signal}: exit ${code}`);
    t.ok(Date.now() - sent < 1500, `${signal}: stopped in ${Date.now() - sent} ms`);
    t.match(result.stderr, `node-check: ${signal}: stopped`);
    t.ok(existsSync(lock), 'the other holder\'s lock is left alone');
  }
});

t.test('check stops at the first SIGTERM too', async (t) => {
  const root = brokenAcrNode(t.testdir());
  const { child, exited } = run(['check', '--root', root, '--kubelet-version', '1.28.7']);
  child.kill('SIGTERM');
  const result = await exited;
  t.ok(result.code === 143 || result.signal === 'SIGTERM', `exit ${result.code} ${result.signal}`);
});
