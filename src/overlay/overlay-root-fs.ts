/**
 * A RootFs with layers laid over it, read-only and in memory: the node as it will be once a
 * MachineConfig (or a plain directory tree) has been written. Discovery reads through it like any
 * root; the root itself is never written (nothing here opens a file for writing).
 *
 * Layers are applied in the order given. Each entry is placed the way the writer would place it:
 * parent directories are resolved in the view so far (following symlinks, which stay inside the
 * root) and created when missing (mode 0755); the last component is replaced, not followed.
 *
 * Lookups walk the path component by component: an overlay entry wins over the root, an overlay
 * directory is merged with the root's directory of the same path, and symlinks (from either) are
 * followed by the same walk as RootFs's (src/host/path-walk.ts: the kernel's rules).
 *
 * It also records what discovery read: `touched` (every path looked up) and `unknownRead` (files
 * whose contents node-check could not tell — a remote source, undecodable data — that discovery
 * read or stat'ed: the size is part of the contents), so the caller can say which changed paths
 * decided and answer "cannot tell" honestly.
 */
import { join, posix } from 'node:path';
import { RootFs, type DirEntryFacts, type ErrnoCode, type ReadResult, type StatResult } from '../host/root-fs.js';
import { walkPath, type PathView } from '../host/path-walk.js';
import type { EntryContents, Layer, LayerEntry } from './ignition.js';

/** Bounds on what a --overlay directory may hold. */
const MAX_DIR_ENTRIES = 100_000;
const MAX_DIR_DEPTH = 64;

type Content = { readonly data: Buffer } | { readonly unknown: string } | { readonly lazy: { readonly fs: RootFs; readonly path: string; readonly size: number } };

type VNode =
  | { readonly kind: 'file'; readonly mode: number; readonly uid: number; readonly gid: number; readonly content: Content; readonly layer: string }
  | { readonly kind: 'dir'; readonly mode: number; readonly uid: number; readonly gid: number; readonly implicit: boolean; readonly layer: string }
  | { readonly kind: 'link'; readonly target: string; readonly layer: string }
  | { readonly kind: 'absent'; readonly layer: string };

type FoundEntry = { readonly ok: true; readonly nodePath: string; readonly overlay?: VNode; readonly baseDir: boolean; readonly baseType?: StatResult };
type Found = FoundEntry | { readonly ok: false; readonly code: ErrnoCode };

export interface LayerProblem {
  readonly layer: string;
  readonly path: string;
  readonly problem: string;
}

export class OverlayRootFs extends RootFs {
  override readonly isHostRoot: boolean;
  readonly base: RootFs;
  private readonly nodes = new Map<string, VNode>();
  private readonly children = new Map<string, Set<string>>();
  /** Entry path (as placed) → the layer that wrote it last. */
  private readonly written = new Map<string, string>();
  private recording = true;
  /** Every node path looked up by discovery. */
  readonly touched = new Set<string>();
  /** Files with contents node-check cannot tell that discovery read: path → why. */
  readonly unknownRead = new Map<string, string>();
  /** Entries that could not be placed (a parent is a file, say): the writer would fail there. */
  readonly problems: LayerProblem[] = [];

  /**
   * @param base the node's root
   * @param options.hostRoot false: never treat this view as the live root (no `kubelet --version`
   *   of a binary the overlay may name). Defaults to the base's.
   */
  constructor(base: RootFs, layers: readonly Layer[] = [], options: { hostRoot?: boolean } = {}) {
    super(base.root);
    this.base = base;
    this.isHostRoot = options.hostRoot ?? base.isHostRoot;
    for (const layer of layers) this.addLayer(layer);
  }

  /** Lays one more layer on top. */
  addLayer(layer: Layer): void {
    this.recording = false;
    try {
      for (const entry of layer.entries) this.place(layer, entry);
    } finally {
      this.recording = true;
    }
  }

  /** The paths the layers write, as placed (sorted). */
  writtenPaths(): string[] {
    return [...this.written.keys()].sort();
  }

  /**
   * The written paths whose result differs from the root: a new or different file, link or
   * directory, a removed file. Files whose contents node-check cannot tell count as changed.
   */
  changedPaths(): string[] {
    this.recording = false;
    try {
      return this.writtenPaths().filter((p) => this.differsFromBase(p));
    } finally {
      this.recording = true;
    }
  }

  /** Written files whose contents node-check cannot tell (remote source, undecodable), sorted. */
  unknownPaths(): string[] {
    return this.writtenPaths().filter((p) => {
      const node = this.nodes.get(p);
      return node?.kind === 'file' && 'unknown' in node.content;
    });
  }

  override resolve(nodePath: string, followLast = true): { ok: true; hostPath: string; nodePath: string } | { ok: false; code: ErrnoCode } {
    const found = this.find(nodePath, followLast);
    if (!found.ok) return found;
    return { ok: true, hostPath: found.nodePath === '/' ? this.root : join(this.root, found.nodePath), nodePath: found.nodePath };
  }

  override stat(nodePath: string): StatResult {
    return this.statFound(this.find(nodePath, true));
  }

  override lstat(nodePath: string): StatResult {
    return this.statFound(this.find(nodePath, false));
  }

  override readlink(nodePath: string): string | undefined {
    const found = this.find(nodePath, false);
    if (!found.ok) return undefined;
    if (found.overlay) return found.overlay.kind === 'link' ? found.overlay.target : undefined;
    return this.base.readlink(found.nodePath);
  }

  override readFile(nodePath: string, maxBytes = 4 * 1024 * 1024): ReadResult {
    const found = this.find(nodePath, true);
    if (!found.ok) return found;
    const node = found.overlay;
    if (!node) return this.base.readFile(found.nodePath, maxBytes);
    if (node.kind === 'dir') return { ok: false, code: 'EISDIR' };
    if (node.kind !== 'file') return { ok: false, code: 'EINVAL' };
    const read = this.contentOf(found.nodePath, node, maxBytes);
    if (!read.ok) return read;
    return read.data.length > maxBytes ? { ok: false, code: 'EFBIG' } : read;
  }

  override readHead(nodePath: string, length: number): ReadResult {
    const found = this.find(nodePath, true);
    if (!found.ok) return found;
    const node = found.overlay;
    if (!node) return this.base.readHead(found.nodePath, length);
    if (node.kind !== 'file') return { ok: false, code: 'EINVAL' };
    if ('lazy' in node.content) return node.content.lazy.fs.readHead(node.content.lazy.path, length);
    const read = this.contentOf(found.nodePath, node, Number.MAX_SAFE_INTEGER);
    return read.ok ? { ok: true, data: read.data.subarray(0, length) } : read;
  }

  override readdir(nodePath: string): { ok: true; entries: DirEntryFacts[] } | { ok: false; code: ErrnoCode } {
    const found = this.find(nodePath, true);
    if (!found.ok) return found;
    const node = found.overlay;
    if (node && node.kind !== 'dir') return { ok: false, code: 'ENOTDIR' };
    // The root's own entry and not a directory there (a file, a device): the root says what readdir fails with.
    if (!node && !found.baseDir) return this.base.readdir(found.nodePath);
    const entries = new Map<string, DirEntryFacts>();
    if (found.baseDir) {
      const listed = this.base.readdir(found.nodePath);
      if (!listed.ok && !node) return listed;
      if (listed.ok) for (const e of listed.entries) entries.set(e.name, e);
    }
    for (const name of this.children.get(found.nodePath) ?? []) {
      const child = this.nodes.get(posix.join(found.nodePath, name))!;
      if (child.kind === 'absent') entries.delete(name);
      else if (child.kind === 'dir' && child.implicit && entries.has(name)) continue;
      else entries.set(name, { name, isDirectory: child.kind === 'dir' });
    }
    return { ok: true, entries: [...entries.values()] };
  }

  // ---- placement -------------------------------------------------------------------------

  private place(layer: Layer, entry: LayerEntry): void {
    const parts = entry.path.split('/').filter(Boolean);
    const last = parts.pop();
    if (last === undefined) return;
    let dir = '/';
    for (const part of parts) {
      const candidate = posix.join(dir, part);
      const found = this.find(candidate, true);
      if (found.ok) {
        if (!this.isDirectory(found)) {
          this.problems.push({ layer: layer.name, path: entry.path, problem: `${found.nodePath} is not a directory, so ${entry.path} cannot be written` });
          return;
        }
        dir = found.nodePath;
      } else if (found.code === 'ENOENT') {
        this.setNode(candidate, { kind: 'dir', mode: 0o755, uid: 0, gid: 0, implicit: true, layer: layer.name }, false);
        dir = candidate;
      } else {
        this.problems.push({ layer: layer.name, path: entry.path, problem: `cannot resolve ${candidate}: ${found.code}` });
        return;
      }
    }
    const target = posix.join(dir, last);
    const node = this.nodeFor(layer, entry, target);
    if (node) this.setNode(target, node, true);
  }

  private nodeFor(layer: Layer, entry: LayerEntry, target: string): VNode | undefined {
    switch (entry.kind) {
      case 'dir':
        return { kind: 'dir', mode: entry.mode, uid: entry.uid ?? 0, gid: entry.gid ?? 0, implicit: false, layer: layer.name };
      case 'link':
        if (!entry.hard) return { kind: 'link', target: entry.target, layer: layer.name };
        return this.hardLink(layer, entry.target);
      case 'masked-unit':
        return { kind: 'link', target: '/dev/null', layer: layer.name };
      case 'absent':
        return { kind: 'absent', layer: layer.name };
      case 'file': {
        let content = contentOf(entry.contents);
        if (entry.append.length > 0) {
          const start: Content = entry.hasContents ? content : this.existingContent(target);
          content = appendContents(start, entry.append.map(contentOf));
        }
        return { kind: 'file', mode: entry.mode, uid: entry.uid ?? 0, gid: entry.gid ?? 0, content, layer: layer.name };
      }
    }
  }

  /** A hard link shares the target's inode: same contents and mode as the target has now. */
  private hardLink(layer: Layer, targetPath: string): VNode {
    const st = this.stat(targetPath);
    if (!st.ok || st.type !== 'file') return { kind: 'file', mode: 0o644, uid: 0, gid: 0, content: { unknown: `hard link to ${targetPath}, which is not a file` }, layer: layer.name };
    return { kind: 'file', mode: st.mode, uid: st.uid, gid: st.gid, content: this.existingContent(targetPath), layer: layer.name };
  }

  private existingContent(nodePath: string): Content {
    const found = this.find(nodePath, true);
    if (!found.ok) return { data: Buffer.alloc(0) };
    if (found.overlay?.kind === 'file') return found.overlay.content;
    const read = this.base.readFile(found.nodePath, 16 * 1024 * 1024);
    return read.ok ? { data: read.data } : { unknown: `cannot read ${nodePath} to append to it: ${read.code}` };
  }

  private setNode(nodePath: string, node: VNode, explicit: boolean): void {
    this.nodes.set(nodePath, node);
    const parent = posix.dirname(nodePath);
    let set = this.children.get(parent);
    if (!set) this.children.set(parent, (set = new Set()));
    set.add(posix.basename(nodePath));
    if (explicit) this.written.set(nodePath, node.layer);
  }

  /** Adds a plain directory tree as a layer: every file, directory and symlink under `dir`, read through a RootFs of it. */
  static directoryLayer(dir: string): { layer: Layer; problems: string[] } {
    const fs = new RootFs(dir);
    const entries: LayerEntry[] = [];
    const problems: string[] = [];
    const name = dir;
    const walk = (nodePath: string, depth: number) => {
      const listed = fs.readdir(nodePath);
      if (!listed.ok) {
        problems.push(`cannot list ${posix.join(dir, nodePath)}: ${listed.code}`);
        return;
      }
      for (const e of [...listed.entries].sort((a, b) => (a.name < b.name ? -1 : a.name > b.name ? 1 : 0))) {
        if (entries.length >= MAX_DIR_ENTRIES) {
          problems.push(`more than ${MAX_DIR_ENTRIES} entries; the rest is not read`);
          return;
        }
        const child = posix.join(nodePath, e.name);
        const st = fs.lstat(child);
        if (!st.ok) {
          problems.push(`cannot stat ${posix.join(dir, child)}: ${st.code}`);
          continue;
        }
        if (st.type === 'symlink') {
          const target = fs.readlink(child);
          if (target !== undefined) entries.push({ path: child, kind: 'link', target, hard: false, overwrite: true });
        } else if (st.type === 'directory') {
          entries.push({ path: child, kind: 'dir', mode: st.mode, overwrite: true, uid: st.uid, gid: st.gid });
          if (depth < MAX_DIR_DEPTH) walk(child, depth + 1);
          else problems.push(`${posix.join(dir, child)}: nested deeper than ${MAX_DIR_DEPTH}; not read`);
        } else if (st.type === 'file') {
          entries.push({ path: child, kind: 'file', mode: st.mode, contents: lazyMarker(fs, child, st.size), hasContents: true, overwrite: true, append: [], uid: st.uid, gid: st.gid });
        } else {
          problems.push(`${posix.join(dir, child)} is not a file, directory or symlink; ignored`);
        }
      }
    };
    walk('/', 0);
    return { layer: { name, kind: 'directory', origin: dir, entries, unmodelled: [] }, problems };
  }

  // ---- lookup ----------------------------------------------------------------------------

  private find(nodePath: string, followLast: boolean): Found {
    const walked = walkPath(this.view, nodePath, followLast);
    return walked.ok ? walked.entry : walked;
  }

  /**
   * The layers over the root, as the path walk (src/host/path-walk.ts, shared with RootFs) sees
   * them: an overlay entry wins; the root's entry counts where every directory above it is the
   * root's own (`baseDir`).
   */
  private readonly view: PathView<FoundEntry> = {
    // No layer places "/" itself (place() skips a path without a last component).
    root: { ok: true, nodePath: '/', baseDir: true },
    child: (parent, _name, candidate) => {
      if (this.recording) this.touched.add(candidate);
      const overlay = this.nodes.get(candidate);
      let baseType: StatResult | undefined;
      if (!overlay || overlay.kind === 'dir') baseType = parent.baseDir ? this.base.lstat(candidate) : { ok: false, code: 'ENOENT' };
      let kind: 'directory' | 'link' | 'other';
      if (overlay) {
        if (overlay.kind === 'absent') return { code: 'ENOENT' };
        kind = overlay.kind === 'dir' ? 'directory' : overlay.kind === 'link' ? 'link' : 'other';
      } else {
        if (!baseType!.ok) return { code: baseType!.code };
        kind = baseType!.type === 'directory' ? 'directory' : baseType!.type === 'symlink' ? 'link' : 'other';
      }
      const baseIsDir = baseType !== undefined && baseType.ok && baseType.type === 'directory';
      const baseDir = parent.baseDir && baseIsDir;
      const entry: FoundEntry = overlay ? { ok: true, nodePath: candidate, overlay, baseDir, ...(baseType ? { baseType } : {}) } : { ok: true, nodePath: candidate, baseDir, baseType: baseType! };
      return { kind, entry };
    },
    readlink: (link) => {
      const target = link.overlay?.kind === 'link' ? link.overlay.target : this.base.readlink(link.nodePath);
      return target ?? { code: 'EIO' };
    },
  };

  private isDirectory(found: Extract<Found, { ok: true }>): boolean {
    if (found.overlay) return found.overlay.kind === 'dir';
    if (found.nodePath === '/') return true;
    return found.baseType !== undefined && found.baseType.ok && found.baseType.type === 'directory';
  }

  private statFound(found: Found): StatResult {
    if (!found.ok) return found;
    const node = found.overlay;
    if (!node) return found.nodePath === '/' || !found.baseType ? this.base.lstat(found.nodePath) : found.baseType;
    switch (node.kind) {
      case 'file':
        // The size is part of what the file holds (systemd takes an empty unit file for a mask).
        if ('unknown' in node.content && this.recording) this.unknownRead.set(found.nodePath, node.content.unknown);
        return { ok: true, type: 'file', mode: node.mode, uid: node.uid, gid: node.gid, size: sizeOf(node.content) };
      case 'dir':
        if (node.implicit && found.baseType?.ok && found.baseType.type === 'directory') return found.baseType;
        return { ok: true, type: 'directory', mode: node.mode, uid: node.uid, gid: node.gid, size: 4096 };
      case 'link':
        return { ok: true, type: 'symlink', mode: 0o777, uid: 0, gid: 0, size: Buffer.byteLength(node.target) };
      case 'absent':
        return { ok: false, code: 'ENOENT' };
    }
  }

  private contentOf(nodePath: string, node: Extract<VNode, { kind: 'file' }>, maxBytes: number): ReadResult {
    const content = node.content;
    if ('data' in content) return { ok: true, data: content.data };
    if ('lazy' in content) return content.lazy.fs.readFile(content.lazy.path, maxBytes);
    if (this.recording) this.unknownRead.set(nodePath, content.unknown);
    return { ok: false, code: 'EIO' };
  }

  private differsFromBase(nodePath: string): boolean {
    const node = this.nodes.get(nodePath);
    if (!node) return false;
    const st = this.base.lstat(nodePath);
    switch (node.kind) {
      case 'absent':
        return st.ok;
      case 'link':
        return !(st.ok && st.type === 'symlink' && this.base.readlink(nodePath) === node.target);
      case 'dir':
        return !(st.ok && st.type === 'directory' && (node.implicit || st.mode === node.mode));
      case 'file': {
        if (!(st.ok && st.type === 'file' && st.mode === node.mode)) return true;
        const content = node.content;
        if ('unknown' in content) return true;
        if (st.size !== sizeOf(content)) return true;
        const mine = 'data' in content ? content.data : content.lazy.fs.readFile(content.lazy.path, st.size + 1);
        const theirs = this.base.readFile(nodePath, st.size + 1);
        const data = Buffer.isBuffer(mine) ? mine : mine.ok ? mine.data : undefined;
        return !(data && theirs.ok && data.equals(theirs.data));
      }
    }
  }
}

const LAZY = Symbol('lazy');
type LazyMarker = { readonly invalid: string; readonly [LAZY]: { fs: RootFs; path: string; size: number } };

/** A directory layer's file: read from the directory when discovery asks, not up front. */
function lazyMarker(fs: RootFs, nodePath: string, size: number): EntryContents {
  const marker: LazyMarker = { invalid: '', [LAZY]: { fs, path: nodePath, size } };
  return marker;
}

function contentOf(contents: EntryContents): Content {
  if (Buffer.isBuffer(contents)) return { data: contents };
  const lazy = (contents as Partial<LazyMarker>)[LAZY];
  if (lazy) return { lazy };
  if ('remote' in contents) return { unknown: `its contents come from ${contents.remote}, which node-check does not fetch` };
  return { unknown: contents.invalid };
}

function appendContents(start: Content, parts: readonly Content[]): Content {
  const all = [start, ...parts];
  const unknown = all.find((c): c is { unknown: string } => 'unknown' in c);
  if (unknown) return unknown;
  const buffers: Buffer[] = [];
  for (const c of all) {
    if ('data' in c) buffers.push(c.data);
    else if ('lazy' in c) {
      const read = c.lazy.fs.readFile(c.lazy.path, 16 * 1024 * 1024);
      if (!read.ok) return { unknown: `cannot read ${c.lazy.path}: ${read.code}` };
      buffers.push(read.data);
    }
  }
  return { data: Buffer.concat(buffers) };
}

function sizeOf(content: Content): number {
  if ('data' in content) return content.data.length;
  if ('lazy' in content) return content.lazy.size;
  return 0;
}
