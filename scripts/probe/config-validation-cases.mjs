// The config-validation probe's cases (scripts/probe/config-validation.mjs): for one kubelet minor,
// a --config file (and --config-dir drop-ins, --feature-gates) that varies one input kubelet's
// config loading and ValidateKubeletConfiguration act on. Deterministic; plain JS, Go- and TS-free:
// the recording's replay (test/probe/config-validation.test.ts) regenerates them and checks each
// recorded case's hash.
//
// A case: { id, args: [...kubelet flags], files: { absolute path: content; "dir/" a directory },
// env: {...} }. The field variants reuse the oracle's (test/oracle/cases.mjs): its base
// configuration, its field table and wrong-type values, and its gate history.
import { createHash } from 'node:crypto';
import { baseConfig, configFields, gateHistory, WRONG_VALUE } from '../../test/oracle/cases.mjs';

export const CONFIG = '/etc/kubernetes/kubelet-config.yaml';
export const DROPIN_DIR = '/etc/kubernetes/kubelet.conf.d';
const KC = 'apiVersion: kubelet.config.k8s.io/v1beta1\nkind: KubeletConfiguration\n';

/** More wrong-type values per Go type, beside the oracle's one (WRONG_VALUE). */
const MORE_WRONG = {
  int32: ['true', '1.5', '{}', '2147483648', '"10"'],
  '*int32': ['true', '1.5', '[]', '2147483648'],
  int64: ['true', '1.5', '9223372036854775808'],
  '*int64': ['true', '2.5'],
  bool: ['1', 'yes', '"true"', '[]'],
  '*bool': ['0', 'on', '"false"', '{}'],
  'metav1.Duration': ['10', '"-"', '1x', 'true'],
  '*metav1.Duration': ['10', '1x'],
  string: ['{}', '1', 'true'],
  '*string': ['{}', '2'],
  '*float64': ['true', '[1]'],
  'map[string]string': ['[]', '"x"', '{a: [1]}'],
  '[]string': ['"x"', '{}', '[[1]]'],
  'map[string]bool': ['[]', '{x: 1}'],
};
/** In-range and out-of-range numbers, for every integer field. */
const NUMBERS = ['-2147483648', '-1000', '-2', '-1', '0', '1', '2', '31', '32', '50', '100', '101', '1000', '65535', '65536', '1000000'];
const FLOATS = ['-1', '0', '0.5', '1', '1.5'];
const DURATIONS = ['-1s', '0s', '1ns', '1s', '10s', '1m', '5m', '1h', '300h'];
const STRINGS = ['""', 'x', '/abs/path', 'rel/path', '"0"', '127.0.0.1', '10Mi'];

/** Values of enumerated and structured fields (validation.go's sets, and what they reject). */
const ENUMS = {
  cgroupDriver: ['systemd', 'cgroupfs', 'bogus', '""'],
  cpuManagerPolicy: ['none', 'static', 'bogus', '""', 'Static'],
  memoryManagerPolicy: ['None', 'Static', 'none', 'bogus'],
  topologyManagerPolicy: ['none', 'best-effort', 'restricted', 'single-numa-node', 'bogus', '""'],
  topologyManagerScope: ['container', 'pod', 'bogus', '""'],
  hairpinMode: ['promiscuous-bridge', 'hairpin-veth', 'none', 'bogus', '""'],
  containerLogMaxSize: ['10Mi', '1Ki', '0', '-1', 'bogus', '""', '100M'],
  configMapAndSecretChangeDetectionStrategy: ['Get', 'Cache', 'Watch', 'bogus', '""'],
  tlsMinVersion: ['VersionTLS12', 'VersionTLS13', 'VersionTLS10', 'bogus', '""'],
  tlsCipherSuites: ['[TLS_ECDHE_RSA_WITH_AES_128_GCM_SHA256]', '[TLS_RSA_WITH_RC4_128_SHA]', '[bogus]', '[]'],
  reservedSystemCPUs: ['"0"', '"0-1"', '"0,2"', 'x', '"1-0"', '""'],
  enforceNodeAllocatable: ['[pods]', '[none]', '[pods, system-reserved]', '[pods, kube-reserved]', '[none, pods]', '[bogus]', '[]', '[pods, pods]'],
  'authorization.mode': ['Webhook', 'AlwaysAllow', 'bogus'],
  systemReserved: ['{cpu: 100m}', '{cpu: lots}', '{memory: -1Mi}', '{bogus: 1}', '{pid: "100"}', '{ephemeral-storage: 1Gi}'],
  kubeReserved: ['{cpu: 100m, memory: 100Mi}', '{memory: lots}', '{cpu: "-1"}'],
  evictionHard: ['{memory.available: 100Mi}', '{memory.available: 5%}', '{memory.available: lots}', '{no.such.signal: 1%}', '{nodefs.available: 101%}', '{imagefs.available: 0%}', '{pid.available: 10%}'],
  evictionSoft: ['{memory.available: 200Mi}', '{memory.available: x}'],
  evictionSoftGracePeriod: ['{memory.available: 1m}', '{memory.available: x}'],
  evictionMinimumReclaim: ['{memory.available: 0Mi}', '{memory.available: x}'],
  qosReserved: ['{memory: 50%}', '{memory: 150%}', '{memory: x}', '{cpu: 50%}'],
  clusterDNS: ['[10.96.0.10]', '[x]', '[""]', '["::1"]'],
  featureGates: ['{NoSuchGate: true}', '{}'],
  cpuManagerPolicyOptions: ['{full-pcpus-only: "true"}', '{bogus: "true"}'],
  topologyManagerPolicyOptions: ['{prefer-closest-numa-nodes: "true"}', '{bogus: "true"}'],
  'memorySwap.swapBehavior': ['LimitedSwap', 'NoSwap', 'UnlimitedSwap', 'bogus', '""'],
  'logging.format': ['text', 'json', 'bogus', '""'],
  'logging.verbosity': ['0', '5', '-1', 'x'],
  'logging.vmodule': ['[{filePattern: x, verbosity: 2}]', '[{filePattern: "", verbosity: 2}]'],
  'logging.flushFrequency': ['5s', '0s', '-1s', 'x'],
  'logging.options': ['{json: {infoBufferSize: "1Mi"}}', '{text: {splitStream: true}}', '{json: {splitStream: true}}', '{bogus: {}}'],
  shutdownGracePeriodByPodPriority: ['[{priority: 0, shutdownGracePeriodSeconds: 10}]', '[{priority: 0, shutdownGracePeriodSeconds: -1}]', '[]'],
  'crashLoopBackOff.maxContainerRestartPeriod': ['1s', '300s', '0s', '301s', '500ms'],
  imagePullCredentialsVerificationPolicy: ['NeverVerify', 'NeverVerifyPreloadedImages', 'NeverVerifyAllowlistedImages', 'AlwaysVerify', 'bogus'],
  preloadedImagesVerificationAllowlist: ['[docker.io/library/nginx]', '["*"]', '["docker.io/*"]', '[":bad"]'],
  registerWithTaints: ['[{key: a, effect: NoSchedule}]', '[{key: a, effect: Bogus}]'],
  allowedUnsafeSysctls: ['[net.core.somaxconn]', '["net.*"]', '["x y"]'],
  defaultPodSysctls: ['{net.ipv4.ip_forward: "1"}', '{"x y": "1"}'],
  tlsCurvePreferences: ['[23]', '[0]', '[-1]'],
  containerRuntimeEndpoint: ['""', 'unix:///run/containerd/containerd.sock', 'x'],
  podLogsDir: ['/var/log/pods', 'rel', '""', '/'],
  staticPodURLHeader: ['{a: [b]}', '{a: b}'],
  userNamespaces: ['{idsPerPod: 65536}', '{idsPerPod: 1}', '{idsPerPod: 100000}'],
  'tracing.samplingRatePerMillion': ['0', '1000000', '1000001', '-1'],
  'tracing.endpoint': ['localhost:4317', '"::bad"'],
  reservedMemory: ['[{numaNode: 0, limits: {memory: 1Gi}}]', '[{numaNode: 0, limits: {memory: x}}]'],
  showHiddenMetricsForVersion: ['"1.0"', 'x', '""'],
  imageMaximumGCAge: ['0s', '1m', '1h', '-1s'],
  memoryThrottlingFactor: ['0', '0.5', '1', '1.5'],
};

/** Fields whose validation depends on a feature gate: the field's value, under the gate on and off. */
const GATED = [
  ['CustomCPUCFSQuotaPeriod', 'cpuCFSQuotaPeriod: 50ms'],
  ['CustomCPUCFSQuotaPeriod', 'cpuCFSQuotaPeriod: 2s'],
  ['GracefulNodeShutdown', 'shutdownGracePeriod: 30s\nshutdownGracePeriodCriticalPods: 10s'],
  ['GracefulNodeShutdownBasedOnPodPriority', 'shutdownGracePeriodByPodPriority:\n- priority: 0\n  shutdownGracePeriodSeconds: 10'],
  ['ImageMaximumGCAge', 'imageMaximumGCAge: 1h'],
  ['KubeletCrashLoopBackOffMax', 'crashLoopBackOff:\n  maxContainerRestartPeriod: 10s'],
  ['KubeletEnsureSecretPulledImages', 'imagePullCredentialsVerificationPolicy: AlwaysVerify'],
  ['MemoryQoS', 'memoryThrottlingFactor: 0.5'],
  ['NodeLogQuery', 'enableSystemLogQuery: true'],
  ['NodeSwap', 'memorySwap:\n  swapBehavior: LimitedSwap'],
  ['NodeSwap', 'failSwapOn: false\nmemorySwap:\n  swapBehavior: NoSwap'],
  ['RotateKubeletServerCertificate', 'serverTLSBootstrap: true'],
  ['TopologyManager', 'topologyManagerPolicy: best-effort'],
  ['CPUManagerPolicyOptions', 'cpuManagerPolicy: static\nkubeReserved:\n  cpu: 100m\ncpuManagerPolicyOptions:\n  full-pcpus-only: "true"'],
  ['CPUManagerPolicyAlphaOptions', 'cpuManagerPolicy: static\nkubeReserved:\n  cpu: 100m\ncpuManagerPolicyOptions:\n  distribute-cpus-across-numa: "true"'],
  ['TopologyManagerPolicyOptions', 'topologyManagerPolicyOptions:\n  prefer-closest-numa-nodes: "true"'],
  ['MemoryManager', 'memoryManagerPolicy: Static'],
  ['LoggingBetaOptions', 'logging:\n  format: json\n  options:\n    json:\n      splitStream: true'],
  ['LoggingAlphaOptions', 'logging:\n  format: json\n  options:\n    json:\n      infoBufferSize: 1Mi'],
  ['ContextualLogging', 'logging:\n  format: text'],
  ['KubeletTracing', 'tracing:\n  samplingRatePerMillion: 100'],
  ['DynamicResourceAllocation', 'maxPods: 10'],
  ['UserNamespacesSupport', 'userNamespaces:\n  idsPerPod: 65536'],
  ['KubeletPodResourcesGetAllocatable', 'maxPods: 10'],
  ['PodLevelResources', 'maxPods: 10'],
  ['DefaultPodSysctls', 'defaultPodSysctls:\n  net.ipv4.ip_forward: "1"'],
  ['KubeletSeccompDefault', 'seccompDefault: true'],
  ['SeccompDefault', 'seccompDefault: true'],
  ['KubeletInUserNamespace', 'maxPods: 10'],
  ['InPlacePodVerticalScaling', 'maxPods: 10'],
  ['MemoryReservationPolicy', 'memoryReservationPolicy: TieredReservation'],
];

/** YAML for a dotted field path (a.b: v -> "a:\n  b: v"). */
function fieldYaml(path, value) {
  const parts = path.split('.');
  return parts.map((p, i) => `${'  '.repeat(i)}${p}:${i === parts.length - 1 ? ` ${value}` : ''}`).join('\n');
}

const slug = (v) => v.replace(/[^A-Za-z0-9.%-]+/g, '_').slice(0, 40) || 'empty';

/** The cases for 1.<minor>: [{ id, args, files, env }], ids unique, order fixed. */
export function probeCases(minor) {
  const cases = [];
  const seen = new Set();
  const add = (id, spec) => {
    if (seen.has(id)) return;
    seen.add(id);
    const args = [`--config=${CONFIG}`, ...(spec.args ?? [])];
    const files = spec.noConfig ? { ...spec.files } : { [CONFIG]: spec.configText ?? baseConfig(minor, spec.config), ...spec.files };
    const env = minor === 28 || minor === 29 ? { KUBELET_CONFIG_DROPIN_DIR_ALPHA: '' } : {};
    cases.push({ id, args: spec.replaceArgs ?? args, files, env: spec.env ?? env });
  };
  const fields = configFields(minor);
  const types = new Map(fields);
  // Every scalar field: wrong JSON types (the strict decoder), numbers and durations (ranges).
  for (const [name, type] of fields) {
    if (name === 'failCgroupV1') continue; // the host's cgroup version decides it; see the recording
    const wrong = [WRONG_VALUE[type], ...(MORE_WRONG[type] ?? [])].filter((v) => v !== undefined);
    for (const v of wrong) add(`wrong-type/${name}/${slug(v)}`, { config: `${name}: ${v}` });
    if (/^\*?int(32|64)$/.test(type)) for (const v of NUMBERS) add(`number/${name}/${v}`, { config: `${name}: ${v}` });
    if (type === '*float64') for (const v of FLOATS) add(`number/${name}/${v}`, { config: `${name}: ${v}` });
    if (/metav1\.Duration$/.test(type)) for (const v of DURATIONS) add(`duration/${name}/${v}`, { config: `${name}: ${v}` });
    if (/^\*?bool$/.test(type)) for (const v of ['true', 'false']) add(`bool/${name}/${v}`, { config: `${name}: ${v}` });
    if (/^\*?string$/.test(type) && !ENUMS[name]) for (const v of STRINGS) add(`string/${name}/${slug(v)}`, { config: `${name}: ${v}` });
  }
  // Enumerated and structured values.
  for (const [path, values] of Object.entries(ENUMS)) {
    if (!types.has(path.split('.')[0])) continue;
    for (const v of values) add(`value/${path}/${slug(v)}`, { config: fieldYaml(path, v) });
  }
  // Pairs validation.go compares.
  const pairs = [
    ['imageGCHighThresholdPercent: 50\nimageGCLowThresholdPercent: 60', 'gc-low-above-high'],
    ['imageGCHighThresholdPercent: 60\nimageGCLowThresholdPercent: 60', 'gc-equal'],
    ['imageGCHighThresholdPercent: 100\nimageGCLowThresholdPercent: 0', 'gc-extremes'],
    ['imageMinimumGCAge: 2h\nimageMaximumGCAge: 1h', 'gc-age-inverted'],
    ['shutdownGracePeriod: 10s\nshutdownGracePeriodCriticalPods: 30s', 'shutdown-inverted'],
    ['shutdownGracePeriod: 30s\nshutdownGracePeriodByPodPriority:\n- priority: 0\n  shutdownGracePeriodSeconds: 10', 'shutdown-both'],
    ['nodeLeaseDurationSeconds: 0', 'lease-zero'],
    ['cgroupsPerQOS: false\nenforceNodeAllocatable: [pods]', 'qos-off-pods'],
    ['cgroupsPerQOS: false\nenforceNodeAllocatable: []', 'qos-off-none'],
    ['enforceNodeAllocatable: [system-reserved]', 'system-reserved-no-cgroup'],
    ['enforceNodeAllocatable: [system-reserved]\nsystemReservedCgroup: /system.slice', 'system-reserved-cgroup'],
    ['enforceNodeAllocatable: [kube-reserved]', 'kube-reserved-no-cgroup'],
    ['enforceNodeAllocatable: [kube-reserved]\nkubeReservedCgroup: /kube.slice', 'kube-reserved-cgroup'],
    ['systemCgroups: /system.slice', 'system-cgroups-no-root'],
    ['systemCgroups: /system.slice\ncgroupRoot: /', 'system-cgroups-root'],
    ['iptablesMasqueradeBit: 14\niptablesDropBit: 14', 'iptables-same-bit'],
    ['serializeImagePulls: true\nmaxParallelImagePulls: 5', 'parallel-serialized'],
    ['serializeImagePulls: false\nmaxParallelImagePulls: 5', 'parallel-unserialized'],
    ['serializeImagePulls: false\nmaxParallelImagePulls: 1', 'parallel-one'],
    ['cpuManagerPolicy: static', 'static-no-reserve'],
    ['cpuManagerPolicy: static\nreservedSystemCPUs: "0"', 'static-reserved-cpus'],
    ['reservedSystemCPUs: "0"\nsystemReservedCgroup: /system.slice', 'reserved-cpus-cgroup'],
    ['reservedSystemCPUs: "0"\nkubeReserved:\n  cpu: 100m', 'reserved-cpus-kube-reserved'],
    ['memorySwap:\n  swapBehavior: LimitedSwap\nfailSwapOn: false', 'swap-limited-failswap-off'],
    ['enableSystemLogQuery: true\nenableSystemLogHandler: false', 'log-query-no-handler'],
    ['enableSystemLogQuery: true\nenableSystemLogHandler: true', 'log-query-handler'],
    ['logging:\n  format: json\n  vmodule:\n  - filePattern: x\n    verbosity: 2', 'json-vmodule'],
    ['containerLogMaxFiles: 1', 'log-files-one'],
    ['containerLogMaxWorkers: 0', 'log-workers-zero'],
    ['containerLogMonitorInterval: 1s', 'log-monitor-1s'],
    ['containerLogMonitorInterval: 1ms', 'log-monitor-1ms'],
    ['podsPerCore: 2\nmaxPods: 1', 'pods-per-core'],
    ['healthzPort: 0', 'healthz-zero'],
    ['port: 10250\nreadOnlyPort: 10250', 'ports-equal'],
    ['evictionHard:\n  memory.available: 100Mi\nmergeDefaultEvictionSettings: true', 'eviction-merge'],
    ['registerNode: false\nregisterWithTaints:\n- key: a\n  effect: NoSchedule', 'taints-unregistered'],
  ];
  for (const [config, id] of pairs) add(`pair/${id}`, { config });
  // Gate-dependent fields with the gate on and off (in the config; then on the command line).
  const history = gateHistory();
  const rowAt = (rows, m) => rows?.find(([from, until]) => from <= m && m <= until);
  for (const [gate, config] of GATED) {
    for (const on of [true, false]) {
      add(`gated/${gate}/${slug(config)}/${on}`, { config: `featureGates:\n  ${gate}: ${on}\n${config}` });
      add(`gated-flag/${gate}/${slug(config)}/${on}`, { config, args: [`--feature-gates=${gate}=${on}`] });
    }
    add(`gated/${gate}/${slug(config)}/default`, { config });
  }
  // Every gate this minor registers, and the previous minor's, set both ways in the config
  // (SetFromMap: unknown, locked, deprecated); a few on the command line too.
  const names = Object.keys(history).filter((n) => rowAt(history[n], minor) || rowAt(history[n], minor - 1)).sort();
  for (const name of names) {
    for (const on of [true, false]) add(`gate/${name}/${on}`, { config: `featureGates:\n  ${name}: ${on}` });
  }
  for (const name of names.filter((_, i) => i % 7 === 0)) add(`gate-flag/${name}`, { args: [`--feature-gates=${name}=true`] });
  add('gate-flag/unknown', { args: ['--feature-gates=NoSuchGate=true'] });
  add('gate-flag/overrides-config', { config: 'featureGates:\n  NoSuchGate: true', args: ['--feature-gates=NoSuchGate=false'] });
  add('gate-config/AllAlpha', { config: 'featureGates:\n  AllAlpha: true' });
  add('gate-config/AllBeta', { config: 'featureGates:\n  AllBeta: false' });
  add('gate-config/lowercase', { config: 'featureGates:\n  nodeswap: true' });
  add('gate-config/not-bool', { config: 'featureGates:\n  NodeSwap: "yes"' });
  // The file itself.
  const whole = [
    ['unknown-field', { config: 'noSuchField: 1' }],
    ['unknown-fields-two', { config: 'noSuchField: 1\nother: {a: 1}' }],
    ['typo-field', { config: 'maxPod: 10' }],
    ['case-field', { config: 'MaxPods: 10' }],
    ['nested-unknown', { config: 'authentication:\n  bogus: true' }],
    ['duplicate-field', { config: 'maxPods: 10\nmaxPods: 20' }],
    ['duplicate-nested', { config: 'authentication:\n  anonymous:\n    enabled: true\n  anonymous:\n    enabled: false' }],
    ['duplicate-and-unknown', { config: 'maxPods: 10\nmaxPods: 20\nnoSuchField: 1' }],
    ['wrong-kind', { configText: 'apiVersion: kubelet.config.k8s.io/v1beta1\nkind: KubeletConfig\n' }],
    ['wrong-api-version', { configText: 'apiVersion: kubelet.config.k8s.io/v1\nkind: KubeletConfiguration\n' }],
    ['v1alpha1', { configText: 'apiVersion: kubelet.config.k8s.io/v1alpha1\nkind: KubeletConfiguration\n' }],
    ['no-kind', { configText: 'apiVersion: kubelet.config.k8s.io/v1beta1\n' }],
    ['no-api-version', { configText: 'kind: KubeletConfiguration\n' }],
    ['credential-kind', { configText: 'apiVersion: kubelet.config.k8s.io/v1beta1\nkind: CredentialProviderConfig\n' }],
    ['empty-file', { configText: '' }],
    ['whitespace-file', { configText: '\n\n' }],
    ['comment-file', { configText: '# nothing\n' }],
    ['yaml-syntax', { configText: `${KC}maxPods: [\n` }],
    ['yaml-tab', { configText: `${KC}\tmaxPods: 1\n` }],
    ['yaml-list', { configText: '- a\n- b\n' }],
    ['yaml-scalar', { configText: 'hello\n' }],
    ['json', { configText: JSON.stringify({ apiVersion: 'kubelet.config.k8s.io/v1beta1', kind: 'KubeletConfiguration', ...(minor >= 31 ? { failCgroupV1: false } : {}) }) }],
    ['json-unknown', { configText: JSON.stringify({ apiVersion: 'kubelet.config.k8s.io/v1beta1', kind: 'KubeletConfiguration', bogus: 1, ...(minor >= 31 ? { failCgroupV1: false } : {}) }) }],
    ['json-duplicate', { configText: `{"apiVersion":"kubelet.config.k8s.io/v1beta1","kind":"KubeletConfiguration","maxPods":1,"maxPods":2${minor >= 31 ? ',"failCgroupV1":false' : ''}}` }],
    ['json-syntax', { configText: '{"apiVersion": "kubelet.config.k8s.io/v1beta1",' }],
    ['bom', { configText: `\ufeff${baseConfig(minor)}` }],
    ['multi-document', { configText: `${baseConfig(minor)}---\n${KC}maxPods: 5\n` }],
    ['missing-file', { noConfig: true }],
    ['config-is-directory', { noConfig: true, files: { [`${CONFIG}/`]: '' } }],
    ['minimal', { configText: KC }],
    ['base', {}],
    ['relative-static-pod-path', { config: 'staticPodPath: manifests' }],
    ['relative-tls', { config: 'tlsCertFile: pki/x.crt\ntlsPrivateKeyFile: pki/x.key' }],
    ['tls-cert-only', { config: 'tlsCertFile: /x.crt' }],
    ['anchors', { config: 'x: &a 10\nmaxPods: *a' }],
    ['null-field', { config: 'maxPods: null' }],
    ['null-map', { config: 'evictionHard: null' }],
    ['big-config', { config: 'maxPods: 200\npodPidsLimit: 4096\nserializeImagePulls: false\nmaxParallelImagePulls: 3\nevictionHard:\n  memory.available: 200Mi\nkubeReserved:\n  cpu: 100m\nsystemReserved:\n  memory: 100Mi' }],
  ];
  for (const [id, spec] of whole) add(`file/${id}`, spec);
  // Flags beside the file.
  add('flag/max-pods-overrides', { config: 'maxPods: -1', args: ['--max-pods=10'] });
  add('flag/bad-value-over-good', { config: 'maxPods: 10', args: ['--max-pods=-1'] });
  add('flag/feature-gates-bad-syntax', { args: ['--feature-gates=NodeSwap'] });
  // Drop-ins (1.28+).
  if (minor >= 28) {
    const dir = (files, extra = {}) => ({ args: [`--config-dir=${DROPIN_DIR}`], ...extra, files: { [`${DROPIN_DIR}/`]: '', ...Object.fromEntries(Object.entries(files).map(([p, c]) => [`${DROPIN_DIR}/${p}`, c])) } });
    const dropins = [
      ['empty-dir', dir({})],
      ['valid', dir({ '10-a.conf': `${KC}maxPods: 50\n` })],
      ['invalid-value', dir({ '10-a.conf': `${KC}maxPods: -1\n` })],
      ['overrides-invalid', { config: 'maxPods: -1', ...dir({ '10-a.conf': `${KC}maxPods: 50\n` }) }],
      ['later-wins', dir({ '10-a.conf': `${KC}maxPods: -1\n`, '20-b.conf': `${KC}maxPods: 50\n` })],
      ['later-breaks', dir({ '10-a.conf': `${KC}maxPods: 50\n`, '20-b.conf': `${KC}maxPods: -1\n` })],
      ['no-kind', dir({ '10-a.conf': 'maxPods: 50\n' })],
      ['wrong-kind', dir({ '10-a.conf': 'apiVersion: kubelet.config.k8s.io/v1beta1\nkind: Other\nmaxPods: 50\n' })],
      ['wrong-version', dir({ '10-a.conf': 'apiVersion: kubelet.config.k8s.io/v1\nkind: KubeletConfiguration\n' })],
      ['unknown-field', dir({ '10-a.conf': `${KC}bogus: 1\n` })],
      ['wrong-type', dir({ '10-a.conf': `${KC}maxPods: lots\n` })],
      ['yaml-syntax', dir({ '10-a.conf': `${KC}maxPods: [\n` })],
      ['empty-file', dir({ '10-a.conf': '' })],
      ['json', dir({ '10-a.json.conf': '{"apiVersion":"kubelet.config.k8s.io/v1beta1","kind":"KubeletConfiguration","maxPods":7}' })],
      ['not-conf-ignored', dir({ '10-a.yaml': 'garbage: [\n' })],
      ['subdirectory', dir({ 'sub/10-a.conf': `${KC}maxPods: -1\n` })],
      ['gates', dir({ '10-a.conf': `${KC}featureGates:\n  NoSuchGate: true\n` })],
      ['gates-merge', { config: 'featureGates:\n  NoSuchGate: true', ...dir({ '10-a.conf': `${KC}featureGates:\n  NoSuchGate: false\n` }) }],
      ['duplicate-field', dir({ '10-a.conf': `${KC}maxPods: 5\nmaxPods: 6\n` })],
      ['null-override', { config: 'maxPods: 20', ...dir({ '10-a.conf': `${KC}maxPods: null\n` }) }],
      ['list-replaced', { config: 'enforceNodeAllocatable: [pods]', ...dir({ '10-a.conf': `${KC}enforceNodeAllocatable: [bogus]\n` }) }],
      ['map-merged', { config: 'evictionHard:\n  memory.available: 100Mi', ...dir({ '10-a.conf': `${KC}evictionHard:\n  nodefs.available: lots\n` }) }],
      ['without-config', { ...dir({ '10-a.conf': `${KC}maxPods: 50\n` }), noConfig: true, replaceArgs: [`--config-dir=${DROPIN_DIR}`] }],
      ['without-config-invalid', { ...dir({ '10-a.conf': `${KC}maxPods: -1\n` }), noConfig: true, replaceArgs: [`--config-dir=${DROPIN_DIR}`] }],
      ['missing-dir', { args: [`--config-dir=${DROPIN_DIR}`] }],
    ];
    for (const [id, spec] of dropins) add(`dropin/${id}`, spec);
    if (minor === 28 || minor === 29) add('dropin/env-missing', { ...dir({ '10-a.conf': `${KC}maxPods: 50\n` }), env: {} });
  }
  return cases;
}

/** A case's hash: its flags, files and environment (not its id). */
export function caseHash(kase) {
  const files = Object.keys(kase.files).sort().map((p) => [p, kase.files[p]]);
  return createHash('sha256').update(JSON.stringify({ args: kase.args, files, env: kase.env })).digest('hex').slice(0, 16);
}
