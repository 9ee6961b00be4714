/**
 * The one place where host paths are read. Every path is a path *on the node* ("/etc/...") and is
 * resolved under `root` (default "/"). Symlinks are followed component by component; an absolute
 * target is read under the root and ".." never climbs above it, so a node image mounted at
 * /mnt/node cannot make node-check read the host's /etc. Nothing here ever executes a file.
 */
import * as fs from 'node:fs';
import * as path from 'node:path';

/** Linux allows 40 symlinks per lookup (MAXSYMLINKS); past that, ELOOP. */
const MAX_SYMLINKS = 40;

export type ErrnoCode = 'ENOENT' | 'ENOTDIR' | 'ELOOP' | 'EACCES' | 'ENAMETOOLONG' | 'EISDIR' | 'EIO' | 'EFBIG' | string;

export interface StatFacts {
  readonly type: 'file' | 'directory' | 'symlink' | 'other';
  readonly mode: number;
  readonly uid: number;
  readonly gid: number;
  readonly size: number;
}

export type StatResult = ({ readonly ok: true } & StatFacts) | { readonly ok: false; readonly code: ErrnoCode };
export type ReadResult =
  | { readonly ok: true; readonly data: Buffer }
  | { readonly ok: false; readonly code: ErrnoCode };

export interface DirEntryFacts {
  readonly name: string;
  /** As Go's DirEntry.IsDir(): the entry itself, a symlink to a directory is not a directory. */
  readonly isDirectory: boolean;
}

export class RootFs {
  readonly root: string;
  readonly isHostRoot: boolean;

  /**
   * Host paths of the directories (not symlinks) that resolution has walked through, so that 1,000
   * plugins in one directory cost one lstat of each parent, not 1,000 (issue 12). Only where every
   * open is then checked against where the kernel opened it (a directory swapped for a symlink
   * after it was remembered is caught there, as one swapped between lstat and open always was), and
   * only for the life of this RootFs: one check's (discoverNode builds one per check; serve's
   * watcher resolves its paths once, at setup).
   */
  private readonly directories: Set<string> | undefined;

  constructor(root: string) {
    this.root = path.resolve(root);
    this.isHostRoot = this.root === '/';
    this.directories = !this.isHostRoot && PROC_FD ? new Set() : undefined;
  }

  /**
   * Resolves a node path (absolute, or relative to "/" as systemd starts kubelet there) to a path
   * on this machine, following symlinks under the root. `followLast` = false resolves the parent
   * directories only (lstat semantics).
   */
  resolve(nodePath: string, followLast = true): { ok: true; hostPath: string; nodePath: string } | { ok: false; code: ErrnoCode } {
    // A NUL cannot be in a path: Go's syscall layer answers EINVAL ("invalid argument"); Node would
    // throw ERR_INVALID_ARG_VALUE (issue 10, item 12).
    if (nodePath.includes('\0')) return { ok: false, code: 'EINVAL' };
    // No lexical cleaning: "l/../x" follows l first, as the kernel does (issue 10, item 8).
    const raw = nodePath.startsWith('/') ? nodePath : `/${nodePath}`;
    if (this.isHostRoot) return { ok: true, hostPath: raw, nodePath: path.posix.resolve(raw) };
    const pending = raw.split('/').filter(Boolean);
    const resolved: string[] = [];
    let links = 0;
    while (pending.length > 0) {
      const part = pending.shift()!;
      if (part === '.') continue;
      if (part === '..') {
        resolved.pop();
        continue;
      }
      // The parts are plain names here ('.', '..' and empty ones are handled above): a
      // concatenation is path.join's result, without its normalising pass.
      const hostPath = resolved.length === 0 ? `${this.root}/${part}` : `${this.root}/${resolved.join('/')}/${part}`;
      const isLast = pending.length === 0;
      if (!isLast && this.directories?.has(hostPath)) {
        resolved.push(part);
        continue;
      }
      let st: fs.Stats;
      try {
        st = fs.lstatSync(hostPath);
      } catch (error) {
        return { ok: false, code: errnoOf(error) };
      }
      if (st.isSymbolicLink() && (!isLast || followLast)) {
        if (++links > MAX_SYMLINKS) return { ok: false, code: 'ELOOP' };
        let target: string;
        try {
          target = fs.readlinkSync(hostPath);
        } catch (error) {
          return { ok: false, code: errnoOf(error) };
        }
        if (target.startsWith('/')) resolved.length = 0;
        pending.unshift(...target.split('/').filter(Boolean));
        continue;
      }
      if (!isLast && !st.isDirectory()) return { ok: false, code: 'ENOTDIR' };
      if (!isLast) this.directories?.add(hostPath);
      resolved.push(part);
    }
    const nodeResolved = '/' + resolved.join('/');
    return { ok: true, hostPath: resolved.length === 0 ? this.root : `${this.root}/${resolved.join('/')}`, nodePath: nodeResolved };
  }

  /** stat(2): follows symlinks. */
  stat(nodePath: string): StatResult {
    return this.statWith(nodePath, true);
  }

  /** lstat(2): does not follow a final symlink. */
  lstat(nodePath: string): StatResult {
    return this.statWith(nodePath, false);
  }

  /** The raw target of a symlink, as stored. */
  readlink(nodePath: string): string | undefined {
    const r = this.resolve(nodePath, false);
    if (!r.ok) return undefined;
    try {
      return fs.readlinkSync(r.hostPath);
    } catch {
      return undefined;
    }
  }

  /** Reads at most `maxBytes` (+1, so callers can tell the file was larger). Directories give EISDIR. */
  readFile(nodePath: string, maxBytes = 4 * 1024 * 1024): ReadResult {
    const r = this.resolve(nodePath);
    if (!r.ok) return r;
    let fd: number | undefined;
    try {
      fd = fs.openSync(r.hostPath, fs.constants.O_RDONLY | fs.constants.O_NONBLOCK);
      if (!this.insideRoot(fd)) return { ok: false, code: OUTSIDE_ROOT };
      const st = fs.fstatSync(fd);
      if (st.isDirectory()) return { ok: false, code: 'EISDIR' };
      if (!st.isFile()) return { ok: false, code: 'EINVAL' };
      const chunks: Buffer[] = [];
      let total = 0;
      const buf = Buffer.allocUnsafe(64 * 1024);
      for (;;) {
        const n = fs.readSync(fd, buf, 0, buf.length, null);
        if (n === 0) break;
        chunks.push(Buffer.from(buf.subarray(0, n)));
        total += n;
        if (total > maxBytes) return { ok: false, code: 'EFBIG' };
      }
      return { ok: true, data: Buffer.concat(chunks) };
    } catch (error) {
      return { ok: false, code: errnoOf(error) };
    } finally {
      if (fd !== undefined) fs.closeSync(fd);
    }
  }

  /** Reads the first `length` bytes (for ELF headers). */
  readHead(nodePath: string, length: number): ReadResult {
    const r = this.resolve(nodePath);
    if (!r.ok) return r;
    let fd: number | undefined;
    try {
      fd = fs.openSync(r.hostPath, fs.constants.O_RDONLY | fs.constants.O_NONBLOCK);
      if (!this.insideRoot(fd)) return { ok: false, code: OUTSIDE_ROOT };
      if (!fs.fstatSync(fd).isFile()) return { ok: false, code: 'EINVAL' };
      const buf = Buffer.alloc(length);
      const n = fs.readSync(fd, buf, 0, length, 0);
      return { ok: true, data: buf.subarray(0, n) };
    } catch (error) {
      return { ok: false, code: errnoOf(error) };
    } finally {
      if (fd !== undefined) fs.closeSync(fd);
    }
  }

  readdir(nodePath: string): { ok: true; entries: DirEntryFacts[] } | { ok: false; code: ErrnoCode } {
    const r = this.resolve(nodePath);
    if (!r.ok) return r;
    let fd: number | undefined;
    try {
      let listed = r.hostPath;
      if (this.verifies()) {
        fd = fs.openSync(r.hostPath, fs.constants.O_RDONLY | fs.constants.O_DIRECTORY | fs.constants.O_NONBLOCK);
        if (!this.insideRoot(fd)) return { ok: false, code: OUTSIDE_ROOT };
        listed = `/proc/self/fd/${fd}`;
      }
      const entries = fs.readdirSync(listed, { withFileTypes: true });
      return { ok: true, entries: entries.map((e) => ({ name: e.name, isDirectory: e.isDirectory() })) };
    } catch (error) {
      return { ok: false, code: errnoOf(error) };
    } finally {
      if (fd !== undefined) fs.closeSync(fd);
    }
  }

  private statWith(nodePath: string, follow: boolean): StatResult {
    const r = this.resolve(nodePath, follow);
    if (!r.ok) return r;
    let fd: number | undefined;
    try {
      let st: fs.Stats;
      if (this.verifies()) {
        // O_PATH opens anything (a FIFO without blocking, a symlink itself with O_NOFOLLOW).
        fd = fs.openSync(r.hostPath, O_PATH | (follow ? 0 : fs.constants.O_NOFOLLOW));
        if (!this.insideRoot(fd, !follow)) return { ok: false, code: OUTSIDE_ROOT };
        st = fs.fstatSync(fd);
      } else {
        st = follow ? fs.statSync(r.hostPath) : fs.lstatSync(r.hostPath);
      }
      return {
        ok: true,
        type: st.isFile() ? 'file' : st.isDirectory() ? 'directory' : st.isSymbolicLink() ? 'symlink' : 'other',
        mode: st.mode & 0o7777,
        uid: st.uid,
        gid: st.gid,
        size: st.size,
      };
    } catch (error) {
      return { ok: false, code: errnoOf(error) };
    } finally {
      if (fd !== undefined) fs.closeSync(fd);
    }
  }

  private realRoot: string | undefined;

  /** Under --root on Linux: every open is checked against where the kernel actually opened it. */
  private verifies(): boolean {
    return !this.isHostRoot && PROC_FD;
  }

  /**
   * Resolution checks each component and then opens by path, so a directory swapped in between
   * could lead outside the root (issue 10, item 7). /proc/self/fd/N names what the kernel opened:
   * anything outside the root is refused. (A symlink opened itself, `symlink`, is checked by its
   * directory.)
   */
  private insideRoot(fd: number, symlink = false): boolean {
    if (!this.verifies()) return true;
    try {
      this.realRoot ??= fs.realpathSync(this.root);
      let opened = fs.readlinkSync(`/proc/self/fd/${fd}`);
      if (symlink) opened = path.dirname(opened);
      return opened === this.realRoot || opened.startsWith(this.realRoot === '/' ? '/' : `${this.realRoot}/`);
    } catch {
      return false;
    }
  }
}

/** What a path that led outside --root at open time reads as (a race, or a bug in resolve). */
export const OUTSIDE_ROOT = 'EXDEV';
/** Linux's O_PATH (not in fs.constants): open for fstat only, never blocks, never reads. */
const O_PATH = 0o10000000;
const PROC_FD = process.platform === 'linux' && fs.existsSync('/proc/self/fd');

export function errnoOf(error: unknown): ErrnoCode {
  const code = (error as NodeJS.ErrnoException | undefined)?.code;
  return typeof code === 'string' ? code : 'EIO';
}

/** The text Go's syscall.Errno.Error() prints for a code, as it appears inside kubelet's messages. */
export function goErrnoText(code: ErrnoCode): string {
  switch (code) {
    case 'ENOENT':
      return 'no such file or directory';
    case 'ENOTDIR':
      return 'not a directory';
    case 'ELOOP':
      return 'too many levels of symbolic links';
    case 'EACCES':
      return 'permission denied';
    case 'ENAMETOOLONG':
      return 'file name too long';
    case 'EISDIR':
      return 'is a directory';
    case 'EIO':
      return 'input/output error';
    case 'EFBIG':
      return 'file too large';
    case 'EINVAL':
      return 'invalid argument';
    case 'EXDEV':
      return 'changed while node-check read it (it led outside --root)';
    default:
      return code.toLowerCase();
  }
}
