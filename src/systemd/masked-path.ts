/**
 * What systemd makes of the file it opens as a unit file or drop-in. A mask is a symlink to
 * /dev/null, an empty regular file or a character device, and up to v245 a block device too
 * (null_or_empty, src/basic/stat-util.c: S_ISCHR || S_ISBLK at v239..v245, S_ISCHR only from v246
 * to v260). systemd opens the file without O_NONBLOCK (fopen "re" at v252 unit_load_fragment and
 * config_parse, open(O_RDONLY) at v239 open_follow): a FIFO blocks it until a writer comes (observed:
 * systemd-analyze verify 252 hangs on a FIFO drop-in), a socket fails with ENXIO. Under --root a
 * link to "/dev/null" points into the image, where /dev/null may not exist, so the link text is
 * checked as well as what stat() finds. node-check itself only stats (O_PATH) and never opens a FIFO.
 */
import { posix } from 'node:path';
import type { RootFs } from '../host/root-fs.js';

const MAX_LINKS = 40;

export type UnitFileKind =
  | { readonly kind: 'masked' }
  /** Read it as a unit file (or let the read say why not). */
  | { readonly kind: 'read' }
  /** systemd's open fails with this errno. */
  | { readonly kind: 'open-fails'; readonly errno: 'ENXIO' }
  /** systemd cannot get past it (a FIFO) or reads what node-check cannot (a device). */
  | { readonly kind: 'cannot-tell'; readonly why: string };

export function unitFileKind(fs: RootFs, nodePath: string, systemdVersion: number | undefined): UnitFileKind {
  let current = nodePath;
  for (let hops = 0; hops < MAX_LINKS; hops++) {
    const st = fs.lstat(current);
    if (!st.ok || st.type !== 'symlink') break;
    const target = fs.readlink(current);
    if (target === undefined) break;
    current = posix.resolve(posix.dirname(current), target);
    if (current === '/dev/null') return { kind: 'masked' };
  }
  const st = fs.stat(nodePath);
  if (!st.ok || st.type === 'directory') return { kind: 'read' };
  if (st.type === 'file') return st.size === 0 ? { kind: 'masked' } : { kind: 'read' };
  switch (st.special) {
    case 'char-device':
      return { kind: 'masked' };
    case 'block-device':
      if (systemdVersion !== undefined && systemdVersion <= 245) return { kind: 'masked' };
      return { kind: 'cannot-tell', why: systemdVersion === undefined ? `${nodePath} is a block device: systemd up to 245 takes it for a mask, later versions read it as a unit file, and the systemd version is not known` : `${nodePath} is a block device, which systemd ${systemdVersion} reads as a unit file` };
    case 'socket':
      return { kind: 'open-fails', errno: 'ENXIO' };
    case 'fifo':
      return { kind: 'cannot-tell', why: `${nodePath} is a FIFO: systemd blocks opening it until something writes to it, so it may never load the unit` };
    default:
      return { kind: 'cannot-tell', why: `${nodePath} is not a regular file` };
  }
}

/** Whether systemd takes the file for a mask. */
export function isMaskedPath(fs: RootFs, nodePath: string, systemdVersion?: number): boolean {
  return unitFileKind(fs, nodePath, systemdVersion).kind === 'masked';
}
