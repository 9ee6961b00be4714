/** checkNode with overlays: "cannot tell" exactly where the outcome depends on what node-check could not read. */
import t from 'tap';
import * as path from 'node:path';
import { fileURLToPath } from 'node:url';
import { checkNode, type OverlayInput } from '../../src/check-node.js';
import { exitCodeFor } from '../../src/model/report.js';
import { renderText } from '../../src/render/text.js';
import { prepareCheckArgs } from '../../src/cli/commands/check.js';
import { truncateSync } from 'node:fs';
import { gzipSync } from 'node:zlib';
import { MAX_FILE_BYTES, MAX_INPUT_BYTES, MAX_TOTAL_DECODED_BYTES } from '../../src/overlay/ignition.js';
import { MAX_TOTAL_INPUT_BYTES, readOverlayInputs } from '../../src/overlay/read-inputs.js';
import { ACR_CONFIG, ACR_CONFIG_PATH, UNIT_416, machineConfigYaml, rhelWorker415, treeDigest } from './helpers.js';

const ign = (files: unknown[]) => Buffer.from(JSON.stringify({ ignition: { version: '3.4.0' }, storage: { files } }));
const check = (root: string, overlays: OverlayInput[], kubeletVersion = '1.29.5') => checkNode({ root, unit: 'kubelet.service', kubeletVersion, overlays });
const dataUrl = (text: string) => `data:,${encodeURIComponent(text)}`;

t.test('a remote source for a file kubelet reads: cannot tell (null, exit 2), named', async (t) => {
  const root = rhelWorker415(path.join(t.testdir(), 'root'), { plugin: true });
  const digest = treeDigest(root);
  const report = await check(root, [{ kind: 'machine-config', origin: 'remote.ign', data: ign([
    { path: '/etc/systemd/system/kubelet.service', contents: { source: dataUrl(UNIT_416) } },
    { path: ACR_CONFIG_PATH, contents: { source: 'https://mirror.example.com/acr.yaml?token=abc' } },
  ]) }]);
  t.equal(report.kubeletWillStart, null);
  t.equal(exitCodeFor(report), 2);
  const finding = report.findings.find((f) => f.id === 'overlay-content-unknown');
  t.equal(finding?.path, ACR_CONFIG_PATH);
  t.match(finding?.message, 'https://mirror.example.com/acr.yaml');
  t.notMatch(finding?.message, 'token=abc');
  t.same(report.upgrade?.unknownPaths, [ACR_CONFIG_PATH]);
  t.same(report.upgrade?.before, { kubeletWillStart: true });
  t.same(report.upgrade?.after, { kubeletWillStart: null });
  t.equal(treeDigest(root), digest);
});

t.test('a remote kubelet --config file: cannot tell, and no kubelet error quoted for the file node-check could not read', async (t) => {
  const root = fileURLToPath(new URL('../fixtures/nodes/ocp-4.16-aws-worker/root', import.meta.url));
  const report = await check(root, [{ kind: 'machine-config', origin: 'remote.ign', data: ign([{ path: '/etc/kubernetes/kubelet.conf', contents: { source: 'https://example.com/kubelet.conf' } }]) }], '1.29.6');
  t.equal(report.kubeletWillStart, null);
  t.match(report.findings[0], { id: 'overlay-content-unknown', path: '/etc/kubernetes/kubelet.conf' });
  t.notMatch(JSON.stringify(report.findings), /input\/output error|EIO/, 'the stand-in read error is nobody\'s words');
  t.notOk(report.findings.some((f) => f.severity === 'error' && f.path === '/etc/kubernetes/kubelet.conf'), 'no error finding for the unknown file');
});

t.test('a remote source for a file nothing reads: the verdict stands, the path is listed', async (t) => {
  const root = rhelWorker415(path.join(t.testdir(), 'root'));
  const report = await check(root, [{ kind: 'machine-config', origin: 'x.ign', data: ign([
    { path: '/etc/systemd/system/kubelet.service', contents: { source: dataUrl(UNIT_416) } },
    { path: ACR_CONFIG_PATH, contents: { source: dataUrl(ACR_CONFIG) } },
    { path: '/etc/motd', contents: { source: 's3://bucket/motd' } },
  ]) }]);
  t.equal(report.kubeletWillStart, false);
  t.same(report.upgrade?.unknownPaths, ['/etc/motd']);
  t.notOk(report.findings.some((f) => f.id === 'overlay-content-unknown'));
  t.notOk(report.upgrade?.decidingPaths.includes('/etc/motd'));
});

t.test('invalid base64 in the kubelet unit: cannot tell', async (t) => {
  const root = rhelWorker415(path.join(t.testdir(), 'root'));
  const report = await check(root, [{ kind: 'machine-config', origin: 'x.ign', data: ign([{ path: '/etc/systemd/system/kubelet.service', contents: { source: 'data:;base64,!!!' } }]) }]);
  t.equal(report.kubeletWillStart, null);
  t.match(report.findings[0], { id: 'overlay-content-unknown', path: '/etc/systemd/system/kubelet.service', message: /invalid base64/ });
});

t.test('a file that cannot be used at all: overlay-invalid, null, and the text says so after applying nothing', async (t) => {
  const root = rhelWorker415(path.join(t.testdir(), 'root'));
  for (const input of [
    { kind: 'machine-config', origin: '/tmp/mc.yaml', data: Buffer.from('apiVersion: v1\nkind: List\nitems: []\n') },
    { kind: 'machine-config', origin: '/tmp/none.yaml', error: 'cannot read: ENOENT' },
    { kind: 'directory', dir: '/nonexistent/tree' },
  ] satisfies OverlayInput[]) {
    const report = await check(root, [input]);
    t.equal(report.kubeletWillStart, null, JSON.stringify(input).slice(0, 60));
    t.equal(report.findings[0]?.id, 'overlay-invalid');
    t.match(report.findings[0]?.message, 'origin' in input ? input.origin : input.dir);
    t.match(renderText(report, { color: false }), '? node-check cannot tell whether kubelet will start after applying');
  }
});

t.test('a valid config laid before an invalid one still cannot decide', async (t) => {
  const root = rhelWorker415(path.join(t.testdir(), 'root'));
  const report = await check(root, [
    { kind: 'machine-config', origin: 'good.yaml', data: Buffer.from(machineConfigYaml()) },
    { kind: 'machine-config', origin: 'bad.yaml', data: Buffer.from('{"ignition":{"version":"3.4.0"},"storage":{"files":[{"path":"/a/../b"}]}}') },
  ]);
  t.equal(report.kubeletWillStart, null);
  t.same(report.upgrade?.sources.map((s) => s.name), ['rendered-worker-416']);
});

t.test('readOverlayInputs: stdin once, files read, errors kept per input', async (t) => {
  const dir = t.testdir({ 'a.yaml': 'x' });
  const inputs = readOverlayInputs(
    [
      { kind: 'machine-config', value: '-' },
      { kind: 'machine-config', value: path.join(dir, 'a.yaml') },
      { kind: 'machine-config', value: path.join(dir, 'missing.yaml') },
      { kind: 'machine-config', value: dir },
      { kind: 'machine-config', value: '-' },
      { kind: 'overlay', value: dir },
    ],
    () => Buffer.from('from stdin'),
  );
  t.match(inputs[0], { origin: '-', data: Buffer.from('from stdin') });
  t.match(inputs[1], { data: Buffer.from('x') });
  t.match(inputs[2], { error: /ENOENT/ });
  t.match(inputs[3], { error: /not a regular file/ });
  t.match(inputs[4], { error: /more than once/ });
  t.same(inputs[5], { kind: 'directory', dir });
});

t.test('readOverlayInputs: all inputs together are capped, naming the cap', async (t) => {
  const dir = t.testdir({ 'a.json': '', 'b.json': '', 'c.json': '{}' });
  truncateSync(path.join(dir, 'a.json'), MAX_INPUT_BYTES);
  truncateSync(path.join(dir, 'b.json'), MAX_TOTAL_INPUT_BYTES - MAX_INPUT_BYTES);
  let stdinLimit: number | undefined;
  const inputs = readOverlayInputs(['a.json', 'b.json', 'c.json', '-'].map((name) => ({ kind: 'machine-config' as const, value: name === '-' ? name : path.join(dir, name) })), (limit) => {
    stdinLimit = limit;
    return Buffer.alloc(0);
  });
  t.ok('data' in inputs[0]! && 'data' in inputs[1]!, 'the first files fit');
  t.match(inputs[2], { error: new RegExp(`larger than ${MAX_TOTAL_INPUT_BYTES} bytes \\(node-check's cap on all --machine-config inputs\\)`) });
  t.equal(stdinLimit, 0, 'standard input is read up to what is left');
});

t.test('gzip bombs in many configs, each under the per-file cap: cannot tell, naming the cap', async (t) => {
  const root = rhelWorker415(path.join(t.testdir(), 'root'), { plugin: true });
  const bomb = `data:;base64,${gzipSync(Buffer.alloc(MAX_FILE_BYTES, 0x61)).toString('base64')}`;
  const overlays: OverlayInput[] = [];
  for (let i = 0; i <= MAX_TOTAL_DECODED_BYTES / MAX_FILE_BYTES; i++) {
    overlays.push({ kind: 'machine-config', origin: `b${i}.ign`, data: ign([{ path: `/etc/bomb${i}`, contents: { source: bomb, compression: 'gzip' } }]) });
  }
  const report = await check(root, overlays);
  t.equal(report.kubeletWillStart, null);
  t.equal(exitCodeFor(report), 2);
  t.match(report.findings[0], { id: 'overlay-invalid', message: new RegExp(`b${overlays.length - 1}\\.ign: the files of the configurations decode to more than ${MAX_TOTAL_DECODED_BYTES} bytes together`) });
});

t.test('prepareCheckArgs: command-line order, 1.29.x, --openshift-version', async (t) => {
  const argv = ['check', '--overlay', '/o1', '--machine-config=/m1', '--machine-config', '-', '--overlay', '/o2'];
  const prepared = prepareCheckArgs(argv, { 'machine-config': ['/m1', '-'], overlay: ['/o1', '/o2'], 'kubelet-version': '1.29.x' });
  t.same('args' in prepared && prepared.args['overlays'], [
    { kind: 'overlay', value: '/o1' },
    { kind: 'machine-config', value: '/m1' },
    { kind: 'machine-config', value: '-' },
    { kind: 'overlay', value: '/o2' },
  ]);
  t.equal('args' in prepared && prepared.args['kubelet-version'], '1.29');
  const os = prepareCheckArgs([], { 'openshift-version': '4.19.3' });
  t.match('args' in os && os.args, { 'kubelet-version': '1.32', openshiftVersion: { openshift: '4.19', kubeletMinor: '1.32', verified: true } });
  // openshift/microshift release-4.17 vendors the fork at v1.30.1 (openshift-kubelet-source.lock.json).
  const os417 = prepareCheckArgs([], { 'openshift-version': '4.17' });
  t.match('args' in os417 && os417.args, { 'kubelet-version': '1.30', openshiftVersion: { verified: true } });
  t.match(prepareCheckArgs([], { 'openshift-version': '4.5' }), { usage: /4\.6 to 4\.23/ });
  // 4.6-4.10 run kubelet 1.19-1.23, outside the modelled minors: the check then says it cannot tell.
  t.match(prepareCheckArgs([], { 'openshift-version': '4.10' }), { args: { 'kubelet-version': '1.23' } });
  t.match(prepareCheckArgs([], { 'openshift-version': '4.24' }), { usage: /not an OpenShift version/ }, 'never a neighbour');
});

t.test('a drop-in that does not change kubelet\'s command line decides nothing', async (t) => {
  const root = rhelWorker415(path.join(t.testdir(), 'root'));
  const report = await check(root, [{ kind: 'machine-config', origin: 'x.ign', data: Buffer.from(JSON.stringify({
    ignition: { version: '3.4.0' },
    systemd: { units: [{ name: 'kubelet.service', dropins: [{ name: '90-pre.conf', contents: '[Service]\nExecStartPre=/bin/true\n' }] }] },
  })) }]);
  t.equal(report.kubeletWillStart, true);
  t.same(report.upgrade?.changedPaths, ['/etc/systemd/system/kubelet.service.d/90-pre.conf']);
  t.same(report.upgrade?.decidingPaths, []);
  t.ok(report.kubelet.dropIns.includes('/etc/systemd/system/kubelet.service.d/90-pre.conf'), 'the drop-in is read');
});

t.test('an unverified OpenShift row is said, as an info finding after the answer', async (t) => {
  const root = rhelWorker415(path.join(t.testdir(), 'root'));
  const report = await checkNode({ root, unit: 'kubelet.service', kubeletVersion: '1.30', overlays: [{ kind: 'machine-config', origin: 'mc.yaml', data: Buffer.from(machineConfigYaml()) }], openshiftVersion: { openshift: '4.17', kubeletMinor: '1.30', verified: false } });
  t.equal(report.kubeletWillStart, false, 'the answer stands');
  t.match(report.findings.at(-1), { id: 'openshift-version-unverified', severity: 'info' });
  t.same(report.upgrade?.openshiftVersion, { openshift: '4.17', kubeletMinor: '1.30', verified: false });
});
