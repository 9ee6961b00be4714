/**
 * The offline "node setup" checks kubelet makes after configuration validation, inside Run():
 * --cloud-provider (run() in 1.24-1.30, NewMainKubelet), --kube-reserved/--system-reserved (run()),
 * --node-ip (RunKubelet). Each result carries the start-sequence step it belongs to, so callers can
 * interleave them with host-dependent steps (CRI, cAdvisor, --reserved-cpus ⊆ online CPUs) and
 * report the first failure in kubelet's order.
 */
import { stepIndex, type StartStepId } from '../data/start-sequence.js';
import { checkCloudProvider, inTreeCloudProviders, refusedInRun, type CloudProviderInput } from './cloud-provider.js';
import { checkNodeIP } from './node-ip.js';
import { checkReservedResources, type ResourceMap } from './reserved.js';
import { isUndecidable, type GateEnabled, type KubeletFlavor, type NodeSetupFailure, type Undecidable } from './types.js';

export * from './types.js';
export { checkCloudProvider, disabledProviderError, inTreeCloudProviders, DISABLE_CLOUD_PROVIDERS_GATE } from './cloud-provider.js';
export { checkNodeIP, nodeIPError, nodeIPEntries, CLOUD_DUAL_STACK_GATE } from './node-ip.js';
export { checkReservedResources, resourceListErrors, reservedAfterCpuOverride, parseMapStringString, RESERVABLE_RESOURCES } from './reserved.js';
export { parseIPSloppy, isIPv4, isIPv6, isUnspecified } from './ip.js';

export interface NodeSetupInput {
  readonly cloudProvider?: string;
  readonly cloudConfigFile?: string;
  readonly cloudConfigOpens?: boolean;
  readonly providerCloud?: CloudProviderInput['providerCloud'];
  readonly nodeIP?: string;
  readonly kubeReserved?: ResourceMap;
  readonly systemReserved?: ResourceMap;
  readonly reservedSystemCPUs?: string;
  /** File the reserved maps came from, for the finding. */
  readonly reservedPath?: string;
}

export interface NodeSetupStepResult {
  readonly step: StartStepId;
  readonly result: NodeSetupFailure | Undecidable;
}

/** The step a cloud-provider result belongs to: run()'s own cloud step (InitCloudProvider; 1.32-1.33 its refusal), or NewMainKubelet. */
function cloudStep(minor: number, result: NodeSetupFailure | Undecidable): StartStepId {
  if (isUndecidable(result)) return 'run:cloud-init';
  return result.findingId === 'cloud-provider-disabled' && !refusedInRun(minor) ? 'run:create-kubelet' : 'run:cloud-init';
}

/**
 * Every node-setup failure or undecidable for kubelet `minor`, sorted in kubelet's order.
 * Empty when all pass; undefined outside 1.24..1.37.
 */
export function evaluateNodeSetup(
  minor: number,
  input: NodeSetupInput,
  gateEnabled: GateEnabled,
  flavor: KubeletFlavor = 'upstream',
): NodeSetupStepResult[] | undefined {
  if (!inTreeCloudProviders(minor)) return undefined;
  const out: NodeSetupStepResult[] = [];
  const cloudProvider = input.cloudProvider ?? '';
  const cloud = checkCloudProvider(
    minor,
    {
      cloudProvider,
      ...(input.cloudConfigFile === undefined ? {} : { cloudConfigFile: input.cloudConfigFile }),
      ...(input.cloudConfigOpens === undefined ? {} : { cloudConfigOpens: input.cloudConfigOpens }),
      ...(input.providerCloud === undefined ? {} : { providerCloud: input.providerCloud }),
    },
    gateEnabled,
    flavor,
  );
  if (cloud) out.push({ step: cloudStep(minor, cloud), result: cloud });
  const reserved = checkReservedResources(minor, {
    ...(input.kubeReserved ? { kubeReserved: input.kubeReserved } : {}),
    ...(input.systemReserved ? { systemReserved: input.systemReserved } : {}),
    ...(input.reservedSystemCPUs === undefined ? {} : { reservedSystemCPUs: input.reservedSystemCPUs }),
    ...(input.reservedPath === undefined ? {} : { path: input.reservedPath }),
  });
  if (reserved) out.push({ step: reserved.findingId === 'kube-reserved-unparsable' ? 'run:kube-reserved' : 'run:system-reserved', result: reserved });
  const nodeIP = checkNodeIP(minor, input.nodeIP ?? '', cloudProvider, gateEnabled);
  if (nodeIP) out.push({ step: 'run:node-ip', result: nodeIP });
  return out.sort((a, b) => (stepIndex(minor, a.step) ?? 0) - (stepIndex(minor, b.step) ?? 0));
}
