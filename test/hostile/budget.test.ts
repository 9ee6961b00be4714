/** --timeout is a hard budget, and no input makes the work quadratic. */
import t from 'tap';
import { spawnSync } from 'node:child_process';
import { mkdirSync, readdirSync, readFileSync, writeFileSync } from 'node:fs';
import * as path from 'node:path';
import { providerEntriesIn, providerNamesIn } from '../../src/credentials/provider-names.js';
import { brokenAcrNode, CONFIG } from '../helpers/node-root.js';
import { NO_CRASH, repo, runBundle } from './bundle.js';
import { MAX_DROP_INS, MAX_PROVIDER_ENTRIES } from '../../src/limits/bounds.js';

const HEADER = 'apiVersion: kubelet.config.k8s.io/v1\nkind: CredentialProviderConfig\nproviders:\n';

t.test('200,000 provider names are listed in linear time (was 97 s: Array.includes)', async (t) => {
  const names = Array.from({ length: 200_000 }, (_, i) => `p${i}`);
  const text = HEADER + names.map((n) => `- name: ${n}\n`).join('') + '- name: p0\n';
  const started = Date.now();
  const listed = providerEntriesIn(text);
  t.equal(listed.names.length, 200_000);
  t.equal(listed.entries, 200_001);
  t.ok(Date.now() - started < 20_000, `${Date.now() - started} ms`);
  t.same(providerNamesIn(HEADER + '- name: b\n- name: a\n- name: b\n'), ['b', 'a'], 'first appearance order, no repeats');
});

t.test('a config with many short providers answers "cannot tell" within the budget', async (t) => {
  const config = HEADER + Array.from({ length: 20_000 }, (_, i) => `- name: p${i}\n`).join('');
  for (const extra of [[], ['--fallback']]) {
    const root = brokenAcrNode(t.testdir(), { [CONFIG]: config });
    const run = runBundle(['preflight', '--root', root, '--kubelet-version', '1.28.7', '--no-journal', '--no-metrics', '--timeout', '2', ...extra]);
    t.equal(run.status, 2, `exit 2 ${extra.join(' ')}`);
    t.ok(run.ms < 3500, `${run.ms} ms`);
    t.match(run.stdout, `${CONFIG} is too large to evaluate`);
    t.notMatch(run.stdout + run.stderr, NO_CRASH);
  }
  const justUnder = HEADER + Array.from({ length: MAX_PROVIDER_ENTRIES }, (_, i) => `- name: p${i}\n`).join('');
  const root = brokenAcrNode(t.testdir(), { [CONFIG]: justUnder });
  const run = runBundle(['check', '--root', root, '--kubelet-version', '1.28.7']);
  t.equal(run.status, 1, 'at the bound, still evaluated');
});

t.test('synchronous work past the budget: the watchdog kills the process', async (t) => {
  const script = `
    import { armWatchdog } from ${JSON.stringify(repo + 'src/cli/watchdog.ts')};
    const mode = process.argv[1];
    const dog = armWatchdog(300, 'watchdog: budget exceeded\\n');
    const end = Date.now() + (mode === 'busy' ? 10000 : 50);
    while (Date.now() < end);
    dog.disarm();
    await new Promise((r) => setTimeout(r, 600));
    console.log('answered');
  `;
  for (const mode of ['busy', 'quick']) {
    const started = Date.now();
    const run = spawnSync(process.execPath, [...process.execArgv, '--input-type=module', '-e', script, mode], { encoding: 'utf8', timeout: 20_000 });
    const ms = Date.now() - started;
    if (mode === 'busy') {
      t.equal(run.signal, 'SIGKILL', 'killed');
      t.equal(run.stderr, 'watchdog: budget exceeded\n');
      t.ok(ms < 5000, `${ms} ms`);
    } else {
      t.equal(run.status, 0, 'disarmed in time: not killed');
      t.equal(run.stdout, 'answered\n');
    }
  }
});

t.test('the watchdog leaves "cannot tell" metrics and a journal entry before it kills', async (t) => {
  const dir = t.testdir({ 'node-check.prom': 'nodecheck_kubelet_start_ok 1\n' });
  const script = `
    import { prepareLastWords } from ${JSON.stringify(repo + 'src/cli/commands/preflight.ts')};
    import { armWatchdog } from ${JSON.stringify(repo + 'src/cli/watchdog.ts')};
    import { mergeSettings } from ${JSON.stringify(repo + 'src/settings.ts')};
    const settings = mergeSettings({ textfileDir: ${JSON.stringify(dir)}, timeoutSeconds: 0.3 });
    const lastWords = prepareLastWords(settings, Date.now() + 300);
    const dog = armWatchdog(300, 'watchdog: budget exceeded\\n', { ...lastWords, journal: { ...lastWords.journal, socketPath: '/nonexistent/socket' } });
    const end = Date.now() + (process.argv[1] === 'busy' ? 60000 : 50);
    while (Date.now() < end);
    dog.disarm();
    lastWords.discard();
    console.log('answered');
  `;
  const run = spawnSync(process.execPath, [...process.execArgv, '--input-type=module', '-e', script, 'busy'], { encoding: 'utf8', timeout: 120_000 });
  t.equal(run.signal, 'SIGKILL', 'killed');
  const prom = readFileSync(path.join(dir, 'node-check.prom'), 'utf8');
  t.notMatch(prom, /nodecheck_kubelet_start_ok/, 'the earlier answer is gone');
  t.match(prom, /^nodecheck_kubelet_start_unknown 1$/m);
  t.match(prom, /^nodecheck_last_run_ok 0$/m);
  t.match(run.stderr, /^watchdog: budget exceeded$/m);
  t.match(run.stderr, /^<4>node-check: node-check cannot tell whether kubelet will start: preflight overran its 0\.3 s budget before it could decide, and was killed so that kubelet can start \[cannot-decide\]$/m, 'the journal entry (on stderr: no journald socket)');
  t.same(readdirSync(dir), ['node-check.prom'], 'no temp file left');

  const quick = spawnSync(process.execPath, [...process.execArgv, '--input-type=module', '-e', script, 'quick'], { encoding: 'utf8', timeout: 120_000 });
  t.equal(quick.stdout, 'answered\n');
  t.same(readdirSync(dir), ['node-check.prom'], 'disarmed: the prepared file is removed');
  t.equal(readFileSync(path.join(dir, 'node-check.prom'), 'utf8'), prom, 'disarmed: the textfile is left as it was');
});

t.test('more drop-ins than node-check reads: cannot tell, naming the bound, within the budget', async (t) => {
  const base = t.testdir({ root: {}, textfiles: {} });
  const root = brokenAcrNode(path.join(base, 'root'));
  const dropins = path.join(root, 'etc/systemd/system/kubelet.service.d');
  mkdirSync(dropins, { recursive: true });
  for (let i = 0; i <= MAX_DROP_INS; i++) writeFileSync(path.join(dropins, `${String(i).padStart(5, '0')}-x.conf`), `[Service]\nEnvironment=X${i}=1\n`);
  const textfiles = path.join(base, 'textfiles');
  const run = runBundle(['preflight', '--root', root, '--kubelet-version', '1.28.7', '--no-journal', '--textfile-dir', textfiles, '--timeout', '2']);
  t.equal(run.status, 2);
  t.match(run.stdout, `more than the ${MAX_DROP_INS} node-check reads`);
  t.match(readFileSync(path.join(textfiles, 'node-check.prom'), 'utf8'), /^nodecheck_kubelet_start_unknown 1$/m);
});
