/**
 * Writes journal entries with `logger --journald` (Node.js cannot send on journald's datagram
 * socket itself), one logger run per entry: util-linux logger reads a single entry per run.
 *
 * logger exits 0 and drops the entry when /run/systemd/journal/socket does not exist
 * (sd_journal_sendv ignores ENOENT), so the socket is checked first. Without it, or when logger
 * is missing, fails or runs out of time, the entries go to stderr as `<N>`-prefixed lines, which
 * systemd files under the calling unit (kubelet's, for ExecStartPre) at that priority.
 *
 * Which unit an entry belongs to: journald reads the sender's cgroup from /proc/<pid> when it
 * handles the datagram, and logger has often exited (and been reaped) by then, so logger's own
 * _SYSTEMD_UNIT= is missing now and then (seen in the booted-node tests: on the first kubelet start
 * after boot, `journalctl -u kubelet` lacked the entry). With `objectPid`, each entry carries
 * OBJECT_PID=; for a root sender journald then adds OBJECT_SYSTEMD_UNIT= and the other OBJECT_
 * fields from that process, which is alive (it waits for logger), and `journalctl -u UNIT` matches
 * OBJECT_SYSTEMD_UNIT=UNIT _UID=0 (systemd journald-native.c allow_object_pid, journalctl
 * add_matches_for_unit).
 */
import { statSync } from 'node:fs';
import { formatForStderr, serializeForLogger, type JournalEntry } from './journal-entry.js';
import { killAtExit } from '../host/exit-cleanup.js';

export const DEFAULT_JOURNAL_SOCKET = '/run/systemd/journal/socket';

export interface WriteJournalOptions {
  /** journald's native socket; default /run/systemd/journal/socket. */
  readonly socketPath?: string;
  /** The logger binary; default `logger` from PATH. */
  readonly loggerPath?: string;
  /** Bound on all logger runs together. */
  readonly timeoutMs: number;
  readonly stderr: (text: string) => void;
  /** The live process the entries are about, normally process.pid: sent as OBJECT_PID= (see above). */
  readonly objectPid?: number;
}

/** Where the entries went: all to the journal, or (some or all) to stderr. Never throws. */
export async function writeJournal(entries: readonly JournalEntry[], options: WriteJournalOptions): Promise<'journal' | 'stderr'> {
  if (entries.length === 0) return 'journal';
  const toStderr = (from: number, why: string): 'stderr' => {
    options.stderr(`<4>node-check: journal not written (${why}); findings follow on stderr\n`);
    for (const entry of entries.slice(from)) options.stderr(formatForStderr(entry));
    return 'stderr';
  };

  const socketPath = options.socketPath ?? DEFAULT_JOURNAL_SOCKET;
  if (!isSocket(socketPath)) return toStderr(0, `${socketPath} is not a socket`);

  let execa: typeof import('execa').execa;
  try {
    ({ execa } = await import('execa')); // loaded only by commands that log
  } catch (error) {
    return toStderr(0, `cannot load execa: ${(error as Error).message}`);
  }
  const deadline = Date.now() + options.timeoutMs;
  const logger = options.loggerPath ?? 'logger';
  const objectPidLine = options.objectPid !== undefined && Number.isSafeInteger(options.objectPid) && options.objectPid > 0 ? `OBJECT_PID=${options.objectPid}\n` : '';
  for (const [index, entry] of entries.entries()) {
    const remaining = deadline - Date.now();
    if (remaining <= 0) return toStderr(index, `out of time after ${options.timeoutMs} ms`);
    const subprocess = execa(logger, ['--journald'], {
      input: withObjectPid(serializeForLogger(entry), objectPidLine),
      timeout: remaining,
      // A logger that hangs is killed outright at the deadline, and at node-check's exit.
      killSignal: 'SIGKILL',
      reject: false,
      stdout: 'ignore',
      stripFinalNewline: true,
    });
    const forget = killAtExit(subprocess.pid);
    const result = await subprocess;
    forget();
    if (result.failed) {
      const detail = result.timedOut
        ? `logger timed out`
        : result.exitCode === undefined
          ? `cannot run ${logger}: ${result.originalMessage ?? result.shortMessage}`
          : `${logger} exited ${result.exitCode}${result.stderr ? `: ${String(result.stderr).split('\n')[0]}` : ''}`;
      return toStderr(index, detail);
    }
  }
  return 'journal';
}

function withObjectPid(serialized: string, objectPidLine: string): string {
  return serialized === '' ? serialized : serialized + objectPidLine;
}

function isSocket(path: string): boolean {
  try {
    return statSync(path).isSocket();
  } catch {
    return false;
  }
}
