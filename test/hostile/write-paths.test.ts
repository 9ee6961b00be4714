/** Nothing is written or read outside its place, whatever symlinks the node holds. */
import t from 'tap';
import * as fs from 'node:fs';
import * as path from 'node:path';
import { brokenAcrNode } from '../helpers/node-root.js';
import { NO_CRASH, runBundle } from './bundle.js';
import { openDirectoryBelow } from '../../src/host/safe-dir.js';
import { replaceFileAtomically } from '../../src/host/atomic-file.js';
import { RootFs } from '../../src/host/root-fs.js';
import { withLock } from '../../src/fallback/lock.js';
import { writeTextfile } from '../../src/sinks/textfile.js';
import { serializeFallbackState } from '../../src/fallback/state.js';

const listAll = (dir: string): string[] => (fs.existsSync(dir) ? fs.readdirSync(dir, { recursive: true }).map(String).sort() : []);

t.test('ROOT/run as a symlink: the lock and the fallback are refused, nothing lands elsewhere', async (t) => {
  const base = t.testdir({ elsewhere: {} });
  const root = brokenAcrNode(path.join(base, 'root'));
  fs.symlinkSync(path.join(base, 'elsewhere'), path.join(root, 'run'));
  await t.rejects(withLock(root, () => 1), /run is a symlink, not a plain directory/);
  const run = runBundle(['preflight', '--fallback', '--root', root, '--kubelet-version', '1.28.7', '--no-journal', '--no-metrics']);
  t.equal(run.status, 1, 'the answer without the fallback');
  t.match(run.stderr, /run is a symlink/);
  t.notMatch(run.stdout + run.stderr, NO_CRASH);
  t.same(listAll(path.join(base, 'elsewhere')), [], 'nothing written through the link');
});

t.test('a textfile directory that is a symlink (to /etc, say) is refused', async (t) => {
  const base = t.testdir({ etc: {}, lib: {} });
  const textfiles = path.join(base, 'lib/textfile_collector');
  fs.symlinkSync(path.join(base, 'etc'), textfiles);
  t.throws(() => writeTextfile(textfiles, 'node-check.prom', 'a 1\n'), /textfile directory .*textfile_collector is a symlink/);
  const root = brokenAcrNode(path.join(base, 'root'));
  const run = runBundle(['preflight', '--root', root, '--kubelet-version', '1.28.7', '--no-journal', '--textfile-dir', textfiles]);
  t.equal(run.status, 1);
  t.match(run.stderr, /node-check: metrics: textfile directory .* is a symlink/);
  t.same(listAll(path.join(base, 'etc')), []);
});

t.test('a directory swapped for a symlink after it was opened cannot redirect a write', async (t) => {
  const base = t.testdir({ root: { run: { 'node-check': {} } }, elsewhere: {} });
  const dir = openDirectoryBelow(path.join(base, 'root'), ['run', 'node-check'])!;
  try {
    fs.renameSync(path.join(base, 'root/run/node-check'), path.join(base, 'root/run/moved'));
    fs.symlinkSync(path.join(base, 'elsewhere'), path.join(base, 'root/run/node-check'));
    replaceFileAtomically(dir.at, 'fallback.json', '{}', 0o600);
  } finally {
    dir.close();
  }
  t.same(listAll(path.join(base, 'elsewhere')), []);
  t.same(listAll(path.join(base, 'root/run/moved')), ['fallback.json'], 'the write went to the directory that was checked');
});

t.test('".." after a symlink is resolved as the kernel does: the link first', async (t) => {
  const root = t.testdir({ a: { b: {}, 'cp.yaml': 'under a' }, 'cp.yaml': 'at the top' });
  fs.symlinkSync('a/b', path.join(root, 'l'));
  const rfs = new RootFs(root);
  const read = rfs.readFile('/l/../cp.yaml');
  t.ok(read.ok);
  t.equal(read.ok && read.data.toString(), 'under a');
  t.equal(rfs.resolve('/l/../cp.yaml').ok && (rfs.resolve('/l/../cp.yaml') as { nodePath: string }).nodePath, '/a/cp.yaml');
  t.equal(rfs.readFile('/../../cp.yaml').ok && 'ok', 'ok', '".." at the root stays at the root');
});

t.test('an open that lands outside the root (a race) is refused, whatever resolve said', async (t) => {
  const base = t.testdir({ root: {}, secret: 'host secret' });
  class Raced extends RootFs {
    override resolve(nodePath: string) {
      return { ok: true as const, hostPath: path.join(base, 'secret'), nodePath };
    }
  }
  const rfs = new Raced(path.join(base, 'root'));
  t.same(rfs.readFile('/etc/x'), { ok: false, code: 'EXDEV' });
  t.same(rfs.readHead('/etc/x', 4), { ok: false, code: 'EXDEV' });
  t.same(rfs.stat('/etc/x'), { ok: false, code: 'EXDEV' });
});

t.test('temp files of a killed writer are cleaned by the next write; a live writer\'s stay', async (t) => {
  const dir = t.testdir({ '.node-check.prom.999999999.0123456789ab.tmp': 'dead', [`.node-check.prom.${process.pid}.0123456789ab.tmp`]: 'ours, from before', [`.node-check.prom.1.0123456789ab.tmp`]: 'pid 1 lives', 'other.tmp': 'not ours' });
  replaceFileAtomically(dir, 'node-check.prom', 'a 1\n', 0o644);
  t.same(fs.readdirSync(dir).sort(), ['.node-check.prom.1.0123456789ab.tmp', 'node-check.prom', 'other.tmp']);
});

t.test('a NUL in a node path reads as Go says it: invalid argument', async (t) => {
  const rfs = new RootFs(t.testdir());
  t.same(rfs.readFile('/etc/a\0b'), { ok: false, code: 'EINVAL' });
  t.same(new RootFs('/').stat('/etc/a\0b'), { ok: false, code: 'EINVAL' });
});

t.test('fallback apply whose writes fail does not say "applied"', async (t) => {
  const base = t.testdir({ elsewhere: {} });
  const root = brokenAcrNode(path.join(base, 'root'), { '/run/node-check': null });
  fs.mkdirSync(path.join(root, 'run/systemd'), { recursive: true });
  fs.symlinkSync(path.join(base, 'elsewhere'), path.join(root, 'run/systemd/system'));
  const run = runBundle(['fallback', 'apply', '--root', root, '--kubelet-version', '1.28.7']);
  t.equal(run.status, 1);
  t.match(run.stdout, /fallback apply FAILED, not completed/);
  t.notMatch(run.stdout, /fallback applied/);
  t.match(run.stdout, /error: .*system is a symlink/);
  t.same(listAll(path.join(base, 'elsewhere')), []);
});

t.test('revert while ROOT/run/systemd/system is a symlink clears the stale record and touches nothing through the link', async (t) => {
  const base = t.testdir({ elsewhere: { 'kubelet.service.d': { '99-node-check-fallback.conf': 'not ours to remove\n' } } });
  const record = serializeFallbackState({
    since: '2026-03-01T10:00:00.000Z',
    reason: 'test',
    removedProviders: ['acr-credential-provider'],
    dropInPath: '/run/systemd/system/kubelet.service.d/99-node-check-fallback.conf',
    unit: 'kubelet.service',
  });
  const root = brokenAcrNode(path.join(base, 'root'), { '/run/node-check/fallback.json': record, '/run/systemd': null });
  fs.symlinkSync(path.join(base, 'elsewhere'), path.join(root, 'run/systemd/system'));
  const run = runBundle(['fallback', 'revert', '--root', root, '--kubelet-version', '1.28.7']);
  t.equal(run.status, 0, run.stdout + run.stderr);
  t.match(run.stdout, /fallback reverted/);
  t.match(run.stdout, /changed \/run\/node-check\/fallback\.json/);
  t.match(run.stdout, /note: not removing \/run\/systemd\/system\/kubelet\.service\.d\/99-node-check-fallback\.conf: .*system is a symlink/);
  t.notMatch(run.stdout + run.stderr, NO_CRASH);
  t.notOk(fs.existsSync(path.join(root, 'run/node-check/fallback.json')), 'the stale record is gone');
  t.same(listAll(path.join(base, 'elsewhere')), ['kubelet.service.d', 'kubelet.service.d/99-node-check-fallback.conf'], 'nothing removed through the link');
  t.ok(fs.lstatSync(path.join(root, 'run/systemd/system')).isSymbolicLink(), 'the link itself stays');
});
