/**
 * A value repeated in ExecStart cannot make node-check build gigabytes of argv,
 * and an argument list execve(2) refuses is a finding: systemd fails the unit at step EXEC (203).
 */
import t from 'tap';
import { brokenAcrNode, kubeletUnit } from '../helpers/node-root.js';
import { NO_CRASH, runBundle } from './bundle.js';
import { expandArgv } from '../../src/systemd/env-expand.js';

const big = 'x'.repeat(3 * 1024 * 1024);

t.test('expansion stops past what execve accepts on any Linux', async (t) => {
  const env = new Map([['A', big], ['S', 'y'.repeat(100 * 1024)]]);
  const inOneWord = expandArgv(['/usr/bin/kubelet', '${A}'.repeat(3000)], env);
  t.match(inOneWord, { argv: ['/usr/bin/kubelet'], tooLarge: /an argument of more than 2097152 bytes/ });
  const asWords = expandArgv(['/usr/bin/kubelet', ...Array(3000).fill('$S')], env);
  t.match(asWords.tooLarge, /more than 6291456 bytes of arguments/);
  t.ok(asWords.argv.length < 70);
  t.same(expandArgv(['/usr/bin/kubelet', '--a=${S}'], new Map([['S', 'v']])), { argv: ['/usr/bin/kubelet', '--a=v'], variables: [[], ['S']], unset: [] });
});

t.test('preflight says "will NOT start" at once, in systemd\'s words (E2BIG, 203/EXEC)', async (t) => {
  const unit = kubeletUnit().replace('ExecStart=/usr/bin/kubelet', `EnvironmentFile=/etc/kubernetes/big.env\nExecStart=/usr/bin/kubelet ${'${A}'.repeat(3000)} ${'$A '.repeat(3000)}`);
  const root = brokenAcrNode(t.testdir(), { '/etc/systemd/system/kubelet.service': unit, '/etc/kubernetes/big.env': `A=${big.slice(0, 1024 * 1024)}\n` });
  const run = runBundle(['preflight', '--root', root, '--kubelet-version', '1.28.7', '--no-journal', '--no-metrics', '--timeout', '5'], { timeoutMs: 30_000 });
  t.equal(run.status, 1, run.stderr.slice(0, 300));
  t.ok(run.ms < 6000, `${run.ms} ms`);
  t.match(run.stdout, /will NOT start: .*E2BIG.*\[systemd-exec-argument-list-too-long\]/);
  const check = runBundle(['check', '--root', root, '--kubelet-version', '1.28.7', '--output', 'json'], { timeoutMs: 30_000 });
  t.equal(check.status, 1);
  const report = JSON.parse(check.stdout);
  t.equal(report.kubeletWillStart, false);
  t.match(report.findings, [{
    id: 'systemd-exec-argument-list-too-long',
    severity: 'error',
    path: '/etc/systemd/system/kubelet.service',
    kubeletError: 'kubelet.service: Failed at step EXEC spawning /usr/bin/kubelet: Argument list too long',
    message: /ExecStart= expands to an argument of more than 2097152 bytes/,
  }]);
  t.equal(report.findings.length, 1, 'nothing read from the cut-short argv');
  t.notMatch(run.stdout + run.stderr + check.stdout + check.stderr, NO_CRASH);
});
