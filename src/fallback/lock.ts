/**
 * One node-check at a time may plan and change the fallback: preflight, `fallback apply|revert` and
 * serve all run their check-and-change inside withLock.
 *
 * The lock is /run/node-check/lock, created with O_EXCL and holding the owner's pid and process
 * start time. A lock is stale when its process is gone, when the pid now belongs to another process
 * (different start time), or when it is older than a bound; a stale lock is moved aside atomically
 * (rename) and only deleted if it is still the one judged stale. Waiting is bounded.
 */
import { processAlive } from '../host/atomic-file.js';
import { closeSync, constants, fstatSync, fsyncSync, linkSync, openSync, readFileSync, renameSync, rmSync, rmdirSync, unlinkSync, writeFileSync } from 'node:fs';
import { basename, dirname, join, posix, resolve } from 'node:path';
import { lazyBuiltin } from '../host/builtins.js';
import { setTimeout as sleep } from 'node:timers/promises';
import { LOCK_PATH } from './paths.js';
import { removeAtExit } from '../host/exit-cleanup.js';
import { openDirectoryBelow, type DirHandle } from '../host/safe-dir.js';
import { describeErrno } from '../host/errno-text.js';
import { killPoint } from '../host/kill-points.js';

/** LOCK_PATH as the components opened below the root, and the file's name. */
const LOCK_DIR_PARTS = posix.dirname(LOCK_PATH).split('/').filter(Boolean);
const LOCK_NAME = posix.basename(LOCK_PATH);

export interface LockOptions {
  /** How long to wait for another holder before giving up (default 20 s). */
  readonly waitMs?: number;
  /** A lock older than this is stale even if its process lives (default 5 min; a check takes seconds). */
  readonly staleAfterMs?: number;
  /** Poll interval while waiting (default 100 ms). */
  readonly pollMs?: number;
}

export interface LockHolder {
  readonly pid: number;
  /** /proc/<pid>/stat field 22 (clock ticks since boot), to tell a reused pid; null off Linux. */
  readonly startTime: string | null;
  readonly createdAt: string;
  readonly token: string;
}

export class LockBusyError extends Error {
  constructor(
    readonly lockPath: string,
    readonly holder: LockHolder | undefined,
  ) {
    super(`${lockPath} is held by ${holder ? `pid ${holder.pid} since ${holder.createdAt}` : 'another node-check'}; try again later`);
    this.name = 'LockBusyError';
  }
}

/** A lock file that is still being written (created, not yet filled) gets this long before it counts as garbage. */
const UNREADABLE_GRACE_MS = 5000;

/** In-process queue per lock, so two async callers in one process (serve) also take turns. */
const queues = new Map<string, Promise<unknown>>();

export async function withLock<T>(root: string, fn: () => Promise<T> | T, options: LockOptions = {}): Promise<T> {
  const base = resolve(root);
  const lockPath = join(base, LOCK_PATH);
  const previous = queues.get(lockPath) ?? Promise.resolve();
  const run = previous.catch(() => undefined).then(async () => {
    const held = await acquire(base, lockPath, options);
    const forget = removeAtExit(lockPath, held.content); // a SIGTERM ends the process at once: no stale lock
    try {
      return await fn();
    } finally {
      forget();
      release(held.dir, held.content);
    }
  });
  queues.set(lockPath, run);
  try {
    return await run;
  } finally {
    if (queues.get(lockPath) === run) queues.delete(lockPath);
  }
}

/**
 * ROOT/run/node-check is opened component by component without following symlinks (a
 * `ROOT/run -> elsewhere` put the lock outside the root: test/hostile/write-paths.test.ts), and every lock operation goes through
 * that open directory. `lockPath` is for messages.
 */
async function acquire(base: string, lockPath: string, options: LockOptions): Promise<{ content: string; dir: DirHandle }> {
  const waitMs = options.waitMs ?? 20_000;
  const staleAfterMs = options.staleAfterMs ?? 5 * 60_000;
  const pollMs = options.pollMs ?? 100;
  const deadline = Date.now() + waitMs;
  const content = JSON.stringify({
    pid: process.pid,
    startTime: processStartTime(process.pid),
    createdAt: new Date().toISOString(),
    token: lazyBuiltin('node:crypto').randomBytes(8).toString('hex'),
  } satisfies LockHolder);

  for (;;) {
    let dir: DirHandle;
    try {
      dir = openDirectoryBelow(base, LOCK_DIR_PARTS, { create: true, mode: 0o755 })!;
    } catch (error) {
      throw new LockUnavailableError(lockPath, error);
    }
    const lockAt = join(dir.at, LOCK_NAME);
    let written = false;
    try {
      const fd = openSync(lockAt, constants.O_WRONLY | constants.O_CREAT | constants.O_EXCL | constants.O_NOFOLLOW, 0o644);
      try {
        killPoint('lock:created');
        writeFileSync(fd, content);
        fsyncSync(fd);
        written = true;
        killPoint('lock:held');
      } finally {
        closeSync(fd);
        // ENOSPC and the like: no empty lock file is left for others to wait on (test/hostile/write-destinations.test.ts).
        if (!written) rmSync(lockAt, { force: true });
      }
      return { content, dir };
    } catch (error) {
      const code = (error as NodeJS.ErrnoException).code;
      // ENOENT: a releasing holder removed the empty directory between our mkdir and open.
      if (code === 'ENOENT') {
        dir.close();
        continue;
      }
      if (code !== 'EEXIST') {
        // A read-only or full /run: leave no empty directory of ours behind either.
        removeLockDirIfEmpty(dir);
        throw new LockUnavailableError(lockPath, error);
      }
    }
    let existing: ExistingLock | undefined;
    try {
      existing = readLock(join(dir.at, LOCK_NAME));
    } catch (error) {
      dir.close();
      if (error instanceof NotALockError) throw new NotALockError(lockPath);
      throw error;
    }
    try {
      if (existing === undefined) continue;
      if (isStale(existing, staleAfterMs)) {
        breakStaleLock(dir.at, existing.text);
        continue;
      }
    } finally {
      dir.close();
    }
    if (Date.now() >= deadline) throw new LockBusyError(lockPath, existing.holder);
    await sleep(pollMs);
  }
}

function release(dir: DirHandle, content: string): void {
  const lockAt = join(dir.at, LOCK_NAME);
  try {
    // Only our own lock: if it was (wrongly) broken and re-taken meanwhile, it is not ours to delete.
    if (readFileSync(lockAt, 'utf8') === content) unlinkSync(lockAt);
  } catch {
    // Already gone.
  }
  removeLockDirIfEmpty(dir);
}

/** Closes `dir` (ROOT/run/node-check) and removes it when empty. */
function removeLockDirIfEmpty(dir: DirHandle): void {
  const parent = dirname(dir.path);
  dir.close();
  try {
    // rmdir by name under ROOT/run (checked below): only an empty directory goes.
    const run = openDirectoryBelow(parent === '/' ? '/' : dirname(parent), [basename(parent)]);
    if (run) {
      try {
        rmdirSync(join(run.at, LOCK_DIR_PARTS[1]!));
      } finally {
        run.close();
      }
    }
  } catch {
    // Not empty (the fallback record lives there), already gone, or not a plain directory.
  }
}

interface ExistingLock {
  readonly text: string;
  readonly holder?: LockHolder;
  readonly ageMs: number;
}

/** The lock as it stands; undefined when it is gone. Never blocks (a FIFO in its place) and never follows a link. */
function readLock(lockPath: string): ExistingLock | undefined {
  let fd: number | undefined;
  try {
    fd = openSync(lockPath, constants.O_RDONLY | constants.O_NONBLOCK | constants.O_NOFOLLOW);
    const st = fstatSync(fd);
    if (!st.isFile()) throw new NotALockError(lockPath);
    const text = st.size > 64 * 1024 ? '' : readFileSync(fd, 'utf8');
    return { text, holder: parseHolder(text), ageMs: Date.now() - st.mtimeMs };
  } catch (error) {
    if (error instanceof NotALockError) throw error;
    const code = (error as NodeJS.ErrnoException).code;
    // A symlink (O_NOFOLLOW: ELOOP), a directory or a special file is nothing node-check wrote.
    if (code === 'ELOOP' || code === 'EISDIR' || code === 'ENXIO') throw new NotALockError(lockPath);
    return undefined;
  } finally {
    if (fd !== undefined) closeSync(fd);
  }
}

/**
 * The lock cannot be created at all: ROOT/run read-only or full, a symlink on the way. Nothing was
 * changed; the message names the lock file and why (test/hostile/write-destinations.test.ts).
 */
export class LockUnavailableError extends Error {
  constructor(
    readonly lockPath: string,
    cause: unknown,
  ) {
    super(`cannot take the lock ${lockPath}: ${describeErrno(cause)}`);
    this.name = 'LockUnavailableError';
  }
}

/** Something else than a lock file sits where the lock goes: refuse rather than spin on it. */
export class NotALockError extends Error {
  constructor(readonly lockPath: string) {
    super(`${lockPath} is not a regular file (node-check did not create it); remove it`);
    this.name = 'NotALockError';
  }
}

function parseHolder(text: string): LockHolder | undefined {
  try {
    const value = JSON.parse(text) as Partial<LockHolder>;
    if (typeof value.pid !== 'number' || !Number.isInteger(value.pid) || value.pid <= 0) return undefined;
    if (typeof value.createdAt !== 'string' || typeof value.token !== 'string') return undefined;
    return { pid: value.pid, startTime: typeof value.startTime === 'string' ? value.startTime : null, createdAt: value.createdAt, token: value.token };
  } catch {
    return undefined;
  }
}

function isStale(lock: ExistingLock, staleAfterMs: number): boolean {
  const { holder } = lock;
  if (!holder) return lock.ageMs > UNREADABLE_GRACE_MS;
  if (!processAlive(holder.pid)) return true;
  const startTime = processStartTime(holder.pid);
  if (holder.startTime !== null && startTime !== null && startTime !== holder.startTime) return true;
  const created = Date.parse(holder.createdAt);
  return Number.isNaN(created) || Date.now() - created > staleAfterMs;
}

/** Moves the stale lock aside and deletes it only if it is still the one judged stale; otherwise puts it back. */
function breakStaleLock(dirAt: string, judged: string): void {
  const lockPath = join(dirAt, LOCK_NAME);
  const aside = `${lockPath}.stale.${process.pid}.${lazyBuiltin('node:crypto').randomBytes(4).toString('hex')}`;
  try {
    renameSync(lockPath, aside);
  } catch {
    return;
  }
  try {
    if (readFileSync(aside, 'utf8') !== judged) {
      // A live holder replaced it in between: restore it unless yet another lock appeared.
      try {
        linkSync(aside, lockPath);
      } catch {
        // EEXIST: a newer lock is in place; the moved one is no longer anybody's.
      }
    }
  } finally {
    rmSync(aside, { force: true });
  }
}


/** Field 22 of /proc/<pid>/stat; the command name (field 2) may contain spaces and parentheses. */
export function processStartTime(pid: number): string | null {
  try {
    const stat = readFileSync(`/proc/${pid}/stat`, 'utf8');
    const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
    return fields[19] ?? null;
  } catch {
    return null;
  }
}
