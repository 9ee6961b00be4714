/**
 * Asks the live node's kubelet for its version (`kubelet --version` prints "Kubernetes v1.28.7").
 * Only ever called for the live root "/", bounded in time, and never through a shell.
 *
 * The bound is hard (pinned by test/hostile/version-probe.test.ts): kubelet runs in its own process group, which is killed
 * with SIGKILL at the deadline, and the answer never waits for the pipes to close (a grandchild
 * that inherited stdout would otherwise hold it open).
 */
import type { spawn as spawnType } from 'node:child_process';
import { parseKubeletVersion } from '../kubelet/version.js';
import { lazyBuiltin } from '../host/builtins.js';


/** After kubelet exits, how long its output may still trickle in before the pipes are dropped. */
const DRAIN_MS = 100;
const MAX_OUTPUT = 64 * 1024;

export type ProbeResult = { ok: true; version: string } | { ok: false; problem: string };

export function probeKubeletVersion(kubeletPath: string, timeoutMs: number): Promise<ProbeResult> {
  return new Promise((resolve) => {
    let stdout = '';
    let stderr = '';
    let settled = false;
    let exitCode: number | null | undefined;
    let timer: NodeJS.Timeout | undefined;
    let drain: NodeJS.Timeout | undefined;
    let child: ReturnType<typeof spawnType>;
    const killGroup = () => {
      if (child.pid === undefined) return;
      try {
        process.kill(-child.pid, 'SIGKILL');
      } catch {
        // already gone
      }
    };
    const finish = (result: ProbeResult) => {
      if (settled) return;
      settled = true;
      clearTimeout(timer);
      clearTimeout(drain);
      killGroup(); // kubelet, or what it left behind holding the pipes
      child.stdout?.destroy();
      child.stderr?.destroy();
      child.unref();
      resolve(result);
    };
    const answer = () => {
      const version = parseKubeletVersion(stdout.trim());
      if (exitCode === 0 && version) return finish({ ok: true, version: version.raw });
      finish({ ok: false, problem: `${kubeletPath} --version failed: ${(stderr || stdout || `exit status ${exitCode}`).trim().split('\n')[0]}` });
    };
    try {
      // node:child_process: only a check of the live root that has to ask kubelet needs it (start-path cost).
      const { spawn } = lazyBuiltin('node:child_process');
      child = spawn(kubeletPath, ['--version'], { detached: true, stdio: ['ignore', 'pipe', 'pipe'], env: { LC_ALL: 'C' } });
    } catch (error) {
      resolve({ ok: false, problem: `${kubeletPath} --version failed: ${(error as Error).message}` });
      return;
    }
    child.stdout?.setEncoding('utf8').on('data', (chunk: string) => {
      if (stdout.length < MAX_OUTPUT) stdout += chunk;
    });
    child.stderr?.setEncoding('utf8').on('data', (chunk: string) => {
      if (stderr.length < MAX_OUTPUT) stderr += chunk;
    });
    child.on('error', (error: NodeJS.ErrnoException) => finish({ ok: false, problem: `${kubeletPath} --version failed: ${error.code ?? error.message}` }));
    child.on('exit', (code, signal) => {
      exitCode = code ?? (signal ? -1 : null);
      drain = setTimeout(answer, DRAIN_MS);
    });
    child.on('close', () => {
      if (exitCode !== undefined) answer();
    });
    timer = setTimeout(() => finish({ ok: false, problem: `${kubeletPath} --version did not answer within ${timeoutMs} ms` }), timeoutMs);
  });
}
