/**
 * Kubernetes' own code behind the run-step rules (src/rules/run/): the cloud provider, the
 * reserved resources, --node-ip and the IP parser, as kubelet's source has them per minor. The
 * rules decide with them and put the answers in kubelet's order.
 */

export * from './types.js';
export { checkCloudProvider, disabledProviderError, inTreeCloudProviders, DISABLE_CLOUD_PROVIDERS_GATE } from './cloud-provider.js';
export { checkNodeIP, nodeIPError, nodeIPEntries, CLOUD_DUAL_STACK_GATE } from './node-ip.js';
export { checkReservedResources, resourceListErrors, reservedAfterCpuOverride, parseMapStringString, RESERVABLE_RESOURCES } from './reserved.js';
export { parseIPSloppy, isIPv4, isIPv6, isUnspecified } from './ip.js';
