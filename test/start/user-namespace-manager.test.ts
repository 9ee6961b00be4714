/**
 * The user namespace manager's start step end to end (src/kubelet/node-setup/user-namespaces.ts):
 * a generated kubeadm node (test/fixtures/generated/kubeadm/deb-1.35, which has no /etc/passwd)
 * with a kubelet binary whose ELF header says how it was linked.
 */
import t from 'tap';
import { cpSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { checkNode } from '../../src/check-node.js';

const GENERATED = new URL('../fixtures/generated/kubeadm/deb-1.35/root/', import.meta.url);

/** An x86_64 ELF header without program headers: a static binary (no PT_INTERP). */
function staticElf(): Buffer {
  const head = Buffer.alloc(64);
  head.writeUInt32BE(0x7f454c46, 0);
  head[4] = 2;
  head[5] = 1;
  head.writeUInt16LE(62, 18);
  return head;
}
/** The running node binary's head: dynamically linked, with glibc's loader. */
const dynamicElf = () => readFileSync(process.execPath).subarray(0, 8192);

function node(t: { testdir: () => string }, files: Record<string, Buffer | string>): string {
  const root = t.testdir();
  cpSync(GENERATED, root, { recursive: true });
  for (const [path, content] of Object.entries(files)) {
    mkdirSync(join(root, path, '..'), { recursive: true });
    writeFileSync(join(root, path), content, { mode: 0o755 });
  }
  return root;
}
const check = (root: string, kubeletVersion = '1.35.8') => checkNode({ root, unit: 'kubelet.service', kubeletVersion });
const PASSWD = 'root:x:0:0:root:/root:/bin/bash\n';
const PATH_DIRS = ['/usr/local/sbin', '/usr/local/bin', '/usr/sbin', '/usr/bin', '/sbin', '/bin'];

t.test('no /etc/passwd: a kubelet built without cgo exits, the releases\' cgo build runs on', async (t) => {
  const statik = await check(node(t, { '/usr/bin/kubelet': staticElf() }));
  t.equal(statik.kubeletWillStart, false);
  const finding = statik.findings.find((f) => f.id === 'kubelet-user-namespace-manager-failed');
  t.equal(finding?.kubeletError, 'failed to run Kubelet: failed to create kubelet: create user namespace manager: kubelet mappings: open /etc/passwd: no such file or directory');
  t.equal(finding?.path, '/etc/passwd');
  t.equal((await check(node(t, { '/usr/bin/kubelet': dynamicElf() }))).kubeletWillStart, true, 'glibc: ENOENT is no such user');
  t.equal((await check(node(t, {}))).kubeletWillStart, true, 'no binary in the root: the release build (cgo)');
  t.equal((await check(node(t, { '/usr/bin/kubelet': staticElf(), '/etc/passwd': PASSWD }))).kubeletWillStart, true, 'with the file, both builds find no such user');
});

t.test('a "kubelet" user without getsubids: every build exits', async (t) => {
  const dirs = Object.fromEntries(PATH_DIRS.map((d) => [`${d}/.keep`, '']));
  // With /usr/bin in the root, kubelet must be there too (else systemd's 203/EXEC decides first).
  const withUser = { ...dirs, '/usr/bin/kubelet': dynamicElf(), '/etc/passwd': `${PASSWD}kubelet:x:900:900::/var/lib/kubelet:/sbin/nologin\n` };
  const report = await check(node(t, withUser));
  t.equal(report.kubeletWillStart, false);
  t.match(report.findings.find((f) => f.id === 'kubelet-user-namespace-manager-failed')?.kubeletError ?? '', /kubelet mappings: exec: "getsubids": executable file not found in \$PATH$/);
  t.equal((await check(node(t, { ...withUser, '/usr/sbin/getsubids': '#!/bin/sh\n' }))).kubeletWillStart, null, 'getsubids is there: its answer is not modelled');
});

t.test('UserNamespacesSupport decides whether kubelet looks at all', async (t) => {
  const root = node(t, { '/usr/bin/kubelet': staticElf() });
  t.equal((await check(root, '1.32.13')).kubeletWillStart, true, 'off by default before 1.33');
  writeFileSync(join(root, 'etc/default/kubelet'), 'KUBELET_EXTRA_ARGS=--feature-gates=UserNamespacesSupport=true\n');
  t.equal((await check(root, '1.32.13')).kubeletWillStart, false, 'switched on at 1.32');
  t.equal((await check(root, '1.29.15')).kubeletWillStart, true, 'before 1.30 there is no lookup');
});

t.test('maxPods beyond the default ranges', async (t) => {
  const root = node(t, { '/etc/passwd': PASSWD });
  writeFileSync(join(root, 'var/lib/kubelet/config.yaml'), `${readFileSync(join(root, 'var/lib/kubelet/config.yaml'), 'utf8')}maxPods: 70000\n`);
  const report = await check(root);
  t.equal(report.kubeletWillStart, false);
  const finding = report.findings.find((f) => f.id === 'kubelet-user-namespace-manager-failed');
  t.equal(finding?.kubeletError, 'failed to run Kubelet: failed to create kubelet: create user namespace manager: kubelet user assigned IDs are not enough to support 70000 pods');
  t.match(finding?.remediation, /maxPods/);
});
