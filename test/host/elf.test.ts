import t from 'tap';
import { readFileSync } from 'node:fs';
import { machineOfNodeArch, parseElf, parseShebang } from '../../src/host/elf.js';

t.test('the running node binary is an ELF for this machine with a loader', async (t) => {
  const head = readFileSync(process.execPath).subarray(0, 8192);
  const elf = parseElf(head);
  t.equal(elf?.machine, machineOfNodeArch(process.arch));
  t.match(elf?.interpreter ?? '', /^\/lib.*ld-linux.*\.so/);
});

t.test('a hand-made aarch64 static ELF header', async (t) => {
  const head = Buffer.alloc(64);
  head.writeUInt32BE(0x7f454c46, 0);
  head[4] = 2; // 64-bit
  head[5] = 1; // little endian
  head.writeUInt16LE(183, 18);
  t.same(parseElf(head), { machine: 'aarch64' });
});

t.test('scripts and junk', async (t) => {
  t.equal(parseShebang(Buffer.from('#!/usr/bin/env python3\nprint()\n')), '/usr/bin/env');
  t.equal(parseShebang(Buffer.from('#! /bin/sh -e\n')), '/bin/sh');
  t.equal(parseShebang(Buffer.from('echo hi\n')), undefined);
  t.equal(parseElf(Buffer.from('not an elf at all, just some text that is long enough to parse')), undefined);
});
