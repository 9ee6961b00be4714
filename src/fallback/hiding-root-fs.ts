/**
 * A RootFs that does not see some files: discovery through it reads the kubelet unit as it is
 * without node-check's own fallback drop-in, which is what the planner must judge (otherwise an
 * active fallback would look like a working node and be reverted, then re-applied, forever).
 * A hidden file is gone as if deleted: found by the path walk RootFs uses (src/host/path-walk.ts),
 * whichever spelling of its path leads there, and a link to it dangles.
 */
import { posix } from 'node:path';
import { RootFs, type DirEntryFacts, type ErrnoCode } from '../host/root-fs.js';

export class HidingRootFs extends RootFs {
  /** Where each hidden file is once its directory's links are followed. */
  private readonly hidden: ReadonlySet<string>;

  constructor(root: string, hiddenNodePaths: readonly string[]) {
    super(root);
    this.hidden = new Set(hiddenNodePaths.map((p) => this.placeOf(p)));
  }

  override resolve(nodePath: string, followLast = true): { ok: true; hostPath: string; nodePath: string } | { ok: false; code: ErrnoCode } {
    const entry = this.entryPath(nodePath);
    if (entry !== undefined && this.hidden.has(entry)) return { ok: false, code: 'ENOENT' };
    const resolved = super.resolve(nodePath, followLast);
    return resolved.ok && this.hidden.has(resolved.nodePath) ? { ok: false, code: 'ENOENT' } : resolved;
  }

  override readdir(nodePath: string): { ok: true; entries: DirEntryFacts[] } | { ok: false; code: ErrnoCode } {
    const listed = super.readdir(nodePath);
    if (!listed.ok) return listed;
    const dir = super.resolve(nodePath);
    if (!dir.ok) return listed;
    return { ok: true, entries: listed.entries.filter((e) => !this.hidden.has(posix.join(dir.nodePath, e.name))) };
  }

  /** Where a file at `nodePath` is or would be: its directory resolved, then its name. */
  private placeOf(nodePath: string): string {
    const dir = super.resolve(posix.dirname(posix.resolve('/', nodePath)));
    return dir.ok ? posix.join(dir.nodePath, posix.basename(nodePath)) : posix.resolve('/', nodePath);
  }

  /** The node path of the entry itself (a last link not followed), undefined where the walk fails. */
  private entryPath(nodePath: string): string | undefined {
    const r = super.resolve(nodePath, false);
    return r.ok ? r.nodePath : undefined;
  }
}
