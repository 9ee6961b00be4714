/**
 * Path resolution with the kernel's semantics (fs/namei.c link_path_walk, as kubelet's and
 * systemd's open(2) see it), over any view of a node's files: RootFs walks the disk under --root,
 * OverlayRootFs walks its layers over the root. One walk, so every view answers alike.
 *
 * - Components are resolved left to right; "." stays, ".." goes to the parent of the directory
 *   reached so far (after the links on the way were followed, not lexically), and never above "/".
 * - A symlink is followed wherever it is not the last component, and as the last one when asked
 *   (stat, open); an absolute target starts again at "/" of the node; more than 40 links: ELOOP.
 * - A trailing "/" (in the path or a link's target) makes the component before it a directory
 *   that is followed, as "name/." does.
 * - Every component but the last must be a directory (ENOTDIR); a component longer than 255 bytes
 *   is ENAMETOOLONG; an empty link target is ENOENT; a NUL is EINVAL (Go's syscall layer).
 */
import type { ErrnoCode } from './root-fs.js';

/** Linux allows 40 symlinks per lookup (MAXSYMLINKS); past that, ELOOP. */
export const MAX_SYMLINKS = 40;
/** NAME_MAX. */
const NAME_MAX = 255;

/** What a directory entry is, to the walk. */
export type WalkStep<E> = { readonly kind: 'directory' | 'link' | 'other'; readonly entry: E } | { readonly code: ErrnoCode };

export interface PathView<E> {
  /** "/" of the node. */
  readonly root: E;
  /**
   * lstat of `name` in the directory `parent` (reached at node path `path`'s parent). `isLast`:
   * the walk ends here unless it is a link that is followed.
   */
  child(parent: E, name: string, path: string, isLast: boolean): WalkStep<E>;
  /** The target of a link `child` returned. */
  readlink(link: E, path: string): string | { readonly code: ErrnoCode };
}

export type Walked<E> = { readonly ok: true; readonly nodePath: string; readonly entry: E; readonly lastIs?: 'directory' | 'link' | 'other' } | { readonly ok: false; readonly code: ErrnoCode };

/** Resolves `nodePath` (absolute, or relative to "/") in `view`; `followLast` false: lstat semantics. */
export function walkPath<E>(view: PathView<E>, nodePath: string, followLast: boolean): Walked<E> {
  if (nodePath.includes('\0')) return { ok: false, code: 'EINVAL' };
  const pending = components(nodePath);
  // The directories reached so far: names and entries, root first.
  const names: string[] = [];
  const entries: E[] = [view.root];
  let links = 0;
  let lastIs: 'directory' | 'link' | 'other' | undefined;
  while (pending.length > 0) {
    const name = pending.shift()!;
    if (name === '.') continue;
    if (name === '..') {
      if (names.length > 0) {
        names.pop();
        entries.pop();
      }
      continue;
    }
    if (Buffer.byteLength(name) > NAME_MAX) return { ok: false, code: 'ENAMETOOLONG' };
    const path = `/${[...names, name].join('/')}`;
    const isLast = pending.length === 0;
    const step = view.child(entries[entries.length - 1]!, name, path, isLast);
    if ('code' in step) return { ok: false, code: step.code };
    if (step.kind === 'link' && (!isLast || followLast)) {
      if (++links > MAX_SYMLINKS) return { ok: false, code: 'ELOOP' };
      const target = view.readlink(step.entry, path);
      if (typeof target !== 'string') return { ok: false, code: target.code };
      if (target === '') return { ok: false, code: 'ENOENT' };
      if (target.startsWith('/')) {
        names.length = 0;
        entries.length = 1;
      }
      pending.unshift(...components(target));
      continue;
    }
    if (!isLast && step.kind !== 'directory') return { ok: false, code: 'ENOTDIR' };
    names.push(name);
    entries.push(step.entry);
    lastIs = isLast ? step.kind : undefined;
  }
  const nodePathReached = `/${names.join('/')}`;
  return lastIs ? { ok: true, nodePath: nodePathReached, entry: entries[entries.length - 1]!, lastIs } : { ok: true, nodePath: nodePathReached, entry: entries[entries.length - 1]! };
}

/** The components of a path; a trailing "/" becomes a trailing ".", which demands a directory. */
function components(path: string): string[] {
  const parts = path.split('/').filter((part) => part !== '');
  if (path.endsWith('/') && parts.length > 0) parts.push('.');
  return parts;
}
