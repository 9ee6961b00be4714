/**
 * Atomic replacement of a node_exporter textfile-collector file. The collector parses every *.prom
 * file on every scrape, so a half-written file would be a scrape error: write a temp file in the
 * same directory under a name the collector ignores (hidden, not ending in .prom), fsync it,
 * rename it over the target (atomic within one filesystem), then fsync the directory so the rename
 * survives a crash.
 */
import { lstatSync, statSync } from 'node:fs';
import { basename, dirname, join, resolve } from 'node:path';
import { prepareReplacement, replaceFileAtomically, type ReplacementOptions } from '../host/atomic-file.js';
import { openDirectoryBelow, UnsafeDirectoryError, type DirHandle } from '../host/safe-dir.js';
import { describeErrno as describe } from '../host/errno-text.js';

const PROM_FILE_NAME = /^[A-Za-z0-9_][A-Za-z0-9_.-]*\.prom$/;

/**
 * Replaces `dir/fileName` with `text`. Creates nothing outside `dir`. A missing `dir` is created
 * (mode 0755) only when its parent exists: that is node_exporter's own directory
 * (/var/lib/node_exporter) without the collector subdirectory yet; with no parent either,
 * node_exporter is evidently not set up here and this is an error saying so.
 * Throws an Error naming the path on any failure, and leaves no temp file behind.
 */
export function writeTextfile(dir: string, fileName: string, text: string): void {
  const handle = openTextfileDirectory(dir, fileName);
  try {
    replaceFileAtomically(handle.at, fileName, exposition(text), 0o644, TEXTFILE_WRITE);
  } catch (error) {
    throw new Error(`cannot write ${join(dir, fileName)}: ${describe(error)}`);
  } finally {
    handle.close();
  }
}

/**
 * The replacement of `dir/fileName` with `text`, written now and renamed by another process:
 * `temp` and `target` are paths any process of this user can rename through (the directory stays
 * open, as /proc/PID/fd/N, until `discard`). For preflight's watchdog, which must not wait.
 */
export function prepareTextfile(dir: string, fileName: string, text: string): { readonly temp: string; readonly target: string; readonly discard: () => void } {
  const handle = openTextfileDirectory(dir, fileName);
  try {
    const prepared = prepareReplacement(handle.at, fileName, exposition(text), 0o644, { ...TEXTFILE_WRITE, killPoints: false });
    const forOthers = (path: string) => path.replace(/^\/proc\/self\//, `/proc/${process.pid}/`);
    return {
      temp: forOthers(prepared.temp),
      target: forOthers(join(handle.at, fileName)),
      discard: () => {
        prepared.discard();
        handle.close();
      },
    };
  } catch (error) {
    handle.close();
    throw new Error(`cannot write ${join(dir, fileName)}: ${describe(error)}`);
  }
}

// 0644 for a new file: readable by node_exporter's user; a file already there keeps its mode and
// owner (an admin may have made it 0600 for node_exporter's user alone). The temp name is hidden,
// so the collector skips it. Written through the opened directory: a symlink swapped in meanwhile
// cannot redirect it. Not fsynced (two fsyncs were ~4 ms of kubelet's start path): every
// preflight rewrites it, and after a power cut the rename leaves the old or an empty file, never a torn one.
const TEXTFILE_WRITE: ReplacementOptions = { durable: false, keepOwnerAndMode: true };

/** The exposition format needs the final newline; node_exporter rejects the file without it. */
function exposition(text: string): string {
  return text.endsWith('\n') ? text : `${text}\n`;
}

/**
 * The textfile directory itself must be a plain directory, not a symlink (test/hostile/write-paths.test.ts: a textfile
 * directory linked to /etc got /etc/node-check.prom). Its parent is the operator's path and is
 * followed as given.
 */
function openTextfileDirectory(dir: string, fileName: string): DirHandle {
  if (!PROM_FILE_NAME.test(fileName)) {
    throw new Error(`textfile name "${fileName}" must be a plain file name ending in .prom (no "/", not hidden)`);
  }
  const absolute = resolve(dir);
  const parent = dirname(absolute);
  let parentIsDirectory = false;
  try {
    parentIsDirectory = statSync(parent).isDirectory();
  } catch {
    // reported below
  }
  if (!parentIsDirectory) {
    let exists = false;
    try {
      lstatSync(absolute);
      exists = true;
    } catch {
      // reported below
    }
    if (!exists) throw new Error(`textfile directory ${dir} does not exist, nor does ${parent}: set textfileDir to node_exporter's --collector.textfile.directory, or disable metrics`);
    throw new Error(`textfile directory ${dir}: its parent ${parent} is not a directory`);
  }
  try {
    // A missing directory is created (0755) only when its parent exists: node_exporter's own
    // directory without the collector subdirectory yet.
    return openDirectoryBelow(parent, [basename(absolute)], { create: true, mode: 0o755 })!;
  } catch (error) {
    if (error instanceof UnsafeDirectoryError) throw new Error(`textfile directory ${error.message}`);
    throw new Error(`textfile directory ${dir}: ${describe(error)}`);
  }
}
