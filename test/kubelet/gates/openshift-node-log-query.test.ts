import t from 'tap';
import { readFileSync } from 'node:fs';
import { checkNode } from '../../../src/check-node.js';
import { writeRoot } from '../../helpers/node-root.js';

// The MCO worker template from 4.14 on (templates/worker/01-worker-kubelet/_base/files/kubelet.yaml:
// enableSystemLogQuery: true, no featureGates key in 4.16-4.20). OpenShift's kubelet registers
// NodeLogQuery with Default: true (MicroShift vendor/k8s.io/kubernetes/pkg/features at release-4.14..4.20);
// upstream's default is false until 1.36, and validation.go then refuses the file.
const KUBELET_CONF = `apiVersion: kubelet.config.k8s.io/v1beta1
kind: KubeletConfiguration
authentication:
  x509:
    clientCAFile: /etc/kubernetes/kubelet-ca.crt
  anonymous:
    enabled: false
cgroupDriver: systemd
cgroupRoot: /
clusterDNS:
  - 172.30.0.10
clusterDomain: cluster.local
containerLogMaxSize: 50Mi
enableSystemLogQuery: true
maxPods: 250
kubeAPIQPS: 50
kubeAPIBurst: 100
podPidsLimit: 4096
protectKernelDefaults: true
rotateCertificates: true
serializeImagePulls: false
staticPodPath: /etc/kubernetes/manifests
systemCgroups: /system.slice
nodeStatusUpdateFrequency: 10s
nodeStatusReportFrequency: 5m
serverTLSBootstrap: true
tlsMinVersion: VersionTLS12
`;

const UNIT = `[Unit]
Description=Kubernetes Kubelet

[Service]
Type=notify
ExecStart=/usr/bin/kubelet \\
    --config=/etc/kubernetes/kubelet.conf \\
    --bootstrap-kubeconfig=/etc/kubernetes/kubeconfig \\
    --kubeconfig=/var/lib/kubelet/kubeconfig \\
    --container-runtime-endpoint=/var/run/crio/crio.sock \\
    --node-labels=node-role.kubernetes.io/worker,node.openshift.io/os_id=rhcos \\
    --v=2
Restart=always
`;

// Upstream's ValidateKubeletFlags refuses the node-role label (cmd/kubelet/app/options/options.go):
// without it, the configuration is what upstream's kubelet refuses.
// The client CA kubelet.conf names (written by the machine-config server on a real node).
const CLIENT_CA = readFileSync(new URL('../../fixtures/nodes/start-config-json/root/etc/kubernetes/pki/ca.crt', import.meta.url), 'utf8');
// The kubeconfig the unit names, as a bootstrapped node holds it (the fixtures' fill-in).
const fillIns = '../../../scripts/fixtures/kubeconfig.mjs';
const kubeconfig = (await import(fillIns)) as { kubeconfigFiles(texts: string[], shape: string): Record<string, string> };
const root = (dir: string, unit = UNIT) => writeRoot(dir, { '/etc/systemd/system/kubelet.service': unit, '/etc/kubernetes/kubelet.conf': KUBELET_CONF, '/etc/kubernetes/kubelet-ca.crt': CLIENT_CA, ...kubeconfig.kubeconfigFiles([unit], 'openshift') });
const validationErrors = (report: Awaited<ReturnType<typeof checkNode>>) => report.findings.filter((f) => f.severity === 'error' && /NodeLogQuery/.test(f.kubeletError ?? f.message));

t.test("OpenShift 4.14-4.20 kubelet.conf (enableSystemLogQuery: true): OpenShift's kubelet 1.27-1.33 starts", async (t) => {
  const dir = root(t.testdir());
  for (let minor = 27; minor <= 33; minor++) {
    const report = await checkNode({ root: dir, unit: 'kubelet.service', kubeletVersion: `1.${minor}.5`, kubeletFlavor: 'openshift' });
    t.same(validationErrors(report), [], `openshift 1.${minor}: no NodeLogQuery refusal`);
    t.equal(report.kubeletWillStart, true, `openshift 1.${minor}`);
  }
});

t.test('the same file on upstream kubelet before 1.36: refused for NodeLogQuery', async (t) => {
  const dir = root(t.testdir(), UNIT.replace('node-role.kubernetes.io/worker,', ''));
  for (const minor of [27, 30, 33, 35]) {
    const report = await checkNode({ root: dir, unit: 'kubelet.service', kubeletVersion: `1.${minor}.5`, kubeletFlavor: 'upstream' });
    t.equal(report.kubeletWillStart, false, `upstream 1.${minor}`);
    t.match(validationErrors(report)[0]?.kubeletError, /NodeLogQuery feature gate is required for enableSystemLogHandler/, `upstream 1.${minor}`);
  }
  // 1.36: NodeLogQuery is GA and on (pkg/features/kube_features.go at v1.36.5).
  const report = await checkNode({ root: dir, unit: 'kubelet.service', kubeletVersion: '1.36.1', kubeletFlavor: 'upstream' });
  t.same(validationErrors(report), []);
});
