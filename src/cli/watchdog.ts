/**
 * The hard edge of a time budget. Discovery and evaluation are synchronous, so a timer on the main
 * thread cannot fire while they run (issue 10: 30,000 providers under `--timeout 2` took 9 s).
 * A tiny watchdog thread sleeps until the deadline; if the command has not answered by then, it
 * writes one journal-priority line to stderr and kills the process with SIGKILL (shell status
 * 137), so kubelet's start is never held past the budget plus the grace.
 *
 * Why not run the whole check in a worker the main thread terminates: measured with
 * `node dist/node-check.mjs` (the single ESM bundle of the time), a worker that loads the bundle adds about 80-100 ms to every start
 * (the bundle is compiled twice), against about 2-15 ms of main-thread time for this watchdog,
 * whose script is a few lines. Inputs are bounded as well (src/limits/), so that the watchdog is
 * the last resort and not the common case.
 */
import { Worker } from 'node:worker_threads';

const WATCHDOG = `
const { workerData } = require('node:worker_threads');
if (Atomics.wait(workerData.flag, 0, 0, Math.max(0, workerData.deadline - Date.now())) === 'timed-out') {
  try { require('node:fs').writeSync(2, workerData.message); } catch {}
  process.kill(process.pid, 'SIGKILL');
}`;

/** How long past its budget a command may run before the watchdog kills it. */
export const WATCHDOG_GRACE_MS = 500;

export interface Watchdog {
  /** The command answered: the watchdog ends without acting. Idempotent. */
  readonly disarm: () => void;
}

export function armWatchdog(ms: number, message: string): Watchdog {
  const flag = new Int32Array(new SharedArrayBuffer(4));
  let worker: Worker | undefined;
  try {
    worker = new Worker(WATCHDOG, { eval: true, execArgv: [], env: {}, workerData: { flag, deadline: Date.now() + ms, message }, stdout: false, stderr: false });
    worker.unref();
    worker.on('error', () => undefined);
  } catch {
    // No threads (resource limits): the budget is then only as hard as the input bounds make it.
  }
  return {
    disarm: () => {
      Atomics.store(flag, 0, 1);
      Atomics.notify(flag, 0);
    },
  };
}
