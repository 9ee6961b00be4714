/**
 * ValidateKubeletConfiguration (kubernetes/kubernetes pkg/kubelet/apis/config/validation/
 * validation.go + validation_linux.go), the fatal step-8 check of kubelet start-up.
 *
 * Copies read (per-minor identification by content):
 *  - ~1.24/1.25: pohly/kubernetes@8009c738 (no featureGate parameter, kc.Logging.ValidateAsField,
 *    TopologyManager gate checks, no maxParallelImagePulls/containerRuntimeEndpoint rules);
 *  - 1.30: validation.go at v1.30.14 (podLogsDir, containerLogMaxWorkers, NoSwap; read in full) and
 *    validation_test.go at v1.30.14 with kubelet's expected messages;
 *  - OpenShift's fork at ~1.30/1.31: openshift/kubernetes@4efe65b5 (carry: -compressible values);
 *  - 1.37-dev: kubernetes/kubernetes@001332b0 (crashLoopBackOff, imagePull policy, duplicated
 *    enforcements, per-value cgroupsPerQOS, containerLogMaxFiles);
 *  - validation_linux.go (failCgroupV1 texts at v1.31.14-v1.37.2).
 * Every tag of scripts/generate/kubernetes-source.lock.json is in the Go module cache; the rules
 * still marked inexact per minor are listed in docs/unverified.md.
 * A text identical in the copies on both sides of a minor is taken as that minor's text [I];
 * otherwise the error is marked inexact (the verdict stays certain). Where a rule's *verdict*
 * changed at a minor not pinned, the result is undecidable. Rules not implemented never make a
 * verdict: the fields they read are returned in `notValidated` (for minors other than 1.30, every
 * field no implemented rule reads, since newer rules may read it).
 *
 * The aggregate is utilerrors.NewAggregate(...).Error(): one message alone; several joined with
 * ", " inside "[...]", duplicates dropped. The caller (server.go) wraps it as
 * `failed to validate kubelet configuration, error: <this>, path: <config %s>`.
 */
import { formatGoDuration, parseGoDuration } from '../../go/duration.js';
import { goClean } from '../../go/filepath.js';
import { goQuote } from '../../go/quote.js';
import { aggregateError } from '../../kubernetes/aggregate.js';
import { parseCpuset } from '../../kubernetes/cpuset.js';
import { KUBELET_CONFIG_DEFAULTS } from '../data/kubelet-config-defaults.js';
import { KUBELET_CONFIG_FIELDS } from '../data/kubelet-config-fields.js';
import { OPENSHIFT_COMPRESSIBLE_FIRST_MINOR, UPSTREAM_COMPRESSIBLE_FIRST_MINOR, VALIDATION_VERIFIED_MINOR } from '../data/kubelet-config-validation.js';
import type { KubeletConfigObject } from './decode.js';
import { checkLogging } from './logging.js';

export type { KubeletFlavor } from '../flavor.js';
import type { KubeletFlavor } from '../flavor.js';
import { isModelledMinor, MODELLED_RANGE } from '../data/minors.js';

export interface ValidationHost {
  /**
   * true: unified cgroup v2; false: cgroup v1; undefined: not known; 'not-checked': a root other than
   * the live host, whose cgroup version is not a file fact (the caller reports it as not checked).
   */
  readonly cgroupV2?: boolean | 'not-checked';
}

export interface ValidationOptions {
  /** The config is already defaulted (and flags applied): do not default again. */
  readonly defaulted?: boolean;
  readonly flavor?: KubeletFlavor;
  /** The flags on kubelet's command line (1.24's logging rules read klog's). */
  readonly flagNames?: ReadonlySet<string>;
}

export type ValidationResult =
  | { readonly ok: true; readonly notValidated: string[] }
  | {
      readonly ok: false;
      /** The aggregate error text, as kubelet formats it. */
      readonly error: string;
      readonly errors: string[];
      /** The verdict is certain, the exact text (or order) is not. */
      readonly inexact: boolean;
      readonly notValidated: string[];
    }
  | { readonly undecidable: string };

const VERIFIED_MINOR = VALIDATION_VERIFIED_MINOR;

/**
 * Fields read by validation.go rules that node-check does not implement. They feed the verdict:
 * set to a non-default value, each makes the answer "cannot tell" (src/catalog/inputs.ts).
 */
export const UNIMPLEMENTED_RULE_FIELDS: readonly string[] = ['tracing', 'reservedMemory', 'registerWithTaints', 'showHiddenMetricsForVersion', 'featureGates', 'singleProcessOOMKill'];

/** Fields the implemented rules read. */
const IMPLEMENTED_RULE_FIELDS = new Set([
  'nodeLeaseDurationSeconds', 'cgroupsPerQOS', 'enforceNodeAllocatable', 'systemCgroups', 'cgroupRoot', 'eventBurst', 'eventRecordQPS',
  'healthzPort', 'cpuCFSQuotaPeriod', 'imageGCHighThresholdPercent', 'imageGCLowThresholdPercent', 'imageMaximumGCAge', 'imageMinimumGCAge',
  'iptablesDropBit', 'iptablesMasqueradeBit', 'kubeAPIBurst', 'kubeAPIQPS', 'nodeStatusMaxImages', 'maxOpenFiles', 'maxPods', 'oomScoreAdj',
  'podsPerCore', 'port', 'readOnlyPort', 'registryBurst', 'registryPullQPS', 'maxParallelImagePulls', 'serializeImagePulls', 'serverTLSBootstrap',
  'topologyManagerPolicy', 'topologyManagerScope', 'shutdownGracePeriod', 'shutdownGracePeriodCriticalPods', 'shutdownGracePeriodByPodPriority',
  'memorySwap', 'systemReservedCgroup', 'kubeReservedCgroup', 'hairpinMode', 'reservedSystemCPUs', 'memoryThrottlingFactor',
  'containerRuntimeEndpoint', 'enableSystemLogQuery', 'enableSystemLogHandler', 'containerLogMaxWorkers', 'containerLogMonitorInterval',
  'podLogsDir', 'failCgroupV1', 'kind', 'apiVersion', 'defaultPodSysctls',
  // logging: src/kubelet/config/logging.ts (the init-logging step from 1.25, here on 1.24).
  'logging',
]);

/** SetDefaults_KubeletConfiguration for the fields the rules read (see kubelet-config-defaults.ts). */
export function applyKubeletConfigDefaults(minor: number, config: KubeletConfigObject): KubeletConfigObject | undefined {
  const fields = KUBELET_CONFIG_FIELDS[minor];
  if (!fields) return undefined;
  const out: KubeletConfigObject = { ...config };
  for (const rule of KUBELET_CONFIG_DEFAULTS) {
    if ((rule.since !== undefined && minor < rule.since) || (rule.until !== undefined && minor > rule.until)) continue;
    const goType = fields[rule.field];
    if (goType === undefined) continue;
    const current = out[rule.field];
    const nilable = goType.startsWith('*') || goType.startsWith('[]') || goType.startsWith('map[');
    if (current === undefined || current === null || (!nilable && isZero(current))) out[rule.field] = rule.value;
  }
  // serializeImagePulls: true unless maxParallelImagePulls >= 2 (1.27+, when that field arrived). [I]
  if (out.serializeImagePulls === undefined || out.serializeImagePulls === null) {
    const max = out.maxParallelImagePulls;
    out.serializeImagePulls = !(minor >= 27 && typeof max === 'number' && max >= 2);
  }
  return out;
}

function isZero(v: unknown): boolean {
  return v === 0 || v === '' || v === false || v === '0s';
}

/**
 * ValidateKubeletConfiguration for kubelet 1.<minor>. `config` is the decoded (and merged)
 * configuration with JSON field names; it is defaulted here unless options.defaulted.
 * `gateEnabled` answers for the effective feature gates (defaults, config, drop-ins, flags).
 */
export function validateKubeletConfiguration(
  minor: number,
  config: KubeletConfigObject,
  gateEnabled: (name: string) => boolean,
  host: ValidationHost = {},
  options: ValidationOptions = {},
): ValidationResult {
  if (!KUBELET_CONFIG_FIELDS[minor] || !isModelledMinor(minor)) return { undecidable: `kubelet 1.${minor} is outside the modelled minors ${MODELLED_RANGE}` };
  const kc = options.defaulted ? config : applyKubeletConfigDefaults(minor, config)!;
  const errors: string[] = [];
  let inexact = false;
  /**
   * Adds one error. `exact` says whether the text is pinned for this minor: texts identical in the
   * ~1.25 (pohly/kubernetes@8009c738), 1.30 (v1.30.14) and 1.37-dev
   * (kubernetes/kubernetes@001332b0) copies are taken as exact for every minor between. [I]
   */
  const err = (text: string, exact = true) => {
    errors.push(`invalid configuration: ${text}`);
    if (!exact) inexact = true;
  };
  const upstream = options.flavor !== 'openshift';
  const int = (f: string) => (typeof kc[f] === 'number' ? (kc[f] as number) : 0);
  const str = (f: string) => (typeof kc[f] === 'string' ? (kc[f] as string) : '');
  const bool = (f: string) => kc[f] === true;
  const dur = (f: string): bigint => {
    const v = kc[f];
    if (typeof v !== 'string') return 0n;
    const ns = parseGoDuration(v);
    return typeof ns === 'bigint' ? ns : 0n;
  };
  const d = (ns: bigint) => formatGoDuration(ns);
  // %v of a metav1.Duration prints the struct: {200ms} (validation_test.go at v1.24.17-v1.31.14).
  const md = (ns: bigint) => `{${formatGoDuration(ns)}}`;
  const SECOND = 1_000_000_000n;
  const present = (f: string) => kc[f] !== undefined && kc[f] !== null;

  // Rules in the order of the 1.30 validation.go.
  if (int('nodeLeaseDurationSeconds') <= 0) err('nodeLeaseDurationSeconds must be greater than 0');
  const ena = Array.isArray(kc.enforceNodeAllocatable) ? (kc.enforceNodeAllocatable as unknown[]).map(String) : [];
  // Upstream <=1.30 and OpenShift's ~1.30 fork check this up front; the 1.37-dev code per value instead.
  if (kc.cgroupsPerQOS === false && ena.length > 0 && !(options.flavor !== 'openshift' && minor >= 36)) {
    err('enforceNodeAllocatable (--enforce-node-allocatable) is not supported unless cgroupsPerQOS (--cgroups-per-qos) is set to true', minor <= VERIFIED_MINOR);
  }
  if (str('systemCgroups') !== '' && str('cgroupRoot') === '') err('systemCgroups (--system-cgroups) was specified and cgroupRoot (--cgroup-root) was not specified');
  if (int('eventBurst') < 0) err(`eventBurst (--event-burst) ${int('eventBurst')} must not be a negative number`);
  if (int('eventRecordQPS') < 0) err(`eventRecordQPS (--event-qps) ${int('eventRecordQPS')} must not be a negative number`);
  const healthz = int('healthzPort');
  if (healthz !== 0 && !validPort(healthz)) err(`healthzPort (--healthz-port) ${healthz} must be between 1 and 65535, inclusive`);
  const cfs = present('cpuCFSQuotaPeriod') ? dur('cpuCFSQuotaPeriod') : 100_000_000n;
  if (!gateEnabled('CustomCPUCFSQuotaPeriod') && cfs !== 100_000_000n) err(`cpuCFSQuotaPeriod (--cpu-cfs-quota-period) ${md(cfs)} requires feature gate CustomCPUCFSQuotaPeriod`);
  if (gateEnabled('CustomCPUCFSQuotaPeriod')) {
    // ~1.25: 1usec..1sec; 1.30+: 1ms..1sec; the change between is not pinned.
    if (minor < VERIFIED_MINOR && cfs >= 1_000n && cfs < 1_000_000n) return { undecidable: `cpuCFSQuotaPeriod ${d(cfs)}: the lower bound moved from 1usec to 1ms before 1.30` };
    if (cfs < 1_000_000n || cfs > SECOND) err(`cpuCFSQuotaPeriod (--cpu-cfs-quota-period) ${md(cfs)} must be between 1ms and 1sec, inclusive`, minor >= VERIFIED_MINOR);
  }
  const high = int('imageGCHighThresholdPercent');
  const low = int('imageGCLowThresholdPercent');
  if (high < 0 || high > 100) err(`imageGCHighThresholdPercent (--image-gc-high-threshold) ${high} must be between 0 and 100, inclusive`);
  if (low < 0 || low > 100) err(`imageGCLowThresholdPercent (--image-gc-low-threshold) ${low} must be between 0 and 100, inclusive`);
  if (low >= high) err(`imageGCLowThresholdPercent (--image-gc-low-threshold) ${low} must be less than imageGCHighThresholdPercent (--image-gc-high-threshold) ${high}`);
  if (minor >= 29) {
    // imageMaximumGCAge: field and rules from 1.29 (types.go v0.29.0).
    const maxAge = dur('imageMaximumGCAge');
    const minAge = dur('imageMinimumGCAge');
    // 1.29-era validation_test.go expects "option ImageMaximumGCAge"; the 1.30 code says imageMaximumGCAge.
    if (maxAge !== 0n && !gateEnabled('ImageMaximumGCAge')) err(`ImageMaximumGCAge feature gate is required for Kubelet configuration option ${minor >= 30 ? 'imageMaximumGCAge' : 'ImageMaximumGCAge'}`, minor >= 30);
    if (minor >= 37) {
      const sysctls = checkDefaultPodSysctls(kc.defaultPodSysctls, gateEnabled('DefaultPodSysctls'));
      for (const text of sysctls.errors) err(text, sysctls.orderKnown);
    }
    if (maxAge < 0n) err(`imageMaximumGCAge ${d(maxAge)} must not be negative`);
    if (maxAge > 0n && maxAge <= minAge) err(`imageMaximumGCAge ${d(maxAge)} must be greater than imageMinimumGCAge ${d(minAge)}`);
  }
  for (const [f, flag] of [['iptablesDropBit', 'iptables-drop-bit'], ['iptablesMasqueradeBit', 'iptables-masquerade-bit']] as const) {
    if (int(f) < 0 || int(f) > 31) err(`${f} (--${flag}) ${int(f)} must be between 0 and 31, inclusive`);
  }
  if (int('kubeAPIBurst') < 0) err(`kubeAPIBurst (--kube-api-burst) ${int('kubeAPIBurst')} must not be a negative number`);
  if (int('kubeAPIQPS') < 0) err(`kubeAPIQPS (--kube-api-qps) ${int('kubeAPIQPS')} must not be a negative number`);
  if (int('nodeStatusMaxImages') < -1) err(`nodeStatusMaxImages (--node-status-max-images) ${int('nodeStatusMaxImages')} must be -1 or greater`);
  if (int('maxOpenFiles') < 0) err(`maxOpenFiles (--max-open-files) ${int('maxOpenFiles')} must not be a negative number`);
  if (int('maxPods') < 0) err(`maxPods (--max-pods) ${int('maxPods')} must not be a negative number`);
  if (int('oomScoreAdj') < -1000 || int('oomScoreAdj') > 1000) err(`oomScoreAdj (--oom-score-adj) ${int('oomScoreAdj')} must be between -1000 and 1000, inclusive`);
  if (int('podsPerCore') < 0) err(`podsPerCore (--pods-per-core) ${int('podsPerCore')} must not be a negative number`);
  if (!validPort(int('port'))) err(`port (--port) ${int('port')} must be between 1 and 65535, inclusive`);
  const ro = int('readOnlyPort');
  if (ro !== 0 && !validPort(ro)) err(`readOnlyPort (--read-only-port) ${ro} must be between 0 and 65535, inclusive`);
  if (int('registryBurst') < 0) err(`registryBurst (--registry-burst) ${int('registryBurst')} must not be a negative number`);
  if (int('registryPullQPS') < 0) err(`registryPullQPS (--registry-qps) ${int('registryPullQPS')} must not be a negative number`);
  if (minor >= 27 && typeof kc.maxParallelImagePulls === 'number') {
    const max = kc.maxParallelImagePulls;
    if (max < 1) err(`maxParallelImagePulls ${max} must be a positive number`, minor >= 30);
    if (kc.serializeImagePulls === true && max > 1) err('maxParallelImagePulls cannot be larger than 1 unless SerializeImagePulls (--serialize-image-pulls) is set to false', minor >= 30);
  }
  if (bool('serverTLSBootstrap') && !gateEnabled('RotateKubeletServerCertificate')) err('serverTLSBootstrap true requires feature gate RotateKubeletServerCertificate');

  // TopologyManager gate checks (~1.25 copy; the gate went GA, locked on, in 1.27).
  if (minor <= 26 && str('topologyManagerPolicy') !== 'none' && !gateEnabled('TopologyManager')) {
    errors.push(`invalid configuration: topologyManagerPolicy ${str('topologyManagerPolicy')} requires feature gate TopologyManager`);
    if (minor === 26) inexact = true;
  }
  const policies = ['none', 'best-effort', 'restricted', 'single-numa-node'];
  if (!policies.includes(str('topologyManagerPolicy'))) {
    err(`topologyManagerPolicy (--topology-manager-policy) ${goQuote(str('topologyManagerPolicy'))} must be one of: [${policies.map(goQuote).join(' ')}]`);
  }
  if (minor <= 26 && str('topologyManagerScope') !== 'container' && !gateEnabled('TopologyManager')) {
    errors.push(`invalid configuration: topologyManagerScope ${str('topologyManagerScope')} requires feature gate TopologyManager`);
    if (minor === 26) inexact = true;
  }
  if (!['container', 'pod'].includes(str('topologyManagerScope'))) {
    err(`topologyManagerScope (--topology-manager-scope) ${goQuote(str('topologyManagerScope'))} must be one of: "container", or "pod"`);
  }

  const sgp = dur('shutdownGracePeriod');
  const sgpc = dur('shutdownGracePeriodCriticalPods');
  const byPriority = Array.isArray(kc.shutdownGracePeriodByPodPriority) && kc.shutdownGracePeriodByPodPriority.length > 0;
  if (gateEnabled('GracefulNodeShutdown')) {
    if (sgpc > sgp) err(`shutdownGracePeriodCriticalPods ${md(sgpc)} must be <= shutdownGracePeriod ${md(sgp)}`);
    if (sgp < 0n || (sgp > 0n && sgp < SECOND)) err(`shutdownGracePeriod ${md(sgp)} must be either zero or otherwise >= 1 sec`);
    if (sgpc < 0n || (sgpc > 0n && sgpc < SECOND)) err(`shutdownGracePeriodCriticalPods ${md(sgpc)} must be either zero or otherwise >= 1 sec`);
  }
  if ((sgp > 0n || sgpc > 0n) && !gateEnabled('GracefulNodeShutdown')) err('specifying shutdownGracePeriod or shutdownGracePeriodCriticalPods requires feature gate GracefulNodeShutdown');
  if (gateEnabled('GracefulNodeShutdownBasedOnPodPriority') && byPriority && (sgp > 0n || sgpc > 0n)) err('Cannot specify both shutdownGracePeriodByPodPriority and shutdownGracePeriod at the same time');
  if (!gateEnabled('GracefulNodeShutdownBasedOnPodPriority') && byPriority) err('Specifying shutdownGracePeriodByPodPriority requires feature gate GracefulNodeShutdownBasedOnPodPriority');

  const gatedFieldsChecked = new Set<string>();
  // memorySwap: UnlimitedSwap until 1.29, NoSwap from 1.30 (types.go per tag; 1.30 text verified;
  // 1.30+ failure also seen verbatim in canonical/microk8s #4704).
  const swap = isObject(kc.memorySwap) ? kc.memorySwap : {};
  const behavior = typeof swap.swapBehavior === 'string' ? swap.swapBehavior : '';
  if (gateEnabled('NodeSwap')) {
    if (minor >= 30) {
      if (!['', 'NoSwap', 'LimitedSwap'].includes(behavior)) err(`memorySwap.swapBehavior ${goQuote(behavior)} must be one of: "", "LimitedSwap" or "NoSwap"`);
    } else if (!['', 'LimitedSwap', 'UnlimitedSwap'].includes(behavior)) {
      // Wording of validation.go at v1.24.17-v1.29.15 (validation_test.go at v1.29.15 expects it).
      err(`memorySwap.swapBehavior ${goQuote(behavior)} must be one of: "", "LimitedSwap", or "UnlimitedSwap"`);
    }
  }
  if (!gateEnabled('NodeSwap') && Object.values(swap).some((v) => v !== undefined && v !== null && v !== '')) {
    err('memorySwap.swapBehavior cannot be set when NodeSwap feature flag is disabled');
  }

  // Newer gated fields that a newer kubeadm writes into config.yaml. Texts as in validation.go at
  // v1.34.12 (the crashLoopBackOff text is there from v1.32.13, the imagePull one from v1.33.13;
  // marked exact only from 1.34, docs/unverified.md), in this order; placed as in the 1.37-dev
  // validation.go (after memorySwap, and after hairpinMode). Other rules on these fields (allowed values, ranges) are not
  // implemented: with the gate on the field is reported in notValidated.
  if (minor >= 32 && isObject(kc.crashLoopBackOff) && kc.crashLoopBackOff.maxContainerRestartPeriod != null) {
    if (!gateEnabled('KubeletCrashLoopBackOffMax')) {
      err('FeatureGate KubeletCrashLoopBackOffMax not enabled, CrashLoopBackOff.MaxContainerRestartPeriod must not be set', minor >= 34);
      gatedFieldsChecked.add('crashLoopBackOff');
    } else if (typeof kc.crashLoopBackOff.maxContainerRestartPeriod === 'string') {
      // 1.37-dev (and an OpenShift 1.35 fork): IsInRange(milliseconds, 1000, 300000); %v of Seconds() (float64).
      const ns = parseGoDuration(kc.crashLoopBackOff.maxContainerRestartPeriod);
      if (typeof ns === 'bigint') {
        const ms = ns / 1_000_000n;
        if (ms < 1000n || ms > 300000n) err(`CrashLoopBackOff.MaxContainerRestartPeriod (got: ${goFloat(Number(ns) / 1e9)} seconds) must be set between 1s and 300s`);
        gatedFieldsChecked.add('crashLoopBackOff');
        inexact = true;
      }
    }
  }

  // enforceNodeAllocatable. Three generations were read:
  //  - upstream 1.30 (v1.30.14): pods/system-reserved/kube-reserved/none only;
  //  - OpenShift's fork at ~1.30/1.31 (openshift/kubernetes@4efe65b5, carry patch): the two
  //    -compressible values, "both … cannot be specified together", "%q or %q contained in";
  //  - upstream 1.37-dev (kubernetes/kubernetes@001332b0): the same plus duplicated enforcements,
  //    "%q or %q included in", cgroupsPerQOS checked per value and "none" exempt.
  // Upstream validation.go's EnforceNodeAllocatable block is the same from v1.32.13 to v1.36.5
  // (UPSTREAM_COMPRESSIBLE_FIRST_MINOR; its words confirmed by the 1.34.12 binary); 1.31 is not
  // pinned, so values whose verdict differs between the generations are undecidable there.
  const compressible = ena.filter((v) => v === 'system-reserved-compressible' || v === 'kube-reserved-compressible');
  const duplicated = ena.filter((v, i) => ena.indexOf(v) !== i);
  const openshift = options.flavor === 'openshift';
  const newerGeneration = openshift ? minor >= OPENSHIFT_COMPRESSIBLE_FIRST_MINOR : minor >= UPSTREAM_COMPRESSIBLE_FIRST_MINOR;
  if (minor > VERIFIED_MINOR && !newerGeneration) {
    if (compressible.length > 0) return { undecidable: `whether kubelet 1.${minor} accepts ${compressible.join(', ')} in enforceNodeAllocatable is not pinned (upstream validates it from 1.32)` };
  }
  if (openshift && minor <= VERIFIED_MINOR && compressible.length > 0) {
    return { undecidable: `OpenShift's kubelet 1.${minor} may carry the enforceNodeAllocatable ${compressible.join(', ')} patch; node-check has not pinned the first release` };
  }
  if (minor > VERIFIED_MINOR && duplicated.length > 0) return { undecidable: `newer kubelets reject duplicated enforcements (${duplicated.join(', ')}); the first minor is not pinned` };
  if (minor > VERIFIED_MINOR && kc.cgroupsPerQOS === false && ena.length > 0 && ena.every((v) => v === 'none')) {
    return { undecidable: 'cgroupsPerQOS false with enforceNodeAllocatable [none]: rejected by 1.30, accepted by the newest kubelet; the change is not pinned' };
  }
  if (newerGeneration) {
    inexact ||= ena.length > 0 && !ena.every((v) => v === 'pods'); // texts read only in the OpenShift fork and 1.37-dev
    const contained = openshift ? 'contained' : 'included';
    for (const [plain, comp] of [['system-reserved', 'system-reserved-compressible'], ['kube-reserved', 'kube-reserved-compressible']] as const) {
      if (ena.includes(plain) && ena.includes(comp)) err(`both ${goQuote(plain)} and ${goQuote(comp)} cannot be specified together in enforceNodeAllocatable (--enforce-node-allocatable)`);
    }
    for (const val of ena) {
      switch (val) {
        case 'pods':
          break;
        case 'system-reserved':
        case 'system-reserved-compressible':
          if (str('systemReservedCgroup') === '') err(`systemReservedCgroup (--system-reserved-cgroup) must be specified when "system-reserved" or "system-reserved-compressible" ${contained} in enforceNodeAllocatable (--enforce-node-allocatable)`);
          break;
        case 'kube-reserved':
        case 'kube-reserved-compressible':
          if (str('kubeReservedCgroup') === '') err(`kubeReservedCgroup (--kube-reserved-cgroup) must be specified when "kube-reserved" or "kube-reserved-compressible" ${contained} in enforceNodeAllocatable (--enforce-node-allocatable)`);
          break;
        case 'none':
          if (ena.length > 1) err('enforceNodeAllocatable (--enforce-node-allocatable) may not contain additional enforcements when "none" is specified');
          continue;
        default:
          err(`option ${goQuote(val)} specified for enforceNodeAllocatable (--enforce-node-allocatable). Valid options are "pods", "system-reserved", "system-reserved-compressible", "kube-reserved", "kube-reserved-compressible" or "none"`);
          continue;
      }
      if (kc.cgroupsPerQOS === false) err(`cgroupsPerQOS (--cgroups-per-qos) must be set to true when ${goQuote(val)} contained in enforceNodeAllocatable (--enforce-node-allocatable)`);
    }
  } else {
    for (const val of ena) {
      switch (val) {
        case 'pods':
          break;
        case 'system-reserved':
          if (str('systemReservedCgroup') === '') err('systemReservedCgroup (--system-reserved-cgroup) must be specified when "system-reserved" contained in enforceNodeAllocatable (--enforce-node-allocatable)');
          break;
        case 'kube-reserved':
          if (str('kubeReservedCgroup') === '') err('kubeReservedCgroup (--kube-reserved-cgroup) must be specified when "kube-reserved" contained in enforceNodeAllocatable (--enforce-node-allocatable)');
          break;
        case 'none':
          if (ena.length > 1) err('enforceNodeAllocatable (--enforce-node-allocatable) may not contain additional enforcements when "none" is specified');
          break;
        default:
          err(`option ${goQuote(val)} specified for enforceNodeAllocatable (--enforce-node-allocatable). Valid options are "pods", "system-reserved", "kube-reserved", or "none"`);
      }
    }
  }
  if (!['none', 'hairpin-veth', 'promiscuous-bridge'].includes(str('hairpinMode'))) {
    err(`option ${goQuote(str('hairpinMode'))} specified for hairpinMode (--hairpin-mode). Valid options are "none", "hairpin-veth" or "promiscuous-bridge"`);
  }
  if (minor >= 33 && typeof kc.imagePullCredentialsVerificationPolicy === 'string' && kc.imagePullCredentialsVerificationPolicy !== '') {
    if (!gateEnabled('KubeletEnsureSecretPulledImages')) {
      err('`imagePullCredentialsVerificationPolicy` must not be set if KubeletEnsureSecretPulledImages feature gate is not enabled', minor >= 34);
      gatedFieldsChecked.add('imagePullCredentialsVerificationPolicy');
    } else {
      const policy = kc.imagePullCredentialsVerificationPolicy;
      const valid = ['NeverVerify', 'NeverVerifyPreloadedImages', 'NeverVerifyAllowlistedImages', 'AlwaysVerify'];
      if (!valid.includes(policy)) {
        err(`option ${goQuote(policy)} specified for imagePullCredentialsVerificationPolicy. Valid options are "NeverVerify", "NeverVerifyPreloadedImages", "NeverVerifyAllowlistedImages" or "AlwaysVerify"`);
        inexact = true;
      }
      gatedFieldsChecked.add('imagePullCredentialsVerificationPolicy');
    }
  }


  if (str('reservedSystemCPUs') !== '') {
    if (str('systemReservedCgroup') !== '' || str('kubeReservedCgroup') !== '') {
      err("can't use reservedSystemCPUs (--reserved-cpus) with systemReservedCgroup (--system-reserved-cgroup) or kubeReservedCgroup (--kube-reserved-cgroup)");
    }
    const parsed = parseCpuset(str('reservedSystemCPUs'), minor);
    if (!parsed.ok) err(`unable to parse reservedSystemCPUs (--reserved-cpus) ${str('reservedSystemCPUs')}, error: ${parsed.error}`);
  }

  // validation_linux.go: failCgroupV1 (1.31+). "... is in maintenance mode" at v1.31.14-v1.34.12,
  // "... is unsupported and will be removed in a future release" at v1.35.8-v1.37.2. No "invalid configuration:" prefix.
  if (minor >= 31 && kc.failCgroupV1 === true && host.cgroupV2 !== 'not-checked') {
    if (host.cgroupV2 === undefined) return { undecidable: 'failCgroupV1 is true and the host cgroup version is not known' };
    if (!host.cgroupV2) {
      errors.push(
        minor >= 35
          ? 'kubelet is configured to not run on a host using cgroup v1. cgroup v1 support is unsupported and will be removed in a future release'
          : 'kubelet is configured to not run on a host using cgroup v1. cgroup v1 support is in maintenance mode',
      );
    }
  }

  // 1.24: logs.ValidateLoggingConfiguration runs here, after showHiddenMetricsForVersion (1.24.17
  // validation.go); from 1.25 the init-logging step refuses the same values before validation.
  if (minor === 24) {
    const logging = checkLogging(minor, kc, gateEnabled, options.flagNames ?? new Set());
    if ('undecidable' in logging) return { undecidable: logging.undecidable };
    if (!logging.ok) {
      // Its place among the other 1.24 rules is not ported: with other errors the order is not pinned.
      inexact ||= logging.inexact || errors.length > 0;
      errors.push(...logging.errors);
    }
  }
  if (minor <= 36) {
    if (gateEnabled('MemoryQoS') && (kc.memoryThrottlingFactor === undefined || kc.memoryThrottlingFactor === null)) err('memoryThrottlingFactor is required when MemoryQoS feature flag is enabled');
  } else if (!gateEnabled('MemoryQoS') && typeof kc.memoryThrottlingFactor === 'number' && kc.memoryThrottlingFactor !== PREVIOUS_DEFAULT_MEMORY_THROTTLING_FACTOR) {
    // 1.37 (validation.go at v1.37.2): MemoryQoS is beta and on, the factor has no default; a file
    // that still carries the former default 0.9 passes with the gate off.
    err('memoryThrottlingFactor must not be set when MemoryQoS feature gate is disabled');
  }
  if (typeof kc.memoryThrottlingFactor === 'number' && (kc.memoryThrottlingFactor <= 0 || kc.memoryThrottlingFactor > 1)) {
    err(`memoryThrottlingFactor ${kc.memoryThrottlingFactor} must be greater than 0 and less than or equal to 1.0`);
  }
  if (minor >= 27) {
    if (str('containerRuntimeEndpoint') === '') err('the containerRuntimeEndpoint was not specified or empty', minor >= 30);
    // 1.30 (and OpenShift's ~1.30 fork) say "…required for enableSystemLogHandler"; 1.37-dev "…for enableSystemLogQuery".
    if (bool('enableSystemLogQuery') && !gateEnabled('NodeLogQuery')) {
      err(`NodeLogQuery feature gate is required for ${upstream && minor >= 36 ? 'enableSystemLogQuery' : 'enableSystemLogHandler'}`, minor === VERIFIED_MINOR);
    }
    if (bool('enableSystemLogQuery') && kc.enableSystemLogHandler === false) err('enableSystemLogHandler is required for enableSystemLogQuery', minor >= 30);
  }
  if (minor >= 30) {
    if (int('containerLogMaxWorkers') < 1) err('containerLogMaxWorkers must be greater than or equal to 1');
    if (dur('containerLogMonitorInterval') < 3n * SECOND) err('containerLogMonitorInterval must be a positive time duration greater than or equal to 3s');
    const dir = str('podLogsDir');
    if (dir === '') err('podLogsDir was not specified');
    if (!dir.startsWith('/')) err(`pod logs path ${goQuote(dir)} must be absolute path`);
    if (goClean(dir) !== dir) err(`pod logs path ${goQuote(dir)} must be normalized`);
    if ([...dir].some((c) => c.codePointAt(0)! > 0x7f)) err(`pod logs path ${goQuote(dir)} mut contains ASCII characters only`);
  }

  // Rules in the 1.37-dev validation.go that 1.30 lacks; the minor that added each is not pinned.
  if (minor > VERIFIED_MINOR) {
    if (dur('imageMinimumGCAge') < 0n) return { undecidable: 'newer kubelets reject a negative imageMinimumGCAge; the first minor is not pinned' };
    if (typeof kc.containerLogMaxFiles === 'number' && kc.containerLogMaxFiles <= 1) {
      return { undecidable: 'newer kubelets reject containerLogMaxFiles <= 1 ("containerLogMaxFiles must be greater than 1"); the first minor is not pinned' };
    }
  }

  const notValidated = Object.keys(config).filter(
    (f) => !gatedFieldsChecked.has(f) && (minor === VERIFIED_MINOR ? UNIMPLEMENTED_RULE_FIELDS.includes(f) : !IMPLEMENTED_RULE_FIELDS.has(f)),
  );
  if (errors.length === 0) return { ok: true, notValidated };
  return { ok: false, error: aggregateError(errors), errors, inexact, notValidated };
}

/** previousDefaultMemoryThrottlingFactor of pkg/kubelet/apis/config/validation/validation.go (v1.37.2). */
const PREVIOUS_DEFAULT_MEMORY_THROTTLING_FACTOR = 0.9;

// isValidSysctlName of pkg/kubelet/apis/config/validation/validation.go (v1.37.2).
const SYSCTL_SEGMENT = '[a-z0-9]([-_a-z0-9]*[a-z0-9])?';
const SYSCTL_NAME = new RegExp(`^(${SYSCTL_SEGMENT}[\\./])*${SYSCTL_SEGMENT}$`);
const SYSCTL_MAX_LENGTH = 253;

/**
 * The defaultPodSysctls rules of validation.go (v1.37.2): the DefaultPodSysctls gate, then per key
 * (Go map order, so with two errors or more their order is not known) the name syntax, the
 * namespace (component-helpers node/util/sysctl GetNamespace) and duplicates after NormalizeName.
 */
export function checkDefaultPodSysctls(value: unknown, gateOn: boolean): { errors: string[]; orderKnown: boolean } {
  if (value === null || typeof value !== 'object' || Object.keys(value).length === 0) return { errors: [], orderKnown: true };
  if (!gateOn) return { errors: ['DefaultPodSysctls feature gate is required for Kubelet configuration option defaultPodSysctls'], orderKnown: true };
  const errors: string[] = [];
  const seen = new Set<string>();
  for (const key of Object.keys(value)) {
    if (key.length > SYSCTL_MAX_LENGTH || !SYSCTL_NAME.test(key)) {
      errors.push(`${goQuote(key)} is not a valid sysctl name for defaultPodSysctls`);
      continue;
    }
    if (sysctlNamespace(key) === '') errors.push(`${goQuote(key)} is not known to be namespaced for defaultPodSysctls`);
    const normalized = normalizeSysctlName(key);
    if (seen.has(normalized)) errors.push(`duplicate sysctl ${goQuote(normalized)} found in defaultPodSysctls`);
    seen.add(normalized);
  }
  return { errors, orderKnown: errors.length <= 1 };
}

/** component-helpers node/util/sysctl NormalizeName (v0.37.2): "net/ipv4/conf/eno2.100/rp_filter" -> "net.ipv4.conf.eno2/100.rp_filter". */
function normalizeSysctlName(name: string): string {
  const first = name.search(/[./]/);
  if (first === -1 || name[first] === '.') return name;
  return name.replace(/[./]/g, (c) => (c === '.' ? '/' : '.'));
}

// component-helpers node/util/sysctl namespace.go (v0.37.2): nameToNamespace and prefixToNamespace.
const SYSCTL_NAMESPACE_BY_NAME: Readonly<Record<string, string>> = {
  'kernel.domainname': 'UTS',
  'kernel.sem': 'IPC',
  'kernel.shmall': 'IPC',
  'kernel.shmmax': 'IPC',
  'kernel.shmmni': 'IPC',
  'kernel.shm_rmid_forced': 'IPC',
  'kernel.shm': 'IPC',
  'kernel.msgmax': 'IPC',
  'kernel.msgmnb': 'IPC',
  'kernel.msgmni': 'IPC',
  'kernel.msg': 'IPC',
};
const SYSCTL_NAMESPACE_BY_PREFIX: readonly (readonly [string, string])[] = [
  ['net', 'Net'],
  ['fs.mqueue', 'IPC'],
  ['user', 'User'],
];

/** GetNamespace(name)'s namespace: "" (UnknownNamespace) when none is known. */
function sysctlNamespace(name: string): string {
  let sysctl = normalizeSysctlName(name);
  const star = sysctl.indexOf('*');
  if (star !== -1) sysctl = sysctl.slice(0, star);
  if (Object.hasOwn(SYSCTL_NAMESPACE_BY_NAME, sysctl)) return SYSCTL_NAMESPACE_BY_NAME[sysctl]!;
  return SYSCTL_NAMESPACE_BY_PREFIX.find(([prefix]) => sysctl.startsWith(`${prefix}.`))?.[1] ?? '';
}

/** Go's %v of a float64 (strconv 'g' shortest; plain decimals for the magnitudes seen here). */
function goFloat(f: number): string {
  return Number.isInteger(f) ? String(f) : String(f);
}

function validPort(p: number): boolean {
  return p >= 1 && p <= 65535;
}

function isObject(v: unknown): v is Record<string, unknown> {
  return typeof v === 'object' && v !== null && !Array.isArray(v);
}
