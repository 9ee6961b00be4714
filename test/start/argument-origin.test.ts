/** A command-line finding names the file and the variable that hold the culprit word (src/start/argument-origin.ts). */
import t, { type Test } from 'tap';
import { checkNode } from '../../src/check-node.js';

const kubeadmDropIn = `[Service]
Environment="KUBELET_KUBECONFIG_ARGS=--kubeconfig=/etc/kubernetes/kubelet.conf"
Environment="KUBELET_CONFIG_ARGS=--config=/var/lib/kubelet/config.yaml"
EnvironmentFile=-/var/lib/kubelet/kubeadm-flags.env
EnvironmentFile=-/etc/default/kubelet
ExecStart=
ExecStart=/usr/bin/kubelet $KUBELET_KUBECONFIG_ARGS $KUBELET_CONFIG_ARGS $KUBELET_KUBEADM_ARGS $KUBELET_EXTRA_ARGS --v=\${KUBELET_LOG_LEVEL}
`;

function node(t: Test, files: { flagsEnv?: string; defaults?: string; environment?: string }) {
  return t.testdir({
    etc: {
      systemd: { system: { 'kubelet.service': '[Service]\nExecStart=/usr/bin/kubelet\n', 'kubelet.service.d': { '10-kubeadm.conf': kubeadmDropIn + (files.environment ?? '') } } },
      default: { kubelet: files.defaults ?? '' },
    },
    var: { lib: { kubelet: { 'kubeadm-flags.env': files.flagsEnv ?? '', 'config.yaml': 'apiVersion: kubelet.config.k8s.io/v1beta1\nkind: KubeletConfiguration\n' } } },
  });
}

const finding = async (root: string) => (await checkNode({ root, unit: 'kubelet.service', kubeletVersion: '1.35.0' })).findings.find((f) => f.severity === 'error');

t.test('a flag from an environment file: that file and the variable', async (t) => {
  const root = node(t, { flagsEnv: 'KUBELET_KUBEADM_ARGS="--pod-infra-container-image=registry.k8s.io/pause:3.10"\n', environment: 'Environment=KUBELET_LOG_LEVEL=2\n' });
  const error = await finding(root);
  t.match(error, { id: 'kubelet-flag-unknown', path: '/var/lib/kubelet/kubeadm-flags.env' });
  t.match(error?.message, /\(--pod-infra-container-image comes from \$KUBELET_KUBEADM_ARGS, set in \/var\/lib\/kubelet\/kubeadm-flags\.env\)$/);
  t.match(error?.remediation, /It is set through \$KUBELET_KUBEADM_ARGS: edit \/var\/lib\/kubelet\/kubeadm-flags\.env\. kubeadm writes \/var\/lib\/kubelet\/kubeadm-flags\.env at init, join and upgrade .*KUBELET_EXTRA_ARGS in \/etc\/default\/kubelet/, "and the owner's way (src/evaluate/owner-fix.ts)");
});

t.test('a bad value from ${VAR} inside a word: the Environment= line that set it', async (t) => {
  const root = node(t, { environment: 'Environment=KUBELET_LOG_LEVEL=loud\n' });
  const error = await finding(root);
  t.match(error, { id: 'kubelet-flag-bad-value', path: '/etc/systemd/system/kubelet.service.d/10-kubeadm.conf' });
  t.match(error?.message, /\(--v comes from \$KUBELET_LOG_LEVEL, set in \/etc\/systemd\/system\/kubelet\.service\.d\/10-kubeadm\.conf:\d+\)$/);
});

t.test('an unset variable: named, at the ExecStart= line', async (t) => {
  const root = node(t, {});
  const error = await finding(root);
  t.match(error, { id: 'kubelet-flag-bad-value', path: '/etc/systemd/system/kubelet.service.d/10-kubeadm.conf' });
  t.match(error?.message, /\(--v comes from \$KUBELET_LOG_LEVEL in ExecStart= at \/etc\/systemd\/system\/kubelet\.service\.d\/10-kubeadm\.conf:7, which nothing sets\)$/);
});

t.test('a flag written in ExecStart= itself: the unit file and its line', async (t) => {
  const root = node(t, { defaults: '', environment: 'Environment=KUBELET_LOG_LEVEL=2\nExecStart=\nExecStart=/usr/bin/kubelet --keep-terminated-pod-volumes\n' });
  const error = await finding(root);
  t.match(error, { id: 'kubelet-flag-unknown', path: '/etc/systemd/system/kubelet.service.d/10-kubeadm.conf' });
  t.match(error?.message, /\(--keep-terminated-pod-volumes comes from ExecStart= at \/etc\/systemd\/system\/kubelet\.service\.d\/10-kubeadm\.conf:10\)$/);
});

t.test('an empty --system-reserved quantity from an unset ${VAR}: the variable and the environment file that lacks it', async (t) => {
  const root = t.testdir({
    etc: {
      systemd: {
        system: {
          'kubelet.service':
            '[Service]\nEnvironmentFile=/etc/node-sizing.env\nExecStart=/usr/bin/kubelet --config=/etc/kubernetes/kubelet.conf \\\n  --system-reserved=cpu=${SYSTEM_RESERVED_CPU},memory=${SYSTEM_RESERVED_MEMORY}\n',
        },
      },
      'node-sizing.env': 'SYSTEM_RESERVED_MEMORY=1Gi\n',
      kubernetes: { 'kubelet.conf': 'apiVersion: kubelet.config.k8s.io/v1beta1\nkind: KubeletConfiguration\n' },
    },
  });
  const error = await finding(root);
  t.match(error, { id: 'system-reserved-unparsable', path: '/etc/node-sizing.env' });
  t.match(error?.message, /where \$SYSTEM_RESERVED_CPU is set nowhere: \/etc\/node-sizing\.env sets \$SYSTEM_RESERVED_MEMORY but not \$SYSTEM_RESERVED_CPU\)$/);
  t.match(error?.remediation, /Set \$SYSTEM_RESERVED_CPU in \/etc\/node-sizing\.env\.$/);
});

t.test('--system-reserved from the config file only: the config file', async (t) => {
  const root = t.testdir({
    etc: {
      systemd: { system: { 'kubelet.service': '[Service]\nExecStart=/usr/bin/kubelet --config=/etc/kubernetes/kubelet.conf\n' } },
      kubernetes: { 'kubelet.conf': 'apiVersion: kubelet.config.k8s.io/v1beta1\nkind: KubeletConfiguration\nsystemReserved:\n  cpu: ""\n' },
    },
  });
  t.match(await finding(root), { id: 'system-reserved-unparsable', path: '/etc/kubernetes/kubelet.conf' });
});
