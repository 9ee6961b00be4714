// node-check preflight in kubelet's ExecStartPre on a booted systemd node set up like the seed
// node (OpenShift 4.16 unit, acr config, empty plugin dir), without the fallback: kubelet fails
// to start, and before it does, node-check has said why in the journal (the catalog explains it
// under `journalctl -xu kubelet`) and in the metrics textfile. A hostile provider name forges
// nothing. systemd-analyze verify accepts the shipped drop-in.
import t from 'tap';
import { existsSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { findingKind } from '../../src/catalog/findings.js';
import { sanitizeJournalValue } from '../../src/sinks/journal-value.js';
import type { BootedNode, JournalEntry } from '../harness/nspawn.js';
import { requireNodes } from '../harness/tools.js';
import { ACR_PLUGIN, bootKubeletNode, must, PROVIDER_CONFIG, recordedArgv, TEXTFILE, TEXTFILE_DIR, UNIT, unitProperties } from './kubelet-node.js';

const BUNDLE = fileURLToPath(new URL('../../dist/node-check.cjs', import.meta.url));
const MISSING = findingKind('plugin-binary-missing')!;
const KUBELET_ERROR = `plugin binary executable ${ACR_PLUGIN} did not exist`;
const STAND_IN_FAILURE = 'Failed to register CRI auth plugins';

// Valid for kubelet 1.28 (no "/" and no space), so it reaches the plugin check: every line
// break and "<0>" in it would forge a field, an entry or a priority if written unescaped.
const HOSTILE_NAME = 'evil\n<0>forged-emergency\nMESSAGE_ID=00000000000000000000000000000000\nPRIORITY=0\n_SYSTEMD_UNIT=sshd.service\nNODE_CHECK_FINDING_ID=forged\nSYSLOG_IDENTIFIER=forged';
const HOSTILE_CONFIG = `apiVersion: kubelet.config.k8s.io/v1
kind: CredentialProviderConfig
providers:
  - name: ${JSON.stringify(HOSTILE_NAME)}
    apiVersion: credentialprovider.kubelet.k8s.io/v1
    defaultCacheDuration: "10m"
    matchImages:
      - "*.azurecr.io"
`;
/** Every field a client sent for a plugin-binary-missing entry: node-check's, plus OBJECT_PID. */
const CLIENT_FIELDS = [
  'DOCUMENTATION', 'MESSAGE', 'MESSAGE_ID', 'NODE_CHECK_FINDING_ID', 'NODE_CHECK_KUBELET_ERROR', 'NODE_CHECK_KUBELET_VERSION',
  'NODE_CHECK_KUBELET_WILL_START', 'NODE_CHECK_PATH', 'NODE_CHECK_PROVIDER', 'NODE_CHECK_REMEDIATION', 'NODE_CHECK_UNIT',
  'OBJECT_PID', 'PRIORITY', 'SYSLOG_IDENTIFIER', 'SYSLOG_PID',
];
// What journald adds for OBJECT_PID= from a root sender (journald-server.c), besides OBJECT_PID.
const JOURNALD_OBJECT_FIELD = /^OBJECT_(UID|GID|COMM|EXE|CMDLINE|CAP_EFFECTIVE|AUDIT_SESSION|AUDIT_LOGINUID|SELINUX_CONTEXT|SYSTEMD_[A-Z_]+)$/;

function clientFieldNames(entry: JournalEntry): string[] {
  return Object.keys(entry).filter((name) => !name.startsWith('_') && !JOURNALD_OBJECT_FIELD.test(name)).sort();
}

/** `systemctl start kubelet`, and how long it took. */
async function startKubelet(node: BootedNode): Promise<{ exitCode: number; stderr: string; ms: number }> {
  const started = Date.now();
  const { exitCode, stderr } = await node.exec(['systemctl', 'start', UNIT]);
  return { exitCode, stderr, ms: Date.now() - started };
}

t.test('preflight in ExecStartPre, without the fallback, under the real systemd and journald', async (t) => {
  if (!requireNodes(t)) return;
  if (!existsSync(BUNDLE)) {
    t.fail(`${BUNDLE} is missing: run node scripts/build.mjs first`);
    return;
  }
  const booting = Date.now();
  const [node, hostileNode, loopNode] = await Promise.all([bootKubeletNode({ t }), bootKubeletNode({ t, providerConfig: HOSTILE_CONFIG }), bootKubeletNode({ t })]);
  t.comment(`two nodes booted in ${Date.now() - booting} ms (${node.bootMs} and ${hostileNode.bootMs} ms each)`);

  t.test('kubelet fails; node-check explained it first, in the journal and in the textfile', async (t) => {
    // A stale textfile with a second hard link: replaced by rename, the old inode keeps its bytes;
    // written in place, the link would show the new text.
    await node.writeFile(TEXTFILE, 'stale\n');
    await must(node, ['ln', TEXTFILE, '/var/lib/node_exporter/node-check.prom.before']);
    const oldInode = (await must(node, ['stat', '-c', '%i', TEXTFILE])).stdout.trim();

    const start = await startKubelet(node);
    t.not(start.exitCode, 0, `systemctl start ${UNIT} fails: ${start.stderr.trim().split('\n')[0]}`);
    t.comment(`systemctl start ${UNIT} (failing) took ${start.ms} ms`);
    const unit = await unitProperties(node, ['Result', 'ExecMainStatus']);
    t.same(unit, { Result: 'exit-code', ExecMainStatus: '1' }, 'kubelet itself exited with status 1');
    t.equal(await recordedArgv(node), undefined, 'the stand-in kubelet never got past its credential checks');

    const entries = await node.journal(['-u', UNIT]);
    const ours = entries.findIndex((e) => e['MESSAGE_ID'] === MISSING.messageId);
    t.ok(ours >= 0, `journalctl -u ${UNIT} lists node-check's ${MISSING.id} entry`);
    const entry = entries[ours] ?? {};
    t.match(entry, {
      PRIORITY: '3',
      SYSLOG_IDENTIFIER: 'node-check',
      MESSAGE_ID: MISSING.messageId,
      NODE_CHECK_FINDING_ID: 'plugin-binary-missing',
      NODE_CHECK_PATH: ACR_PLUGIN,
      NODE_CHECK_PROVIDER: 'acr-credential-provider',
      NODE_CHECK_KUBELET_VERSION: '1.28.7',
      NODE_CHECK_KUBELET_ERROR: KUBELET_ERROR,
      NODE_CHECK_UNIT: UNIT,
      OBJECT_SYSTEMD_UNIT: UNIT,
      _UID: '0',
      _TRANSPORT: 'journal',
    }, 'the entry carries the contract fields, filed under kubelet.service');
    // logger's own _SYSTEMD_UNIT is taken from /proc by journald and is missing when logger has
    // already exited (src/sinks/journal.ts); when it is there it must name kubelet's unit.
    t.ok(entry['_SYSTEMD_UNIT'] === undefined || entry['_SYSTEMD_UNIT'] === UNIT, `_SYSTEMD_UNIT is ${UNIT} (or missing): ${String(entry['_SYSTEMD_UNIT'])}`);
    t.match(String(entry['MESSAGE']), /^kubelet will not start: credential provider plugin "acr-credential-provider" is missing: /);
    t.equal(entry['SYSLOG_PID'], entry['OBJECT_PID'], "SYSLOG_PID is node-check's own pid (the live process journald resolved OBJECT_PID to)");
    t.not(entry['SYSLOG_PID'], entry['_PID'], "not logger's");

    const invocation = entry['OBJECT_SYSTEMD_INVOCATION_ID'];
    t.type(invocation, 'string', 'the entry names the kubelet start it belongs to');
    const failure = entries.findIndex((e) => e['_SYSTEMD_INVOCATION_ID'] === invocation && String(e['MESSAGE']).includes(STAND_IN_FAILURE));
    t.ok(failure > ours, "the stand-in kubelet's own failure line of the same start follows node-check's entry");
    t.match(String(entries[failure]?.['MESSAGE']), `"${STAND_IN_FAILURE}" err="${KUBELET_ERROR}"`, 'and says exactly what node-check predicted');
    const summary = entries.find((e) => e['_SYSTEMD_INVOCATION_ID'] === invocation && e['_TRANSPORT'] === 'stdout' && e['SYSLOG_IDENTIFIER'] === 'node-check');
    t.match(String(summary?.['MESSAGE']), /^node-check: kubelet will NOT start: .* \[plugin-binary-missing\]$/, "preflight's one-line answer is in kubelet's log too");

    const explained = await must(node, ['journalctl', '-x', '-u', UNIT, '--no-pager', '-o', 'short']);
    const text = explained.stdout.replace(/^░░ ?/gm, '');
    const subject = text.indexOf(`Subject: ${MISSING.title}`);
    t.ok(subject >= 0, `journalctl -x -u ${UNIT} shows the catalog entry's subject`);
    t.match(text, `Plugin: "acr-credential-provider" at ${ACR_PLUGIN}`, 'with the fields filled in');
    t.match(text, `Kubelet logs: err="${KUBELET_ERROR}"`);
    t.ok(text.indexOf(STAND_IN_FAILURE, subject) > subject, "kubelet's failure line comes after the explanation");

    const metrics = await must(node, ['cat', TEXTFILE]);
    t.match(metrics.stdout, /^nodecheck_kubelet_start_ok 0$/m, 'the textfile says kubelet will not start');
    t.match(metrics.stdout, /^nodecheck_credential_provider_plugin_ok\{provider="acr-credential-provider"\} 0$/m);
    t.match(metrics.stdout, /^nodecheck_fallback_active 0$/m);
    t.same((await must(node, ['ls', '-A', TEXTFILE_DIR])).stdout.split('\n').filter(Boolean), ['node-check.prom'], 'no temp file left in the textfile directory');
    t.equal((await must(node, ['cat', '/var/lib/node_exporter/node-check.prom.before'])).stdout, 'stale\n', 'the old file was replaced by a rename, not rewritten in place');
    t.not((await must(node, ['stat', '-c', '%i', TEXTFILE])).stdout.trim(), oldInode, 'node-check.prom is a new inode');
  });

  t.test('a provider name full of newlines and FIELD=value text forges nothing', async (t) => {
    const node = hostileNode;
    t.match((await must(node, ['cat', PROVIDER_CONFIG])).stdout, 'MESSAGE_ID=0000', 'the node has the hostile config');
    t.not((await startKubelet(node)).exitCode, 0, `systemctl start ${UNIT} fails`);
    const stored = await node.journal([`MESSAGE_ID=${MISSING.messageId}`]);
    t.ok(stored.length >= 1, 'node-check wrote its entry');
    const entry = stored[0] ?? {};
    t.same(clientFieldNames(entry), CLIENT_FIELDS, 'the entry has exactly the fields node-check meant');
    t.ok(Object.values(entry).every((value) => typeof value === 'string'), 'no field has a second (forged) value');
    t.match(entry, {
      PRIORITY: '3',
      SYSLOG_IDENTIFIER: 'node-check',
      NODE_CHECK_FINDING_ID: 'plugin-binary-missing',
      NODE_CHECK_PROVIDER: sanitizeJournalValue(HOSTILE_NAME),
      OBJECT_SYSTEMD_UNIT: UNIT,
    }, 'the hostile name is stored escaped, as one value');
    t.ok(entry['_SYSTEMD_UNIT'] === undefined || entry['_SYSTEMD_UNIT'] === UNIT, 'no forged _SYSTEMD_UNIT');

    for (const match of ['MESSAGE_ID=00000000000000000000000000000000', 'PRIORITY=0', 'NODE_CHECK_FINDING_ID=forged', 'SYSLOG_IDENTIFIER=forged', '_SYSTEMD_UNIT=sshd.service']) {
      t.same(await node.journal([match]), [], `no entry anywhere with ${match}`);
    }
    // preflight's stdout and stderr reach the journal line by line (a line break starts an entry,
    // "<N>" sets its priority): every line node-check wrote there is one whole line of its own.
    const streamed = (await node.journal(['-u', UNIT, 'SYSLOG_IDENTIFIER=node-check'])).filter((e) => e['_TRANSPORT'] === 'stdout' || e['_TRANSPORT'] === 'stderr');
    t.ok(streamed.length >= 1, 'preflight wrote its answer to the stream');
    t.same(streamed.map((e) => String(e['MESSAGE'])).filter((m) => !m.startsWith('node-check: ')), [], 'every streamed line is one of node-check\'s own');
  });

  t.test('a crash-looping kubelet: one entry, a reminder with the count at 10; a change is written at once', async (t) => {
    const node = loopNode;
    // As on OpenShift (Restart=always), only faster than RestartSec=10 and without a start limit.
    const fast = '/etc/systemd/system/kubelet.service.d/99-test-fast-restart.conf';
    await node.writeFile(fast, '[Unit]\nStartLimitIntervalSec=0\n\n[Service]\nRestart=always\nRestartSec=1\n');
    await must(node, ['systemctl', 'daemon-reload']);
    const runs = async () => (await node.journal(['-u', UNIT, 'SYSLOG_IDENTIFIER=node-check'])).filter((e) => /^node-check: kubelet will NOT start: /.test(String(e['MESSAGE']))).length;
    const started = Date.now();
    await node.exec(['systemctl', 'start', UNIT]);
    while ((await runs()) < 12 && Date.now() - started < 90_000) await new Promise((resolve) => setTimeout(resolve, 1000));
    await must(node, ['systemctl', 'stop', UNIT]);
    const loops = await runs();
    t.comment(`${loops} kubelet starts in ${Date.now() - started} ms`);
    t.ok(loops >= 12 && loops < 100, `kubelet crash-looped ${loops} times, each with its preflight`);

    const entries = await node.journal(['-u', UNIT, `MESSAGE_ID=${MISSING.messageId}`]);
    t.equal(entries.length, 2, `${loops} runs wrote 2 entries: the first, and the reminder at 10`);
    t.equal(entries[0]?.['NODE_CHECK_REPEAT_COUNT'], undefined);
    t.match(entries[1], { NODE_CHECK_REPEAT_COUNT: '10', PRIORITY: '3', OBJECT_SYSTEMD_UNIT: UNIT }, 'the reminder counts, at the same priority, filed under kubelet');
    t.match(String(entries[1]?.['MESSAGE']), /^kubelet will not start: credential provider plugin "acr-credential-provider" is missing: .* \(seen 10 times since boot\)$/);
    t.not(entries[0]?.['SYSLOG_PID'], entries[1]?.['SYSLOG_PID'], 'each from its own run');

    const record = await must(node, ['stat', '-c', '%a %U %s', '/run/node-check/journal/repeats.json']);
    t.match(record.stdout.trim(), /^644 root \d+$/, 'the record: 0644, root');
    const state = JSON.parse((await must(node, ['cat', '/run/node-check/journal/repeats.json'])).stdout) as { bootId: string; scopes: Record<string, { seen: Record<string, { id: string; count: number }> }> };
    t.equal(state.bootId, (await must(node, ['cat', '/proc/sys/kernel/random/boot_id'])).stdout.trim(), "of this boot");
    t.same(Object.keys(state.scopes), [UNIT], "counted under kubelet's unit, read from preflight's own cgroup");
    // The demo node's generated kubelet.conf also carries fields this kubelet ignores (a warning, journaled too).
    const seen = Object.values(state.scopes[UNIT]!.seen);
    t.same(seen.filter((s) => s.id === 'plugin-binary-missing').map((s) => s.count), [loops], 'every run counted');
    t.ok(seen.every((s) => s.count === loops), 'each journaled finding, every run');

    // A change: the plugin appears, not executable (kubelet 1.28 starts; pulls will fail): new, written at once.
    await must(node, ['rm', fast]);
    await must(node, ['systemctl', 'daemon-reload']);
    await node.writeFile(ACR_PLUGIN, '#!/bin/sh\n', 0o644);
    await node.exec(['systemctl', 'start', UNIT]);
    await must(node, ['systemctl', 'stop', UNIT]);
    const warning = await node.journal(['-u', UNIT, `MESSAGE_ID=${findingKind('plugin-not-executable-at-pull')!.messageId}`]);
    t.equal(warning.length, 1, 'the new finding is written on its first run');
    t.equal(warning[0]?.['NODE_CHECK_REPEAT_COUNT'], undefined);
    // And back: the missing plugin returns after a run without it, so it is news again, with its count.
    await must(node, ['rm', ACR_PLUGIN]);
    await node.exec(['systemctl', 'start', UNIT]);
    await must(node, ['systemctl', 'stop', UNIT]);
    const back = await node.journal(['-u', UNIT, `MESSAGE_ID=${MISSING.messageId}`]);
    t.equal(back.length, 3, 'written at once, not at the next power of ten');
    t.equal(back[2]?.['NODE_CHECK_REPEAT_COUNT'], String(loops + 1));
  });

  t.test('systemd-analyze verify accepts kubelet.service with the shipped drop-in', async (t) => {
    const node = hostileNode;
    const verify = await node.exec(['systemd-analyze', 'verify', UNIT]);
    t.equal(verify.exitCode, 0, `systemd-analyze verify ${UNIT} exits 0`);
    t.same(verify.stderr.split('\n').filter((line) => /90-node-check\.conf|node-check/.test(line)), [], 'no complaint about node-check\'s drop-in');
    const dropIns = (await unitProperties(node, ['DropInPaths']))['DropInPaths'] ?? '';
    t.match(dropIns, '/etc/systemd/system/kubelet.service.d/90-node-check.conf', 'systemd loaded the drop-in');

    // The control: verify does read drop-ins and names the file it complains about.
    const control = '/etc/systemd/system/kubelet.service.d/91-node-check-control.conf';
    await node.writeFile(control, '[Service]\nNoSuchSetting=1\n');
    const flagged = await node.exec(['systemd-analyze', 'verify', UNIT]);
    await must(node, ['rm', control]);
    t.match(flagged.stderr, /91-node-check-control\.conf:2: Unknown key 'NoSuchSetting' in section \[Service\]/, 'a bad drop-in is reported by name');
  });
});
