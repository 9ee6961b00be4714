/** Entry point: the only module that touches process.argv, process.env, signals and the exit code. */
import { runCli } from './program.js';
import { ExitCode } from '../model/report.js';
import { outputIsJournal } from '../discover/own-process.js';
import { forStderr } from './stderr-priority.js';
import { isTerminal, outputTo } from './stdio.js';

/** Keep `<N>` priority prefixes only when stderr is the journal, never on a terminal. */
const toJournal = outputIsJournal(process.env, 2);
const stdoutIsTTY = isTerminal(1);

/**
 * SIGTERM and SIGINT end every command promptly (pinned by test/hostile/signals.test.ts: a preflight waiting on the
 * lock ignored systemd's stop for 20 s). serve claims the first signal and shuts down in order;
 * everything else exits at once with 128 + the signal number (143, 130), after the 'exit'
 * handlers remove its temp files and lock. A signal that arrives during synchronous work is
 * handled when that work ends (bounded by the budget and its watchdog).
 */
const SIGNAL_EXIT: Record<string, number> = { SIGINT: 130, SIGTERM: 143 };
let claimed = false;
let signalled = false;
const shutdownSignal = new Promise<string>((resolve) => {
  for (const signal of ['SIGTERM', 'SIGINT'] as const) {
    process.on(signal, () => {
      if (claimed && !signalled) {
        signalled = true;
        resolve(signal);
        return;
      }
      writeStderr(forStderr(`<5>node-check: ${signal}: stopped\n`, toJournal));
      process.exit(SIGNAL_EXIT[signal]);
    });
  }
});

/**
 * Output goes to the descriptors directly (stdio.ts). A reader that goes away (`node-check -o json
 * | head`) or a full disk under a redirect stops that output, said in one line unless it is the
 * reader that left (as a shell tool on SIGPIPE); the command still answers with its exit code.
 */
const writeStderr = outputTo(2, () => undefined);
const writeStdout = outputTo(1, (error) => {
  if (error.code !== 'EPIPE') writeStderr(`node-check: cannot write the output: ${error.code ?? error.message}\n`);
});

async function main(): Promise<void> {
  try {
    process.exitCode = await runCli(process.argv.slice(2), {
      stdout: writeStdout,
      stderr: (text) => writeStderr(forStderr(text, toJournal)),
      env: process.env,
      stdoutIsTTY,
      // A terminal's width (help is laid out to fit it): only then is process.stdout made.
      ...(stdoutIsTTY && process.stdout.columns ? { columns: process.stdout.columns } : {}),
      stderrIsJournal: toJournal,
      stdoutIsJournal: outputIsJournal(process.env, 1),
      shutdownSignal,
      claimShutdown: () => {
        claimed = true;
      },
    });
  } catch (error) {
    // A bug in node-check itself: one line, no stack trace, and its own exit code (EX_SOFTWARE),
    // never one that reads as an answer.
    writeStderr(`node-check: internal error: ${(error as Error)?.message ?? String(error)}\n`);
    // Unless someone is reading a crash (`node --enable-source-maps …bundle.cjs`, docs/operations.md):
    // then the stack, which Node maps back to src/ through the bundle's source map.
    if (process.sourceMapsEnabled && error instanceof Error && error.stack) writeStderr(`${error.stack}\n`);
    process.exitCode = ExitCode.internal;
  }
  // The command has answered. Work it abandoned (preflight's budget ran out) must not keep the
  // process, and with it kubelet's start, waiting: exit once output is flushed. unref() lets a
  // process with nothing left exit at once, as usual.
  setTimeout(() => process.exit(), 1000).unref();
}

// The bundle is CommonJS (so that the launcher can compile it from V8's code cache): no top-level await.
void main();
