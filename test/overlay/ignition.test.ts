/** The MachineConfig / Ignition reader: what each entry becomes, and every bad input as a clear error naming the file. */
import t, { type Test } from 'tap';
import { gzipSync } from 'node:zlib';
import { DecodedBytesBudget, decodeDataUrl, MAX_FILE_BYTES, MAX_TOTAL_DECODED_BYTES, OverlayInputError, readMachineConfig, type LayerEntry } from '../../src/overlay/ignition.js';
import { ACR_CONFIG, ACR_CONFIG_PATH, UNIT_416, ignitionJson, machineConfigYaml } from './helpers.js';

const ign = (body: Record<string, unknown>, version = '3.4.0') => Buffer.from(JSON.stringify({ ignition: { version }, ...body }));
const mc = (config: unknown, extra: Record<string, unknown> = {}) =>
  Buffer.from(JSON.stringify({ apiVersion: 'machineconfiguration.openshift.io/v1', kind: 'MachineConfig', metadata: { name: 'mc-x' }, spec: { config }, ...extra }));
const file = (path: string, source?: string, more: Record<string, unknown> = {}) => ({ path, ...(source !== undefined ? { contents: { source } } : {}), ...more });
const entry = (data: Buffer, path: string): LayerEntry | undefined => readMachineConfig(data, 'in.json').entries.find((e) => e.path === path);

function rejects(t: Test, data: Buffer, pattern: RegExp, what: string, budget?: DecodedBytesBudget) {
  let error: unknown;
  try {
    readMachineConfig(data, '/tmp/target.yaml', budget);
  } catch (caught) {
    error = caught;
  }
  t.ok(error instanceof OverlayInputError, `${what}: an OverlayInputError`);
  t.match((error as Error | undefined)?.message, /^\/tmp\/target\.yaml(:\d+)?: /, `${what}: names the file`);
  t.match((error as Error | undefined)?.message, pattern, what);
}

t.test('a MachineConfig YAML: URL-encoded file, unit contents, drop-ins, name', async (t) => {
  const layer = readMachineConfig(Buffer.from(machineConfigYaml('rendered-worker-abc')), 'target.yaml');
  t.equal(layer.name, 'rendered-worker-abc');
  t.equal(layer.kind, 'machine-config');
  const acr = layer.entries.find((e) => e.path === ACR_CONFIG_PATH);
  t.same(acr && acr.kind === 'file' && { mode: acr.mode, text: (acr.contents as Buffer).toString() }, { mode: 0o644, text: ACR_CONFIG });
  const unit = layer.entries.find((e) => e.path === '/etc/systemd/system/kubelet.service');
  t.equal(unit?.kind === 'file' && (unit.contents as Buffer).toString(), UNIT_416, 'unit contents go to /etc/systemd/system/NAME');
  t.ok(layer.entries.some((e) => e.path === '/etc/systemd/system/kubelet.service.d/01-kubens.conf' && e.kind === 'file'), 'drop-ins go to NAME.d/');
});

t.test('a bare Ignition config: base64 + gzip', async (t) => {
  const layer = readMachineConfig(Buffer.from(ignitionJson()), '/srv/worker.ign');
  t.equal(layer.kind, 'ignition');
  t.equal(layer.name, 'worker.ign');
  const unit = layer.entries.find((e) => e.path === '/etc/systemd/system/kubelet.service');
  t.equal(unit?.kind === 'file' && (unit.contents as Buffer).toString(), UNIT_416);
});

t.test('mask, empty drop-in, links, directories, modes, append', async (t) => {
  const data = ign({
    storage: {
      directories: [{ path: '/etc/kubernetes/credential-providers', mode: 0o700 }],
      links: [{ path: '/usr/local/bin/kubelet', target: '/usr/bin/kubelet' }],
      files: [file('/etc/a', 'data:,one', { mode: 0o755, append: [{ source: 'data:,%0Atwo' }] })],
    },
    systemd: { units: [{ name: 'crio.service', mask: true }, { name: 'kubelet.service', dropins: [{ name: '10-mco-default-env.conf' }] }] },
  });
  const layer = readMachineConfig(data, 'x.ign');
  t.same(entry(data, '/etc/systemd/system/crio.service'), { path: '/etc/systemd/system/crio.service', kind: 'masked-unit', target: '/dev/null' });
  t.same(entry(data, '/etc/systemd/system/kubelet.service.d/10-mco-default-env.conf'), { path: '/etc/systemd/system/kubelet.service.d/10-mco-default-env.conf', kind: 'absent' }, 'the MCD removes an empty drop-in');
  t.notOk(layer.entries.some((e) => e.path === '/etc/systemd/system/kubelet.service'), 'a unit with only drop-ins leaves the unit file alone');
  t.match(entry(data, '/etc/kubernetes/credential-providers'), { kind: 'dir', mode: 0o700 });
  t.match(entry(data, '/usr/local/bin/kubelet'), { kind: 'link', target: '/usr/bin/kubelet', hard: false });
  const a = entry(data, '/etc/a');
  t.equal(a?.kind === 'file' && a.mode, 0o755);
  t.same(a?.kind === 'file' && (a.append[0] as Buffer).toString(), '\ntwo');
  t.match(layer.unmodelled, [{ decides: true, message: /Append is not supported/ }], 'the machine-config daemon refuses append');
});

t.test('mask: false without contents removes the unit file (the MCD cleans up a previous mask)', async (t) => {
  const data = ign({ systemd: { units: [{ name: 'kubelet.service', mask: false }, { name: 'crio.service', mask: false, contents: '[Unit]\n' }] } });
  t.same(entry(data, '/etc/systemd/system/kubelet.service'), { path: '/etc/systemd/system/kubelet.service', kind: 'absent' });
  t.match(entry(data, '/etc/systemd/system/crio.service'), { kind: 'file' });
});

t.test('remote sources are never fetched: the contents are { remote } without query or credentials', async (t) => {
  for (const source of ['https://user:pw@example.com/f?X-Amz-Signature=secret', 'http://10.0.0.1/x', 's3://bucket/key', 'tftp://h/f', 'gs://b/o']) {
    const e = entry(ign({ storage: { files: [file('/etc/x', source)] } }), '/etc/x');
    t.ok(e?.kind === 'file' && 'remote' in (e.contents as object), source);
    t.notMatch(JSON.stringify(e && e.kind === 'file' ? e.contents : ''), /secret|pw@/, 'no secrets kept');
  }
});

t.test('content that cannot be decoded is { invalid } (a per-file "cannot tell"), not an error of the whole file', async (t) => {
  const invalid = (source: string, more: Record<string, unknown> = {}) => {
    const e = entry(ign({ storage: { files: [file('/etc/x', source, more)] } }), '/etc/x');
    return e?.kind === 'file' && !Buffer.isBuffer(e.contents) && 'invalid' in e.contents ? e.contents.invalid : undefined;
  };
  t.match(invalid('data:;base64,@@@='), /invalid base64/);
  t.match(invalid('data:;base64,abc'), /invalid base64/, 'unpadded');
  t.match(invalid('data:;base64,aGVsbG8=', { contents: { source: 'data:;base64,aGVsbG8=', compression: 'gzip' } }), /not valid gzip/);
  t.match(invalid('data:text/plain;charset=utf-16,hi'), /charset "utf-16"/);
  t.match(invalid('data:text/plain;charset=%ZZ,hi'), /bad data URL parameter/);
  t.match(invalid('data:,100%'), /bad percent escape/);
  t.match(invalid('data:;base64,x', { contents: { source: 'data:,x', compression: 'xz' } }), /compression "xz"/);
  const bomb = `data:;base64,${gzipSync(Buffer.alloc(MAX_FILE_BYTES + 1)).toString('base64')}`;
  t.match(invalid(bomb, { contents: { source: bomb, compression: 'gzip' } }), /decompresses to more than/, 'a gzip bomb is bounded');
});

t.test('many files each under the per-file cap: the total decoded size is capped across configs, naming the cap', async (t) => {
  const bomb = `data:;base64,${gzipSync(Buffer.alloc(MAX_FILE_BYTES, 0x61)).toString('base64')}`;
  const config = (i: number) => ign({ storage: { files: [file(`/etc/bomb${i}`, bomb, { contents: { source: bomb, compression: 'gzip' } })] } });
  const budget = new DecodedBytesBudget();
  const fits = MAX_TOTAL_DECODED_BYTES / MAX_FILE_BYTES;
  for (let i = 0; i < fits; i++) t.doesNotThrow(() => readMachineConfig(config(i), `b${i}.ign`, budget), `config ${i} fits`);
  rejects(t, config(fits), new RegExp(`more than ${MAX_TOTAL_DECODED_BYTES} bytes together`), 'the config past the cap', budget);
  let later: unknown;
  try {
    readMachineConfig(ign({}), 'empty.ign', budget);
  } catch (error) {
    later = error;
  }
  t.match((later as Error | undefined)?.message, /^empty\.ign: .*cap on decoded contents/, 'once past the cap, later configs are not decoded either');
  const plain = `data:;base64,${Buffer.alloc(MAX_FILE_BYTES, 0x62).toString('base64')}`;
  const unitBudget = new DecodedBytesBudget();
  unitBudget.remaining = 10;
  t.throws(() => readMachineConfig(ign({ storage: { files: [file('/etc/plain', plain)] } }), 'p.ign', unitBudget), /cap on decoded contents/, 'uncompressed contents count');
  const unitsBudget = new DecodedBytesBudget();
  unitsBudget.remaining = 10;
  t.throws(() => readMachineConfig(ign({ systemd: { units: [{ name: 'a.service', contents: '[Service]\nExecStart=/bin/true\n' }] } }), 'u.ign', unitsBudget), /cap on decoded contents/, 'unit contents count');
});

t.test('a valid 15 MB base64 data URL decodes (no regular expression over it)', async (t) => {
  const data = Buffer.alloc(15 * 1024 * 1024, 0x63);
  const decoded = decodeDataUrl(`data:;base64,${data.toString('base64')}`);
  t.ok('data' in decoded && decoded.data.equals(data));
  const escaped = decodeDataUrl(`data:,${'%41'.repeat(1024 * 1024)}`);
  t.ok('data' in escaped && escaped.data.equals(Buffer.alloc(1024 * 1024, 0x41)), 'a megabyte of percent escapes');
  t.same(decodeDataUrl('data:;base64,YQ=='), { data: Buffer.from('a') });
  t.same(decodeDataUrl('data:;base64,YWI='), { data: Buffer.from('ab') });
  t.same(decodeDataUrl('data:;base64,'), { data: Buffer.alloc(0) });
  for (const bad of ['====', 'Y===', 'YQ=a', 'Y=Q=', 'YQ', 'YW I=', 'YQ%3D%3D%3D']) t.match(decodeDataUrl(`data:;base64,${bad}`), { invalid: /invalid base64/ }, bad);
  t.same(decodeDataUrl('data:;base64,YQ%3D%3D'), { data: Buffer.from('a') }, 'percent-escaped padding');
  t.match(decodeDataUrl('data:,%4'), { invalid: /bad percent escape/ });
  t.match(decodeDataUrl('data:,%G1'), { invalid: /bad percent escape/ });
});

t.test('decodeDataUrl: RFC 2397 as Ignition reads it', async (t) => {
  t.same(decodeDataUrl('data:,a%20b+c'), { data: Buffer.from('a b+c') }, '"+" stays "+"');
  t.same(decodeDataUrl('data:text/plain;charset=utf-8;base64,aGk='), { data: Buffer.from('hi') });
  t.same(decodeDataUrl('data:,'), { data: Buffer.alloc(0) });
});

t.test('bad input: a clear error naming the file, never a crash', async (t) => {
  rejects(t, mc(undefined), /no spec\.config/, 'MachineConfig without spec.config');
  rejects(t, Buffer.from(JSON.stringify({ apiVersion: 'machineconfiguration.openshift.io/v1', kind: 'MachineConfig', metadata: { name: 'x' } })), /no spec/, 'MachineConfig without spec');
  rejects(t, ign({}, '2.2.0'), /version "2\.2\.0" is not supported/, 'Ignition 2.x');
  rejects(t, ign({}, '3.5.0'), /version "3\.5\.0" is not supported/, 'Ignition 3.5');
  rejects(t, Buffer.from(JSON.stringify({ ignition: {} })), /ignition\.version is missing/, 'no version');
  rejects(t, ign({ storage: { files: [file('etc/x', 'data:,')] } }), /is not absolute/, 'relative path');
  rejects(t, ign({ storage: { files: [file('/etc/../../x', 'data:,')] } }), /contains "\." or "\.\."/, 'path with ..');
  rejects(t, ign({ storage: { files: [file('/etc//x', 'data:,')] } }), /not a clean path/, 'empty component');
  rejects(t, ign({ systemd: { units: [{ name: '../kubelet.service', contents: 'x' }] } }), /must not contain "\/"/, 'unit name with /');
  rejects(t, ign({ systemd: { units: [{ name: 'kubelet.service', dropins: [{ name: 'a/b.conf', contents: 'x' }] }] } }), /must not contain "\/"/, 'drop-in name with /');
  rejects(t, ign({ storage: { files: [file('/etc/x', 'data:,a'), file('/etc/x', 'data:,b')] } }), /duplicate path \/etc\/x/, 'duplicate paths');
  rejects(t, ign({ storage: { files: [file('/etc/x', 'data:,a')], directories: [{ path: '/etc/x' }] } }), /duplicate path/, 'duplicate across kinds');
  rejects(t, ign({ systemd: { units: [{ name: 'a.service', contents: 'x' }, { name: 'a.service', contents: 'y' }] } }), /duplicate unit a\.service/, 'duplicate units');
  rejects(t, Buffer.from(JSON.stringify({ apiVersion: 'v1', kind: 'List', items: [] })), /kind is "List", expected "MachineConfig"/, 'a List');
  rejects(t, Buffer.from(JSON.stringify({ apiVersion: 'v1', kind: 'ConfigMap', data: {} })), /kind is "ConfigMap"/, 'wrong kind');
  rejects(t, mc({ ignition: { version: '3.2.0' } }, { apiVersion: 'machineconfiguration.openshift.io/v2' }), /apiVersion is/, 'wrong apiVersion');
  rejects(t, Buffer.from('{"ignition": '), /not valid JSON/, 'truncated JSON');
  rejects(t, Buffer.from('kind: MachineConfig\n  bad: [\n'), /not valid YAML/, 'bad YAML');
  rejects(t, Buffer.from('- just\n- a list\n'), /found a list/, 'a list');
  rejects(t, Buffer.from(''), /found nothing/, 'empty');
  rejects(t, ign({ storage: { files: [file('/etc/x', 'data:,', { mode: -1 })] } }), /mode must be/, 'bad mode');
  rejects(t, ign({ storage: { files: 'nope' } }), /storage\.files must be a list/, 'files not a list');
  rejects(t, Buffer.alloc(32 * 1024 * 1024 + 1, 0x20), /larger than/, 'huge input');
});

t.test('YAML bombs are bounded (aliases, nesting)', async (t) => {
  const laughs = ['a: &a ["lol","lol","lol","lol","lol","lol","lol","lol","lol"]'];
  for (let i = 1; i < 10; i++) laughs.push(`${String.fromCharCode(97 + i)}: &${String.fromCharCode(97 + i)} [${Array(9).fill('*' + String.fromCharCode(96 + i)).join(',')}]`);
  const started = Date.now();
  rejects(t, Buffer.from(laughs.join('\n') + '\n'), /refused|alias/i, 'billion laughs');
  t.ok(Date.now() - started < 5000, 'quickly');
  rejects(t, Buffer.from('a: ' + '['.repeat(5000) + ']'.repeat(5000) + '\n'), /nested deeper|cannot read|not valid YAML/, 'deep YAML nesting');
  rejects(t, Buffer.from('{"a":' + '['.repeat(100000) + ']'.repeat(100000) + '}'), /nested deeper|cannot read/, 'deep JSON nesting');
});

t.test('a remote config merge is recorded as deciding; osImageURL as not deciding', async (t) => {
  const merged = readMachineConfig(Buffer.from(JSON.stringify({ ignition: { version: '3.2.0', config: { merge: [{ source: 'https://mcs:22623/config/worker' }] } } })), 'x.ign');
  t.same(merged.unmodelled.map((u) => u.decides), [true]);
  const os = readMachineConfig(mc({ ignition: { version: '3.2.0' } }, { spec: { config: { ignition: { version: '3.2.0' } }, osImageURL: 'quay.io/x@sha256:1' } }), 'x.yaml');
  t.same(os.unmodelled.map((u) => u.decides), [false]);
});

t.test('YAML is read as the API server reads it (YAML 1.1): mode 0644 is octal', async (t) => {
  const yaml = `apiVersion: machineconfiguration.openshift.io/v1
kind: MachineConfig
metadata:
  name: 99-mode
spec:
  config:
    ignition:
      version: 3.2.0
    storage:
      files:
        - path: /usr/local/bin/x
          mode: 0755
          contents:
            source: data:,x
`;
  t.match(readMachineConfig(Buffer.from(yaml), 'm.yaml').entries[0], { kind: 'file', mode: 0o755 });
});
