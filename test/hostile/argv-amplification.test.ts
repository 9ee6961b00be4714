/** Issue 10, item 11: a value repeated in ExecStart cannot make node-check build gigabytes of argv. */
import t from 'tap';
import { brokenAcrNode, kubeletUnit } from '../helpers/node-root.js';
import { NO_CRASH, runBundle } from './bundle.js';
import { expandArgv } from '../../src/systemd/env-expand.js';

const big = 'x'.repeat(3 * 1024 * 1024);

t.test('expansion stops at what execve accepts', async (t) => {
  const env = new Map([['A', big], ['S', 'y'.repeat(100 * 1024)]]);
  const inOneWord = expandArgv(['/usr/bin/kubelet', '${A}'.repeat(3000)], env);
  t.match(inOneWord, { argv: ['/usr/bin/kubelet'], tooLarge: /an argument of more than 131072 bytes/ });
  const asWords = expandArgv(['/usr/bin/kubelet', ...Array(3000).fill('$S')], env);
  t.match(asWords.tooLarge, /more than 6291456 bytes of arguments/);
  t.ok(asWords.argv.length < 70);
  t.same(expandArgv(['/usr/bin/kubelet', '--a=${S}'], new Map([['S', 'v']])), { argv: ['/usr/bin/kubelet', '--a=v'], unset: [] });
});

t.test('preflight answers "cannot tell" at once, naming E2BIG', async (t) => {
  const unit = kubeletUnit().replace('ExecStart=/usr/bin/kubelet', `EnvironmentFile=/etc/kubernetes/big.env\nExecStart=/usr/bin/kubelet ${'${A}'.repeat(3000)} ${'$A '.repeat(3000)}`);
  const root = brokenAcrNode(t.testdir(), { '/etc/systemd/system/kubelet.service': unit, '/etc/kubernetes/big.env': `A=${big.slice(0, 1024 * 1024)}\n` });
  const run = runBundle(['preflight', '--root', root, '--kubelet-version', '1.28.7', '--no-journal', '--no-metrics', '--timeout', '5'], { timeoutMs: 30_000 });
  t.equal(run.status, 2, run.stderr.slice(0, 300));
  t.ok(run.ms < 6000, `${run.ms} ms`);
  t.match(run.stdout, /Argument list too long/);
  t.notMatch(run.stdout + run.stderr, NO_CRASH);
});
