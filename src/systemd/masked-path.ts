/**
 * systemd treats a unit file or drop-in as a mask when it is a symlink to /dev/null, any character
 * or block device, or an empty regular file (null_or_empty, src/basic/stat-util.c). Under --root a
 * link to "/dev/null" points into the image, where /dev/null may not exist, so the link text is
 * checked as well as what stat() finds.
 */
import { posix } from 'node:path';
import type { RootFs } from '../host/root-fs.js';

const MAX_LINKS = 40;

export function isMaskedPath(fs: RootFs, nodePath: string): boolean {
  let current = nodePath;
  for (let hops = 0; hops < MAX_LINKS; hops++) {
    const st = fs.lstat(current);
    if (!st.ok || st.type !== 'symlink') break;
    const target = fs.readlink(current);
    if (target === undefined) break;
    current = posix.resolve(posix.dirname(current), target);
    if (current === '/dev/null') return true;
  }
  const st = fs.stat(nodePath);
  return st.ok && (st.type === 'other' || (st.type === 'file' && st.size === 0));
}
