/**
 * The one way node-check replaces a file: a temp file in the same directory (O_EXCL|O_NOFOLLOW,
 * a hidden name no reader picks up), written, chmod-ed, fsync-ed, renamed over the target, then
 * the directory fsync-ed so the rename survives a crash. Readers see the old file or the new one,
 * never a part. The caller decides which directories it may write in.
 */
import * as fs from 'node:fs';
import * as path from 'node:path';
import { randomBytes } from 'node:crypto';
import { removeAtExit } from './exit-cleanup.js';

export function replaceFileAtomically(hostDir: string, name: string, data: string | Buffer, mode: number): void {
  const target = path.join(hostDir, name);
  const temp = path.join(hostDir, `.${name}.${process.pid}.${randomBytes(6).toString('hex')}.tmp`);
  const fd = fs.openSync(temp, fs.constants.O_WRONLY | fs.constants.O_CREAT | fs.constants.O_EXCL | fs.constants.O_NOFOLLOW, mode);
  const forget = removeAtExit(temp);
  try {
    try {
      fs.writeFileSync(fd, data);
      fs.fchmodSync(fd, mode); // whatever the umask
      fs.fsyncSync(fd);
    } finally {
      fs.closeSync(fd);
    }
    fs.renameSync(temp, target);
  } catch (error) {
    fs.rmSync(temp, { force: true });
    throw error;
  } finally {
    forget();
  }
  syncDirectory(hostDir);
}

/** Makes a rename or unlink in `hostDir` durable; best effort where a filesystem cannot fsync directories. */
export function syncDirectory(hostDir: string): void {
  let fd: number | undefined;
  try {
    fd = fs.openSync(hostDir, fs.constants.O_RDONLY | fs.constants.O_DIRECTORY);
    fs.fsyncSync(fd);
  } catch {
    // the change is made; only its durability across a power cut is not guaranteed
  } finally {
    if (fd !== undefined) fs.closeSync(fd);
  }
}
