// node-check-precheck.service on a booted Debian 12 node (systemd 252, nspawn): kubelet.service
// with a missing required EnvironmentFile= fails before any of its ExecStartPre= commands, with
// result 'resources' and exactly the journal lines node-check predicts for this systemd version;
// the precheck unit ran first and its journal entry names the missing file. Then the same node
// with the file restored but kubelet's binary gone (203/EXEC lines), and with the unit masked.
import t from 'tap';
import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import { fileURLToPath } from 'node:url';
import { bootNode, type BootedNode, type JournalEntry } from '../harness/nspawn.js';
import { requireNodes } from '../harness/tools.js';
import { RootFs } from '../../src/host/root-fs.js';
import { loadService } from '../../src/systemd/load-service.js';
import { checkSystemdPreconditions } from '../../src/systemd-preconditions/check-systemd.js';
import { isFailure, type PreconditionFailure } from '../../src/systemd-preconditions/outcome.js';
import { collectExecFacts } from '../../src/discover/host-facts.js';

const REPO = fileURLToPath(new URL('../../', import.meta.url));
const BUNDLE = path.join(REPO, 'dist', 'node-check.cjs');
const PRECHECK = 'node-check-precheck.service';
const KUBELET = 'kubelet.service';
// In /usr/lib so that `systemctl mask` (a link in /etc) can hide it later.
const UNIT_PATH = '/usr/lib/systemd/system/kubelet.service';
const SIZING = '/etc/node-sizing.env';
const MARKER = '/run/kubelet-start-pre-ran';

// Shaped like OpenShift's worker unit (MCO templates/worker/01-worker-kubelet/_base/units/kubelet.service.yaml @release-4.16), with a stand-in kubelet.
const KUBELET_UNIT = `[Unit]
Description=Kubernetes Kubelet (node-check e2e stand-in)

[Service]
Type=notify
ExecStartPre=/bin/touch ${MARKER}
EnvironmentFile=/etc/os-release
EnvironmentFile=-/etc/kubernetes/kubelet-env
EnvironmentFile=${SIZING}
ExecStart=/usr/bin/kubelet --config=/etc/kubernetes/kubelet.conf --system-reserved=cpu=\${SYSTEM_RESERVED_CPU}
Restart=always
RestartSec=10

[Install]
WantedBy=multi-user.target
`;
const STAND_IN_KUBELET = '#!/bin/sh\n[ "${1-}" = --version ] && { echo "Kubernetes v1.30.4"; exit 0; }\nsystemd-notify --ready\nexec sleep infinity\n';

/** Predicts with node-check's own pure check, over the same unit read from a host temp root. */
function predict(t: { teardown(fn: () => void): void }, files: Record<string, string>, executables: readonly string[], systemdVersion: number, symlinks: Record<string, string> = {}, dirs: readonly string[] = []): PreconditionFailure | undefined {
  const root = fs.mkdtempSync(path.join(os.tmpdir(), 'node-check-precheck-'));
  t.teardown(() => fs.rmSync(root, { recursive: true, force: true }));
  for (const [p, content] of Object.entries(files)) {
    fs.mkdirSync(path.dirname(path.join(root, p)), { recursive: true });
    fs.writeFileSync(path.join(root, p), content);
  }
  for (const exe of executables) fs.chmodSync(path.join(root, exe), 0o755);
  for (const dir of dirs) fs.mkdirSync(path.join(root, dir), { recursive: true });
  for (const [link, target] of Object.entries(symlinks)) {
    fs.mkdirSync(path.dirname(path.join(root, link)), { recursive: true });
    fs.symlinkSync(target, path.join(root, link));
  }
  const rootFs = new RootFs(root);
  const service = loadService(rootFs, KUBELET, { systemdVersion });
  return checkSystemdPreconditions({ service, files: collectExecFacts(rootFs, service), systemdVersion }).find(isFailure);
}

async function must(node: BootedNode, argv: readonly string[]): Promise<string> {
  const result = await node.exec(argv);
  if (result.exitCode !== 0) throw new Error(`${argv.join(' ')} exited ${result.exitCode}: ${result.stderr}${result.stdout}`);
  return result.stdout;
}

async function show(node: BootedNode, unit: string, names: readonly string[]): Promise<Record<string, string>> {
  const out = await must(node, ['systemctl', 'show', unit, ...names.map((n) => `--property=${n}`)]);
  return Object.fromEntries(out.split('\n').filter(Boolean).map((l) => [l.slice(0, l.indexOf('=')), l.slice(l.indexOf('=') + 1)]));
}

const messages = (entries: readonly JournalEntry[]) => entries.map((e) => String(e['MESSAGE']));

/**
 * Every entry about the unit, in journal order. Not `journalctl -u`: the exec failure lines come
 * from systemd's forked child, which journald attributes to the unit's cgroup (_SYSTEMD_UNIT) only
 * when the child still exists; their UNIT= field is always there.
 */
async function unitEntries(node: BootedNode, unit: string): Promise<JournalEntry[]> {
  return (await node.journal([])).filter((e) => e['UNIT'] === unit || e['_SYSTEMD_UNIT'] === unit);
}

/** The journal entries of the unit's newest invocation (by _SYSTEMD_INVOCATION_ID/INVOCATION_ID). */
function lastInvocation(entries: readonly JournalEntry[]): JournalEntry[] {
  const id = (e: JournalEntry) => String(e['INVOCATION_ID'] ?? e['_SYSTEMD_INVOCATION_ID'] ?? '');
  const last = [...entries].reverse().find((e) => id(e) !== '');
  return last ? entries.filter((e) => id(e) === id(last)) : [...entries];
}

t.test('node-check-precheck.service reports what systemd does not say, before kubelet fails', async (t) => {
  if (!requireNodes(t)) return;
  if (!fs.existsSync(BUNDLE)) {
    t.fail(`${BUNDLE} is missing: run node scripts/build.mjs first`);
    return;
  }
  const precheckUnit = fs.readFileSync(path.join(REPO, 'systemd', PRECHECK), 'utf8');
  const node = await bootNode({
    t,
    files: {
      [UNIT_PATH]: KUBELET_UNIT,
      [`/etc/systemd/system/${PRECHECK}`]: precheckUnit,
      '/usr/bin/kubelet': { content: STAND_IN_KUBELET, mode: 0o755 },
      '/etc/kubernetes/kubelet.conf': 'apiVersion: kubelet.config.k8s.io/v1beta1\nkind: KubeletConfiguration\n',
    },
  });
  await must(node, ['mkdir', '-p', '/var/lib/node_exporter/textfile_collector']);
  await must(node, ['systemctl', 'daemon-reload']);
  await must(node, ['systemctl', 'enable', PRECHECK]);
  const version = Number(/^systemd (\d+)/.exec(await must(node, ['systemctl', '--version']))?.[1]);
  t.comment(`node runs systemd ${version}`);
  const osRelease = await must(node, ['cat', '/etc/os-release']);

  t.test('a missing required EnvironmentFile=: kubelet fails with result resources; the precheck named the file first', async (t) => {
    const predicted = predict(t, { [UNIT_PATH]: KUBELET_UNIT, '/etc/os-release': osRelease, '/usr/bin/kubelet': STAND_IN_KUBELET }, ['/usr/bin/kubelet'], version);
    t.equal(predicted?.findingId, 'systemd-environment-file-missing', 'node-check predicts the failure');
    t.equal(predicted?.systemdResult, 'resources');

    const start = await node.exec(['systemctl', 'start', KUBELET]);
    t.not(start.exitCode, 0, `systemctl start ${KUBELET} fails: ${start.stderr.trim().split('\n')[0]}`);
    t.match(await show(node, KUBELET, ['Result']), { Result: 'resources' }, "kubelet's result is 'resources'");
    t.equal((await node.exec(['test', '-e', MARKER])).exitCode, 1, 'its ExecStartPre= never ran');

    const kubeletEntries = lastInvocation(await node.journal(['-u', KUBELET, '_PID=1']));
    const lines = messages(kubeletEntries);
    let at = -1;
    for (const expected of predicted?.systemdLines ?? []) {
      const found = lines.indexOf(expected, at + 1);
      t.ok(found > at, `systemd logged, in order: ${expected}`);
      at = found;
    }
    t.notOk(lines.some((l) => l.includes(SIZING)), "systemd's own lines never name the missing file");

    const precheck = await node.journal(['-u', PRECHECK]);
    // The structured entry (with a MESSAGE_ID), not preflight's one-line summary on stderr.
    const naming = precheck.find((e) => String(e['MESSAGE']).includes(SIZING) && e['SYSLOG_IDENTIFIER'] === 'node-check' && e['MESSAGE_ID'] !== undefined);
    t.ok(naming, `the precheck's journal names ${SIZING}`);
    t.comment(`precheck entry: ${String(naming?.['MESSAGE'])}`);
    t.match(naming, { NODE_CHECK_UNIT: KUBELET, OBJECT_SYSTEMD_UNIT: PRECHECK });
    t.match(await show(node, PRECHECK, ['Result', 'ActiveState']), { Result: 'success', ActiveState: 'inactive' }, 'the precheck finished (oneshot) and did not fail');

    // Ordering: the precheck's last line comes before systemd's first failure line for kubelet.
    const all = await node.journal(['-u', PRECHECK, '-u', KUBELET]);
    const lastPrecheck = all.map((e, i) => (e['_SYSTEMD_UNIT'] === PRECHECK || e['UNIT'] === PRECHECK || e['OBJECT_SYSTEMD_UNIT'] === PRECHECK ? i : -1)).filter((i) => i >= 0).pop() ?? -1;
    const firstFailure = all.findIndex((e) => String(e['MESSAGE']) === predicted?.kubeletError);
    t.ok(lastPrecheck >= 0 && firstFailure > lastPrecheck, 'the precheck ran (and finished) before kubelet failed');

    // Restart=always: systemd's own restart job pulls the precheck in again (it is WantedBy kubelet).
    const deadline = Date.now() + 30_000;
    while (Number((await show(node, KUBELET, ['NRestarts']))['NRestarts']) < 1 && Date.now() < deadline) await new Promise((r) => setTimeout(r, 500));
    t.ok(Number((await show(node, KUBELET, ['NRestarts']))['NRestarts']) >= 1, 'systemd restarted kubelet on its own');
    const runs = new Set((await node.journal(['-u', PRECHECK, '_PID=1'])).map((e) => String(e['INVOCATION_ID'] ?? '')).filter(Boolean));
    t.ok(runs.size >= 2, `the precheck ran again before the automatic restart (${runs.size} runs)`);
  });

  t.test('with the file back but no kubelet binary: 203/EXEC with the predicted lines', async (t) => {
    await node.writeFile(SIZING, 'SYSTEM_RESERVED_CPU=500m\n');
    await must(node, ['rm', '-f', '/usr/bin/kubelet']);
    await must(node, ['systemctl', 'reset-failed', KUBELET]);
    const predicted = predict(t, { [UNIT_PATH]: KUBELET_UNIT, '/etc/os-release': osRelease, [SIZING]: 'SYSTEM_RESERVED_CPU=500m\n' }, [], version);
    t.equal(predicted?.findingId, 'systemd-exec-missing');
    t.equal(predicted?.exitStatus, 203);

    const before = (await unitEntries(node, KUBELET)).length;
    await node.exec(['systemctl', 'start', KUBELET]);
    t.match(await show(node, KUBELET, ['Result', 'ExecMainStatus']), { Result: 'exit-code', ExecMainStatus: '203' });
    t.equal((await node.exec(['test', '-e', MARKER])).exitCode, 0, 'this time ExecStartPre= ran');
    const entries = (await unitEntries(node, KUBELET)).slice(before);
    const lines = messages(lastInvocation(entries.filter((e) => e['MESSAGE'] !== undefined)));
    const text = messages(entries);
    let at = -1;
    for (const expected of predicted?.systemdLines ?? []) {
      const found = text.indexOf(expected, at + 1);
      t.ok(found > at, `systemd logged, in order: ${expected}`);
      at = found;
    }
    t.ok(lines.length > 0);
  });

  t.test('more cases, each exactly as predicted for this systemd', async (t) => {
    const cases: { name: string; unit: string; files: Record<string, string>; executables: string[]; setup: string[][]; result: string; dirs?: string[] }[] = [
      {
        name: 'an EnvironmentFile= glob that matches nothing',
        unit: KUBELET_UNIT.replace(`EnvironmentFile=${SIZING}`, 'EnvironmentFile=/etc/kubelet.d/*.env'),
        files: { '/usr/bin/kubelet': STAND_IN_KUBELET },
        executables: ['/usr/bin/kubelet'],
        setup: [['mkdir', '-p', '/etc/kubelet.d'], ['sh', '-c', `printf '%s' "$1" > /usr/bin/kubelet && chmod 755 /usr/bin/kubelet`, 'x', STAND_IN_KUBELET]],
        result: 'resources',
      },
      {
        name: 'an EnvironmentFile= that is a directory',
        unit: KUBELET_UNIT.replace(`EnvironmentFile=${SIZING}`, 'EnvironmentFile=/etc/kubelet.d'),
        files: { '/usr/bin/kubelet': STAND_IN_KUBELET },
        dirs: ['/etc/kubelet.d'],
        executables: ['/usr/bin/kubelet'],
        setup: [],
        result: 'resources',
      },
      {
        name: 'a kubelet binary without the execute bit',
        unit: KUBELET_UNIT,
        files: { [SIZING]: 'SYSTEM_RESERVED_CPU=500m\n', '/usr/bin/kubelet': STAND_IN_KUBELET },
        executables: [],
        setup: [['chmod', '644', '/usr/bin/kubelet']],
        result: 'exit-code',
      },
      {
        name: 'a kubelet script whose interpreter is missing',
        unit: KUBELET_UNIT,
        files: { [SIZING]: 'SYSTEM_RESERVED_CPU=500m\n', '/usr/bin/kubelet': '#!/opt/nowhere/sh\n' },
        executables: ['/usr/bin/kubelet'],
        setup: [['sh', '-c', "printf '#!/opt/nowhere/sh\\n' > /usr/bin/kubelet && chmod 755 /usr/bin/kubelet"]],
        result: 'exit-code',
      },
    ];
    for (const c of cases) {
      await node.writeFile(UNIT_PATH, c.unit);
      for (const argv of c.setup) await must(node, argv);
      await must(node, ['systemctl', 'daemon-reload']);
      await node.exec(['systemctl', 'reset-failed', KUBELET]);
      const before = (await unitEntries(node, KUBELET)).length;
      const predicted = predict(t, { [UNIT_PATH]: c.unit, '/etc/os-release': osRelease, ...c.files }, c.executables, version, {}, c.dirs);
      await node.exec(['systemctl', 'start', KUBELET]);
      t.match(await show(node, KUBELET, ['Result']), { Result: c.result }, `${c.name}: result ${c.result}`);
      const text = messages((await unitEntries(node, KUBELET)).slice(before));
      let at = -1;
      for (const expected of predicted?.systemdLines ?? ['(no prediction)']) {
        const found = text.indexOf(expected, at + 1);
        t.ok(found > at, `${c.name}: ${expected}`, { found: text });
        at = found;
      }
      await node.exec(['systemctl', 'stop', KUBELET]);
    }
  });

  t.test('a masked kubelet.service: systemctl start says the predicted text', async (t) => {
    const predicted = predict(t, { [UNIT_PATH]: KUBELET_UNIT }, [], version, { '/etc/systemd/system/kubelet.service': '/dev/null' });
    t.equal(predicted?.findingId, 'systemd-unit-masked');
    await must(node, ['systemctl', 'mask', KUBELET]);
    const start = await node.exec(['systemctl', 'start', KUBELET]);
    t.not(start.exitCode, 0);
    t.equal(start.stderr.trim(), `Failed to start ${KUBELET}: ${predicted?.kubeletError}`, 'systemctl prints the predicted text');
  });

  t.test('systemd-analyze verify accepts the shipped precheck unit', async (t) => {
    const verify = await node.exec(['systemd-analyze', 'verify', PRECHECK]);
    t.same(verify.stderr.split('\n').filter((l) => l.includes(PRECHECK)), [], `no complaint about ${PRECHECK}: ${verify.stderr}`);
  });
});
