/** Issue 10, item 3: --timeout is a hard budget, and no input makes the work quadratic. */
import t from 'tap';
import { spawnSync } from 'node:child_process';
import { providerEntriesIn, providerNamesIn } from '../../src/credentials/provider-names.js';
import { brokenAcrNode, CONFIG } from '../helpers/node-root.js';
import { NO_CRASH, repo, runBundle } from './bundle.js';
import { MAX_PROVIDER_ENTRIES } from '../../src/limits/bounds.js';

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
