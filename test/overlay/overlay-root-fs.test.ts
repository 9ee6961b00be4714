/** OverlayRootFs: what discovery sees through the layers, and that the root is never touched. */
import t from 'tap';
import * as fs from 'node:fs';
import * as path from 'node:path';
import { RootFs } from '../../src/host/root-fs.js';
import { OverlayRootFs } from '../../src/overlay/overlay-root-fs.js';
import type { Layer, LayerEntry } from '../../src/overlay/ignition.js';
import { isMaskedPath } from '../../src/systemd/masked-path.js';
import { treeDigest } from './helpers.js';

const layer = (name: string, entries: LayerEntry[]): Layer => ({ name, kind: 'ignition', origin: name, entries, unmodelled: [] });
const fileEntry = (p: string, text: string, mode = 0o644): LayerEntry => ({ path: p, kind: 'file', mode, contents: Buffer.from(text), hasContents: true, overwrite: true, append: [] });

function baseRoot(dir: string): string {
  fs.mkdirSync(path.join(dir, 'etc/systemd/system/kubelet.service.d'), { recursive: true });
  fs.mkdirSync(path.join(dir, 'var/lib/creds'), { recursive: true });
  fs.mkdirSync(path.join(dir, 'usr/bin'), { recursive: true });
  fs.writeFileSync(path.join(dir, 'etc/systemd/system/kubelet.service'), 'old unit\n');
  fs.writeFileSync(path.join(dir, 'etc/systemd/system/kubelet.service.d/10-a.conf'), 'a\n');
  fs.writeFileSync(path.join(dir, 'etc/systemd/system/kubelet.service.d/20-b.conf'), 'b\n');
  fs.writeFileSync(path.join(dir, 'usr/bin/kubelet'), '\x7fELF', { mode: 0o755 });
  fs.symlinkSync('/var/lib/creds', path.join(dir, 'etc/creds'));
  return dir;
}

t.test('files, replacement, new directories, merged listings', async (t) => {
  const root = baseRoot(t.testdir());
  const digest = treeDigest(root);
  const view = new OverlayRootFs(new RootFs(root), [
    layer('one', [
      fileEntry('/etc/systemd/system/kubelet.service', 'new unit\n'),
      fileEntry('/etc/systemd/system/kubelet.service.d/30-c.conf', 'c\n'),
      { path: '/etc/systemd/system/kubelet.service.d/20-b.conf', kind: 'absent' },
      fileEntry('/etc/kubernetes/credential-providers/acr.yaml', 'cfg', 0o600),
    ]),
  ]);
  const unit = view.readFile('/etc/systemd/system/kubelet.service');
  t.equal(unit.ok && unit.data.toString(), 'new unit\n');
  const listed = view.readdir('/etc/systemd/system/kubelet.service.d');
  t.same(listed.ok && listed.entries.map((e) => e.name).sort(), ['10-a.conf', '30-c.conf'], 'root entries, minus the removed, plus the new');
  t.match(view.stat('/etc/kubernetes'), { ok: true, type: 'directory', mode: 0o755 }, 'missing parents are created 0755');
  t.match(view.stat('/etc/kubernetes/credential-providers/acr.yaml'), { ok: true, type: 'file', mode: 0o600, size: 3 });
  t.match(view.stat('/etc/systemd/system/kubelet.service.d/20-b.conf'), { ok: false, code: 'ENOENT' });
  t.match(view.stat('/etc/systemd'), { ok: true, type: 'directory' }, 'the root still shows through');
  const etc = view.readdir('/etc');
  t.ok(etc.ok && etc.entries.some((e) => e.name === 'kubernetes' && e.isDirectory) && etc.entries.some((e) => e.name === 'systemd'));
  t.same(view.changedPaths(), ['/etc/kubernetes/credential-providers/acr.yaml', '/etc/systemd/system/kubelet.service', '/etc/systemd/system/kubelet.service.d/20-b.conf', '/etc/systemd/system/kubelet.service.d/30-c.conf']);
  t.equal(treeDigest(root), digest, 'the root is untouched');
  t.notOk(fs.existsSync(path.join(root, 'etc/kubernetes')));
});

t.test('layers apply in order; a later layer wins; writes through a symlinked parent land at its target', async (t) => {
  const root = baseRoot(t.testdir());
  const view = new OverlayRootFs(new RootFs(root), [
    layer('one', [fileEntry('/etc/x', 'first'), fileEntry('/etc/creds/token', 'secret')]),
    layer('two', [fileEntry('/etc/x', 'second')]),
  ]);
  const x = view.readFile('/etc/x');
  t.equal(x.ok && x.data.toString(), 'second');
  const viaTarget = view.readFile('/var/lib/creds/token');
  t.equal(viaTarget.ok && viaTarget.data.toString(), 'secret', '/etc/creds -> /var/lib/creds: the file is written in /var/lib/creds');
  t.ok(view.writtenPaths().includes('/var/lib/creds/token'));
});

t.test('links, masks, hard links and symlink resolution', async (t) => {
  const root = baseRoot(t.testdir());
  const view = new OverlayRootFs(new RootFs(root), [
    layer('l', [
      { path: '/usr/local/bin/kubelet', kind: 'link', target: '/usr/bin/kubelet', hard: false, overwrite: true },
      { path: '/etc/systemd/system/kubelet.service', kind: 'masked-unit', target: '/dev/null' },
      { path: '/etc/loop', kind: 'link', target: '/etc/loop', hard: false, overwrite: true },
      { path: '/etc/up', kind: 'link', target: '../../../../usr/bin', hard: false, overwrite: true },
    ]),
  ]);
  t.match(view.lstat('/usr/local/bin/kubelet'), { ok: true, type: 'symlink' });
  t.match(view.stat('/usr/local/bin/kubelet'), { ok: true, type: 'file', mode: 0o755 });
  t.equal(view.readlink('/usr/local/bin/kubelet'), '/usr/bin/kubelet');
  const head = view.readHead('/usr/local/bin/kubelet', 4);
  t.equal(head.ok && head.data.toString('latin1'), '\x7fELF');
  t.ok(isMaskedPath(view, '/etc/systemd/system/kubelet.service'), 'mask: a symlink to /dev/null, as systemd sees it');
  t.match(view.stat('/etc/loop'), { ok: false, code: 'ELOOP' });
  t.match(view.resolve('/etc/up/kubelet'), { ok: true, nodePath: '/usr/bin/kubelet' }, '".." never climbs above the root');
});

t.test('a plain directory tree (--overlay DIR) is read through a RootFs of it', async (t) => {
  const dir = t.testdir({ tree: { etc: { systemd: { system: { 'kubelet.service.d': { '90-x.conf': 'x\n' } } } }, usr: { libexec: { plugins: { acr: 'bin' } } } } });
  const root = baseRoot(path.join(dir, 'root'));
  const tree = path.join(dir, 'tree');
  fs.chmodSync(path.join(tree, 'usr/libexec/plugins/acr'), 0o755);
  fs.symlinkSync('/usr/libexec/plugins/acr', path.join(tree, 'usr/libexec/acr-link'));
  const { layer: dirLayer, problems } = OverlayRootFs.directoryLayer(tree);
  t.same(problems, []);
  const view = new OverlayRootFs(new RootFs(root), [dirLayer]);
  const listed = view.readdir('/etc/systemd/system/kubelet.service.d');
  t.same(listed.ok && listed.entries.map((e) => e.name).sort(), ['10-a.conf', '20-b.conf', '90-x.conf']);
  t.match(view.stat('/usr/libexec/acr-link'), { ok: true, type: 'file', mode: 0o755 });
  const read = view.readFile('/usr/libexec/plugins/acr');
  t.equal(read.ok && read.data.toString(), 'bin');
  t.ok(view.changedPaths().includes('/usr/libexec/plugins/acr'));
  t.notOk(view.changedPaths().includes('/etc'), 'directories the root has are not changes');
});

t.test('contents node-check cannot tell: the file exists, reading it is recorded', async (t) => {
  const root = baseRoot(t.testdir());
  const view = new OverlayRootFs(new RootFs(root), [
    layer('r', [{ path: '/etc/kubernetes/cfg.yaml', kind: 'file', mode: 0o644, contents: { remote: 'https://example.com/cfg.yaml' }, hasContents: true, overwrite: true, append: [] }]),
  ]);
  t.same(view.unknownPaths(), ['/etc/kubernetes/cfg.yaml']);
  t.match(view.readdir('/etc/kubernetes'), { ok: true, entries: [{ name: 'cfg.yaml', isDirectory: false }] });
  t.equal(view.unknownRead.size, 0, 'listing the directory reads nothing of it');
  t.match(view.readFile('/etc/kubernetes/cfg.yaml'), { ok: false, code: 'EIO' });
  t.match([...view.unknownRead.keys()], ['/etc/kubernetes/cfg.yaml']);
  const again = new OverlayRootFs(new RootFs(root), [layer('r', [{ path: '/etc/x.service', kind: 'file', mode: 0o644, contents: { invalid: 'bad gzip' }, hasContents: true, overwrite: true, append: [] }])]);
  t.match(again.stat('/etc/x.service'), { ok: true, type: 'file' });
  t.same([...again.unknownRead.values()], ['bad gzip'], 'its size is part of what it holds (an empty unit is a mask): stat counts');
});

t.test('a parent that is a file cannot hold an entry: a problem, not a crash', async (t) => {
  const root = baseRoot(t.testdir());
  const view = new OverlayRootFs(new RootFs(root), [layer('p', [fileEntry('/usr/bin/kubelet/oops', 'x')])]);
  t.equal(view.problems.length, 1);
  t.match(view.problems[0]!.problem, '/usr/bin/kubelet is not a directory');
});

t.test('append extends the file as it is in the view', async (t) => {
  const root = baseRoot(t.testdir());
  const view = new OverlayRootFs(new RootFs(root), [
    layer('a', [{ path: '/etc/systemd/system/kubelet.service.d/10-a.conf', kind: 'file', mode: 0o644, contents: Buffer.alloc(0), hasContents: false, overwrite: false, append: [Buffer.from('more\n')] }]),
  ]);
  const read = view.readFile('/etc/systemd/system/kubelet.service.d/10-a.conf');
  t.equal(read.ok && read.data.toString(), 'a\nmore\n');
});
