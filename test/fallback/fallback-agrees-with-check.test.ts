// The fallback and `check` give one answer: the fallback plans from the evaluation `check`
// reports. On kubelet 1.24-1.25 with KubeletCredentialProviders=false, kubelet ignores both
// credential flags (pkg/kubelet/kuberuntime/kuberuntime_manager.go at v1.25.16), so a missing
// plugin does not stop it: `check` says it starts, and `fallback apply` has nothing to do.
import t from 'tap';
import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import { fileURLToPath } from 'node:url';
import { runCheck } from '../../src/cli/commands/check.js';
import { runFallback } from '../../src/cli/commands/fallback.js';
import { mergeSettings } from '../../src/settings.js';
import type { CliIo } from '../../src/cli/io.js';

const FIXTURE = fileURLToPath(new URL('../fixtures/nodes/kubeadm-debian-ecr/root', import.meta.url));
const PLUGIN = 'usr/local/libexec/kubelet-credential-providers/ecr-credential-provider';

/** The kubeadm ECR node with the plugin gone, the config in the API versions 1.25 knows, and the given extra flags. */
function nodeRoot(t: { teardown: (fn: () => void) => void }, extraArgs: string): string {
  const root = fs.mkdtempSync(path.join(os.tmpdir(), 'node-check-gate-off-'));
  t.teardown(() => fs.rmSync(root, { recursive: true, force: true }));
  fs.cpSync(FIXTURE, root, { recursive: true, verbatimSymlinks: true });
  fs.rmSync(path.join(root, PLUGIN));
  const config = path.join(root, 'etc/kubernetes/ecr-credential-provider.yaml');
  fs.writeFileSync(config, fs.readFileSync(config, 'utf8').replace('kubelet.config.k8s.io/v1\n', 'kubelet.config.k8s.io/v1beta1\n').replace('credentialprovider.kubelet.k8s.io/v1\n', 'credentialprovider.kubelet.k8s.io/v1beta1\n'));
  const defaults = path.join(root, 'etc/default/kubelet');
  fs.writeFileSync(defaults, fs.readFileSync(defaults, 'utf8').replace(/"\n$/, ` ${extraArgs}"\n`));
  return root;
}

function captureIo(): CliIo & { out: string[] } {
  const out: string[] = [];
  return { out, stdout: (s) => out.push(s), stderr: () => {}, env: {}, stdoutIsTTY: false, shutdownSignal: new Promise(() => {}) };
}

async function checkAndPlan(root: string): Promise<{ check: { kubeletWillStart: boolean | null; findings: { id: string }[] }; plan: { action: string; reason: string } }> {
  const settings = mergeSettings({ root, kubeletVersion: '1.25.16', output: 'json' });
  const checkIo = captureIo();
  await runCheck(settings, checkIo);
  const planIo = captureIo();
  await runFallback(settings, planIo, { action: 'apply', 'dry-run': true });
  return { check: JSON.parse(checkIo.out.join('')), plan: JSON.parse(planIo.out.join('')) };
}

t.test('1.25, KubeletCredentialProviders=false, plugin missing: kubelet starts and the fallback has nothing to do', async (t) => {
  const { check, plan } = await checkAndPlan(nodeRoot(t, '--feature-gates=KubeletCredentialProviders=false'));
  t.equal(check.kubeletWillStart, true, 'check: kubelet ignores the credential flags and starts');
  t.equal(plan.action, 'none', `fallback: ${plan.reason}`);
});

t.test('1.25, the gate at its default (on), plugin missing: both say kubelet refuses and the fallback drops the provider', async (t) => {
  const { check, plan } = await checkAndPlan(nodeRoot(t, ''));
  t.equal(check.kubeletWillStart, false);
  t.ok(check.findings.some((f) => f.id === 'plugin-binary-missing'), 'check names the missing plugin');
  t.equal(plan.action, 'apply', plan.reason);
});
