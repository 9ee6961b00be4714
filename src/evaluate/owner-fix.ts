/**
 * The owner's way to change a file. On OpenShift the machine-config operator writes the kubelet's
 * unit, drop-ins and /etc/kubernetes (a local edit is reverted and leaves the node Degraded); on a
 * kubeadm node, kubeadm rewrites /var/lib/kubelet/config.yaml and kubeadm-flags.env; on EKS Amazon
 * Linux 2023, nodeadm rewrites kubelet's environment and config from the NodeConfig at boot; a package owns
 * the unit files under /usr/lib. A finding about such a file says how its owner changes it, after
 * the local fix. The owner is decided from the node's evidence, as the flavour is. Pure.
 */
import type { Finding } from '../model/findings.js';
import type { NodeModel } from '../model/node.js';
import { flavorOf } from '../start/start-context.js';

const KUBEADM_FLAGS_ENV = '/var/lib/kubelet/kubeadm-flags.env';
// awslabs/amazon-eks-ami v20260724 nodeadm/internal/kubelet/environment.go (kubeletEnvironmentFilePath).
const NODEADM_ENVIRONMENT = '/etc/eks/kubelet/environment';
/** What `nodeadm init` writes (nodeadm/internal/kubelet/config.go, environment.go, image-credential-provider.go), and from which part of the NodeConfig. */
const NODEADM_FILES: Readonly<Record<string, string>> = {
  [NODEADM_ENVIRONMENT]: 'spec.kubelet.flags (appended after nodeadm\'s own flags, so they win)',
  '/etc/kubernetes/kubelet/config.json': "spec.kubelet.config (nodeadm writes it to config.json.d/40-nodeadm.conf, which kubelet merges over config.json)",
  '/etc/kubernetes/kubelet/config.json.d/40-nodeadm.conf': 'spec.kubelet.config',
  '/etc/eks/image-credential-provider/config.json': 'spec.kubelet.flags (no NodeConfig field changes this file: pass --image-credential-provider-config with a file of your own)',
};
const KUBEADM_KUBELET_CONFIG = '/var/lib/kubelet/config.yaml';

/** What the owner of `path` asks for, or undefined when the admin edits it on the node. */
export function ownersWay(model: NodeModel, path: string): string | undefined {
  const flavor = flavorOf(model);
  if (flavor.flavor === 'openshift' && flavor.source === 'node') {
    if (path === '/etc/kubernetes/kubelet.conf') {
      return 'On OpenShift the machine-config operator writes /etc/kubernetes/kubelet.conf: change kubelet settings with a KubeletConfig for the pool (`oc edit kubeletconfig <name>`, or `oc apply -f` a new one) and let the pool roll out; an edit on the node is reverted and leaves it Degraded (`oc get mcp`).';
    }
    if (path.startsWith('/etc/kubernetes/') || path.startsWith('/etc/systemd/system/kubelet.service') || path.startsWith('/etc/openshift/')) {
      return `On OpenShift the machine-config operator writes ${path}: change it with a MachineConfig for the pool (\`oc apply -f <machineconfig>.yaml\`) and let the pool roll out; an edit on the node is reverted and leaves it Degraded (\`oc get mcp\`).`;
    }
  }
  const nodeadm = model.service.environmentFiles.some((file) => file.path === NODEADM_ENVIRONMENT);
  const nodeadmField = NODEADM_FILES[path];
  if (nodeadm && nodeadmField) {
    // templates/al2023/runtime/rootfs/etc/systemd/system/nodeadm-config.service runs `nodeadm init --config-source imds://user-data` at every boot.
    return `On EKS Amazon Linux 2023, nodeadm writes ${path} at every boot from the NodeConfig (node.eks.aws/v1alpha1) in the instance's user data: change ${nodeadmField} in the launch template's user data and replace the node (or edit the user data of the stopped instance); an edit on the node is overwritten at the next boot.`;
  }
  const kubeadm = model.service.environmentFiles.some((file) => file.path === KUBEADM_FLAGS_ENV);
  if (kubeadm && path === KUBEADM_KUBELET_CONFIG) {
    // cmd/kubeadm/app/phases/kubelet/config.go (v1.36.5) writes it from the kubelet-config ConfigMap.
    return `kubeadm writes ${path} from the kube-system/kubelet-config ConfigMap: change it there (\`kubectl edit cm -n kube-system kubelet-config\`), then run \`kubeadm upgrade node phase kubelet-config\` on each node and restart kubelet; an edit on the node is overwritten by the next kubeadm upgrade.`;
  }
  if (kubeadm && path === KUBEADM_FLAGS_ENV) {
    // cmd/kubeadm/app/phases/kubelet/flags.go (v1.36.5) writes it at init, join and upgrade.
    return `kubeadm writes ${path} at init, join and upgrade (from nodeRegistration.kubeletExtraArgs); lasting overrides go in KUBELET_EXTRA_ARGS in /etc/default/kubelet (/etc/sysconfig/kubelet on RPM systems), which kubeadm never writes.`;
  }
  if (/^\/(usr\/)?lib\/systemd\/system\//.test(path)) {
    return `${path} belongs to a package and is replaced by its updates: override it with a drop-in in /etc/systemd/system/${model.service.unitName}.d/ instead.`;
  }
  return undefined;
}

/** Each finding that asks for a change to an owned file, with the owner's way added to its fix. */
export function withOwnersWays(model: NodeModel, findings: readonly Finding[]): Finding[] {
  return findings.map((finding) => {
    if (finding.severity === 'info' || !finding.path) return finding;
    const way = ownersWay(model, finding.path);
    return way ? { ...finding, remediation: `${finding.remediation} ${way}`.trim() } : finding;
  });
}
