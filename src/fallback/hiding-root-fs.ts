/**
 * A RootFs that does not see some files: discovery through it reads the kubelet unit as it is
 * without node-check's own fallback drop-in, which is what the planner must judge (otherwise an
 * active fallback would look like a working node and be reverted, then re-applied, forever).
 */
import { posix } from 'node:path';
import { RootFs, type DirEntryFacts, type ErrnoCode } from '../host/root-fs.js';

export class HidingRootFs extends RootFs {
  private readonly hidden: ReadonlySet<string>;

  constructor(root: string, hiddenNodePaths: readonly string[]) {
    super(root);
    this.hidden = new Set(hiddenNodePaths.map((p) => posix.resolve('/', p)));
  }

  override resolve(nodePath: string, followLast = true): { ok: true; hostPath: string; nodePath: string } | { ok: false; code: ErrnoCode } {
    if (this.hidden.has(posix.resolve('/', nodePath))) return { ok: false, code: 'ENOENT' };
    const resolved = super.resolve(nodePath, followLast);
    return resolved.ok && this.hidden.has(resolved.nodePath) ? { ok: false, code: 'ENOENT' } : resolved;
  }

  override readdir(nodePath: string): { ok: true; entries: DirEntryFacts[] } | { ok: false; code: ErrnoCode } {
    const listed = super.readdir(nodePath);
    if (!listed.ok) return listed;
    const dir = this.resolve(nodePath);
    const dirNodePath = dir.ok ? dir.nodePath : posix.resolve('/', nodePath);
    const visible = listed.entries.filter((e) => !this.hidden.has(posix.join(dirNodePath, e.name)) && !this.hidden.has(posix.join(posix.resolve('/', nodePath), e.name)));
    return { ok: true, entries: visible };
  }
}
