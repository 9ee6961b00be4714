/**
 * Reads just enough of an executable's first bytes to warn about plugins that kubelet accepts
 * at start-up but the kernel cannot run: the ELF machine and the PT_INTERP loader, or a "#!" line.
 * Pure: works on a buffer, never executes anything.
 */
import type { ElfFacts } from '../model/node.js';

const MACHINES: Record<number, string> = {
  3: 'i386',
  8: 'mips',
  20: 'ppc',
  21: 'ppc64',
  22: 's390x',
  40: 'arm',
  62: 'x86_64',
  183: 'aarch64',
  243: 'riscv64',
  258: 'loongarch64',
};

/** How much of a file discovery reads to find these facts. */
export const EXECUTABLE_HEAD_BYTES = 8192;

export function parseElf(head: Buffer): ElfFacts | undefined {
  if (head.length < 52 || head.readUInt32BE(0) !== 0x7f454c46) return undefined;
  const is64 = head[4] === 2;
  const little = head[5] === 1;
  const u16 = (o: number) => (little ? head.readUInt16LE(o) : head.readUInt16BE(o));
  const u32 = (o: number) => (little ? head.readUInt32LE(o) : head.readUInt32BE(o));
  const u64 = (o: number) => Number(little ? head.readBigUInt64LE(o) : head.readBigUInt64BE(o));
  const machineNumber = u16(18);
  let machine = MACHINES[machineNumber] ?? `machine-${machineNumber}`;
  if (machineNumber === 21 && little) machine = 'ppc64le';

  let interpreter: string | undefined;
  if (is64 ? head.length >= 64 : true) {
    const phoff = is64 ? u64(32) : u32(28);
    const phentsize = u16(is64 ? 54 : 42);
    const phnum = u16(is64 ? 56 : 44);
    for (let i = 0; i < phnum; i++) {
      const ph = phoff + i * phentsize;
      if (ph + (is64 ? 56 : 32) > head.length) break;
      if (u32(ph) !== 3 /* PT_INTERP */) continue;
      const offset = is64 ? u64(ph + 8) : u32(ph + 4);
      const size = is64 ? u64(ph + 32) : u32(ph + 16);
      if (offset + size <= head.length && size > 1) {
        interpreter = head.subarray(offset, offset + size).toString('latin1').replace(/\0.*$/s, '');
      }
      break;
    }
  }
  return interpreter ? { machine, interpreter } : { machine };
}

/** The interpreter of a "#!" script (the first word after "#!"), or undefined. */
export function parseShebang(head: Buffer): string | undefined {
  if (head.length < 3 || head[0] !== 0x23 || head[1] !== 0x21) return undefined;
  const end = head.indexOf(0x0a);
  const line = head.subarray(2, end === -1 ? Math.min(head.length, 256) : end).toString('utf8').trim();
  const word = line.split(/[ \t]+/)[0];
  return word ? word : undefined;
}

/** Node.js process.arch to the ELF machine name used above. */
export function machineOfNodeArch(arch: string): string | undefined {
  return ({ x64: 'x86_64', arm64: 'aarch64', ppc64: 'ppc64le', s390x: 's390x', arm: 'arm', ia32: 'i386', riscv64: 'riscv64', loong64: 'loongarch64' } as Record<string, string>)[arch];
}
