/**
 * node-check's output, written to descriptors 1 and 2 directly (start-path cost): process.stdout and
 * process.stderr cost ~1 ms to create at every start (for a pipe or the journal's socket, a
 * net.Socket and the stream machinery), and on Linux Node writes to files, pipes and terminals
 * synchronously anyway. A write blocks as Node's would; a descriptor that whoever passed it left
 * non-blocking (EAGAIN) is waited on; any other error ends the writing with its code.
 */
import { fstatSync, writeSync } from 'node:fs';
import { lazyBuiltin } from '../host/builtins.js';

const pause = new Int32Array(new SharedArrayBuffer(4));

/** Writes all of `text` to `fd`; the error that stopped it, if one did. */
export function writeAll(fd: number, text: string): NodeJS.ErrnoException | undefined {
  const bytes = Buffer.from(text, 'utf8');
  let offset = 0;
  while (offset < bytes.length) {
    try {
      offset += writeSync(fd, bytes, offset, bytes.length - offset);
    } catch (error) {
      // Not a system error (no errno): a bug, not a failed output.
      if (typeof (error as NodeJS.ErrnoException).errno !== 'number') throw error;
      if ((error as NodeJS.ErrnoException).code !== 'EAGAIN') return error as NodeJS.ErrnoException;
      Atomics.wait(pause, 0, 0, 1);
    }
  }
  return undefined;
}

/**
 * A writer to `fd` that stops at its first error and reports it once: a reader that went away
 * (`node-check -o json | head`, EPIPE) or a full disk under a redirect is not a crash; the command
 * still answers with its exit code.
 */
export function outputTo(fd: number, failed: (error: NodeJS.ErrnoException) => void): (text: string) => void {
  let broken = false;
  return (text) => {
    if (broken) return;
    const error = writeAll(fd, text);
    if (error === undefined) return;
    broken = true;
    failed(error);
  };
}

/** Linux's memory devices (/dev/null, /dev/zero, /dev/full, /dev/random…): never a terminal. */
const MEM_MAJOR = 1;

/**
 * isatty(fd), without loading node:tty (and with it node:net) where it cannot be one: only a
 * character device can, and not /dev/null (where `> /dev/null` sends output).
 */
export function isTerminal(fd: number): boolean {
  try {
    const st = fstatSync(fd);
    if (!st.isCharacterDevice() || ((st.rdev >> 8) & 0xfff) === MEM_MAJOR) return false;
  } catch {
    return false;
  }
  return lazyBuiltin('node:tty').isatty(fd);
}
