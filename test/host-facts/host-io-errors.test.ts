// discoverHostFacts with a fake HostIo: read errors make a fact "not checked" (never "fine"), and
// sysctls are parsed as kubelet's GetSysctl does (strings.Trim " \n", strconv.Atoi) with Go's texts.
import t from 'tap';
import { CGROUP2_SUPER_MAGIC, discoverHostFacts, NODE_HOST_IO, type HostIo } from '../../src/discover/host-facts.js';
import { checkHostPreconditions, defaultsFor } from '../../src/host-facts/check-host.js';

type Stat = ReturnType<HostIo['stat']>;

function fakeIo(files: Record<string, string | { code: string }>, stats: Record<string, Stat> = {}, statfs: number | null = CGROUP2_SUPER_MAGIC): HostIo {
  return {
    readFile: (file) => {
      const f = files[file];
      if (f === undefined) return { ok: false, code: 'ENOENT' };
      return typeof f === 'string' ? { ok: true, text: f } : { ok: false, code: f.code };
    },
    stat: (file) => stats[file] ?? { ok: false, code: 'ENOENT' },
    statfsType: () => statfs ?? undefined,
  };
}

t.test('unreadable /proc/swaps, statfs failure and unreadable online CPUs are not checked, with Go\'s errno texts', async (t) => {
  const result = discoverHostFacts({ root: '/', io: fakeIo({ '/proc/swaps': { code: 'EACCES' }, '/sys/devices/system/cpu/online': { code: 'EIO' } }, {}, null), containerRuntimeEndpoint: 'unix:///run/containerd/containerd.sock' });
  t.same(result.notChecked, [
    { fact: 'swaps', reason: 'cannot read /proc/swaps: permission denied' },
    { fact: 'cgroupVersion', reason: 'statfs /sys/fs/cgroup failed' },
    { fact: 'onlineCpus', reason: 'cannot read /sys/devices/system/cpu/online: input/output error' },
  ]);
  t.equal(result.facts.swaps, undefined);
  t.equal(result.facts.cgroupVersion, undefined);
  t.equal(result.facts.onlineCpus, undefined);
  // With swap unknown, the swap check cannot say "fine".
  const outcomes = checkHostPreconditions({ minor: 30, config: { ...defaultsFor(30)!, containerRuntimeEndpoint: '' }, facts: result.facts });
  t.ok(outcomes.some((o) => o.findingId === 'host-swap-on' && 'undecidable' in o));
});

t.test('a missing /proc/swaps is "no swap" (kubelet reads it the same way)', async (t) => {
  const result = discoverHostFacts({ root: '/', io: fakeIo({}) });
  t.same(result.facts.swaps, { present: false });
  t.notOk(result.notChecked.some((n) => n.fact === 'swaps'));
});

t.test('sysctls: strings.Trim(" \\n") then strconv.Atoi, errors as kubelet words them', async (t) => {
  const result = discoverHostFacts({
    root: '/',
    io: fakeIo({
      '/proc/sys/vm/overcommit_memory': ' 1 \n',
      '/proc/sys/vm/panic_on_oom': '\t0\n',
      '/proc/sys/kernel/panic': 'abc\n',
      '/proc/sys/kernel/panic_on_oops': '-1\n',
      '/proc/sys/kernel/keys/root_maxkeys': { code: 'EACCES' },
    }),
  });
  const s = result.facts.sysctls ?? {};
  t.same(s['vm/overcommit_memory'], { value: 1 });
  t.same(s['vm/panic_on_oom'], { error: 'strconv.Atoi: parsing "\\t0": invalid syntax' }, 'a tab is not trimmed');
  t.same(s['kernel/panic'], { error: 'strconv.Atoi: parsing "abc": invalid syntax' });
  t.same(s['kernel/panic_on_oops'], { value: -1 });
  t.same(s['kernel/keys/root_maxkeys'], { error: 'open /proc/sys/kernel/keys/root_maxkeys: permission denied' });
  t.same(s['kernel/keys/root_maxbytes'], { error: 'open /proc/sys/kernel/keys/root_maxbytes: no such file or directory' });
});

t.test('the CRI socket: a socket, a regular file, an errno, a non-unix endpoint', async (t) => {
  const stats: Record<string, Stat> = {
    '/run/containerd/containerd.sock': { ok: true, type: 'socket' },
    '/run/crio/crio.sock': { ok: true, type: 'file' },
    '/run/locked/cri.sock': { ok: false, code: 'EACCES' },
  };
  const fact = (endpoint: string) => discoverHostFacts({ root: '/', io: fakeIo({}, stats), containerRuntimeEndpoint: endpoint }).facts.criSocket;
  t.same(fact('unix:///run/containerd/containerd.sock'), { kind: 'socket', endpoint: 'unix:///run/containerd/containerd.sock', path: '/run/containerd/containerd.sock' });
  t.same(fact('/run/crio/crio.sock'), { kind: 'not-socket', endpoint: '/run/crio/crio.sock', path: '/run/crio/crio.sock' });
  t.same(fact('unix:///run/locked/cri.sock'), { kind: 'error', endpoint: 'unix:///run/locked/cri.sock', path: '/run/locked/cri.sock', code: 'EACCES' });
  t.same(fact('tcp://10.0.0.1:1234'), { kind: 'not-unix', endpoint: 'tcp://10.0.0.1:1234' });
  t.same(fact('unix://relative.sock'), { kind: 'not-unix', endpoint: 'unix://relative.sock' });
});

t.test('the real HostIo reports errno codes, and statfs of a missing path is undefined', async (t) => {
  t.same(NODE_HOST_IO.readFile('/nonexistent/node-check'), { ok: false, code: 'ENOENT' });
  t.same(NODE_HOST_IO.stat('/nonexistent/node-check'), { ok: false, code: 'ENOENT' });
  t.equal(NODE_HOST_IO.statfsType('/nonexistent/node-check'), undefined);
  t.same(NODE_HOST_IO.stat('/proc'), { ok: true, type: 'directory' });
  t.same(NODE_HOST_IO.stat('/proc/self/status'), { ok: true, type: 'file' });
  t.same(NODE_HOST_IO.stat('/dev/null'), { ok: true, type: 'other' });
});
