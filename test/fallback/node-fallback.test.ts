// The fallback on fixture nodes copied to a temp root: plan from discovery, apply under the root,
// then read the unit back with src/systemd (as systemd 239 and 252 would) and evaluate it again.
import t from 'tap';
import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import { fileURLToPath } from 'node:url';
import { applyNodeFallback, revertNodeFallback } from '../../src/fallback/node-fallback.js';
import { loadService } from '../../src/systemd/load-service.js';
import { RootFs } from '../../src/host/root-fs.js';
import { checkNode } from '../../src/check-node.js';
import { runFallback } from '../../src/cli/commands/fallback.js';
import { mergeSettings } from '../../src/settings.js';
import type { CliIo } from '../../src/cli/io.js';
import { withoutCredentialFlags } from './model.js';

const FIXTURES = fileURLToPath(new URL('../fixtures/nodes/', import.meta.url));
const DROP_IN = '/run/systemd/system/kubelet.service.d/99-node-check-fallback.conf';
const FILTERED = '/run/node-check/credential-providers/kubelet.service.yaml';

function fixtureRoot(t: { teardown: (fn: () => void) => void }, name: string): string {
  const root = fs.mkdtempSync(path.join(os.tmpdir(), `node-check-${name}-`));
  t.teardown(() => fs.rmSync(root, { recursive: true, force: true }));
  fs.cpSync(path.join(FIXTURES, name, 'root'), root, { recursive: true, verbatimSymlinks: true });
  return root;
}

const filesUnder = (root: string, dir: string): string[] =>
  fs.existsSync(path.join(root, dir)) ? (fs.readdirSync(path.join(root, dir), { recursive: true, withFileTypes: true }) as fs.Dirent[]).filter((e) => e.isFile()).map((e) => e.name) : [];

const CASES = [
  { name: 'ocp-4.16-azure-rhel8-worker-acr-missing', version: '1.28.7', filtered: false, removed: ['acr-credential-provider'] },
  { name: 'ocp-4.22-aws-worker-crio-provider-missing', version: '1.35.0', filtered: true, removed: ['crio-credential-provider'] },
  { name: 'kubeadm-rhel9-acr-not-executable', version: '1.30.8', filtered: false, removed: ['acr-credential-provider'] },
];

for (const c of CASES) {
  t.test(`${c.name}: apply, read back as systemd would, keep, revert`, async (t) => {
    const root = fixtureRoot(t, c.name);
    const options = { root, unit: 'kubelet.service', kubeletVersion: c.version, timeoutMs: 5000 };
    const before = await checkNode(options);
    t.equal(before.kubeletWillStart, false, 'kubelet would refuse to start');
    const original = loadService(new RootFs(root), 'kubelet.service', { systemdVersion: 252 }).execStart!.argv;

    const applied = await applyNodeFallback(options);
    t.equal(applied.plan.action, 'apply', applied.plan.reason);
    t.same(applied.plan.removedProviders, c.removed);
    t.same([applied.result.ok, applied.result.reloaded], [true, false]);

    const expected = c.filtered
      ? original.map((a) => (a.startsWith('--image-credential-provider-config=') ? `--image-credential-provider-config=${FILTERED}` : a))
      : withoutCredentialFlags(original);
    for (const systemdVersion of [239, 252]) {
      const service = loadService(new RootFs(root), 'kubelet.service', { systemdVersion });
      t.equal(service.execStart?.source.file, DROP_IN, `systemd ${systemdVersion} takes ExecStart= from the fallback drop-in`);
      t.same(service.execStart?.argv, expected, `systemd ${systemdVersion}: the original argv with only the credential flags changed`);
      t.same(service.diagnostics.filter((d) => d.file === DROP_IN), [], 'no complaint about the drop-in');
    }
    const after = await checkNode(options);
    t.equal(after.kubeletWillStart, true, 'node-check predicts that kubelet starts under the fallback');
    t.equal(fs.existsSync(path.join(root, FILTERED)), c.filtered);

    const again = await applyNodeFallback(options);
    t.equal(again.plan.action, 'keep', 'the next start finds the fallback in place (systemd 239 picks it up on this restart)');
    t.same(again.result.changed, []);

    const reverted = await revertNodeFallback(options);
    t.ok(reverted.result.ok);
    t.same(loadService(new RootFs(root), 'kubelet.service', { systemdVersion: 252 }).execStart?.argv, original, 'the unit is back to its own ExecStart=');
    t.same(filesUnder(root, 'run'), [], 'nothing is left under /run');
  });
}

t.test('a node whose plugins are all there gets no fallback, and a fallback found there is reverted', async (t) => {
  const root = fixtureRoot(t, 'ocp-4.16-azure-rhel8-worker-acr-missing');
  const options = { root, unit: 'kubelet.service', kubeletVersion: '1.28.7', timeoutMs: 5000 };
  await applyNodeFallback(options);
  // The RPM arrives.
  fs.writeFileSync(path.join(root, 'usr/libexec/kubelet-image-credential-provider-plugins/acr-credential-provider'), '#!/bin/sh\n', { mode: 0o755 });
  const outcome = await applyNodeFallback(options);
  t.equal(outcome.plan.action, 'revert', outcome.plan.reason);
  t.same(filesUnder(root, 'run'), []);
  t.equal((await applyNodeFallback(options)).plan.action, 'none');
});

function captureIo(): CliIo & { out: string[]; err: string[] } {
  const out: string[] = [];
  const err: string[] = [];
  return { out, err, stdout: (s) => out.push(s), stderr: (s) => err.push(s), env: {}, stdoutIsTTY: false, shutdownSignal: new Promise(() => {}) };
}

t.test('node-check fallback status|apply|revert', async (t) => {
  const root = fixtureRoot(t, 'ocp-4.16-azure-rhel8-worker-acr-missing');
  const json = mergeSettings({ root, kubeletVersion: '1.28.7', output: 'json' });
  const text = mergeSettings({ root, kubeletVersion: '1.28.7' });

  let io = captureIo();
  t.equal(await runFallback(json, io, { action: 'status' }), 0);
  t.match(JSON.parse(io.out.join('')), { schemaVersion: 1, active: false });

  io = captureIo();
  t.equal(await runFallback(json, io, { action: 'apply' }), 0);
  const applied = JSON.parse(io.out.join(''));
  t.match(applied, { action: 'apply', ok: true, removedProviders: ['acr-credential-provider'], fallback: { active: true, intact: true } });

  io = captureIo();
  t.equal(await runFallback(text, io, { action: 'status' }), 0);
  t.match(io.out.join(''), /Fallback: ACTIVE for kubelet\.service since .*\nWhy: Kubelet would refuse to start.*\nRemoved credential providers: acr-credential-provider/);

  io = captureIo();
  t.equal(await runFallback(text, io, { action: 'apply' }), 0, 'apply again is fine');
  t.match(io.out.join(''), /already in place, unchanged/);

  io = captureIo();
  t.equal(await runFallback(text, io, { action: 'revert' }), 0);
  t.match(io.out.join(''), /fallback reverted/);
  t.match(io.err.join(''), /warning: kubelet will refuse to start without the fallback/);
  io = captureIo();
  t.equal(await runFallback(text, io, { action: 'revert' }), 0, 'revert again is fine');

  io = captureIo();
  t.equal(await runFallback(text, io, { action: 'frobnicate' }), 64);
  t.match(io.err.join(''), /status, apply, revert/);
});

t.test('exit codes of a refused apply: 1 when kubelet would still fail, 2 when undecidable', async (t) => {
  const stray = fixtureRoot(t, 'ocp-4.16-azure-rhel8-worker-acr-missing');
  fs.writeFileSync(path.join(stray, 'etc/kubernetes/kubelet.conf'), 'kind: KubeletConfiguration\nfeatureGates: [\n');
  let io = captureIo();
  t.equal(await runFallback(mergeSettings({ root: stray, kubeletVersion: '1.28.7' }), io, { action: 'apply' }), 1, io.out.join(''));
  t.match(io.out.join(''), /fallback refused.*\n.*cannot change/);

  const unknown = fixtureRoot(t, 'kubeadm-rhel9-acr-not-executable');
  io = captureIo();
  t.equal(await runFallback(mergeSettings({ root: unknown }), io, { action: 'apply' }), 2, 'the exec bit only matters from 1.30 on');
  t.match(io.out.join(''), /pass --kubelet-version/);
  t.same(filesUnder(unknown, 'run'), []);
});
