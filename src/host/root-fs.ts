/**
 * The one place where host paths are read. Every path is a path *on the node* ("/etc/...") and is
 * resolved under `root` (default "/"). Symlinks are followed component by component; an absolute
 * target is read under the root and ".." never climbs above it, so a node image mounted at
 * /mnt/node cannot make node-check read the host's /etc. Nothing here ever executes a file.
 */
import { type Stats, closeSync, constants, existsSync, fstatSync, lstatSync, openSync, readSync, readdirSync, readlinkSync, realpathSync, statSync } from 'node:fs';
import { dirname, posix, resolve as pathResolve } from 'node:path';
import { walkPath, type PathView } from './path-walk.js';
import { fileNameFromBytes, hostFileName } from '../go/utf8.js';

export type ErrnoCode = 'ENOENT' | 'ENOTDIR' | 'ELOOP' | 'EACCES' | 'ENAMETOOLONG' | 'EISDIR' | 'EIO' | 'EFBIG' | string;

export interface StatFacts {
  readonly type: 'file' | 'directory' | 'symlink' | 'other';
  /** For 'other': which kind of special file (systemd treats each differently as a unit file). */
  readonly special?: 'fifo' | 'socket' | 'char-device' | 'block-device';
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

/** A resolved path. */
export interface Resolved {
  readonly ok: true;
  /** Where the file is on this machine. */
  readonly hostPath: string;
  /** Where it is on the node, symlinks followed. */
  readonly nodePath: string;
  /**
   * Set where RootFs's own walk (under a root other than "/") lstat'ed the last component, not
   * following it, and saw a regular file (lstatWithHead opens only such a file for reading).
   */
  readonly lastIsFile?: true;
}

export class RootFs {
  readonly root: string;
  readonly isHostRoot: boolean;

  /**
   * Host paths of the directories (not symlinks) that resolution has walked through, so that 1,000
   * plugins in one directory cost one lstat of each parent, not 1,000 (start-path cost). Only where every
   * open is then checked against where the kernel opened it (a directory swapped for a symlink
   * after it was remembered is caught there, as one swapped between lstat and open always was), and
   * only for the life of this RootFs: one check's (discoverNode builds one per check; serve's
   * watcher resolves its paths once, at setup).
   */
  private readonly directories: Set<string> | undefined;

  constructor(root: string) {
    this.root = pathResolve(root);
    this.isHostRoot = this.root === '/';
    this.directories = !this.isHostRoot && PROC_FD ? new Set() : undefined;
    this.diskView = this.diskViewOf(this.root);
  }

  private readonly diskView: PathView<DiskEntry>;

  /**
   * Resolves a node path (absolute, or relative to "/" as systemd starts kubelet there) to a path
   * on this machine, following symlinks under the root. `followLast` = false resolves the parent
   * directories only (lstat semantics).
   */
  resolve(nodePath: string, followLast = true): Resolved | { ok: false; code: ErrnoCode } {
    // A NUL cannot be in a path: Go's syscall layer answers EINVAL ("invalid argument"); Node would
    // throw ERR_INVALID_ARG_VALUE.
    if (nodePath.includes('\0')) return { ok: false, code: 'EINVAL' };
    const raw = nodePath.startsWith('/') ? nodePath : `/${nodePath}`;
    if (this.isHostRoot) return { ok: true, hostPath: raw, nodePath: posix.resolve(raw) };
    // No lexical cleaning: "l/../x" follows l first, as the kernel does (src/host/path-walk.ts).
    const walked = walkPath(this.diskView, raw, followLast);
    if (!walked.ok) return walked;
    return walked.lastIs === 'other' && walked.entry.isFile
      ? { ok: true, hostPath: walked.entry.hostPath, nodePath: walked.nodePath, lastIsFile: true }
      : { ok: true, hostPath: walked.entry.hostPath, nodePath: walked.nodePath };
  }

  /** The disk under the root, as the path walk sees it: each entry is its host path. */
  private diskViewOf(root: string): PathView<DiskEntry> {
    return {
    root: { hostPath: root, isFile: false },
    child: (parent, name, _path, isLast) => {
      const hostPath = `${parent.hostPath}/${name}`;
      if (!isLast && this.directories?.has(hostPath)) return { kind: 'directory', entry: { hostPath, isFile: false } };
      let st: Stats | undefined;
      try {
        // ENOENT as undefined: no Error object (with its stack) for the commonest failure. (lstat
        // gives only ENOENT so; ENOTDIR and the rest still throw: test/host/root-fs.test.ts.)
        st = lstatSync(hostFileName(hostPath), NO_THROW_IF_NO_ENTRY);
      } catch (error) {
        return { code: errnoOf(error) };
      }
      if (st === undefined) return { code: 'ENOENT' };
      if (st.isSymbolicLink()) return { kind: 'link', entry: { hostPath, isFile: false } };
      if (st.isDirectory()) {
        if (!isLast) this.directories?.add(hostPath);
        return { kind: 'directory', entry: { hostPath, isFile: false } };
      }
      return { kind: 'other', entry: { hostPath, isFile: st.isFile() } };
    },
    readlink: (link) => {
      try {
        return fileNameFromBytes(readlinkSync(hostFileName(link.hostPath), { encoding: 'buffer' }));
      } catch (error) {
        return { code: errnoOf(error) };
      }
    },
    };
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
      return fileNameFromBytes(readlinkSync(hostFileName(r.hostPath), { encoding: 'buffer' }));
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
      fd = openSync(hostFileName(r.hostPath), constants.O_RDONLY | constants.O_NONBLOCK);
      if (!this.insideRoot(fd)) return { ok: false, code: OUTSIDE_ROOT };
      const st = fstatSync(fd);
      if (st.isDirectory()) return { ok: false, code: 'EISDIR' };
      if (!st.isFile()) return { ok: false, code: 'EINVAL' };
      const chunks: Buffer[] = [];
      let total = 0;
      const buf = Buffer.allocUnsafe(64 * 1024);
      for (;;) {
        const n = readSync(fd, buf, 0, buf.length, null);
        if (n === 0) break;
        chunks.push(Buffer.from(buf.subarray(0, n)));
        total += n;
        if (total > maxBytes) return { ok: false, code: 'EFBIG' };
      }
      return { ok: true, data: Buffer.concat(chunks) };
    } catch (error) {
      return { ok: false, code: errnoOf(error) };
    } finally {
      if (fd !== undefined) closeSync(fd);
    }
  }

  /** Reads the first `length` bytes (for ELF headers). */
  readHead(nodePath: string, length: number): ReadResult {
    const r = this.resolve(nodePath);
    if (!r.ok) return r;
    let fd: number | undefined;
    try {
      fd = openSync(hostFileName(r.hostPath), constants.O_RDONLY | constants.O_NONBLOCK);
      if (!this.insideRoot(fd)) return { ok: false, code: OUTSIDE_ROOT };
      if (!fstatSync(fd).isFile()) return { ok: false, code: 'EINVAL' };
      const buf = Buffer.alloc(length);
      const n = readSync(fd, buf, 0, length, 0);
      return { ok: true, data: buf.subarray(0, n) };
    } catch (error) {
      return { ok: false, code: errnoOf(error) };
    } finally {
      if (fd !== undefined) closeSync(fd);
    }
  }

  /**
   * lstat(2) and, for a regular file, readHead: what discovery asks of every credential plugin
   * (1,000 plugins are 1,000 paths). Where the walk's lstat of the last component saw a
   * regular file, one open of it (not following a symlink, checked against where the kernel opened
   * it) answers both, instead of an O_PATH open for the stat and a second resolution and open for
   * the read. Where the resolution fails (a missing plugin), that is lstat's answer, without a head.
   * Undefined wherever neither holds (another kind of file, any other failure, a subclass with its
   * own view of the files): the caller then asks lstat and readHead, which give the same answers
   * as this, and decide the unusual cases as they always did.
   */
  lstatWithHead(nodePath: string, length: number): { stat: StatResult; head?: ReadResult } | undefined {
    if (this.lstat !== RootFs.prototype.lstat || this.readHead !== RootFs.prototype.readHead) return undefined;
    const r = this.resolve(nodePath, false);
    if (!r.ok) return { stat: r };
    if (r.lastIsFile !== true) return undefined;
    let fd: number | undefined;
    try {
      fd = openSync(hostFileName(r.hostPath), constants.O_RDONLY | constants.O_NONBLOCK | constants.O_NOFOLLOW);
      if (!this.insideRoot(fd)) return undefined;
      const st = fstatSync(fd);
      if (!st.isFile()) return undefined;
      const buf = Buffer.alloc(length);
      const n = readSync(fd, buf, 0, length, 0);
      return { stat: statResult(st), head: { ok: true, data: buf.subarray(0, n) } };
    } catch {
      return undefined;
    } finally {
      if (fd !== undefined) closeSync(fd);
    }
  }

  readdir(nodePath: string): { ok: true; entries: DirEntryFacts[] } | { ok: false; code: ErrnoCode } {
    const r = this.resolve(nodePath);
    if (!r.ok) return r;
    let fd: number | undefined;
    try {
      let listed = r.hostPath;
      if (this.verifies()) {
        fd = openSync(hostFileName(r.hostPath), constants.O_RDONLY | constants.O_DIRECTORY | constants.O_NONBLOCK);
        if (!this.insideRoot(fd)) return { ok: false, code: OUTSIDE_ROOT };
        listed = `/proc/self/fd/${fd}`;
      }
      // Names are bytes (systemd loads a drop-in whose name is not UTF-8): read them so.
      const entries = readdirSync(hostFileName(listed), { withFileTypes: true, encoding: 'buffer' });
      return { ok: true, entries: entries.map((e) => ({ name: fileNameFromBytes(e.name), isDirectory: e.isDirectory() })) };
    } catch (error) {
      return { ok: false, code: errnoOf(error) };
    } finally {
      if (fd !== undefined) closeSync(fd);
    }
  }

  private statWith(nodePath: string, follow: boolean): StatResult {
    const r = this.resolve(nodePath, follow);
    if (!r.ok) return r;
    let fd: number | undefined;
    try {
      let st: Stats;
      if (this.verifies()) {
        // O_PATH opens anything (a FIFO without blocking, a symlink itself with O_NOFOLLOW).
        fd = openSync(hostFileName(r.hostPath), O_PATH | (follow ? 0 : constants.O_NOFOLLOW));
        if (!this.insideRoot(fd, !follow)) return { ok: false, code: OUTSIDE_ROOT };
        st = fstatSync(fd);
      } else {
        st = follow ? statSync(hostFileName(r.hostPath)) : lstatSync(hostFileName(r.hostPath));
      }
      return statResult(st);
    } catch (error) {
      return { ok: false, code: errnoOf(error) };
    } finally {
      if (fd !== undefined) closeSync(fd);
    }
  }

  private realRoot: string | undefined;

  /** Under --root on Linux: every open is checked against where the kernel actually opened it. */
  private verifies(): boolean {
    return !this.isHostRoot && PROC_FD;
  }

  /**
   * Resolution checks each component and then opens by path, so a directory swapped in between
   * could lead outside the root (pinned by test/hostile/write-paths.test.ts). /proc/self/fd/N names what the kernel opened:
   * anything outside the root is refused. (A symlink opened itself, `symlink`, is checked by its
   * directory.)
   */
  private insideRoot(fd: number, symlink = false): boolean {
    if (!this.verifies()) return true;
    try {
      this.realRoot ??= realpathSync(this.root);
      let opened = readlinkSync(`/proc/self/fd/${fd}`);
      // A symlink opened itself is checked by its directory; the root is its own (it is no symlink).
      if (symlink && opened !== this.realRoot) opened = dirname(opened);
      return opened === this.realRoot || opened.startsWith(this.realRoot === '/' ? '/' : `${this.realRoot}/`);
    } catch {
      return false;
    }
  }
}

const NO_THROW_IF_NO_ENTRY = { throwIfNoEntry: false } as const;

interface DiskEntry {
  readonly hostPath: string;
  readonly isFile: boolean;
}

/** What a path that led outside --root at open time reads as (a race, or a bug in resolve). */
export const OUTSIDE_ROOT = 'EXDEV';
/** Linux's O_PATH (not in fs.constants): open for fstat only, never blocks, never reads. */
const O_PATH = 0o10000000;
const PROC_FD = process.platform === 'linux' && existsSync('/proc/self/fd');

function statResult(st: Stats): StatResult {
  return {
    ok: true,
    type: st.isFile() ? 'file' : st.isDirectory() ? 'directory' : st.isSymbolicLink() ? 'symlink' : 'other',
    ...(st.isFIFO() ? { special: 'fifo' } : st.isSocket() ? { special: 'socket' } : st.isCharacterDevice() ? { special: 'char-device' } : st.isBlockDevice() ? { special: 'block-device' } : {}),
    mode: st.mode & 0o7777,
    uid: st.uid,
    gid: st.gid,
    size: st.size,
  };
}

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
