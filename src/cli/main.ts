/** Entry point: the only module that touches process.argv, process.env, signals and the exit code. */
import { runCli } from './program.js';

const shutdownSignal = new Promise<string>((resolve) => {
  for (const signal of ['SIGTERM', 'SIGINT'] as const) process.once(signal, () => resolve(signal));
});

async function main(): Promise<void> {
  try {
    process.exitCode = await runCli(process.argv.slice(2), {
      stdout: (text) => process.stdout.write(text),
      stderr: (text) => process.stderr.write(text),
      env: process.env,
      stdoutIsTTY: process.stdout.isTTY === true,
      shutdownSignal,
    });
  } catch (error) {
    // A bug in node-check itself: one line, no stack trace, and the "unknown" exit code.
    process.stderr.write(`node-check: internal error: ${(error as Error)?.message ?? String(error)}\n`);
    process.exitCode = 2;
  }
  // The command has answered. Work it abandoned (preflight's budget ran out) must not keep the
  // process, and with it kubelet's start, waiting: exit once output is flushed. unref() lets a
  // process with nothing left exit at once, as usual.
  setTimeout(() => process.exit(), 1000).unref();
}

// The bundle is CommonJS (so that the launcher can compile it from V8's code cache): no top-level await.
void main();
