/** The owner's way to change a file, decided from the node's evidence (src/evaluate/owner-fix.ts). Pure. */
import t from 'tap';
import { ownersWay, withOwnersWays } from '../../src/evaluate/owner-fix.js';
import type { NodeModel } from '../../src/model/node.js';
import type { Finding } from '../../src/model/findings.js';

const model = (options: { openshift?: 'node' | 'flag'; kubeadm?: boolean }) =>
  ({
    service: { unitName: 'kubelet.service', environmentFiles: options.kubeadm ? [{ path: '/var/lib/kubelet/kubeadm-flags.env', optional: true, loaded: true }] : [] },
    osRelease: {},
    ...(options.openshift ? { flavor: { flavor: 'openshift', source: options.openshift, evidence: [] } } : {}),
  }) as unknown as NodeModel;

t.test('OpenShift (from the node): KubeletConfig for kubelet.conf, a MachineConfig for the unit and /etc/kubernetes', async (t) => {
  t.match(ownersWay(model({ openshift: 'node' }), '/etc/kubernetes/kubelet.conf'), /KubeletConfig for the pool .*Degraded/);
  t.match(ownersWay(model({ openshift: 'node' }), '/etc/systemd/system/kubelet.service.d/20-logging.conf'), /MachineConfig for the pool/);
  t.match(ownersWay(model({ openshift: 'node' }), '/etc/kubernetes/credential-providers/ecr-credential-provider.yaml'), /MachineConfig/);
  t.equal(ownersWay(model({ openshift: 'flag' }), '/etc/kubernetes/kubelet.conf'), undefined, '--kubelet-flavor alone is no evidence of the machine-config operator');
  t.equal(ownersWay(model({ openshift: 'node' }), '/var/lib/kubelet/config.yaml'), undefined);
});

t.test('kubeadm (its flags file is an EnvironmentFile=): the ConfigMap for config.yaml, KUBELET_EXTRA_ARGS for flags', async (t) => {
  t.match(ownersWay(model({ kubeadm: true }), '/var/lib/kubelet/config.yaml'), /kube-system\/kubelet-config ConfigMap.*kubeadm upgrade node phase kubelet-config/);
  t.match(ownersWay(model({ kubeadm: true }), '/var/lib/kubelet/kubeadm-flags.env'), /KUBELET_EXTRA_ARGS in \/etc\/default\/kubelet/);
  t.equal(ownersWay(model({}), '/var/lib/kubelet/config.yaml'), undefined, 'no kubeadm evidence: the admin edits it');
  t.equal(ownersWay(model({ kubeadm: true }), '/etc/default/kubelet'), undefined, "the admin's own file");
});

t.test("a package's unit file: override with a drop-in in /etc", async (t) => {
  t.match(ownersWay(model({}), '/usr/lib/systemd/system/kubelet.service.d/10-kubeadm.conf'), /drop-in in \/etc\/systemd\/system\/kubelet\.service\.d\//);
  t.match(ownersWay(model({}), '/lib/systemd/system/kubelet.service'), /belongs to a package/);
});

t.test('only errors and warnings with a path get it, after their own fix', async (t) => {
  const finding = (severity: Finding['severity'], path?: string): Finding => ({ id: 'kubelet-config-invalid', severity, message: 'm', remediation: 'Fix it.', ...(path ? { path } : {}) });
  const [error, info, pathless] = withOwnersWays(model({ kubeadm: true }), [finding('error', '/var/lib/kubelet/config.yaml'), finding('info', '/var/lib/kubelet/config.yaml'), finding('warning')]);
  t.match(error?.remediation, /^Fix it\. kubeadm writes/);
  t.equal(info?.remediation, 'Fix it.');
  t.equal(pathless?.remediation, 'Fix it.');
});

t.test('EKS Amazon Linux 2023 (nodeadm\'s environment file is an EnvironmentFile=): the NodeConfig in the user data', async (t) => {
  const eks = { service: { unitName: 'kubelet.service', environmentFiles: [{ path: '/etc/eks/kubelet/environment', optional: false, loaded: true }] }, osRelease: {} } as unknown as NodeModel;
  t.match(ownersWay(eks, '/etc/eks/kubelet/environment'), /nodeadm writes \/etc\/eks\/kubelet\/environment at every boot from the NodeConfig \(node\.eks\.aws\/v1alpha1\).*spec\.kubelet\.flags.*overwritten at the next boot/);
  t.match(ownersWay(eks, '/etc/kubernetes/kubelet/config.json'), /NodeConfig.*spec\.kubelet\.config/);
  t.match(ownersWay(eks, '/etc/kubernetes/kubelet/config.json.d/40-nodeadm.conf'), /spec\.kubelet\.config in the launch template's user data/);
  t.equal(ownersWay(eks, '/etc/kubernetes/kubelet/config.json.d/50-mine.conf'), undefined, "an admin's own drop-in");
  t.equal(ownersWay(model({}), '/etc/kubernetes/kubelet/config.json'), undefined, 'no nodeadm evidence: the admin edits it');
});
