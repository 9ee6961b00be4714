/**
 * Turns paths on the node into PathFacts (plain data) through RootFs. The only I/O the rules
 * depend on; everything it records is what kubelet's own syscalls would see.
 */
import type { RootFs } from '../host/root-fs.js';
import { EXECUTABLE_HEAD_BYTES, parseElf, parseShebang } from '../host/elf.js';
import type { PathFact } from '../model/node.js';

/** Config files larger than this are not evaluated (node-check answers "cannot tell"). */
export { MAX_CONFIG_BYTES } from '../limits/bounds.js';
import { MAX_CONFIG_BYTES } from '../limits/bounds.js';

export interface FactOptions {
  /** Read the contents (credential provider config files). */
  readonly content?: boolean;
  /** List the entries (a 1.34+ config directory). */
  readonly entries?: boolean;
  /** Inspect it as an executable (ELF machine, loader, "#!" interpreter, noexec mount). */
  readonly executable?: boolean;
  /** The live root's mounts (noexec matters to exec.LookPath); absent under --root. */
  readonly mounts?: readonly MountFacts[];
}

export function pathFact(fs: RootFs, nodePath: string, options: FactOptions = {}): PathFact {
  // lstat first: where the last component is not a symlink, stat would find the same file (one
  // resolution and open fewer per path: 1,000 plugins are 1,000 paths). An executable's
  // lstat and head come from one open where RootFs can give them so.
  const inspected = options.executable ? fs.lstatWithHead(nodePath, EXECUTABLE_HEAD_BYTES) : undefined;
  const lst = inspected?.stat ?? fs.lstat(nodePath);
  const st = lst.ok && lst.type !== 'symlink' ? lst : fs.stat(nodePath);
  if (!st.ok) return { exists: false, code: st.code };
  const symlinkTarget = lst.ok && lst.type === 'symlink' ? fs.readlink(nodePath) : undefined;
  const type = st.type === 'file' ? 'file' : st.type === 'directory' ? 'directory' : 'other';
  const fact: { -readonly [K in keyof Extract<PathFact, { exists: true }>]: Extract<PathFact, { exists: true }>[K] } = {
    exists: true,
    type,
    mode: st.mode,
    uid: st.uid,
    gid: st.gid,
  };
  if (symlinkTarget !== undefined) fact.symlinkTarget = symlinkTarget;
  if (options.content && type === 'file') {
    const read = fs.readFile(nodePath, MAX_CONFIG_BYTES);
    fact.content = read.ok ? { ok: true, data: read.data } : { ok: false, code: read.code };
  }
  if (options.entries && type === 'directory') {
    const listed = fs.readdir(nodePath);
    fact.entries = listed.ok ? listed.entries : { error: listed.code };
  }
  if (options.executable && type === 'file') {
    const head = inspected?.head ?? fs.readHead(nodePath, EXECUTABLE_HEAD_BYTES);
    if (head.ok) {
      const elf = parseElf(head.data);
      if (elf) fact.elf = elf;
      const shebang = elf ? undefined : parseShebang(head.data);
      if (shebang) fact.shebang = shebang;
    }
    if (options.mounts && options.mounts.length > 0) {
      const resolved = fs.resolve(nodePath);
      if (resolved.ok) fact.noexecMount = mountOf(resolved.nodePath, options.mounts)?.noexec ?? false;
    }
  }
  return fact;
}

export interface MountFacts {
  readonly mountPoint: string;
  readonly noexec: boolean;
}

/** The deepest mount containing `path`. */
function mountOf(path: string, mounts: readonly MountFacts[]): MountFacts | undefined {
  let best: MountFacts | undefined;
  for (const mount of mounts) {
    const contains = mount.mountPoint === '/' || path === mount.mountPoint || path.startsWith(mount.mountPoint + '/');
    if (contains && (!best || mount.mountPoint.length >= best.mountPoint.length)) best = mount;
  }
  return best;
}

/** Mounts from /proc/self/mountinfo (field 5 = mount point, field 6 = per-mount options). */
export function parseMountinfo(mountinfo: string): MountFacts[] {
  const mounts: MountFacts[] = [];
  for (const line of mountinfo.split('\n')) {
    const fields = line.split(' ');
    const mountPoint = fields[4];
    const options = fields[5];
    if (!mountPoint || !options) continue;
    mounts.push({
      mountPoint: mountPoint.replace(/\\(\d{3})/g, (_, oct: string) => String.fromCharCode(parseInt(oct, 8))),
      noexec: options.split(',').includes('noexec'),
    });
  }
  return mounts;
}
