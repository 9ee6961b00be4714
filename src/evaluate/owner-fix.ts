/**
 * The owner's way to change a file. On OpenShift the machine-config operator writes the kubelet's
 * unit, drop-ins and /etc/kubernetes (a local edit is reverted and leaves the node Degraded); on a
 * kubeadm node, kubeadm rewrites /var/lib/kubelet/config.yaml and kubeadm-flags.env; a package owns
 * the unit files under /usr/lib. A finding about such a file says how its owner changes it, after
 * the local fix. The owner is decided from the node's evidence, as the flavour is. Pure.
 */
import type { Finding } from '../model/findings.js';
import type { NodeModel } from '../model/node.js';
import { flavorOf } from '../start/start-context.js';

const KUBEADM_FLAGS_ENV = '/var/lib/kubelet/kubeadm-flags.env';
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
