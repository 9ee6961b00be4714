// Host facts are read only for the live root "/": under any other root nothing at all is read
// (the I/O layer is a spy that fails the test when called) and every fact is notChecked.
import t from 'tap';
import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import { CGROUP2_SUPER_MAGIC, collectExecFacts, criSocketPath, discoverHostFacts, NODE_HOST_IO, type HostIo } from '../../src/discover/host-facts.js';
import { RootFs } from '../../src/host/root-fs.js';
import { loadService } from '../../src/systemd/load-service.js';
import { checkHostPreconditions, defaultsFor } from '../../src/host-facts/check-host.js';

function tempRoot(t: { teardown(fn: () => void): void }, files: Record<string, string>): string {
  const root = fs.mkdtempSync(path.join(os.tmpdir(), 'node-check-hostfacts-'));
  t.teardown(() => fs.rmSync(root, { recursive: true, force: true }));
  for (const [p, content] of Object.entries(files)) {
    fs.mkdirSync(path.dirname(path.join(root, p)), { recursive: true });
    fs.writeFileSync(path.join(root, p), content);
  }
  return root;
}

function spyIo(t: { fail(message: string): boolean }): HostIo & { calls: string[] } {
  const calls: string[] = [];
  const record = (what: string) => {
    calls.push(what);
    t.fail(`host I/O for another root: ${what}`);
  };
  return {
    calls,
    readFile: (file) => (record(`read ${file}`), { ok: false, code: 'EIO' }),
    stat: (file) => (record(`stat ${file}`), { ok: false, code: 'EIO' }),
    statfsType: (file) => (record(`statfs ${file}`), undefined),
  };
}

t.test('another root: nothing is read, every fact is notChecked with the reason', async (t) => {
  // The image even has a /proc/swaps with swap on: it must not be taken for the host's.
  const root = tempRoot(t, { '/proc/swaps': 'Filename Type Size Used Priority\n/swapfile file 1024 0 -2\n', '/sys/devices/system/cpu/online': '0-63\n' });
  const io = spyIo(t);
  const result = discoverHostFacts({ root, containerRuntimeEndpoint: 'unix:///run/containerd/containerd.sock', io });
  t.same(io.calls, [], 'no host read, stat or statfs');
  t.same(result.facts, {});
  t.same(result.notChecked.map((n) => n.fact), ['swaps', 'cgroupVersion', 'sysctls', 'criSocket', 'onlineCpus', 'cloudMachine', 'cgroupRoots']);
  t.match(result.notChecked[0]?.reason, `--root ${root} is not the running system`);
  // And the checks then say "cannot tell", not "fine".
  const outcomes = checkHostPreconditions({ minor: 30, config: { ...defaultsFor(30)!, containerRuntimeEndpoint: 'unix:///run/containerd/containerd.sock' }, facts: result.facts });
  t.ok(outcomes.length > 0 && outcomes.every((o) => 'undecidable' in o), 'every host check is undecidable under another root');
});

t.test('"/" with injected I/O: what kubelet would read, parsed its way', async (t) => {
  const files: Record<string, string> = {
    '/proc/swaps': 'Filename\t\t\t\tType\t\tSize\t\tUsed\t\tPriority\n/dev/zram0                              partition\t2097136\t\t0\t\t100\n',
    '/proc/sys/vm/overcommit_memory': '1\n',
    '/proc/sys/vm/panic_on_oom': '0\n',
    '/proc/sys/kernel/panic': '0\n',
    '/proc/sys/kernel/panic_on_oops': '1\n',
    '/proc/sys/kernel/keys/root_maxkeys': '1000000\n',
    '/sys/devices/system/cpu/online': '0-7\n',
    '/sys/devices/virtual/dmi/id/board_asset_tag': 'i-0123456789abcdef0\n',
  };
  const io: HostIo = {
    readFile: (file) => (file in files ? { ok: true, text: files[file]! } : { ok: false, code: 'ENOENT' }),
    stat: (file) => (file === '/run/crio/crio.sock' ? { ok: true, type: 'socket' } : { ok: false, code: 'ENOENT' }),
    statfsType: () => CGROUP2_SUPER_MAGIC,
  };
  const result = discoverHostFacts({ root: '/', containerRuntimeEndpoint: 'unix:///var/run/crio/crio.sock', io });
  t.same(result.facts.swaps, { present: true, lines: ['Filename\t\t\t\tType\t\tSize\t\tUsed\t\tPriority', '/dev/zram0                              partition\t2097136\t\t0\t\t100'] });
  t.equal(result.facts.cgroupVersion, 2);
  t.same(result.facts.sysctls?.['kernel/panic'], { value: 0 });
  t.same(result.facts.sysctls?.['kernel/keys/root_maxbytes'], { error: 'open /proc/sys/kernel/keys/root_maxbytes: no such file or directory' });
  t.same(result.facts.criSocket, { kind: 'missing', endpoint: 'unix:///var/run/crio/crio.sock', path: '/var/run/crio/crio.sock' }, 'the path is dialled as written');
  t.equal(result.facts.onlineCpus, '0-7');
  t.same(result.facts.cloudMachine, {
    hypervisorUuid: { code: 'ENOENT' },
    productUuid: { code: 'ENOENT' },
    boardAssetTag: { text: 'i-0123456789abcdef0\n' },
    productName: { code: 'ENOENT' },
  }, 'the files kubelet\'s cloud detection reads, as read');
  t.same(result.notChecked, []);
  t.equal(discoverHostFacts({ root: '/', io: { ...io, statfsType: () => 0x01021994 } }).facts.cgroupVersion, 1, 'tmpfs at /sys/fs/cgroup is cgroup v1 (or hybrid)');
  t.match(discoverHostFacts({ root: '/', io }).notChecked, [{ fact: 'criSocket', reason: /not known/ }]);
});

t.test('"/" for real: the reads work on this machine and agree with the kernel', async (t) => {
  const result = discoverHostFacts({ root: '/', containerRuntimeEndpoint: 'unix:///nonexistent/node-check-test.sock' });
  const unified = fs.existsSync('/sys/fs/cgroup/cgroup.controllers');
  t.equal(result.facts.cgroupVersion, unified ? 2 : 1, 'statfs agrees with cgroup.controllers at the cgroup root');
  t.same(Object.keys(result.facts.sysctls ?? {}).sort(), ['kernel/keys/root_maxbytes', 'kernel/keys/root_maxkeys', 'kernel/panic', 'kernel/panic_on_oops', 'vm/overcommit_memory', 'vm/panic_on_oom']);
  const panic = Number(fs.readFileSync('/proc/sys/kernel/panic', 'utf8'));
  t.same(result.facts.sysctls?.['kernel/panic'], { value: panic });
  t.same(result.facts.criSocket, { kind: 'missing', endpoint: 'unix:///nonexistent/node-check-test.sock', path: '/nonexistent/node-check-test.sock' });
  t.equal(result.facts.onlineCpus, fs.readFileSync('/sys/devices/system/cpu/online', 'utf8').trim());
  t.ok(NODE_HOST_IO.stat('/proc/self').ok);
});

t.test('CRI endpoints: unix URLs and bare paths are sockets to look at; others are not', async (t) => {
  t.equal(criSocketPath('unix:///run/containerd/containerd.sock'), '/run/containerd/containerd.sock');
  t.equal(criSocketPath('/var/run/crio/crio.sock'), '/var/run/crio/crio.sock');
  t.equal(criSocketPath('tcp://10.0.0.1:1234'), undefined);
  t.equal(criSocketPath('npipe:////./pipe/containerd-containerd'), undefined);
  t.equal(criSocketPath(''), undefined);
});

t.test('exec facts under another root come from the image, never from the host', async (t) => {
  const root = tempRoot(t, {
    '/etc/systemd/system/kubelet.service': '[Service]\nExecStart=/usr/bin/env kubelet\n',
  });
  t.ok(fs.existsSync('/usr/bin/env'), 'the host has /usr/bin/env');
  const rootFs = new RootFs(root);
  const service = loadService(rootFs, 'kubelet.service', { systemdVersion: 252 });
  const files = collectExecFacts(rootFs, service, '/usr/bin/kubelet');
  t.match(files['/usr/bin/env'], { exists: false, code: 'ENOENT' }, "the image's /usr/bin/env is missing, whatever the host has");
  t.match(files['/usr/bin/kubelet'], { exists: false });
  t.equal(files['/usr/bin/env']?.exists === false && 'noexecMount' in files['/usr/bin/env'], false, 'no mount facts under another root');
});
