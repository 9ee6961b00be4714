// writeJournal with a stand-in logger and socket: which way entries go, never how fast.
// The real logger and journald are in test/integration/journal.test.ts.
import t from 'tap';
import { chmodSync, mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { createServer, type Server } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { TapLike } from '../harness/tools.js';
import { journalEntriesFor, serializeForLogger } from '../../src/sinks/journal-entry.js';
import { writeJournal } from '../../src/sinks/journal.js';
import { missingPlugin, report, unknownVersion } from './reports.js';

const entries = journalEntriesFor(unknownVersion(), { unit: 'kubelet.service', pid: 4321 }); // two entries: priority 3 and 4
const oneMore = journalEntriesFor(report({ kubeletWillStart: false, findings: [missingPlugin('acr')] }), { unit: 'kubelet.service', pid: 4321 });

/** A logger stand-in that records each run's arguments and stdin, and exits with the given codes in turn. */
function fakeLogger(dir: string, exitCodes: readonly number[] = []): string {
  const path = join(dir, 'logger');
  writeFileSync(
    path,
    `#!/bin/sh
n=$(ls ${dir}/calls | grep -c "stdin$")
echo "$*" > ${dir}/calls/$n.args
cat > ${dir}/calls/$n.stdin
case $n in
${exitCodes.map((code, index) => `  ${index}) exit ${code};;`).join('\n')}
esac
exit 0
`,
  );
  chmodSync(path, 0o755);
  return path;
}

/** A listening unix socket in a short temp dir (sun_path holds 108 bytes; tap's test dirs are longer). */
async function listeningSocket(t: TapLike): Promise<string> {
  const dir = mkdtempSync(join(tmpdir(), 'nc-sock-'));
  const path = join(dir, 'socket');
  const server: Server = createServer();
  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(path, resolve);
  });
  t.teardown(async () => {
    await new Promise<void>((resolve) => server.close(() => resolve()));
    rmSync(dir, { recursive: true, force: true });
  });
  return path;
}

function calls(dir: string): { args: string; stdin: string }[] {
  const names = readdirSync(join(dir, 'calls')).filter((n) => n.endsWith('.stdin')).sort();
  return names.map((n) => ({
    args: readFileSync(join(dir, 'calls', n.replace('.stdin', '.args')), 'utf8').trim(),
    stdin: readFileSync(join(dir, 'calls', n), 'utf8'),
  }));
}

t.test('with the journal socket: one logger --journald run per entry, the entry on stdin', async (t) => {
  const dir = t.testdir({ calls: {} });
  const socketPath = await listeningSocket(t);
  const stderr: string[] = [];
  const where = await writeJournal(entries, { socketPath, loggerPath: fakeLogger(dir), timeoutMs: 30_000, stderr: (s) => stderr.push(s) });
  t.equal(where, 'journal');
  t.same(calls(dir), entries.map((e) => ({ args: '--journald', stdin: serializeForLogger(e) })));
  t.same(stderr, []);
});

t.test('with objectPid: each entry ends with OBJECT_PID=, so journald files it under that live process\'s unit', async (t) => {
  const dir = t.testdir({ calls: {} });
  const socketPath = await listeningSocket(t);
  const where = await writeJournal(entries, { socketPath, loggerPath: fakeLogger(dir), timeoutMs: 30_000, stderr: () => {}, objectPid: 4242 });
  t.equal(where, 'journal');
  t.same(calls(dir).map((c) => c.stdin), entries.map((e) => `${serializeForLogger(e)}OBJECT_PID=4242\n`));
  const invalid = t.testdir({ calls: {} });
  await writeJournal(entries, { socketPath, loggerPath: fakeLogger(invalid), timeoutMs: 30_000, stderr: () => {}, objectPid: -1 });
  t.same(calls(invalid).map((c) => c.stdin), entries.map((e) => serializeForLogger(e)), 'no OBJECT_PID for a pid that cannot be one');
});

t.test('without the socket: nothing runs, each entry is one <N>-prefixed stderr line', async (t) => {
  const dir = t.testdir({ calls: {} });
  const stderr: string[] = [];
  const where = await writeJournal(entries, { socketPath: join(dir, 'no-socket'), loggerPath: fakeLogger(dir), timeoutMs: 30_000, stderr: (s) => stderr.push(s) });
  t.equal(where, 'stderr');
  t.same(calls(dir), [], 'logger would drop the entries silently, so it is not run');
  t.equal(stderr.length, 3);
  t.match(stderr[0], /^<4>node-check: journal not written \(.*no-socket is not a socket\); findings follow on stderr\n$/);
  t.match(stderr[1], /^<3>node-check: kubelet may not start: .* \[plugin-binary-not-executable\]\n$/);
  t.match(stderr[2], /^<4>node-check: node-check cannot tell whether kubelet will start: .* \[cannot-decide\]\n$/);
});

t.test('a regular file where the socket should be is not a socket', async (t) => {
  const dir = t.testdir({ calls: {}, socket: 'not a socket' });
  const stderr: string[] = [];
  t.equal(await writeJournal(oneMore, { socketPath: join(dir, 'socket'), loggerPath: fakeLogger(dir), timeoutMs: 30_000, stderr: (s) => stderr.push(s) }), 'stderr');
  t.same(calls(dir), []);
});

t.test('logger failing part-way: the entries it did not write go to stderr', async (t) => {
  const dir = t.testdir({ calls: {} });
  const socketPath = await listeningSocket(t);
  const stderr: string[] = [];
  const where = await writeJournal(entries, { socketPath, loggerPath: fakeLogger(dir, [0, 1]), timeoutMs: 30_000, stderr: (s) => stderr.push(s) });
  t.equal(where, 'stderr');
  t.equal(calls(dir).length, 2);
  t.equal(stderr.length, 2, 'the notice and the one entry logger did not take');
  t.match(stderr[0], /logger exited 1/);
  t.match(stderr[1], /^<4>node-check: node-check cannot tell/);
});

t.test('logger missing, or hanging past the time allowed: stderr', async (t) => {
  const dir = t.testdir({ calls: {}, hang: '#!/bin/sh\nexec sleep 600\n' });
  chmodSync(join(dir, 'hang'), 0o755);
  const socketPath = await listeningSocket(t);
  const missing: string[] = [];
  t.equal(await writeJournal(oneMore, { socketPath, loggerPath: join(dir, 'no-logger'), timeoutMs: 30_000, stderr: (s) => missing.push(s) }), 'stderr');
  t.match(missing[0], /cannot run .*no-logger/);
  t.match(missing[1], /^<3>node-check: kubelet will not start: credential provider plugin "acr" is missing/);

  const hung: string[] = [];
  t.equal(await writeJournal(oneMore, { socketPath, loggerPath: join(dir, 'hang'), timeoutMs: 300, stderr: (s) => hung.push(s) }), 'stderr');
  t.match(hung[0], /logger timed out/);
  t.equal(hung.length, 2);
});

t.test('no entries: nothing to do', async (t) => {
  const stderr: string[] = [];
  t.equal(await writeJournal([], { socketPath: '/nonexistent', timeoutMs: 1000, stderr: (s) => stderr.push(s) }), 'journal');
  t.same(stderr, []);
});
