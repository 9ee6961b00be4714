// MicroK8s runs kubelet inside kubelite (snap.microk8s.daemon-kubelite.service, arguments in
// $SNAP_DATA/args/kubelet): node-check does not model kubelite, so on such a node it answers
// "cannot tell" and names kubelite, never "will not start" and never a bare "unit not found".
import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import { fileURLToPath } from 'node:url';
import t from 'tap';
import { checkNode } from '../../src/check-node.js';

const here = path.dirname(fileURLToPath(import.meta.url));
// The unit snapd 2.77 writes for the app (wrappers/internal/service_unit_gen.go; ExecStart from snap/info.go launcherCommand).
const SNAP_UNIT = `[Unit]
# Auto-generated, DO NOT EDIT
Description=Service for snap application microk8s.daemon-kubelite
Requires=snap-microk8s-8511.mount
Wants=network.target
After=snap-microk8s-8511.mount network.target snapd.apparmor.service
X-Snappy=yes

[Service]
EnvironmentFile=-/etc/environment
ExecStart=/usr/bin/snap run microk8s.daemon-kubelite
SyslogIdentifier=microk8s.daemon-kubelite
Restart=always
WorkingDirectory=/var/snap/microk8s/8511
Type=simple

[Install]
WantedBy=multi-user.target
`;

function root(files: Record<string, string>): string {
  const dir = fs.mkdtempSync(path.join(fs.realpathSync(os.tmpdir()), 'node-check-microk8s-'));
  for (const [p, text] of Object.entries(files)) {
    fs.mkdirSync(path.dirname(path.join(dir, p)), { recursive: true });
    fs.writeFileSync(path.join(dir, p), text);
  }
  return dir;
}

const ARGS = '--kubeconfig=${SNAP_DATA}/credentials/kubelet.config\n--containerd=${SNAP_COMMON}/run/containerd.sock\n';
const undecided = (report: Awaited<ReturnType<typeof checkNode>>) => report.findings.filter((f) => f.id === 'cannot-decide').map((f) => f.message);

t.test('a MicroK8s node: "cannot tell", naming kubelite and its kubelet arguments', async (t) => {
  const dir = root({ '/etc/systemd/system/snap.microk8s.daemon-kubelite.service': SNAP_UNIT, '/var/snap/microk8s/current/args/kubelet': ARGS });
  t.teardown(() => fs.rmSync(dir, { recursive: true, force: true }));
  for (const unit of ['kubelet.service', 'snap.microk8s.daemon-kubelite.service']) {
    for (const kubeletVersion of ['1.35.0', undefined]) {
      const report = await checkNode({ root: dir, unit, ...(kubeletVersion ? { kubeletVersion } : {}) });
      t.equal(report.kubeletWillStart, null, `${unit} ${kubeletVersion ?? 'no version'}: cannot tell`);
      t.same(report.findings.filter((f) => f.severity === 'error'), [], 'no error finding');
      const messages = undecided(report);
      t.equal(messages.length, 1, 'one reason');
      t.match(messages[0], /^MicroK8s runs kubelet inside kubelite \(snap\.microk8s\.daemon-kubelite\.service, as \/etc\/systemd\/system\/snap\.microk8s\.daemon-kubelite\.service shows\)/);
      t.match(messages[0], new RegExp(`not from a kubelet command line in ${unit.replace(/\./g, '\\.')}; its arguments are in /var/snap/microk8s/current/args/kubelet, and node-check does not model kubelite\\.$`));
    }
  }
});

t.test('the argument file alone shows MicroK8s; a unit that runs another program says so', async (t) => {
  const dir = root({ '/var/snap/microk8s/current/args/kubelet': ARGS, '/etc/systemd/system/other.service': '[Service]\nExecStart=/usr/bin/sleep 1\n' });
  t.teardown(() => fs.rmSync(dir, { recursive: true, force: true }));
  const report = await checkNode({ root: dir, unit: 'kubelet.service', kubeletVersion: '1.35.0' });
  t.equal(report.kubeletWillStart, null);
  t.match(undecided(report)[0], /MicroK8s runs kubelet inside kubelite .*as \/var\/snap\/microk8s\/current\/args\/kubelet shows/);
  const other = await checkNode({ root: dir, unit: 'other.service', kubeletVersion: '1.35.0' });
  t.match(undecided(other)[0], /ExecStart= of other\.service .* does not run kubelet/, 'a unit that is not kubelite is not called MicroK8s');
});

t.test('without MicroK8s on the node, a missing unit is still "not found"', async (t) => {
  const dir = root({ '/etc/hostname': 'node\n' });
  t.teardown(() => fs.rmSync(dir, { recursive: true, force: true }));
  const report = await checkNode({ root: dir, unit: 'kubelet.service', kubeletVersion: '1.35.0' });
  t.equal(report.kubeletWillStart, null);
  t.match(undecided(report)[0], /^unit kubelet\.service not found in /);
});

t.test('a kubelet unit beside MicroK8s files is checked as usual', async (t) => {
  const kubeadm = path.resolve(here, '../fixtures/nodes/kubeadm-debian-ecr/root');
  const dir = fs.mkdtempSync(path.join(fs.realpathSync(os.tmpdir()), 'node-check-microk8s-'));
  t.teardown(() => fs.rmSync(dir, { recursive: true, force: true }));
  fs.cpSync(kubeadm, dir, { recursive: true, verbatimSymlinks: true });
  fs.mkdirSync(path.join(dir, 'var/snap/microk8s/current/args'), { recursive: true });
  fs.writeFileSync(path.join(dir, 'var/snap/microk8s/current/args/kubelet'), ARGS);
  const report = await checkNode({ root: dir, unit: 'kubelet.service', kubeletVersion: '1.30.0' });
  t.equal(report.kubeletWillStart, true, 'the kubeadm node starts at 1.30');
  t.same(undecided(report), []);
});
