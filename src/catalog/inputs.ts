/**
 * Every kubelet flag and KubeletConfiguration field, with what node-check knows about what kubelet
 * does with it before "Started kubelet" (cmd/kubelet/app/server.go RunE → Run → run → RunKubelet
 * → NewMainKubelet, 1.24-1.37):
 *  - modelled: a start rule reads it (the rule is named; the rules of src/rules/ name their own inputs);
 *  - no effect at start: kubelet uses it only after start, or only logs about it (the source path
 *    says where), optionally for the values `accepts` names; another value is undecided;
 *  - undecided: kubelet may refuse a value node-check has no rule for. Set to a non-default value,
 *    it makes the answer "cannot tell", naming the input (src/start/steps/undecided-inputs.ts).
 * docs/kubelet-inputs.md is generated from this table (scripts/gen-docs.mjs).
 */
import { kubeletFlagsFor } from '../kubelet/command-line/flag-table.js';
import { isValidTaint } from '../kubelet/command-line/values.js';
import { KUBELET_CONFIG_FIELDS } from '../kubelet/data/kubelet-config-fields.js';
import { KUBELET_CONFIG_DEFAULTS } from '../kubelet/data/kubelet-config-defaults.js';
import { MODELLED_MINORS } from '../kubelet/data/minors.js';
import { ALL_RULES } from './rules.js';

export type InputStatus =
  | { readonly kind: 'modelled'; readonly by: string }
  | {
      readonly kind: 'no-effect';
      readonly source: string;
      readonly accepts?: (value: unknown) => boolean;
      readonly acceptsText?: string;
      /** Another value depends on the machine, not the files (a host fact): with a root other than the live "/", not checked. */
      readonly hostFact?: string;
    }
  | { readonly kind: 'undecided' };

const modelled = (by: string): InputStatus => ({ kind: 'modelled', by });
const noEffect = (source: string, accepts?: (value: unknown) => boolean, acceptsText?: string): InputStatus =>
  accepts ? { kind: 'no-effect', source, accepts, ...(acceptsText ? { acceptsText } : {}) } : { kind: 'no-effect', source };
const UNDECIDED: InputStatus = { kind: 'undecided' };

/** The inputs the start rules decide (each rule's `inputs`, src/rules/): modelled by that rule. */
function decidedByRules(kind: 'fields' | 'flags'): Record<string, InputStatus> {
  const out: Record<string, InputStatus> = {};
  for (const rule of ALL_RULES) for (const [name, by] of Object.entries(rule.inputs?.[kind] ?? {})) out[name] = modelled(by);
  return out;
}

const VALIDATION = 'ValidateKubeletConfiguration (src/kubelet/config/validate.ts)';
const NEW_MAIN_KUBELET_PERIOD = 'pkg/kubelet/kubelet.go NewMainKubelet: a period or timeout, stored without a check';

/** A quantity kubelet's parseMaxSize takes without doubt: a whole number with a binary or decimal suffix. */
const plainSize = (v: unknown) => typeof v === 'string' && /^[0-9]+(Ki|Mi|Gi|Ti|k|M|G|T)?$/.test(v);

const validTaints = (v: unknown) =>
  Array.isArray(v) &&
  v.every((t) => {
    if (typeof t !== 'object' || t === null) return false;
    const { key, value, effect, ...rest } = t as Record<string, unknown>;
    return Object.keys(rest).length === 0 && typeof key === 'string' && (value === undefined || typeof value === 'string') && (effect === undefined || typeof effect === 'string') &&
      isValidTaint(key, (value as string | undefined) ?? '', (effect as string | undefined) ?? '');
  });

/** KubeletConfiguration top-level fields (v1beta1 JSON names), besides the rules'. A field not listed is undecided. */
const FIELDS: Readonly<Record<string, InputStatus>> = {
  ...decidedByRules('fields'),
  apiVersion: modelled('the --config decode (kubelet-config-invalid)'),
  kind: modelled('the --config decode (kubelet-config-invalid)'),
  featureGates: modelled('SetFromMap (src/start/steps/feature-gates.ts)'),
  logging: modelled('init-logging (kubelet-logging-invalid; 1.24: kubelet-config-validation)'),
  tlsCipherSuites: modelled('InitializeTLS (kubelet-tls-option-unknown)'),
  tlsMinVersion: modelled('InitializeTLS (kubelet-tls-option-unknown)'),
  reservedSystemCPUs: modelled(`${VALIDATION}; run() getReservedCPUs on the live root`),
  containerRuntimeEndpoint: modelled(`${VALIDATION}; the CRI connection (live root)`),
  authentication: modelled('BuildAuth: x509.clientCAFile (kubelet-client-ca-invalid); webhook with an API client (see authentication.webhook.enabled)'),
  authorization: modelled('BuildAuthz: mode AlwaysAllow, or Webhook with an API client'),
  staticPodPath: noEffect('pkg/kubelet/kubelet.go makePodSourceConfig: config.NewSourceFile watches the path; a missing one is not an error'),
  syncFrequency: noEffect(NEW_MAIN_KUBELET_PERIOD),
  fileCheckFrequency: noEffect(NEW_MAIN_KUBELET_PERIOD),
  httpCheckFrequency: noEffect(NEW_MAIN_KUBELET_PERIOD),
  nodeStatusUpdateFrequency: noEffect(NEW_MAIN_KUBELET_PERIOD),
  nodeStatusReportFrequency: noEffect(NEW_MAIN_KUBELET_PERIOD),
  streamingConnectionIdleTimeout: noEffect(NEW_MAIN_KUBELET_PERIOD),
  volumeStatsAggPeriod: noEffect(NEW_MAIN_KUBELET_PERIOD),
  evictionPressureTransitionPeriod: noEffect(NEW_MAIN_KUBELET_PERIOD),
  runtimeRequestTimeout: noEffect(NEW_MAIN_KUBELET_PERIOD),
  cpuManagerReconcilePeriod: noEffect('pkg/kubelet/cm/container_manager_linux.go: the CPU manager\'s reconcile period, no check'),
  clusterDNS: noEffect('pkg/kubelet/kubelet.go NewMainKubelet: an entry that is not an IP is logged ("Invalid clusterDNS IP") and skipped'),
  clusterDomain: noEffect('pkg/kubelet/network/dns/dns.go: the pods\' DNS search path, no check'),
  healthzBindAddress: noEffect('cmd/kubelet/app/server.go run(): a healthz server that cannot listen is logged ("Failed to start healthz server"), not fatal'),
  podPidsLimit: noEffect('cmd/kubelet/app/server.go run(): handed to the container manager as the pod cgroup pids limit, no check'),
  containerLogMaxSize: noEffect('pkg/kubelet/logs/container_log_manager.go NewContainerLogManager parses it (fatal when it does not parse)', plainSize, 'a whole-number quantity such as 10Mi'),
  // Any other name than "systemd" is the cgroupfs driver: there is no check (and from 1.28 the CRI may override it).
  cgroupDriver: noEffect('pkg/kubelet/cm/cgroup_manager_linux.go newCgroupCommon: useSystemd is cgroupDriver == "systemd", any other value is cgroupfs'),
  providerID: noEffect('pkg/kubelet/kubelet_node_status.go: copied into the Node object, no check'),
  resolvConf: noEffect('pkg/kubelet/network/dns/dns.go: read for each pod\'s DNS; at start problems with the file are only logged'),
  // pkg/kubelet/server/server.go ListenAndServeKubeletServer: a listen that fails exits 1 ("Failed to listen and serve"),
  // which for any other address depends on the machine's own addresses.
  address: {
    ...noEffect('cmd/kubelet/app/server.go startKubelet: the servers\' listen address', (v) => ['0.0.0.0', '::', '127.0.0.1', '::1'].includes(String(v)), 'an address every host can bind (0.0.0.0, ::, 127.0.0.1, ::1)'),
    hostFact: 'whether the machine has the address kubelet listens on',
  } as InputStatus,
  // cmd/kubelet/app/server.go run(): GetKubeletContainer only logs ("Failed to get the kubelet's cgroup"); pkg/kubelet/cm/
  // container_manager_linux.go setupNode: createManager builds a libcontainer manager for the path without creating
  // it, and ensureProcessInContainerWithOOMScore moves kubelet there periodically, errors logged (1.24-1.36).
  kubeletCgroups: noEffect('pkg/kubelet/cm/container_manager_linux.go setupNode: the kubelet\'s cgroup is ensured periodically; errors are logged', (v) => typeof v === 'string' && v.startsWith('/'), 'an absolute cgroup path'),
  cpuCFSQuota: noEffect('cmd/kubelet/app/server.go run(): EnforceCPULimits for the container manager, no check'),
  enableControllerAttachDetach: noEffect('pkg/kubelet/kubelet.go NewMainKubelet: the volume manager\'s attach mode, no check'),
  enableServer: noEffect('cmd/kubelet/app/server.go startKubelet: whether the servers start at all'),
  enableDebuggingHandlers: noEffect('pkg/kubelet/server/server.go: which handlers the server installs'),
  enableProfilingHandler: noEffect('pkg/kubelet/server/server.go: which handlers the server installs'),
  enableDebugFlagsHandler: noEffect('pkg/kubelet/server/server.go: which handlers the server installs'),
  enableContentionProfiling: noEffect('pkg/kubelet/server/server.go: which handlers the server installs'),
  registerNode: noEffect('pkg/kubelet/kubelet_node_status.go: node registration, retried after start'),
  makeIPTablesUtilChains: noEffect('pkg/kubelet/kubelet_network_linux.go: iptables chains kept in a loop; errors are logged'),
  seccompDefault: noEffect('pkg/kubelet/kuberuntime: the pods\' default seccomp profile, no check'),
  localStorageCapacityIsolation: noEffect('pkg/kubelet/kubelet.go NewMainKubelet: the eviction manager\'s local storage accounting, no check'),
  kernelMemcgNotification: noEffect('pkg/kubelet/eviction/eviction_manager.go: memcg threshold notifiers; failures are logged'),
  contentType: noEffect('cmd/kubelet/app/server.go setContentTypeForClient: the API client\'s content type, no check'),
  evictionMaxPodGracePeriod: noEffect('pkg/kubelet/eviction/eviction_manager.go: a grace period, no check'),
  containerLogMaxFiles: noEffect('pkg/kubelet/logs/container_log_manager.go NewContainerLogManager ("invalid MaxFiles %d, must be > 1")', (v) => typeof v === 'number' && Number.isInteger(v) && v > 1, 'a whole number above 1'),
  configMapAndSecretChangeDetectionStrategy: noEffect('pkg/kubelet/kubelet.go NewMainKubelet ("unknown configmap and secret manager mode")', (v) => v === 'Watch' || v === 'Cache' || v === 'Get', 'Watch, Cache or Get'),
  // ValidateKubeletConfiguration checks each taint (utiltaints.CheckTaintValidation, "invalid taint: …");
  // a valid one is only put on the Node when it registers. --register-with-taints is checked when parsed.
  registerWithTaints: noEffect('pkg/kubelet/apis/config/validation/validation.go (each taint checked) and pkg/kubelet/kubelet_node_status.go (set on the Node)', validTaints, 'taints with a valid key, value and effect and no timeAdded'),
  volumePluginDir: noEffect('pkg/volume/flexvolume/probe.go: the FlexVolume prober watches the directory (creating it), errors are logged'),
  // The rules of ValidateKubeletConfiguration node-check implements.
  ...Object.fromEntries(
    ['nodeLeaseDurationSeconds', 'cgroupsPerQOS', 'enforceNodeAllocatable', 'systemCgroups', 'cgroupRoot', 'eventBurst', 'eventRecordQPS',
      'healthzPort', 'cpuCFSQuotaPeriod', 'imageGCHighThresholdPercent', 'imageGCLowThresholdPercent', 'imageMaximumGCAge', 'imageMinimumGCAge',
      'iptablesDropBit', 'iptablesMasqueradeBit', 'kubeAPIBurst', 'kubeAPIQPS', 'nodeStatusMaxImages', 'maxOpenFiles', 'maxPods', 'oomScoreAdj',
      'podsPerCore', 'port', 'readOnlyPort', 'registryBurst', 'registryPullQPS', 'maxParallelImagePulls', 'serializeImagePulls', 'serverTLSBootstrap',
      'topologyManagerPolicy', 'topologyManagerScope', 'shutdownGracePeriod', 'shutdownGracePeriodCriticalPods', 'shutdownGracePeriodByPodPriority',
      'memorySwap', 'systemReservedCgroup', 'kubeReservedCgroup', 'hairpinMode', 'memoryThrottlingFactor', 'enableSystemLogQuery',
      'enableSystemLogHandler', 'containerLogMaxWorkers', 'containerLogMonitorInterval', 'podLogsDir', 'failCgroupV1', 'crashLoopBackOff',
      'imagePullCredentialsVerificationPolicy', 'defaultPodSysctls'].map((f) => [f, modelled(VALIDATION)]),
  ),
};

/** Flags that bind no KubeletConfiguration field (KubeletFlags, global and klog flags), besides the rules'. A flag not listed is undecided. */
const FLAGS: Readonly<Record<string, InputStatus>> = {
  ...decidedByRules('flags'),
  config: modelled('the --config load (kubelet-config-*)'),
  'config-dir': modelled('the --config-dir merge (kubelet-config-dropin-*)'),
  'feature-gates': modelled('SetFromMap (src/start/steps/feature-gates.ts)'),
  'image-credential-provider-config': modelled('credential provider registration'),
  'image-credential-provider-bin-dir': modelled('credential provider registration'),
  'container-runtime': modelled('the command line (1.24-1.26: "remote" only; removed in 1.27)'),
  'node-labels': modelled('ValidateKubeletFlags (node-labels-*)'),
  help: modelled('the command line: kubelet prints usage and exits ("cannot tell")'),
  version: modelled('the command line: kubelet prints its version and exits ("cannot tell")'),
  'root-dir': noEffect('pkg/kubelet/kubelet.go: the data directory; kubelet creates what it needs under it with os.MkdirAll, most in initializeModules → setupDataDirs after "Started kubelet"'),
  'hostname-override': noEffect('cmd/kubelet/app/server.go run(): the node name, no check'),
  // kops' nodeup passes --register-schedulable=true up to 1.33.
  'register-schedulable': noEffect('pkg/kubelet/kubelet.go NewMainKubelet stores it; pkg/kubelet/kubelet_node_status.go initialNode uses it when registering the node, after start (1.24-1.33)'),
  // kube-up's GCE nodes pass it (cluster/gce/util.sh construct-linux-kubelet-flags).
  'experimental-mounter-path': noEffect('cmd/kubelet/app/server.go UnsecuredDependencies: mount.New(path) only stores it for later mounts (k8s.io/mount-utils mount_linux.go New); pkg/kubelet/kubelet.go NewMainKubelet: SetupDNSinContainerizedMounter writes <dir>/rootfs/etc/resolv.conf and only logs a failure (pkg/kubelet/network/dns/dns.go), 1.24-1.37'),
  // Bottlerocket's kubelet-exec-start-conf passes --containerd=/run/containerd/containerd.sock.
  containerd: noEffect('github.com/google/cadvisor container/containerd/factory.go (v0.44.2 at kubelet 1.24 to v0.56.2 at 1.36): a plain string, read only by the plugin\'s Register, which manager.Start → container.InitializePlugins (container/factory.go) calls from pkg/kubelet/kubelet.go initializeRuntimeDependentModules after "Started kubelet"; a failed registration is only logged'),
  'containerd-namespace': noEffect('github.com/google/cadvisor container/containerd/factory.go (v0.44.2 to v0.56.2): a plain string, read only by the plugin\'s Register after "Started kubelet" (as --containerd); a failed registration is only logged'),
  'pod-infra-container-image': noEffect('cmd/kubelet/app/options/options.go: deprecated; the container runtime picks the sandbox image'),
  'runtime-cgroups': noEffect('pkg/kubelet/cm/container_manager_linux.go: the runtime\'s cgroup is ensured periodically; errors are logged'),
  'minimum-container-ttl-duration': noEffect('pkg/kubelet/kubelet.go NewMainKubelet: container GC policy, no check'),
  'maximum-dead-containers-per-container': noEffect('pkg/kubelet/kubelet.go NewMainKubelet: container GC policy, no check'),
  'maximum-dead-containers': noEffect('pkg/kubelet/kubelet.go NewMainKubelet: container GC policy, no check'),
  'keep-terminated-pod-volumes': noEffect('pkg/kubelet/kubelet.go NewMainKubelet: the volume manager\'s cleanup policy, no check'),
};

/** The status of a top-level KubeletConfiguration field. */
export function configFieldStatus(field: string): InputStatus {
  return FIELDS[field] ?? UNDECIDED;
}

/** The status of a flag of kubelet 1.<minor>: a config flag shares its field's (the top-level one). */
export function flagStatus(minor: number, name: string): InputStatus {
  const spec = kubeletFlagsFor(minor)?.get(name);
  if (spec?.configField) {
    if (spec.configField === 'authentication.x509.clientCAFile') return modelled('BuildAuth (kubelet-client-ca-invalid)');
    if (spec.configField.startsWith('logging.')) return modelled('init-logging (kubelet-logging-invalid)');
    return configFieldStatus(spec.configField.split('.')[0]!);
  }
  return FLAGS[name] ?? UNDECIDED;
}

export interface UndecidedInput {
  /** "--flag" or the field name. */
  readonly input: string;
  readonly reason: string;
  /** Set when the value depends on the machine (the input's hostFact): not checked with another root. */
  readonly hostFact?: string;
}

const isEmpty = (v: unknown) =>
  v === undefined || v === null || (Array.isArray(v) && v.length === 0) || (typeof v === 'object' && v !== null && !Array.isArray(v) && Object.keys(v).length === 0);
const isZero = (v: unknown) => v === 0 || v === '' || v === false || v === '0s' || isEmpty(v);

/** Whether `value` is what kubelet 1.<minor> would use when the field is not set. */
export function isDefaultValue(minor: number, field: string, value: unknown): boolean {
  if (isEmpty(value)) return true;
  const goType = KUBELET_CONFIG_FIELDS[minor]?.[field] ?? '';
  const nilable = goType.startsWith('*') || goType.startsWith('[]') || goType.startsWith('map[');
  // A non-pointer field at its zero value is defaulted (SetDefaults_KubeletConfiguration tests == zero).
  if (!nilable && isZero(value)) return true;
  const rule = KUBELET_CONFIG_DEFAULTS.find((r) => r.field === field && (r.since === undefined || minor >= r.since) && (r.until === undefined || minor <= r.until));
  return rule !== undefined && JSON.stringify(rule.value) === JSON.stringify(value);
}

const TRUE = /^(1|t|T|TRUE|true|True)$/;

/**
 * The inputs kubelet 1.<minor> acts on that node-check cannot decide: undecided fields set to a
 * non-default value, undecided flags on the command line, and the authentication/authorization
 * settings that need an API client when kubelet has none (no --kubeconfig: standalone mode).
 */
export function undecidedInputs(minor: number, config: Readonly<Record<string, unknown>>, flags: ReadonlyMap<string, readonly string[]>): UndecidedInput[] {
  const out: UndecidedInput[] = [];
  const flagTable = kubeletFlagsFor(minor);
  // Fields an undecided flag sets are named once, by the flag.
  const namedByFlag = new Set<string>();
  for (const name of flags.keys()) {
    const spec = flagTable?.get(name);
    if (!spec) continue; // an unknown flag: the command-line step refuses it
    if (flagStatus(minor, name).kind !== 'undecided') continue;
    out.push({ input: `--${name}`, reason: `kubelet 1.${minor} acts on --${name} at start and node-check has no rule for it` });
    if (spec.configField) namedByFlag.add(spec.configField.split('.')[0]!);
  }
  for (const [field, value] of Object.entries(config)) {
    const status = configFieldStatus(field);
    if (namedByFlag.has(field)) continue;
    if (status.kind === 'undecided' && !isDefaultValue(minor, field, value)) {
      out.push({ input: field, reason: `kubelet 1.${minor} acts on ${field} at start and node-check has no rule for ${JSON.stringify(value).slice(0, 80)}` });
    } else if (status.kind === 'no-effect' && status.accepts && !isDefaultValue(minor, field, value) && !status.accepts(value)) {
      out.push({ input: field, reason: `node-check decides ${field} only for ${status.acceptsText ?? 'some values'}, not ${JSON.stringify(value).slice(0, 80)}`, ...(status.hostFact ? { hostFact: status.hostFact } : {}) });
    }
  }
  const standalone = (flags.get('kubeconfig') ?? []).every((v) => v === '');
  if (standalone) {
    const authn = config['authentication'] as { webhook?: { enabled?: unknown } } | undefined;
    const authz = config['authorization'] as { mode?: unknown } | undefined;
    const webhookFlag = flags.get('authentication-token-webhook');
    if (authn?.webhook?.enabled === true || (webhookFlag !== undefined && TRUE.test(webhookFlag[webhookFlag.length - 1] ?? ''))) {
      out.push({ input: 'authentication.webhook.enabled', reason: 'without --kubeconfig kubelet has no API client for webhook authentication; BuildAuthn is not modelled then' });
    }
    const mode = flags.get('authorization-mode')?.at(-1) ?? authz?.mode;
    if (mode !== undefined && mode !== 'AlwaysAllow') out.push({ input: 'authorization.mode', reason: `without --kubeconfig kubelet has no API client for authorization mode ${String(mode)}; BuildAuthz is not modelled then` });
  } else {
    const mode = flags.get('authorization-mode')?.at(-1) ?? (config['authorization'] as { mode?: unknown } | undefined)?.mode;
    if (mode !== undefined && mode !== 'AlwaysAllow' && mode !== 'Webhook') out.push({ input: 'authorization.mode', reason: `BuildAuthz with mode ${String(mode)} is not modelled` });
  }
  return out;
}

/** Every top-level field of any modelled minor, with the minors that have it (for the docs table). */
export function allConfigFields(): { field: string; from: number; until: number }[] {
  const seen = new Map<string, { from: number; until: number }>();
  for (const minor of MODELLED_MINORS) {
    for (const field of Object.keys(KUBELET_CONFIG_FIELDS[minor] ?? {})) {
      const entry = seen.get(field);
      if (entry) entry.until = minor;
      else seen.set(field, { from: minor, until: minor });
    }
  }
  return [...seen].map(([field, range]) => ({ field, ...range }));
}
