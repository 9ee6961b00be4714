/**
 * Kubelet's Run() and RunKubelet (cmd/kubelet/app/server.go, 1.24-1.37): one rule a module, listed
 * here in kubelet's order. The step (src/start/steps/kubelet-run.ts) runs them sorted by their
 * step's place in the minor's start sequence (src/kubelet/data/start-sequence.ts), in this order
 * within a step; the catalog lists their findings (src/catalog/findings.ts).
 */
import { cgroupRootRule } from './cgroup-root.js';
import { clientCaRule } from './client-ca.js';
import { clientConfigRule } from './client-config.js';
import { cloudProviderDisabledRule } from './cloud-provider-disabled.js';
import { cloudProviderRule } from './cloud-provider.js';
import { cpuManagerRule } from './cpu-manager.js';
import { criSocketRule } from './cri-socket.js';
import { evictionHardRule } from './eviction-hard.js';
import { lockFileRule } from './lock-file.js';
import { nodeIpRule } from './node-ip.js';
import { reservedCpusRule } from './reserved-cpus.js';
import { reservedRule } from './reserved.js';
import { servingCertRule } from './serving-cert.js';
import { swapRule } from './swap.js';
import { userNamespacesRule } from './user-namespaces.js';

export const RUN_RULES = [
  lockFileRule,
  cloudProviderRule,
  clientConfigRule,
  clientCaRule,
  criSocketRule,
  reservedCpusRule,
  reservedRule,
  evictionHardRule,
  // NewContainerManager: swap, then the cgroup root, then the CPU manager.
  swapRule,
  cgroupRootRule,
  cpuManagerRule,
  nodeIpRule,
  // NewMainKubelet: the built-in cloud provider, the serving certificate, last the user namespace manager.
  cloudProviderDisabledRule,
  servingCertRule,
  userNamespacesRule,
] as const;
