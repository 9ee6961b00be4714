/** preflight and serve through the shipped bundle, with the sinks pointed at temp directories. */
import t, { type Test } from 'tap';
import { spawn, spawnSync } from 'node:child_process';
import { closeSync, existsSync, mkdtempSync, openSync, readdirSync, readFileSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { createServer } from 'node:net';
import * as path from 'node:path';
import { fileURLToPath } from 'node:url';
import { brokenAcrNode, BIN_DIR } from '../helpers/node-root.js';
import { mergeSettings } from '../../src/settings.js';

const repo = fileURLToPath(new URL('../..', import.meta.url));
const bundle = path.join(repo, 'dist/node-check.cjs');
if (!existsSync(bundle)) spawnSync(process.execPath, [path.join(repo, 'scripts/build.mjs')], { stdio: 'inherit' });
const env = { PATH: process.env.PATH ?? '', NODE_CHECK_CONFIG: '' };

t.test('preflight writes the metrics file atomically and exits like check', async (t) => {
  const base = t.testdir({ root: {}, textfiles: {} });
  const root = brokenAcrNode(path.join(base, 'root'));
  const textfiles = path.join(base, 'textfiles');
  const run = () => spawnSync(process.execPath, [bundle, 'preflight', '--root', root, '--kubelet-version', '1.28.7', '--no-journal', '--textfile-dir', textfiles], { encoding: 'utf8', env });
  const failing = run();
  t.equal(failing.status, 1);
  t.match(failing.stdout, /kubelet will NOT start: .*acr-credential-provider.* \[plugin-binary-missing\]/);
  t.same(readdirSync(textfiles), ['node-check.prom'], 'no temp files left behind');
  const metrics = readFileSync(path.join(textfiles, 'node-check.prom'), 'utf8');
  t.match(metrics, /^nodecheck_kubelet_start_ok 0$/m);
  t.match(metrics, /^nodecheck_credential_provider_plugin_ok\{provider="acr-credential-provider"\} 0$/m);

  writeFileSync(path.join(root, BIN_DIR, 'acr-credential-provider'), '#!/bin/sh\n', { mode: 0o755 });
  const passing = run();
  t.equal(passing.status, 0);
  t.match(readFileSync(path.join(textfiles, 'node-check.prom'), 'utf8'), /^nodecheck_kubelet_start_ok 1$/m, 'the whole file is rewritten');
});

t.test('a preflight that does not decide (usage error, bad settings file, internal error) leaves no earlier answer in place', async (t) => {
  const base = t.testdir({ root: {}, textfiles: {}, 'bad.yaml': '' });
  const root = brokenAcrNode(path.join(base, 'root'));
  writeFileSync(path.join(root, BIN_DIR, 'acr-credential-provider'), '#!/bin/sh\n', { mode: 0o755 });
  const textfiles = path.join(base, 'textfiles');
  const prom = path.join(textfiles, 'node-check.prom');
  const decided = () => {
    const ok = spawnSync(process.execPath, [bundle, 'preflight', '--root', root, '--kubelet-version', '1.28.7', '--no-journal', '--textfile-dir', textfiles], { encoding: 'utf8', env });
    t.equal(ok.status, 0);
    t.match(readFileSync(prom, 'utf8'), /^nodecheck_kubelet_start_ok 1$/m);
    t.match(readFileSync(prom, 'utf8'), /^nodecheck_last_run_ok 1$/m);
  };
  const undecided = (what: string) => {
    const text = readFileSync(prom, 'utf8');
    t.notMatch(text, /nodecheck_kubelet_start_ok/, `${what}: the earlier start_ok 1 is gone`);
    t.match(text, /^nodecheck_kubelet_start_unknown 1$/m, `${what}: cannot tell`);
    t.match(text, /^nodecheck_last_run_ok 0$/m, what);
  };

  decided();
  const usage = spawnSync(process.execPath, [bundle, 'preflight', '--root', root, '--no-journal', '--textfile-dir', textfiles, '--kubelet-version', 'one.two'], { encoding: 'utf8', env });
  t.equal(usage.status, 64);
  undecided('usage error');

  decided();
  const settingsFile = path.join(base, 'bad.yaml');
  writeFileSync(settingsFile, `textfileDir: ${textfiles}\njournal: false\ntimeoutSeconds: 9999\n`);
  const badSettings = spawnSync(process.execPath, [bundle, 'preflight', '--root', root, '--kubelet-version', '1.28.7'], { encoding: 'utf8', env: { ...env, NODE_CHECK_CONFIG: settingsFile } });
  t.equal(badSettings.status, 64);
  t.match(badSettings.stderr, /timeout must be between/);
  undecided('bad settings file (its textfileDir is still where the metrics go)');

  decided();
  const noMetrics = spawnSync(process.execPath, [bundle, 'preflight', '--root', root, '--no-journal', '--no-metrics', '--textfile-dir', textfiles, '--kubelet-version', 'one.two'], { encoding: 'utf8', env });
  t.equal(noMetrics.status, 64);
  t.match(readFileSync(prom, 'utf8'), /^nodecheck_kubelet_start_ok 1$/m, '--no-metrics: the file is left alone');
  const noValue = spawnSync(process.execPath, [bundle, 'preflight', '--textfile-dir', '--root', root], { encoding: 'utf8', env, cwd: base });
  t.equal(noValue.status, 64);
  t.notOk(existsSync(path.join(base, '--root')), 'a flag where the directory should be: no directory made of it');

  decided();
  const { runPreflight } = await t.mockImport<typeof import('../../src/cli/commands/preflight.js')>('../../src/cli/commands/preflight.js', {
    '../../src/run-node-check.js': { runNodeCheck: async () => { throw new Error('a stand-in bug'); } },
  });
  const settings = mergeSettings({ root, kubeletVersion: '1.28.7', journal: false, textfileDir: textfiles });
  await t.rejects(runPreflight(settings, { stdout: () => undefined, stderr: () => undefined, env: {}, stdoutIsTTY: false, shutdownSignal: new Promise<string>(() => undefined) }), /a stand-in bug/);
  undecided('internal error');
});

t.test('without a journal socket, entries go to stderr with a priority prefix', async (t) => {
  const root = brokenAcrNode(t.testdir());
  const result = spawnSync(process.execPath, [bundle, 'preflight', '--root', root, '--kubelet-version', '1.28.7', '--no-metrics'], { encoding: 'utf8', env });
  t.equal(result.status, 1);
  // This test machine has no journald; on one that has, the entry goes there instead.
  if (existsSync('/run/systemd/journal/socket')) return;
  t.match(result.stderr, /^node-check: .*acr-credential-provider/m, 'stderr is a pipe, not the journal: no prefix');
  const journal = preflightWithJournalStream(t, ['--root', root, '--kubelet-version', '1.28.7', '--no-metrics'], 'match');
  t.match(journal.stderr, /^<3>node-check: .*acr-credential-provider/m, 'stderr is the journal stream: systemd reads the priority');
});

/**
 * preflight with stderr on a file and $JOURNAL_STREAM set as systemd sets it ("DEV:INODE"): of
 * that very file ('match'), or of another one, as a child of a journal-logged service inherits it.
 */
function preflightWithJournalStream(t: Test, args: readonly string[], stream: 'match' | 'other' | 'unset'): { status: number | null; stderr: string } {
  const dir = mkdtempSync(path.join(tmpdir(), 'node-check-stderr-'));
  t.teardown(() => rmSync(dir, { recursive: true, force: true }));
  writeFileSync(path.join(dir, 'other'), '');
  const file = path.join(dir, 'stderr');
  const fd = openSync(file, 'w');
  try {
    const of = (p: string) => {
      const st = statSync(p, { bigint: true });
      return `${st.dev}:${st.ino}`;
    };
    const journalStream = stream === 'match' ? { JOURNAL_STREAM: of(file) } : stream === 'other' ? { JOURNAL_STREAM: of(path.join(dir, 'other')) } : {};
    const result = spawnSync(process.execPath, [bundle, 'preflight', ...args], { stdio: ['ignore', 'pipe', fd], encoding: 'utf8', env: { ...env, ...journalStream } });
    return { status: result.status, stderr: readFileSync(file, 'utf8') };
  } finally {
    closeSync(fd);
  }
}

t.test('<N> priority prefixes only when stderr is the journal stream named by $JOURNAL_STREAM', async (t) => {
  const root = brokenAcrNode(t.testdir());
  const args = ['--root', root, '--kubelet-version', '1.28.7', '--no-journal', '--textfile-dir', '/nonexistent/deeper/dir'];
  const cases = { match: /^<4>node-check: metrics: /m, other: /^node-check: metrics: /m, unset: /^node-check: metrics: /m } as const;
  for (const [stream, expected] of Object.entries(cases)) {
    const run = preflightWithJournalStream(t, args, stream as keyof typeof cases);
    t.equal(run.status, 1, `${stream}: the answer is the same`);
    t.match(run.stderr, expected, `$JOURNAL_STREAM ${stream}`);
    if (stream !== 'match') t.notMatch(run.stderr, /^<\d>/m, `${stream}: no line starts with a priority`);
  }
});

t.test('a metrics directory that cannot be written does not change the answer', async (t) => {
  const root = brokenAcrNode(t.testdir());
  const result = spawnSync(process.execPath, [bundle, 'preflight', '--root', root, '--kubelet-version', '1.28.7', '--no-journal', '--textfile-dir', '/nonexistent/deeper/dir'], { encoding: 'utf8', env });
  t.equal(result.status, 1);
  t.match(result.stderr, /^node-check: metrics: /m, 'on a pipe, without the priority prefix');
});

async function freePort(): Promise<number> {
  return new Promise((resolve) => {
    const server = createServer();
    server.listen(0, '127.0.0.1', () => {
      const { port } = server.address() as { port: number };
      server.close(() => resolve(port));
    });
  });
}

t.test('serve: /metrics, /healthz, re-check on change, clean SIGTERM', async (t) => {
  const root = brokenAcrNode(t.testdir());
  const port = await freePort();
  const child = spawn(process.execPath, [bundle, 'serve', '--root', root, '--kubelet-version', '1.28.7', '--no-journal', '--listen', `127.0.0.1:${port}`, '--interval', '300'], { env, stdio: ['ignore', 'pipe', 'pipe'] });
  let stderr = '';
  child.stderr.on('data', (chunk) => (stderr += chunk));
  const exited = new Promise<number | null>((resolve) => child.on('exit', (code) => resolve(code)));
  t.teardown(() => child.kill('SIGKILL'));

  const get = async (url: string) => {
    const response = await fetch(`http://127.0.0.1:${port}${url}`);
    return { status: response.status, body: await response.text() };
  };
  const eventually = async (what: string, predicate: () => Promise<boolean>) => {
    for (let i = 0; i < 100; i++) {
      try {
        if (await predicate()) return;
      } catch {
        // not listening yet
      }
      await new Promise((r) => setTimeout(r, 100));
    }
    t.fail(`timed out waiting for ${what}; stderr: ${stderr}`);
  };

  await eventually('the first check', async () => (await get('/metrics')).status === 200);
  t.match((await get('/metrics')).body, /^nodecheck_kubelet_start_ok 0$/m);
  t.equal((await get('/healthz')).status, 200);
  t.equal((await get('/nope')).status, 404);
  const plain = await fetch(`http://127.0.0.1:${port}/metrics`);
  t.equal(plain.headers.get('content-type'), 'text/plain; version=0.0.4; charset=utf-8');
  t.match(await plain.text(), /^process_cpu_seconds_total \d/m, "the process's own families, as prom-client names them");
  const open = await fetch(`http://127.0.0.1:${port}/metrics`, { headers: { Accept: 'application/openmetrics-text;version=1.0.0;q=0.5,text/plain;version=0.0.4;q=0.3,*/*;q=0.2' } });
  t.equal(open.headers.get('content-type'), 'application/openmetrics-text; version=1.0.0; charset=utf-8', 'OpenMetrics when the scraper prefers it');
  t.match(await open.text(), /^# TYPE process_cpu_seconds counter\n[^]*# EOF\n$/m);

  writeFileSync(path.join(root, BIN_DIR, 'acr-credential-provider'), '#!/bin/sh\n', { mode: 0o755 });
  await eventually('the re-check after the plugin appeared', async () => /^nodecheck_kubelet_start_ok 1$/m.test((await get('/metrics')).body));
  t.match(stderr, /answer changed: kubelet is predicted to start \(before: will NOT start\);.* gone: plugin-binary-missing$/m);
  t.equal(stderr.match(/answer changed/g)?.length, 1, 'said once');

  child.kill('SIGTERM');
  t.equal(await exited, 0, 'SIGTERM shuts down cleanly');
});

t.test('serve --auto-restore reverts the fallback once the plugin is back', async (t) => {
  const root = brokenAcrNode(t.testdir());
  const apply = spawnSync(process.execPath, [bundle, 'fallback', 'apply', '--root', root, '--kubelet-version', '1.28.7'], { encoding: 'utf8', env });
  t.equal(apply.status, 0, apply.stderr);
  const dropIn = path.join(root, 'run/systemd/system/kubelet.service.d/99-node-check-fallback.conf');
  t.ok(existsSync(dropIn), 'the fallback is in place');

  const port = await freePort();
  const child = spawn(process.execPath, [bundle, 'serve', '--root', root, '--kubelet-version', '1.28.7', '--no-journal', '--auto-restore', '--listen', `127.0.0.1:${port}`, '--interval', '1'], { env, stdio: ['ignore', 'pipe', 'pipe'] });
  let stderr = '';
  child.stderr.on('data', (chunk) => (stderr += chunk));
  const exited = new Promise<number | null>((resolve) => child.on('exit', (code) => resolve(code)));
  t.teardown(() => child.kill('SIGKILL'));

  const metrics = async () => (await fetch(`http://127.0.0.1:${port}/metrics`)).text();
  const waitFor = async (what: string, predicate: () => Promise<boolean> | boolean) => {
    for (let i = 0; i < 100; i++) {
      try {
        if (await predicate()) return true;
      } catch {
        // not listening yet
      }
      await new Promise((r) => setTimeout(r, 100));
    }
    t.fail(`timed out waiting for ${what}; stderr: ${stderr}`);
    return false;
  };
  await waitFor('the fallback to be reported', async () => /^nodecheck_fallback_active 1$/m.test(await metrics()));
  t.ok(existsSync(dropIn), 'kept while the plugin is still missing');

  writeFileSync(path.join(root, BIN_DIR, 'acr-credential-provider'), '#!/bin/sh\n', { mode: 0o755 });
  await waitFor('the revert', () => !existsSync(dropIn));
  await waitFor('metrics without the fallback', async () => /^nodecheck_fallback_active 0$/m.test(await metrics()));
  t.match(stderr, /fallback reverted/);
  child.kill('SIGTERM');
  t.equal(await exited, 0);
});

t.test('serve on an address in use exits 75 (EX_TEMPFAIL) and says so', async (t) => {
  const root = brokenAcrNode(t.testdir());
  const holder = createServer();
  await new Promise<void>((resolve) => holder.listen(0, '127.0.0.1', resolve));
  t.teardown(() => holder.close());
  const { port } = holder.address() as { port: number };
  const child = spawn(process.execPath, [bundle, 'serve', '--root', root, '--kubelet-version', '1.28.7', '--no-journal', '--listen', `127.0.0.1:${port}`], { env, stdio: ['ignore', 'pipe', 'pipe'] });
  let stderr = '';
  child.stderr.on('data', (chunk) => (stderr += chunk));
  const code = await new Promise<number | null>((resolve) => child.on('exit', (exitCode) => resolve(exitCode)));
  t.equal(code, 75);
  t.match(stderr, new RegExp(`cannot listen on 127\\.0\\.0\\.1:${port}: the address is in use .*pass another --listen`));
});
