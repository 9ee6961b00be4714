/** Flags as pflag reads them; usage errors are 64, never an internal error. */
import t from 'tap';
import { brokenAcrNode } from '../helpers/node-root.js';
import { NO_CRASH, runBundle } from '../hostile/bundle.js';

t.test('a repeated flag takes its last value (the RHCOS wrapper appends flags after the user\'s)', async (t) => {
  const root = brokenAcrNode(t.testdir());
  const twice = runBundle(['check', '--root', '/nonexistent', '--root', root, '--kubelet-version', '1.24.0', '--kubelet-version', '1.28.7', '-o', 'text', '-o', 'json']);
  t.equal(twice.status, 1, twice.stderr);
  const report = JSON.parse(twice.stdout);
  t.equal(report.kubeletVersion, '1.28.7');
  t.equal(report.kubelet.unitFile, '/etc/systemd/system/kubelet.service');
  const equals = runBundle(['check', `--root=${root}`, '--kubelet-version=1.28.7', '--root=/nonexistent']);
  t.equal(equals.status, 66, 'the last --root= wins: nothing there (EX_NOINPUT)');
  t.match(equals.stderr, /^node-check: --root \/nonexistent: no such directory \(ENOENT\)$/m);
  t.notMatch(twice.stderr + equals.stderr, NO_CRASH);
  const preflight = runBundle(['preflight', '--root', root, '--kubelet-version', '1.28.7', '--no-journal', '--no-metrics', '--timeout', '400', '--timeout', '5', '--journal', '--no-journal']);
  t.equal(preflight.status, 1, preflight.stderr);
});

t.test('a path on the command line that is not there exits 66 (EX_NOINPUT), naming it', async (t) => {
  const dir = t.testdir({ 'file.yaml': 'x: 1\n', directory: {} });
  const root = brokenAcrNode(`${dir}/root`);
  const cases: [string[], RegExp][] = [
    [['check', '--root', `${dir}/missing`], /--root .*\/missing: no such directory \(ENOENT\)/],
    [['check', '--root', `${dir}/file.yaml`], /--root .*\/file\.yaml: not a directory/],
    [['preflight', '--root', `${dir}/missing`, '--no-journal', '--no-metrics'], /--root .*\/missing: no such directory/],
    [['check', '--root', root, '--machine-config', `${dir}/missing.yaml`], /--machine-config .*\/missing\.yaml: no such file \(ENOENT\)/],
    [['check', '--root', root, '--overlay', `${dir}/missing`], /--overlay .*\/missing: no such directory/],
    [['check', '--root', root, '--overlay', `${dir}/file.yaml`], /--overlay .*\/file\.yaml: not a directory/],
  ];
  for (const [args, message] of cases) {
    const run = runBundle(args);
    t.equal(run.status, 66, args.join(' '));
    t.match(run.stderr, message);
    t.notMatch(run.stderr, NO_CRASH);
  }
  const present = runBundle(['check', '--root', root, '--kubelet-version', '1.28.7', '--overlay', `${dir}/directory`]);
  t.equal(present.status, 1, 'a directory that exists is laid over the node, as before');
});

t.test('a flag without its value is a usage error', async (t) => {
  for (const args of [['check', '--root'], ['check', '--root', '--kubelet-version', '1.28.7'], ['check', '--kubelet-version'], ['check', '-o'], ['preflight', '--timeout'], ['preflight', '--textfile-dir'], ['serve', '--listen'], ['serve', '--interval'], ['check', '--unit'], ['check', '--config-file'], ['check', '--root=']]) {
    const run = runBundle(args);
    t.equal(run.status, 64, args.join(' '));
    t.match(run.stderr, /^node-check: (Not enough arguments following: |--root needs a non-empty value)/, args.join(' '));
    t.notMatch(run.stderr, NO_CRASH);
  }
});

t.test('a bad --listen is a usage error, before anything listens', async (t) => {
  for (const listen of ['127.0.0.1:99999', '127.0.0.1:', 'localhost', ':1:2:3']) {
    const run = runBundle(['serve', '--listen', listen, '--root', t.testdir()], { timeoutMs: 10_000 });
    t.equal(run.status, 64, listen);
    t.match(run.stderr, /listen must be HOST:PORT/);
  }
});
