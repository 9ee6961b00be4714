/**
 * The one way node-check replaces a file: a temp file in the same directory (O_EXCL|O_NOFOLLOW,
 * a hidden name no reader picks up), written, chmod-ed, fsync-ed, renamed over the target, then
 * the directory fsync-ed so the rename survives a crash. Readers see the old file or the new one,
 * never a part. The caller decides which directories it may write in.
 */
import { closeSync, constants, fchmodSync, fchownSync, fstatSync, fsyncSync, lstatSync, openSync, readSync, readdirSync, renameSync, unlinkSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { removeAtExit } from './exit-cleanup.js';
import { killPoint } from './kill-points.js';
import { lazyBuiltin } from './builtins.js';


/**
 * Random bytes as hex, from /dev/urandom: loading node:crypto for six bytes took milliseconds of
 * preflight's start path. node:crypto only when /dev/urandom cannot be read.
 */
function randomHex(bytes: number): string {
  const buffer = Buffer.alloc(bytes);
  try {
    const fd = openSync('/dev/urandom', constants.O_RDONLY | constants.O_NOFOLLOW);
    try {
      if (readSync(fd, buffer) !== bytes) throw new Error('short read');
    } finally {
      closeSync(fd);
    }
  } catch {
    lazyBuiltin('node:crypto').randomFillSync(buffer);
  }
  return buffer.toString('hex');
}

export interface ReplacementOptions {
  /** false skips the two fsyncs: for a file that is rewritten at every start anyway. */
  readonly durable?: boolean;
  /**
   * A regular file already at the target keeps its permission bits and owner (an admin's 0600
   * file of another user stays so); `mode` is for a new file. The owner is kept where this
   * process may chown (root); otherwise the file is the writer's, as a new one is.
   */
  readonly keepOwnerAndMode?: boolean;
  /** false: no test kill points (a replacement prepared in advance, which may never be committed). */
  readonly killPoints?: boolean;
}

/** A temp file written and ready: `commit` renames it over the target, `discard` removes it. */
export interface PreparedReplacement {
  /** The temp file's path (through `hostDir` as given). */
  readonly temp: string;
  readonly commit: () => void;
  readonly discard: () => void;
}

export function replaceFileAtomically(hostDir: string, name: string, data: string | Buffer, mode: number, options: ReplacementOptions = {}): void {
  prepareReplacement(hostDir, name, data, mode, options).commit();
}

/**
 * The temp file of replaceFileAtomically, written now, renamed later (or never): preflight
 * prepares its "cannot tell" metrics this way, for its watchdog to rename when it must kill.
 */
export function prepareReplacement(hostDir: string, name: string, data: string | Buffer, mode: number, { durable = true, keepOwnerAndMode = false, killPoints = true }: ReplacementOptions = {}): PreparedReplacement {
  const step = killPoints ? killPoint : () => undefined;
  removeStaleTempFiles(hostDir, name);
  const target = join(hostDir, name);
  const existing = keepOwnerAndMode ? regularFileAt(target) : undefined;
  if (existing) mode = existing.mode & 0o777;
  const temp = join(hostDir, `.${name}.${process.pid}.${randomHex(6)}.tmp`);
  const fd = openSync(temp, constants.O_WRONLY | constants.O_CREAT | constants.O_EXCL | constants.O_NOFOLLOW, mode);
  const forget = removeAtExit(temp);
  const discard = () => {
    unlinkIfPresent(temp);
    forget();
  };
  try {
    try {
      step(`write:${name}:temp-created`);
      if (existing) keepOwner(fd, existing);
      writeFileSync(fd, data);
      fchmodSync(fd, mode); // whatever the umask, and after fchown (which clears set-id bits)
      if (durable) fsyncSync(fd);
    } finally {
      closeSync(fd);
    }
    step(`write:${name}:temp-written`);
  } catch (error) {
    discard();
    throw error;
  }
  return {
    temp,
    discard,
    commit: () => {
      try {
        renameSync(temp, target);
        step(`write:${name}:renamed`);
      } catch (error) {
        unlinkIfPresent(temp);
        throw error;
      } finally {
        forget();
      }
      if (durable) syncDirectory(hostDir);
    },
  };
}

/**
 * rmSync(path, { force: true }) for the temp file: fs.rmSync loads Node's rimraf, compiled from
 * source on the start path (its code cache is keyed to the V8 flags the launcher sets).
 */
function unlinkIfPresent(path: string): void {
  try {
    unlinkSync(path);
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code !== 'ENOENT') throw error;
  }
}

function regularFileAt(path: string): { mode: number; uid: number; gid: number } | undefined {
  try {
    const st = lstatSync(path);
    return st.isFile() ? { mode: st.mode, uid: st.uid, gid: st.gid } : undefined;
  } catch {
    return undefined;
  }
}

function keepOwner(fd: number, owner: { uid: number; gid: number }): void {
  const st = fstatSync(fd);
  if (st.uid === owner.uid && st.gid === owner.gid) return;
  try {
    fchownSync(fd, owner.uid, owner.gid);
  } catch (error) {
    const code = (error as NodeJS.ErrnoException).code;
    if (code !== 'EPERM' && code !== 'EINVAL') throw error;
  }
}

/**
 * Temp files of this target left by a writer that was killed (SIGKILL, power cut): their pid is
 * gone, or is this process (a pid reused after a reboot, /run being cleared aside). Others'
 * in-flight temp files stay. (test/hostile/write-destinations.test.ts)
 */
function removeStaleTempFiles(hostDir: string, name: string): void {
  let entries: string[];
  try {
    entries = readdirSync(hostDir);
  } catch {
    return;
  }
  const prefix = `.${name}.`;
  for (const entry of entries) {
    if (!entry.startsWith(prefix) || !entry.endsWith('.tmp')) continue;
    const match = /^(\d+)\.[0-9a-f]{12}\.tmp$/.exec(entry.slice(prefix.length));
    if (!match) continue;
    const pid = Number(match[1]);
    if (pid !== process.pid && processAlive(pid)) continue;
    try {
      unlinkSync(join(hostDir, entry));
    } catch {
      // someone else cleaned it
    }
  }
}

/** Whether a process with this pid exists (EPERM: it does, owned by someone else). */
export function processAlive(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch (error) {
    return (error as NodeJS.ErrnoException).code === 'EPERM';
  }
}

/** Makes a rename or unlink in `hostDir` durable; best effort where a filesystem cannot fsync directories. */
export function syncDirectory(hostDir: string): void {
  let fd: number | undefined;
  try {
    fd = openSync(hostDir, constants.O_RDONLY | constants.O_DIRECTORY);
    fsyncSync(fd);
  } catch {
    // the change is made; only its durability across a power cut is not guaranteed
  } finally {
    if (fd !== undefined) closeSync(fd);
  }
}
