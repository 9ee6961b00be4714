/** Output written to the descriptors directly: everything arrives, and failures are answers, not crashes. */
import t from 'tap';
import { spawn, spawnSync } from 'node:child_process';
import { closeSync, openSync, readFileSync, statSync, writeFileSync } from 'node:fs';
import { once } from 'node:events';
import * as path from 'node:path';
import { isTerminal, outputTo, writeAll } from '../../src/cli/stdio.js';
import { skipLoudly } from '../harness/tools.js';

const pipeFd = (stream: unknown): number => (stream as { _handle: { fd: number } })._handle.fd;

t.test('writeAll writes every byte to a file, multi-byte text included', async (t) => {
  const file = path.join(t.testdir(), 'out');
  const fd = openSync(file, 'w');
  const text = 'é…\u{1f600} node-check\n'.repeat(10_000);
  t.equal(writeAll(fd, text), undefined);
  closeSync(fd);
  t.equal(readFileSync(file, 'utf8'), text);
});

t.test('a non-blocking pipe whose reader is slow: EAGAIN is waited out, nothing is lost', async (t) => {
  const file = path.join(t.testdir(), 'out');
  const reader = spawn('sh', ['-c', `sleep 0.3; cat > ${JSON.stringify(file)}`], { stdio: ['pipe', 'ignore', 'ignore'] });
  const fd = pipeFd(reader.stdin); // Node made it non-blocking: 1 MiB is far more than the pipe holds
  const text = 'x'.repeat(1024 * 1024);
  t.equal(writeAll(fd, text), undefined);
  reader.stdin!.end();
  await once(reader, 'close');
  t.equal(statSync(file).size, text.length);
});

t.test('a reader that has gone: EPIPE comes back as the answer, once; later writes are dropped', async (t) => {
  // The reader closes its end and lives on: the pipe has no reader left.
  const reader = spawn('sh', ['-c', 'exec <&-; sleep 5'], { stdio: ['pipe', 'ignore', 'ignore'] });
  await new Promise((r) => setTimeout(r, 300));
  const fd = pipeFd(reader.stdin);
  t.teardown(() => reader.kill('SIGKILL'));
  t.equal(writeAll(fd, 'lost\n')?.code, 'EPIPE');
  const failures: string[] = [];
  const write = outputTo(fd, (error) => failures.push(error.code ?? '?'));
  write('a\n');
  write('b\n');
  t.same(failures, ['EPIPE'], 'reported once');
});

t.test('a full disk: ENOSPC', async (t) => {
  const fd = openSync('/dev/full', 'w');
  t.equal(writeAll(fd, 'x')?.code, 'ENOSPC');
  closeSync(fd);
});

t.test('isTerminal: not a pipe, a file or /dev/null (a character device that is no terminal)', async (t) => {
  const reader = spawn('cat', [], { stdio: ['pipe', 'ignore', 'ignore'] });
  t.equal(isTerminal(pipeFd(reader.stdin)), false, 'pipe');
  reader.stdin!.end();
  const file = openSync(path.join(t.testdir(), 'f'), 'w');
  t.equal(isTerminal(file), false, 'file');
  closeSync(file);
  const devNull = openSync('/dev/null', 'w');
  t.equal(isTerminal(devNull), false, '/dev/null');
  closeSync(devNull);
  t.equal(isTerminal(987), false, 'a descriptor that is not open');
});

t.test('isTerminal: a pseudo-terminal is one (through node:tty), where `script` can make one', async (t) => {
  const dir = t.testdir();
  const quote = (word: string) => `'${word.replaceAll("'", "'\\''")}'`;
  writeFileSync(path.join(dir, 'probe.mts'), `import { isTerminal } from ${JSON.stringify(new URL('../../src/cli/stdio.ts', import.meta.url).href)};\nprocess.stdout.write(String(isTerminal(1)));\n`);
  writeFileSync(path.join(dir, 'probe.sh'), [process.execPath, ...process.execArgv, path.join(dir, 'probe.mts')].map(quote).join(' ') + '\n');
  const run = spawnSync('script', ['-qec', `sh ${quote(path.join(dir, 'probe.sh'))}`, '/dev/null'], { encoding: 'utf8' });
  if (run.error) return skipLoudly(t, 'script(1) (util-linux/bsdutils) is not installed: no pseudo-terminal to test with');
  t.match(run.stdout, /true/, 'a pty is a terminal');
});

t.test('an error that is no system error (a bug) is thrown, not taken for a failed output', async (t) => {
  t.throws(() => writeAll(-1.5, 'x'), { code: 'ERR_OUT_OF_RANGE' }, "Node's argument check: a code, but no errno");
});
