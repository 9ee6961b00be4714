/** Ahead of the next upgrade: what the next modelled minors refuse, as warnings naming them (src/evaluate/next-minors.ts). */
import t, { type Test } from 'tap';
import { checkNode } from '../../src/check-node.js';
import { gatesFor } from '../../src/kubelet/gates/gate-table.js';
import { MODELLED_MINORS } from '../../src/kubelet/version.js';
import { NEWEST_MODELLED_MINOR } from '../../src/kubelet/data/minors.js';
import { exitCodeFor } from '../../src/model/report.js';
import { mkdtempSync, readdirSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { runBundle } from '../hostile/bundle.js';

function node(t: Test, flags: string, config = '') {
  return t.testdir({
    etc: {
      systemd: {
        system: {
          'kubelet.service': '[Service]\nEnvironmentFile=-/etc/default/kubelet\nExecStart=/usr/bin/kubelet --config=/var/lib/kubelet/config.yaml $KUBELET_EXTRA_ARGS\n',
        },
      },
      default: { kubelet: `KUBELET_EXTRA_ARGS="${flags}"\n` },
    },
    var: { lib: { kubelet: { 'config.yaml': `apiVersion: kubelet.config.k8s.io/v1beta1\nkind: KubeletConfiguration\n${config}` } } },
  });
}
const check = (root: string, version: string) => checkNode({ root, unit: 'kubelet.service', kubeletVersion: version });

t.test('1.34 with --pod-infra-container-image: starts, and warns that 1.35 and later refuse it, naming the file', async (t) => {
  const report = await check(node(t, '--pod-infra-container-image=registry.k8s.io/pause:3.10'), '1.34.2');
  t.equal(report.kubeletWillStart, true);
  t.equal(exitCodeFor(report), 0, 'the answer is the known minor\'s');
  const warnings = report.findings.filter((f) => f.id === 'newer-kubelet-refuses');
  t.equal(warnings.length, 1, `one warning per cause: ${JSON.stringify(warnings.map((w) => w.message))}`);
  t.match(warnings[0], {
    severity: 'warning',
    path: '/etc/default/kubelet',
    message: new RegExp(`^Kubelet 1\\.35-1\\.${NEWEST_MODELLED_MINOR} will not start with this: kubelet 1\\.35 has no --pod-infra-container-image flag .*unknown flag: --pod-infra-container-image.*\\$KUBELET_EXTRA_ARGS, set in /etc/default/kubelet`),
    remediation: /^Before upgrading kubelet to 1\.35: remove --pod-infra-container-image/,
  });
  t.notOk(warnings[0]!.kubeletError, 'no kubeletError: this kubelet does not exit');
});

t.test('every removed flag is named, not only the first one pflag meets', async (t) => {
  const report = await check(node(t, '--pod-infra-container-image=registry.k8s.io/pause:3.10 --keep-terminated-pod-volumes=false --iptables-masquerade-bit=14'), '1.30.4');
  const messages = report.findings.filter((f) => f.id === 'newer-kubelet-refuses').map((f) => f.message);
  t.equal(messages.length, 2, JSON.stringify(messages));
  t.match(messages[0], /^Kubelet 1\.31-1\.33 will not start with this: kubelet 1\.31 has no --keep-terminated-pod-volumes flag/);
  t.match(messages[1], /^Kubelet 1\.31-1\.33 will not start with this: kubelet 1\.31 has no --iptables-masquerade-bit flag/);
  t.notMatch(messages.join('\n'), /pod-infra-container-image/, '1.35 is more than three minors ahead of 1.30');
  t.equal(report.kubeletWillStart, true);
});

t.test('a feature gate a newer minor removed: its refusal, in its words', async (t) => {
  const candidates = MODELLED_MINORS.slice(0, -1).flatMap((minor) => {
    const now = gatesFor(minor)!;
    const next = gatesFor(minor + 1)!;
    return [...now.keys()].filter((name) => !next.has(name)).map((name) => ({ minor, name, default: now.get(name)!.default }));
  });
  let found: { removed: (typeof candidates)[number]; report: Awaited<ReturnType<typeof check>> } | undefined;
  for (const removed of candidates) {
    const report = await check(node(t, '', `featureGates:\n  ${removed.name}: ${removed.default}\n`), `1.${removed.minor}.0`);
    if (report.kubeletWillStart === true) {
      found = { removed, report };
      break;
    }
  }
  if (!found) return t.fail('a gate removed in the next minor, which its own minor accepts');
  const { removed, report } = found;
  t.comment(`${removed.name}, removed after 1.${removed.minor}`);
  const warning = report.findings.find((f) => f.id === 'newer-kubelet-refuses');
  t.match(warning?.message, new RegExp(`^Kubelet 1\\.${removed.minor + 1}.* will not start with this: feature-gate-unknown: .*${removed.name}`));
});

t.test('the newest modelled minor, and a node that does not start: nothing, or nothing said twice', async (t) => {
  const newest = MODELLED_MINORS.at(-1)!;
  const none = await check(node(t, ''), `1.${newest}.0`);
  t.notOk(none.findings.some((f) => f.id === 'newer-kubelet-refuses'), 'no minor after the newest');
  const failing = await check(node(t, '--node-lables=a=b'), '1.34.0');
  t.equal(failing.kubeletWillStart, false);
  t.notOk(failing.findings.some((f) => f.id === 'newer-kubelet-refuses' && /node-lables/.test(f.message)), 'the error of now is not repeated as a warning');
});

t.test("OpenShift's kubelet: no warning, an upgrade brings the machine-config operator's new configuration with it", async (t) => {
  const root = node(t, '--pod-infra-container-image=registry.k8s.io/pause:3.10');
  const upstream = await checkNode({ root, unit: 'kubelet.service', kubeletVersion: '1.34.2' });
  t.ok(upstream.findings.some((f) => f.id === 'newer-kubelet-refuses'));
  const openshift = await checkNode({ root, unit: 'kubelet.service', kubeletVersion: '1.34.2', kubeletFlavor: 'openshift' });
  t.notOk(openshift.findings.some((f) => f.id === 'newer-kubelet-refuses'));
});

t.test('preflight answers for the kubelet starting now and leaves the warning to check and serve (kubelet\'s start path)', async (t) => {
  const root = node(t, '--pod-infra-container-image=registry.k8s.io/pause:3.10');
  const textfileDir = mkdtempSync(join(tmpdir(), 'node-check-textfile-'));
  t.teardown(() => rmSync(textfileDir, { recursive: true, force: true }));
  const preflight = runBundle(['preflight', '--root', root, '--kubelet-version', '1.34.2', '--textfile-dir', textfileDir, '--no-journal']);
  t.equal(preflight.status, 0, preflight.stderr);
  const metrics = readdirSync(textfileDir).map((name) => readFileSync(join(textfileDir, name), 'utf8')).join('');
  t.match(metrics, /^nodecheck_findings\{severity="warning"\} 0$/m, 'no warning from preflight');
  t.notMatch(metrics, /newer-kubelet-refuses/);
  const check = runBundle(['check', '--root', root, '--kubelet-version', '1.34.2', '--output', 'json']);
  const report = JSON.parse(check.stdout) as { kubeletWillStart: boolean; findings: { id: string }[] };
  t.equal(report.kubeletWillStart, true, 'the same answer');
  t.ok(report.findings.some((f) => f.id === 'newer-kubelet-refuses'), 'check warns about the upgrade');
});
