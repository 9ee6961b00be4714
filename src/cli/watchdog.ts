/**
 * The hard edge of a time budget. Discovery and evaluation are synchronous, so a timer on the main
 * thread cannot fire while they run (test/hostile/budget.test.ts; 30,000 providers under `--timeout 2` took 9 s).
 * A watchdog process sleeps until the deadline; if the command has not answered by then, it
 * writes one journal-priority line to stderr and kills node-check with SIGKILL (shell status
 * 137), so kubelet's start is never held past the budget plus the grace.
 *
 * Why a `/bin/sh` child and not a worker thread or a worker that runs the check: a worker thread
 * starts a second V8 isolate, about 10 MB of resident memory and several ms on every preflight
 * (measured with `npm run bench`: peak RSS ×1.54 → ×1.75 of `node -e 0`); a worker running the
 * whole check compiles the bundle twice (80-100 ms). `sh` with `sleep` costs one fork and exec,
 * and its memory is its own. It checks, before killing, that node-check is still its parent, so
 * a recycled pid is never hit; it is killed when node-check disarms it or exits.
 */
import { killAtExit } from '../host/exit-cleanup.js';
import { spawnDetached, type DetachedChild } from '../host/spawn-detached.js';

/**
 * sleep; then, only if our parent is still the node-check that started us: rename the "cannot
 * tell" metrics prepared in advance over the textfile (while node-check, through whose open
 * directory the paths go, is alive), say why and SIGKILL it, then write the journal entry
 * prepared in advance with `logger --journald` (as src/sinks/journal.ts does; on stderr in its
 * `<N>` form where journald's socket or logger is missing). kubelet's start never waits for logger.
 */
// Only the shell holds node-check's stderr (the journal stream under systemd), never the sleep,
// and disarming kills the whole group: a reader waiting for the pipes to close never waits for it.
const WATCHDOG_SCRIPT = [
  'sleep "$1" </dev/null >/dev/null 2>&1',
  'set -- $(cat /proc/$$/stat 2>/dev/null); [ "$4" = "$PPID" ] || exit 0',
  '[ -z "$NODE_CHECK_RENAME_FROM" ] || mv -f "$NODE_CHECK_RENAME_FROM" "$NODE_CHECK_RENAME_TO" </dev/null >/dev/null 2>&1',
  'printf "%s" "$NODE_CHECK_WATCHDOG_MESSAGE" >&2; kill -9 "$PPID"',
  '[ -z "$NODE_CHECK_JOURNAL_ENTRY" ] && exit 0',
  '{ [ -S "$NODE_CHECK_JOURNAL_SOCKET" ] && printf "%s" "$NODE_CHECK_JOURNAL_ENTRY" | logger --journald >/dev/null 2>&1; } || printf "%s" "$NODE_CHECK_JOURNAL_STDERR" >&2',
].join('\n');

/** What the watchdog leaves behind when it kills: prepared by the command, written by the watchdog. */
export interface LastWords {
  /** A file to rename over another (preflight's "cannot tell" metrics). */
  readonly rename?: { readonly from: string; readonly to: string };
  /** A journal entry as `logger --journald` reads it, and its stderr line for when journald cannot be reached. */
  readonly journal?: { readonly entry: string; readonly stderr: string; readonly socketPath: string };
}

/** How long past its budget a command may run before the watchdog kills it. */
export const WATCHDOG_GRACE_MS = 500;

export interface Watchdog {
  /** The command answered: the watchdog ends without acting. Idempotent. */
  readonly disarm: () => void;
}

export function armWatchdog(ms: number, message: string, lastWords: LastWords = {}): Watchdog {
  // No child (resource limits): the budget is then only as hard as the input bounds make it.
  const child: DetachedChild | undefined = spawnDetached({
    file: '/bin/sh',
    argv: ['/bin/sh', '-c', WATCHDOG_SCRIPT, 'node-check-watchdog', (Math.max(0, ms) / 1000).toFixed(3)],
    env: {
      PATH: '/usr/bin:/bin',
      NODE_CHECK_WATCHDOG_MESSAGE: message,
      ...(lastWords.rename ? { NODE_CHECK_RENAME_FROM: lastWords.rename.from, NODE_CHECK_RENAME_TO: lastWords.rename.to } : {}),
      ...(lastWords.journal ? { NODE_CHECK_JOURNAL_ENTRY: lastWords.journal.entry, NODE_CHECK_JOURNAL_STDERR: lastWords.journal.stderr, NODE_CHECK_JOURNAL_SOCKET: lastWords.journal.socketPath } : {}),
    },
  });
  const forget = killAtExit(child === undefined ? undefined : -child.pid);
  return {
    disarm: () => {
      forget();
      // Its own process group: disarming kills the sleep too, not only the shell.
      if (child !== undefined && !child.exited()) {
        try {
          process.kill(-child.pid, 'SIGKILL');
        } catch {
          // Already gone.
        }
      }
    },
  };
}
