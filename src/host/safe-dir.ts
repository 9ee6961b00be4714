/**
 * Directories node-check writes in, opened component by component without following symlinks,
 * each component relative to the directory opened before it (pinned by test/hostile/write-paths.test.ts).
 *
 * Node has no openat(2). On Linux, /proc/self/fd/N/name resolves `name` inside the directory that
 * file descriptor N holds open, whatever happens to the path it was opened by, so
 * open("/proc/self/fd/N/name", O_NOFOLLOW | O_DIRECTORY) is openat(N, "name", ...): a directory
 * swapped for a symlink between a check and a use cannot redirect a write. The returned `at` is
 * such a path; temp files, renames and unlinks go through it. Where /proc is not mounted, each
 * component is checked with lstat instead (the remaining race is documented in docs/operations.md).
 * What Node cannot do: openat2(RESOLVE_IN_ROOT / RESOLVE_NO_SYMLINKS) in one call, O_PATH opens,
 * or fd-relative rename; the /proc paths stand in for all three.
 */
import { type Stats, closeSync, constants, fsyncSync, lstatSync, mkdirSync, openSync, statSync } from 'node:fs';
import { join, resolve } from 'node:path';

export interface DirHandle {
  /** The directory's path on this machine, for messages. */
  readonly path: string;
  /** A path that names exactly the opened directory (/proc/self/fd/N), for fs calls. */
  readonly at: string;
  readonly close: () => void;
}

export class UnsafeDirectoryError extends Error {}

let procFd: boolean | undefined;
function haveProcFd(): boolean {
  if (procFd === undefined) {
    try {
      procFd = statSync('/proc/self/fd').isDirectory();
    } catch {
      procFd = false;
    }
  }
  return procFd;
}

const DIRECTORY = constants.O_RDONLY | constants.O_DIRECTORY;

/**
 * Opens `base` (followed: it is the operator's --root, or "/") and then each of `parts` below it,
 * refusing a symlink or a non-directory at every step. Missing components are created with `mode`
 * when `create` is set; otherwise a missing one gives undefined.
 */
export function openDirectoryBelow(base: string, parts: readonly string[], options: { create?: boolean; mode?: number } = {}): DirHandle | undefined {
  for (const part of parts) {
    if (part === '' || part === '.' || part === '..' || part.includes('/')) throw new UnsafeDirectoryError(`"${part}" is not a plain directory name`);
  }
  const mode = options.mode ?? 0o755;
  let display = resolve(base);
  if (!haveProcFd()) return byPath(display, parts, options.create === true, mode);

  let fd = openSync(display, DIRECTORY);
  try {
    for (const part of parts) {
      const next = join(display, part);
      const inside = `/proc/self/fd/${fd}/${part}`;
      let child: number | undefined;
      for (let attempt = 0; child === undefined; attempt++) {
        try {
          child = openSync(inside, DIRECTORY | constants.O_NOFOLLOW);
        } catch (error) {
          const code = (error as NodeJS.ErrnoException).code;
          // O_NOFOLLOW | O_DIRECTORY on a symlink: ELOOP or ENOTDIR, depending on the kernel.
          if (code === 'ELOOP' || code === 'ENOTDIR') throw notPlain(next, isSymlink(`/proc/self/fd/${fd}/${part}`) || code === 'ELOOP');
          if (code !== 'ENOENT' || attempt > 2) throw error;
          if (!options.create) {
            closeSync(fd);
            return undefined;
          }
          try {
            mkdirSync(inside, { mode });
            syncFd(fd);
          } catch (mkdirError) {
            if ((mkdirError as NodeJS.ErrnoException).code !== 'EEXIST') throw mkdirError;
          }
        }
      }
      closeSync(fd);
      fd = child;
      display = next;
    }
  } catch (error) {
    try {
      closeSync(fd);
    } catch {
      // already closed
    }
    throw error;
  }
  const held = fd;
  let open = true;
  return {
    path: display,
    at: `/proc/self/fd/${held}`,
    close: () => {
      if (open) closeSync(held);
      open = false;
    },
  };
}

function byPath(base: string, parts: readonly string[], create: boolean, mode: number): DirHandle | undefined {
  let host = base;
  for (const part of parts) {
    const next = join(host, part);
    let st: Stats | undefined;
    try {
      st = lstatSync(next);
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code !== 'ENOENT') throw error;
    }
    if (!st) {
      if (!create) return undefined;
      mkdirSync(next, { mode });
    } else if (st.isSymbolicLink() || !st.isDirectory()) {
      throw notPlain(next, st.isSymbolicLink());
    }
    host = next;
  }
  return { path: host, at: host, close: () => undefined };
}

function notPlain(hostPath: string, symlink: boolean): UnsafeDirectoryError {
  return new UnsafeDirectoryError(symlink ? `${hostPath} is a symlink, not a plain directory: node-check does not write through symlinks` : `${hostPath} is not a directory`);
}

function isSymlink(hostPath: string): boolean {
  try {
    return lstatSync(hostPath).isSymbolicLink();
  } catch {
    return false;
  }
}

function syncFd(fd: number): void {
  try {
    fsyncSync(fd);
  } catch {
    // durability only
  }
}
