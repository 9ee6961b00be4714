/**
 * Before an upgrade (README "Before an upgrade"): a RHEL worker at OpenShift 4.15 and the 4.16 worker
 * configuration that adds the credential-provider flags, given three ways, through the shipped
 * bundle: `check --root R --machine-config F --kubelet-version 1.29.x --output json` is false
 * without the plugin, true with it, and the root is byte-for-byte unchanged.
 */
import t from 'tap';
import { spawnSync } from 'node:child_process';
import * as fs from 'node:fs';
import * as path from 'node:path';
import { fileURLToPath } from 'node:url';
import {
  ACR_CONFIG_PATH,
  PLUGIN_DIR,
  PLUGIN_MISSING,
  UNIT_PATH,
  dropInMachineConfig,
  ignitionJson,
  machineConfigYaml,
  rhelWorker415,
  treeDigest,
} from './helpers.js';

const repo = fileURLToPath(new URL('../..', import.meta.url));
const bundle = path.join(repo, 'dist/node-check.cjs');
// Always rebuild: a stale bundle would test old code.
spawnSync(process.execPath, [path.join(repo, 'scripts/build.mjs')], { stdio: 'inherit' });

function nodeCheck(args: string[], input?: string) {
  const result = spawnSync(process.execPath, [bundle, ...args], {
    encoding: 'utf8',
    env: { PATH: process.env.PATH ?? '', NODE_CHECK_CONFIG: '' },
    timeout: 30_000,
    ...(input !== undefined ? { input } : {}),
  });
  t.notMatch(result.stderr, /\n\s+at .*\(.*:\d+:\d+\)/, `no stack trace from ${args.join(' ')}`);
  return result;
}

const CASES = [
  { name: '(a) MachineConfig YAML, URL-encoded data URL', file: 'rendered-worker-416.yaml', text: machineConfigYaml(), source: 'rendered-worker-416', kind: 'machine-config', acrConfigOnNode: false },
  { name: '(b) Ignition JSON, base64 + gzip', file: 'worker.ign', text: ignitionJson(), source: 'worker.ign', kind: 'ignition', acrConfigOnNode: false },
  { name: '(c) MachineConfig that only adds a kubelet drop-in', file: '99-drop-in.json', text: dropInMachineConfig(), source: '99-worker-kubelet-credential-providers', kind: 'machine-config', acrConfigOnNode: true },
] as const;

for (const c of CASES) {
  t.test(c.name, async (t) => {
    const dir = t.testdir({ [c.file]: c.text });
    const config = path.join(dir, c.file);

    const without = rhelWorker415(path.join(dir, 'without'), { acrConfig: c.acrConfigOnNode });
    const digest = treeDigest(without);
    const fail = nodeCheck(['check', '--root', without, '--machine-config', config, '--kubelet-version', '1.29.x', '--output', 'json']);
    t.equal(fail.status, 1, 'exit 1: kubelet will not start after applying it');
    const report = JSON.parse(fail.stdout);
    t.equal(report.kubeletWillStart, false);
    t.equal(report.kubeletVersion, '1.29.0');
    const error = report.findings.find((f: { severity: string }) => f.severity === 'error');
    t.equal(error.id, 'plugin-binary-missing');
    t.equal(error.kubeletError, PLUGIN_MISSING, "kubelet 1.29's own text");
    t.same(report.upgrade.sources, [{ name: c.source, kind: c.kind, origin: config }]);
    t.same(report.upgrade.before, { kubeletWillStart: true }, 'it starts now');
    t.same(report.upgrade.after, { kubeletWillStart: false });
    t.equal(report.upgrade.summary, `kubelet starts now but will NOT start after applying ${c.source}`, 'JSON says "after applying <name>"');
    t.ok(report.upgrade.decidingPaths.includes(c.acrConfigOnNode ? '/etc/systemd/system/kubelet.service.d/30-credential-providers.conf' : UNIT_PATH), 'the unit (or drop-in) that adds the flags decided');
    if (!c.acrConfigOnNode) t.ok(report.upgrade.changedPaths.includes(ACR_CONFIG_PATH));
    t.notOk(report.upgrade.changedPaths.includes('/etc/systemd/system/kubelet.service.d/01-kubens.conf'), 'a file written again unchanged is not a change');
    t.equal(treeDigest(without), digest, 'the root is byte-for-byte unchanged');

    const text = nodeCheck(['check', '--root', without, '--machine-config', config, '--kubelet-version', '1.29.x']);
    const first = text.stdout.split('\n')[0]!;
    t.match(first, `kubelet starts now but will NOT start after applying ${c.source}`, 'the one line for the upgrade ticket comes first');
    t.match(first, PLUGIN_MISSING);

    const withPlugin = rhelWorker415(path.join(dir, 'with'), { plugin: true, acrConfig: c.acrConfigOnNode });
    const digestWith = treeDigest(withPlugin);
    const ok = nodeCheck(['check', '--root', withPlugin, '--machine-config', config, '--kubelet-version', '1.29.x', '--output', 'json']);
    t.equal(ok.status, 0, 'exit 0 with the plugin installed');
    const okReport = JSON.parse(ok.stdout);
    t.equal(okReport.kubeletWillStart, true);
    t.same(okReport.upgrade.after, { kubeletWillStart: true });
    t.equal(okReport.upgrade.summary, `kubelet is predicted to start after applying ${c.source}`);
    t.same(okReport.kubelet.providers, [{ name: 'acr-credential-provider', binary: `${PLUGIN_DIR}/acr-credential-provider`, pluginOk: true }]);
    t.equal(treeDigest(withPlugin), digestWith, 'the root is byte-for-byte unchanged');
    const okText = nodeCheck(['check', '--root', withPlugin, '--machine-config', config, '--kubelet-version', '1.29.x']);
    t.match(okText.stdout, `✔ kubelet is predicted to start after applying ${c.source}`);
    t.notMatch(okText.stdout, 'UPGRADE WILL STOP KUBELET');
  });
}

t.test('--machine-config - reads standard input (oc debug node/X -- chroot /host node-check check --machine-config - < target.yaml)', async (t) => {
  const root = rhelWorker415(path.join(t.testdir(), 'root'));
  const result = nodeCheck(['check', '--root', root, '--machine-config', '-', '--kubelet-version', '1.29.5', '--output', 'json'], machineConfigYaml('rendered-worker-from-stdin'));
  t.equal(result.status, 1);
  const report = JSON.parse(result.stdout);
  t.same(report.upgrade.sources, [{ name: 'rendered-worker-from-stdin', kind: 'machine-config', origin: '-' }]);
});

t.test('--openshift-version 4.16 evaluates kubelet 1.29; an unknown OpenShift version is a usage error', async (t) => {
  const dir = t.testdir({ 'mc.yaml': machineConfigYaml() });
  const root = rhelWorker415(path.join(dir, 'root'));
  const r416 = nodeCheck(['check', '--root', root, '--machine-config', path.join(dir, 'mc.yaml'), '--openshift-version', '4.16', '--output', 'json']);
  t.equal(r416.status, 1);
  const report = JSON.parse(r416.stdout);
  t.same(report.evaluatedVersions, ['1.29']);
  t.same(report.upgrade.openshiftVersion, { openshift: '4.16', kubeletMinor: '1.29', verified: true });
  const unknown = nodeCheck(['check', '--root', root, '--machine-config', path.join(dir, 'mc.yaml'), '--openshift-version', '4.99']);
  t.equal(unknown.status, 64, 'an OpenShift version outside the table is a usage error, never a neighbour');
  const both = nodeCheck(['check', '--root', root, '--machine-config', path.join(dir, 'mc.yaml'), '--openshift-version', '4.16', '--kubelet-version', '1.29.1']);
  t.equal(both.status, 64);
});

t.test('without a version, every modelled version is evaluated, as now', async (t) => {
  const dir = t.testdir({ 'mc.yaml': machineConfigYaml() });
  const root = rhelWorker415(path.join(dir, 'root'));
  const result = nodeCheck(['check', '--root', root, '--machine-config', path.join(dir, 'mc.yaml'), '--output', 'json']);
  const report = JSON.parse(result.stdout);
  t.ok(report.evaluatedVersions.length > 1);
  t.equal(report.kubeletWillStart, false, 'every modelled kubelet refuses a missing plugin');
  t.equal(result.status, 1);
});

t.test('--overlay DIR and --machine-config combine, in command-line order', async (t) => {
  const dir = t.testdir({
    'mc.yaml': machineConfigYaml(),
    // The RPM the upgrade playbook installs, as a plain tree.
    rpm: { usr: { libexec: { 'kubelet-image-credential-provider-plugins': { 'acr-credential-provider': '#!/bin/sh\nexit 0\n' } } } },
  });
  fs.chmodSync(path.join(dir, 'rpm', PLUGIN_DIR, 'acr-credential-provider'), 0o755);
  const root = rhelWorker415(path.join(dir, 'root'));
  const digest = treeDigest(root);
  const result = nodeCheck(['check', '--root', root, '--machine-config', path.join(dir, 'mc.yaml'), '--overlay', path.join(dir, 'rpm'), '--kubelet-version', '1.29.5', '--output', 'json']);
  t.equal(result.status, 0);
  const report = JSON.parse(result.stdout);
  t.same(report.upgrade.sources.map((s: { kind: string }) => s.kind), ['machine-config', 'directory']);
  t.ok(report.upgrade.changedPaths.includes(`${PLUGIN_DIR}/acr-credential-provider`));
  t.same(report.upgrade.before, { kubeletWillStart: true });
  t.equal(treeDigest(root), digest);

  // A plain tree alone: a drop-in that adds the flags (keeping kubenswrapper, so the node stays
  // OpenShift-flavoured and its kubelet.conf gates are known), the plugin missing.
  const kubeadm = t.testdir({
    tree: { etc: { systemd: { system: { 'kubelet.service.d': { '30-cred.conf': `[Service]\nExecStart=\nExecStart=/usr/local/bin/kubenswrapper /usr/bin/kubelet --config=/etc/kubernetes/kubelet.conf --image-credential-provider-bin-dir=${PLUGIN_DIR} --image-credential-provider-config=${ACR_CONFIG_PATH}\n` } } } } },
  });
  const rootOnly = rhelWorker415(path.join(kubeadm, 'root'), { acrConfig: true });
  const treeOnly = nodeCheck(['check', '--root', rootOnly, '--overlay', path.join(kubeadm, 'tree'), '--kubelet-version', '1.30.2', '--output', 'json']);
  t.equal(treeOnly.status, 1);
  const r = JSON.parse(treeOnly.stdout);
  t.equal(r.upgrade.sources[0].kind, 'directory');
  t.same(r.upgrade.decidingPaths, ['/etc/systemd/system/kubelet.service.d/30-cred.conf']);
  t.equal(r.findings.find((f: { severity: string }) => f.severity === 'error').kubeletError, 'plugin binary executable  did not exist', "1.30's LookPath text");
});
