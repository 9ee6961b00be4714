import t, { type Test } from 'tap';
import * as fs from 'node:fs';
import * as path from 'node:path';
import { execFileSync } from 'node:child_process';
import { RootFs } from '../../src/host/root-fs.js';

function makeRoot(t: Test): string {
  const root = t.testdir({
    opt: { acr: { bin: { 'acr-credential-provider': '#!/bin/sh\n' } } },
    etc: { 'passwd-in-root': 'node\n' },
    plugins: {},
    file: 'not a directory',
  });
  fs.symlinkSync('/opt/acr/bin/acr-credential-provider', path.join(root, 'plugins', 'absolute-link'));
  fs.symlinkSync('../opt/acr/bin/acr-credential-provider', path.join(root, 'plugins', 'relative-link'));
  fs.symlinkSync('../../../../../../etc/passwd-in-root', path.join(root, 'plugins', 'climbing-link'));
  fs.symlinkSync('/nowhere', path.join(root, 'plugins', 'dangling'));
  fs.symlinkSync('loop-b', path.join(root, 'plugins', 'loop-a'));
  fs.symlinkSync('loop-a', path.join(root, 'plugins', 'loop-b'));
  fs.symlinkSync('/etc/passwd', path.join(root, 'plugins', 'host-passwd'));
  return root;
}


t.test('absolute symlink targets are read under the root, never on the host', async (t) => {
  const rfs = new RootFs(makeRoot(t));
  const abs = rfs.stat('/plugins/absolute-link');
  t.match(abs, { ok: true, type: 'file' });
  t.match(rfs.resolve('/plugins/absolute-link'), { ok: true, nodePath: '/opt/acr/bin/acr-credential-provider' });
  t.match(rfs.stat('/plugins/relative-link'), { ok: true, type: 'file' });
  t.match(rfs.stat('/plugins/host-passwd'), { ok: false, code: 'ENOENT' }, 'the host /etc/passwd is not visible');
});

t.test('".." never climbs above the root', async (t) => {
  const rfs = new RootFs(makeRoot(t));
  t.match(rfs.resolve('/plugins/climbing-link'), { ok: true, nodePath: '/etc/passwd-in-root' });
  t.equal(rfs.readFile('/../../etc/passwd-in-root').ok, true);
});

t.test('errors are the errno kubelet would see', async (t) => {
  const rfs = new RootFs(makeRoot(t));
  t.match(rfs.stat('/plugins/dangling'), { ok: false, code: 'ENOENT' });
  t.match(rfs.stat('/plugins/loop-a'), { ok: false, code: 'ELOOP' });
  t.match(rfs.stat('/file/below'), { ok: false, code: 'ENOTDIR' });
  t.match(rfs.lstat('/plugins/dangling'), { ok: true, type: 'symlink' });
  t.equal(rfs.readlink('/plugins/dangling'), '/nowhere');
  t.match(rfs.readFile('/plugins'), { ok: false, code: 'EISDIR' });
});

t.test('the kernel\'s own ENOTDIR is not taken for ENOENT (a root that is a file)', async (t) => {
  const dir = t.testdir({ 'not-a-root': 'a file' });
  const rfs = new RootFs(path.join(dir, 'not-a-root'));
  t.match(rfs.stat('/etc/kubernetes'), { ok: false, code: 'ENOTDIR' });
  t.match(rfs.lstat('/x'), { ok: false, code: 'ENOTDIR' });
  t.same(rfs.lstatWithHead('/x', 4), { stat: { ok: false, code: 'ENOTDIR' } });
});

t.test('reads are bounded', async (t) => {
  const root = t.testdir({ big: 'x'.repeat(1000) });
  const rfs = new RootFs(root);
  t.match(rfs.readFile('/big', 100), { ok: false, code: 'EFBIG' });
  t.match(rfs.readFile('/big', 1000), { ok: true });
  const head = rfs.readHead('/big', 10);
  t.equal(head.ok && head.data.length, 10);
});

t.test('directory entries report their own type, like Go DirEntry', async (t) => {
  const root = makeRoot(t);
  fs.symlinkSync('/opt', path.join(root, 'plugins', 'dir-link'));
  const listed = new RootFs(root).readdir('/plugins');
  t.ok(listed.ok);
  if (listed.ok) {
    t.same(listed.entries.find((e) => e.name === 'dir-link'), { name: 'dir-link', isDirectory: false });
  }
});

t.test('directories walked once are remembered within one RootFs, and a swap after that cannot lead outside', async (t) => {
  const root = makeRoot(t);
  // Outside the root (t.testdir would replace the root itself: one directory per test).
  const outside = fs.mkdtempSync(path.join(path.dirname(root), 'outside-'));
  t.teardown(() => fs.rmSync(outside, { recursive: true, force: true }));
  fs.mkdirSync(path.join(outside, 'bin'));
  fs.writeFileSync(path.join(outside, 'bin', 'acr-credential-provider'), 'outside the root\n');
  const rfs = new RootFs(root);
  t.match(rfs.readFile('/opt/acr/bin/acr-credential-provider'), { ok: true });
  t.match(rfs.resolve('/opt/acr/bin/../bin/acr-credential-provider'), { ok: true, nodePath: '/opt/acr/bin/acr-credential-provider' });
  t.match(rfs.stat('/opt/acr/bin/missing'), { ok: false, code: 'ENOENT' });
  t.match(rfs.stat('/opt/acr/bin/acr-credential-provider/x'), { ok: false, code: 'ENOTDIR' });
  // /opt/acr is remembered as a directory; it now becomes a symlink out of the root.
  fs.renameSync(path.join(root, 'opt/acr'), path.join(root, 'opt/acr.old'));
  fs.symlinkSync(outside, path.join(root, 'opt/acr'));
  if (process.platform === 'linux') {
    t.match(rfs.readFile('/opt/acr/bin/acr-credential-provider'), { ok: false, code: 'EXDEV' }, 'refused where the kernel opened it');
    t.match(rfs.stat('/opt/acr/bin/acr-credential-provider'), { ok: false, code: 'EXDEV' });
    t.match(rfs.lstat('/opt/acr/bin/acr-credential-provider'), { ok: false, code: 'EXDEV' });
    t.equal(rfs.lstatWithHead('/opt/acr/bin/acr-credential-provider', 64), undefined, 'no answer from the one open: lstat refuses it as above');
    t.match(rfs.readHead('/opt/acr/bin/acr-credential-provider', 64), { ok: false, code: 'EXDEV' });
  }
  // A new RootFs (the next check) sees the symlink and follows it under the root.
  t.match(new RootFs(root).readFile('/opt/acr/bin/acr-credential-provider'), { ok: false, code: 'ENOENT' });
});

t.test('lstatWithHead: lstat and readHead of a regular file from one open, and no answer for anything else', async (t) => {
  const root = makeRoot(t);
  const rfs = new RootFs(root);
  const plugin = '/opt/acr/bin/acr-credential-provider';
  const both = rfs.lstatWithHead(plugin, 64);
  if (process.platform === 'linux') {
    t.same(both?.stat, rfs.lstat(plugin), 'the stat lstat gives');
    t.same(both?.head, rfs.readHead(plugin, 64), 'the head readHead gives');
    t.same(rfs.lstatWithHead(plugin, 4)?.head, { ok: true, data: Buffer.from('#!/b') }, 'at most `length` bytes');
  }
  // Where lstat and stat (or readHead) differ, or there is nothing to read, callers ask them.
  t.equal(rfs.lstatWithHead('/plugins/absolute-link', 64), undefined, 'a symlink');
  t.equal(rfs.lstatWithHead('/plugins/dangling', 64), undefined);
  t.equal(rfs.lstatWithHead('/opt/acr/bin', 64), undefined, 'a directory');
  t.same(rfs.lstatWithHead('/opt/acr/bin/missing', 64), { stat: { ok: false, code: 'ENOENT' } }, 'a missing file: lstat\'s answer');
  t.same(rfs.lstatWithHead('/file/below', 64), { stat: { ok: false, code: 'ENOTDIR' } });
  t.same(rfs.lstatWithHead('/plugins/loop-a/x', 64), { stat: rfs.lstat('/plugins/loop-a/x') }, 'ELOOP');
  t.equal(new RootFs('/').lstatWithHead('/etc/passwd', 64), undefined, 'the live root: resolution does not lstat there');
  if (process.platform === 'linux') {
    execFileSync('mkfifo', [path.join(root, 'plugins', 'fifo')]);
    t.equal(rfs.lstatWithHead('/plugins/fifo', 64), undefined, 'a FIFO');
    t.match(rfs.lstat('/plugins/fifo'), { ok: true, type: 'other' });
  }
});

t.test('lstatWithHead gives no answer through a subclass with its own view of the files', async (t) => {
  const root = makeRoot(t);
  const plugin = '/opt/acr/bin/acr-credential-provider';
  class OwnLstat extends RootFs {
    override lstat(nodePath: string) {
      return { ...super.lstat(nodePath), mode: 0o700 };
    }
  }
  class OwnHead extends RootFs {
    override readHead() {
      return { ok: true as const, data: Buffer.from('#!/other') };
    }
  }
  class OwnResolve extends RootFs {
    override resolve(nodePath: string, followLast = true) {
      const r = super.resolve(nodePath, followLast);
      return r.ok ? { ok: true as const, hostPath: r.hostPath, nodePath: r.nodePath } : r;
    }
  }
  t.equal(new OwnLstat(root).lstatWithHead(plugin, 64), undefined);
  t.equal(new OwnHead(root).lstatWithHead(plugin, 64), undefined);
  t.equal(new OwnResolve(root).lstatWithHead(plugin, 64), undefined, 'a resolution that does not say it saw a regular file');
});
