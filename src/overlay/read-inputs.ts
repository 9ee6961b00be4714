/** Reads what --machine-config names (a file, or standard input for "-") into OverlayInputs, bounded; I/O at the edge. */
import { closeSync, constants, fstatSync, openSync, readSync } from 'node:fs';
import type { OverlayInput } from './check-upgrade.js';
import { MAX_INPUT_BYTES } from './ignition.js';

/** All --machine-config inputs of one check together (each alone is capped by MAX_INPUT_BYTES). */
export const MAX_TOTAL_INPUT_BYTES = 2 * MAX_INPUT_BYTES;

/** --machine-config / --overlay values in command-line order (program.ts puts them in args.overlays). */
export interface OverlayArg {
  readonly kind: 'machine-config' | 'overlay';
  readonly value: string;
}

/**
 * Reads each --machine-config file (or stdin for "-") up to MAX_INPUT_BYTES, and all of them up
 * to MAX_TOTAL_INPUT_BYTES; a read error or a file past a cap becomes the input's error.
 */
export function readOverlayInputs(args: readonly OverlayArg[], readStdin: (limit: number) => Buffer = (limit) => readBounded(0, limit)): OverlayInput[] {
  let stdinUsed = false;
  let remaining = MAX_TOTAL_INPUT_BYTES;
  return args.map((arg): OverlayInput => {
    const input = readOne(arg, Math.min(MAX_INPUT_BYTES, remaining));
    if ('data' in input) remaining -= input.data.length;
    return input;
  });

  function readOne(arg: OverlayArg, limit: number): OverlayInput {
    if (arg.kind === 'overlay') return { kind: 'directory', dir: arg.value };
    const origin = arg.value === '-' ? '-' : arg.value;
    try {
      if (arg.value === '-') {
        if (stdinUsed) return { kind: 'machine-config', origin, error: 'standard input is given more than once' };
        stdinUsed = true;
        return { kind: 'machine-config', origin: '-', data: readStdin(limit) };
      }
      const fd = openSync(arg.value, constants.O_RDONLY | constants.O_NONBLOCK);
      try {
        if (!fstatSync(fd).isFile()) return { kind: 'machine-config', origin, error: 'not a regular file (a directory of configs is for `serve`; pass each file)' };
        return { kind: 'machine-config', origin, data: readBounded(fd, limit) };
      } finally {
        closeSync(fd);
      }
    } catch (error) {
      const code = (error as NodeJS.ErrnoException).code;
      const tooLarge = limit < MAX_INPUT_BYTES
        ? `together with the configurations before it larger than ${MAX_TOTAL_INPUT_BYTES} bytes (node-check's cap on all --machine-config inputs); not read`
        : `larger than ${MAX_INPUT_BYTES} bytes; not read`;
      return { kind: 'machine-config', origin, error: code === 'EFBIG' ? tooLarge : `cannot read: ${code ?? (error as Error).message}` };
    }
  }
}

function readBounded(fd: number, limit: number): Buffer {
  const chunks: Buffer[] = [];
  let total = 0;
  const buf = Buffer.allocUnsafe(64 * 1024);
  for (;;) {
    let n: number;
    try {
      n = readSync(fd, buf, 0, buf.length, null);
    } catch (error) {
      // A non-blocking stdin with nothing yet: wait a little and retry.
      if ((error as NodeJS.ErrnoException).code === 'EAGAIN') {
        Atomics.wait(new Int32Array(new SharedArrayBuffer(4)), 0, 0, 10);
        continue;
      }
      throw error;
    }
    if (n === 0) break;
    chunks.push(Buffer.from(buf.subarray(0, n)));
    total += n;
    if (total > limit) throw Object.assign(new Error('too large'), { code: 'EFBIG' });
  }
  return Buffer.concat(chunks);
}
