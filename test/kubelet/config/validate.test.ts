import t from 'tap';
import { readFileSync } from 'node:fs';
import { loadKubeletConfigFile } from '../../../src/kubelet/config/load.js';
import { applyKubeletConfigDefaults, validateKubeletConfiguration } from '../../../src/kubelet/config/validate.js';
import { aggregateError as aggregate } from '../../../src/kubernetes/aggregate.js';
import { MODELLED_MINORS } from '../../../src/kubelet/data/minors.js';

// pkg/kubelet/apis/config/validation/validation.go and validation_test.go at v1.30.14: the
// expected messages below are kubelet's.

const TM = { apiVersion: 'kubelet.config.k8s.io/v1beta1', kind: 'KubeletConfiguration' };
/** Gates on by default in 1.30 that these rules consult. */
const DEFAULT_ON = new Set(['RotateKubeletServerCertificate', 'GracefulNodeShutdown', 'GracefulNodeShutdownBasedOnPodPriority', 'NodeSwap']);
const gates = (extra: Record<string, boolean> = {}) => (name: string) => extra[name] ?? DEFAULT_ON.has(name);
const validate = (minor: number, config: Record<string, unknown>, extra: Record<string, boolean> = {}, host = { cgroupV2: true }) =>
  validateKubeletConfiguration(minor, { ...TM, ...config }, gates(extra), host);

t.test('reservedSystemCPUs: cpuset.Parse errors in each minor\'s words, exact', async (t) => {
  const reversed = (minor: number) => validate(minor, { reservedSystemCPUs: '4-2' });
  for (const [minor, operator] of [[24, '>='], [25, '>='], [26, '>='], [27, '>'], [28, '>'], [36, '>']] as const) {
    t.match(reversed(minor), {
      ok: false,
      error: `invalid configuration: unable to parse reservedSystemCPUs (--reserved-cpus) 4-2, error: invalid range "4-2" (4 ${operator} 2)`,
      inexact: false,
    }, `1.${minor}`);
  }
  t.match(validate(30, { reservedSystemCPUs: 'x' }), { ok: false, error: 'invalid configuration: unable to parse reservedSystemCPUs (--reserved-cpus) x, error: strconv.Atoi: parsing "x": invalid syntax', inexact: false });
  t.match(validate(30, { reservedSystemCPUs: '0-3' }), { ok: true });
});

t.test('defaults make an empty config valid in every minor', async (t) => {
  for (const minor of MODELLED_MINORS) t.match(validate(minor, {}), { ok: true }, `1.${minor}`);
  t.match(validate(23, {}), { undecidable: /outside/ });
  const d = applyKubeletConfigDefaults(35, {})!;
  t.equal(d.failCgroupV1, true);
  t.equal(applyKubeletConfigDefaults(34, {})!.failCgroupV1, false);
  t.equal(d.port, 10250);
  // An explicit 0 in a non-pointer field is defaulted, in a pointer field it stays.
  t.equal(applyKubeletConfigDefaults(30, { port: 0 })!.port, 10250);
  t.equal(applyKubeletConfigDefaults(30, { containerLogMaxWorkers: 0 })!.containerLogMaxWorkers, 0);
});

t.test('range checks (1.30 texts)', async (t) => {
  const one = (config: Record<string, unknown>, error: string, extra: Record<string, boolean> = {}) =>
    t.same(validate(30, config, extra), { ok: false, error, errors: [error], inexact: false, notValidated: [] }, error);
  one({ nodeLeaseDurationSeconds: -1 }, 'invalid configuration: nodeLeaseDurationSeconds must be greater than 0');
  one({ eventBurst: -1 }, 'invalid configuration: eventBurst (--event-burst) -1 must not be a negative number');
  one({ healthzPort: 65536 }, 'invalid configuration: healthzPort (--healthz-port) 65536 must be between 1 and 65535, inclusive');
  one({ port: 65536 }, 'invalid configuration: port (--port) 65536 must be between 1 and 65535, inclusive');
  one({ readOnlyPort: 65536 }, 'invalid configuration: readOnlyPort (--read-only-port) 65536 must be between 0 and 65535, inclusive');
  one({ iptablesDropBit: 32 }, 'invalid configuration: iptablesDropBit (--iptables-drop-bit) 32 must be between 0 and 31, inclusive');
  one({ iptablesMasqueradeBit: -1 }, 'invalid configuration: iptablesMasqueradeBit (--iptables-masquerade-bit) -1 must be between 0 and 31, inclusive');
  one({ oomScoreAdj: 1001 }, 'invalid configuration: oomScoreAdj (--oom-score-adj) 1001 must be between -1000 and 1000, inclusive');
  one({ kubeAPIQPS: -1 }, 'invalid configuration: kubeAPIQPS (--kube-api-qps) -1 must not be a negative number');
  one({ registryBurst: -1 }, 'invalid configuration: registryBurst (--registry-burst) -1 must not be a negative number');
  one({ nodeStatusMaxImages: -2 }, 'invalid configuration: nodeStatusMaxImages (--node-status-max-images) -2 must be -1 or greater');
  one({ imageGCLowThresholdPercent: 90 }, 'invalid configuration: imageGCLowThresholdPercent (--image-gc-low-threshold) 90 must be less than imageGCHighThresholdPercent (--image-gc-high-threshold) 85');
  one({ containerLogMaxWorkers: 0 }, 'invalid configuration: containerLogMaxWorkers must be greater than or equal to 1');
  one({ containerLogMonitorInterval: '2s' }, 'invalid configuration: containerLogMonitorInterval must be a positive time duration greater than or equal to 3s');
  one({ maxParallelImagePulls: 0 }, 'invalid configuration: maxParallelImagePulls 0 must be a positive number');
  one({ maxParallelImagePulls: 3, serializeImagePulls: true }, 'invalid configuration: maxParallelImagePulls cannot be larger than 1 unless SerializeImagePulls (--serialize-image-pulls) is set to false');
  one({ cpuCFSQuotaPeriod: '200ms' }, 'invalid configuration: cpuCFSQuotaPeriod (--cpu-cfs-quota-period) {200ms} requires feature gate CustomCPUCFSQuotaPeriod');
  one({ shutdownGracePeriod: '1s', shutdownGracePeriodCriticalPods: '2s' }, 'invalid configuration: shutdownGracePeriodCriticalPods {2s} must be <= shutdownGracePeriod {1s}');
  one({ shutdownGracePeriod: '1ms' }, 'invalid configuration: shutdownGracePeriod {1ms} must be either zero or otherwise >= 1 sec');
  one({ shutdownGracePeriod: '10s' }, 'invalid configuration: specifying shutdownGracePeriod or shutdownGracePeriodCriticalPods requires feature gate GracefulNodeShutdown', { GracefulNodeShutdown: false });
  one({ serverTLSBootstrap: true }, 'invalid configuration: serverTLSBootstrap true requires feature gate RotateKubeletServerCertificate', { RotateKubeletServerCertificate: false });
  one({ topologyManagerPolicy: 'invalid-policy' }, 'invalid configuration: topologyManagerPolicy (--topology-manager-policy) "invalid-policy" must be one of: ["none" "best-effort" "restricted" "single-numa-node"]');
  one({ hairpinMode: 'x' }, 'invalid configuration: option "x" specified for hairpinMode (--hairpin-mode). Valid options are "none", "hairpin-veth" or "promiscuous-bridge"');
  one({ podLogsDir: 'var/log/pods' }, 'invalid configuration: pod logs path "var/log/pods" must be absolute path');
  one({ imageMaximumGCAge: '5m' }, 'invalid configuration: ImageMaximumGCAge feature gate is required for Kubelet configuration option imageMaximumGCAge');
  one({ imageMaximumGCAge: '1m' }, 'invalid configuration: imageMaximumGCAge 1m0s must be greater than imageMinimumGCAge 2m0s', { ImageMaximumGCAge: true });
  one({ memoryThrottlingFactor: 1.1 }, 'invalid configuration: memoryThrottlingFactor 1.1 must be greater than 0 and less than or equal to 1.0');
});

t.test('several errors aggregate in validation.go order', async (t) => {
  t.same(validate(30, { port: 0, eventBurst: -5, oomScoreAdj: -1001, readOnlyPort: 70000 }), {
    ok: false,
    error:
      '[invalid configuration: eventBurst (--event-burst) -5 must not be a negative number, invalid configuration: oomScoreAdj (--oom-score-adj) -1001 must be between -1000 and 1000, inclusive, invalid configuration: readOnlyPort (--read-only-port) 70000 must be between 0 and 65535, inclusive]',
    errors: [
      'invalid configuration: eventBurst (--event-burst) -5 must not be a negative number',
      'invalid configuration: oomScoreAdj (--oom-score-adj) -1001 must be between -1000 and 1000, inclusive',
      'invalid configuration: readOnlyPort (--read-only-port) 70000 must be between 0 and 65535, inclusive',
    ],
    inexact: false,
    notValidated: [],
  });
});

t.test('memorySwap.swapBehavior: UnlimitedSwap removed and NoSwap added in 1.30', async (t) => {
  t.match(validate(29, { memorySwap: { swapBehavior: 'UnlimitedSwap' } }), { ok: true });
  t.match(validate(30, { memorySwap: { swapBehavior: 'UnlimitedSwap' } }), {
    ok: false,
    error: 'invalid configuration: memorySwap.swapBehavior "UnlimitedSwap" must be one of: "", "LimitedSwap" or "NoSwap"',
  });
  t.match(validate(29, { memorySwap: { swapBehavior: 'NoSwap' } }), {
    ok: false,
    error: 'invalid configuration: memorySwap.swapBehavior "NoSwap" must be one of: "", "LimitedSwap", or "UnlimitedSwap"',
  });
  t.match(validate(30, { memorySwap: { swapBehavior: 'NoSwap' } }), { ok: true });
  t.match(validate(28, { memorySwap: { swapBehavior: 'LimitedSwap' } }, { NodeSwap: false }), {
    ok: false,
    error: 'invalid configuration: memorySwap.swapBehavior cannot be set when NodeSwap feature flag is disabled',
  });
  t.match(validate(28, { memorySwap: {} }, { NodeSwap: false }), { ok: true });
});

t.test('enforceNodeAllocatable', async (t) => {
  const ocp = (minor: number, config: Record<string, unknown>) =>
    validateKubeletConfiguration(minor, { ...TM, ...config }, gates(), { cgroupV2: true }, { flavor: 'openshift' });
  // 1.30 and older reject the -compressible values outright.
  t.match(validate(30, { enforceNodeAllocatable: ['pods', 'system-reserved-compressible'], systemReservedCgroup: '/system.slice' }), {
    ok: false,
    error: 'invalid configuration: option "system-reserved-compressible" specified for enforceNodeAllocatable (--enforce-node-allocatable). Valid options are "pods", "system-reserved", "kube-reserved", or "none"',
    inexact: false,
  });
  // The same text in the ~1.25 and 1.30 copies: exact for 1.27 too.
  t.same(validate(27, { enforceNodeAllocatable: ['kube-reserved-compressible'] }), {
    ok: false,
    error: 'invalid configuration: option "kube-reserved-compressible" specified for enforceNodeAllocatable (--enforce-node-allocatable). Valid options are "pods", "system-reserved", "kube-reserved", or "none"',
    errors: ['invalid configuration: option "kube-reserved-compressible" specified for enforceNodeAllocatable (--enforce-node-allocatable). Valid options are "pods", "system-reserved", "kube-reserved", or "none"'],
    inexact: false,
    notValidated: [],
  });
  // Upstream 1.31: not pinned; from 1.32 the newer rules (validation.go's block identical v1.32.13-v1.36.5).
  t.match(validate(31, { enforceNodeAllocatable: ['pods', 'system-reserved-compressible'] }), { undecidable: /not pinned/ });
  t.match(validate(32, { enforceNodeAllocatable: ['pods', 'system-reserved-compressible'], systemReservedCgroup: '/system.slice' }), { ok: true });
  // Upstream 1.36: accepted, with the newer rules.
  t.match(validate(36, { enforceNodeAllocatable: ['pods', 'system-reserved-compressible'], systemReservedCgroup: '/system.slice' }), { ok: true });
  t.match(validate(36, { enforceNodeAllocatable: ['pods', 'system-reserved-compressible'] }), {
    ok: false,
    error: 'invalid configuration: systemReservedCgroup (--system-reserved-cgroup) must be specified when "system-reserved" or "system-reserved-compressible" included in enforceNodeAllocatable (--enforce-node-allocatable)',
  });
  t.match(validate(36, { enforceNodeAllocatable: ['system-reserved', 'system-reserved-compressible'], systemReservedCgroup: '/system.slice' }), {
    ok: false,
    error: 'invalid configuration: both "system-reserved" and "system-reserved-compressible" cannot be specified together in enforceNodeAllocatable (--enforce-node-allocatable)',
  });
  // OpenShift carries the values (openshift/kubernetes fork ~1.30/1.31): the newest MCO kubelet.conf.
  t.match(ocp(35, { enforceNodeAllocatable: ['pods', 'system-reserved-compressible'], systemReservedCgroup: '/system.slice' }), { ok: true });
  t.match(ocp(35, { enforceNodeAllocatable: ['pods', 'system-reserved-compressible'] }), {
    ok: false,
    error: 'invalid configuration: systemReservedCgroup (--system-reserved-cgroup) must be specified when "system-reserved" or "system-reserved-compressible" contained in enforceNodeAllocatable (--enforce-node-allocatable)',
  });
  t.match(ocp(29, { enforceNodeAllocatable: ['pods', 'kube-reserved-compressible'] }), { undecidable: /OpenShift/ });
  // The older rules.
  t.match(validate(30, { enforceNodeAllocatable: ['pods', 'system-reserved'] }), {
    error: 'invalid configuration: systemReservedCgroup (--system-reserved-cgroup) must be specified when "system-reserved" contained in enforceNodeAllocatable (--enforce-node-allocatable)',
  });
  t.match(validate(30, { enforceNodeAllocatable: ['none', 'pods'] }), {
    error: 'invalid configuration: enforceNodeAllocatable (--enforce-node-allocatable) may not contain additional enforcements when "none" is specified',
  });
  t.match(validate(30, { cgroupsPerQOS: false }), {
    error: 'invalid configuration: enforceNodeAllocatable (--enforce-node-allocatable) is not supported unless cgroupsPerQOS (--cgroups-per-qos) is set to true',
  });
  t.match(validate(30, { cgroupsPerQOS: false, enforceNodeAllocatable: [] }), { ok: true });
  // Verdicts that changed after 1.30 at an unpinned minor.
  t.match(validate(30, { enforceNodeAllocatable: ['pods', 'pods'] }), { ok: true });
  t.match(validate(33, { enforceNodeAllocatable: ['pods', 'pods'] }), { undecidable: /duplicated/ });
  t.match(validate(33, { cgroupsPerQOS: false, enforceNodeAllocatable: ['none'] }), { undecidable: /none/ });
  t.match(validate(33, { cgroupsPerQOS: false, enforceNodeAllocatable: ['pods'] }), { ok: false, inexact: true });
});

t.test('reservedSystemCPUs with reserved cgroups', async (t) => {
  t.match(validate(30, { reservedSystemCPUs: '0-1', systemReservedCgroup: '/system.slice' }), {
    error: "invalid configuration: can't use reservedSystemCPUs (--reserved-cpus) with systemReservedCgroup (--system-reserved-cgroup) or kubeReservedCgroup (--kube-reserved-cgroup)",
  });
  t.match(validate(30, { reservedSystemCPUs: 'invalid-reserved-system-cpus' }), {
    error: /^invalid configuration: unable to parse reservedSystemCPUs \(--reserved-cpus\) invalid-reserved-system-cpus, error:/,
  });
  t.match(validate(30, { reservedSystemCPUs: '0-1,4' }), { ok: true });
});

t.test('failCgroupV1: field from 1.31, default true from 1.35', async (t) => {
  t.match(validate(34, {}, {}, { cgroupV2: false }), { ok: true });
  t.match(validate(35, {}, {}, { cgroupV2: false }), {
    ok: false,
    error: 'kubelet is configured to not run on a host using cgroup v1. cgroup v1 support is unsupported and will be removed in a future release',
  });
  t.match(validate(33, { failCgroupV1: true }, {}, { cgroupV2: false }), {
    ok: false,
    error: 'kubelet is configured to not run on a host using cgroup v1. cgroup v1 support is in maintenance mode',
  });
  t.match(validate(35, { failCgroupV1: false }, {}, { cgroupV2: false }), { ok: true });
  t.match(validateKubeletConfiguration(35, TM, gates(), {}), { undecidable: /cgroup version/ });
  t.match(validate(35, {}, {}, { cgroupV2: true }), { ok: true });
});

t.test('enableSystemLogQuery needs NodeLogQuery and enableSystemLogHandler', async (t) => {
  t.match(validate(30, { enableSystemLogQuery: true }), { error: 'invalid configuration: NodeLogQuery feature gate is required for enableSystemLogHandler' });
  t.match(validate(30, { enableSystemLogQuery: true, enableSystemLogHandler: false }, { NodeLogQuery: true }), {
    error: 'invalid configuration: enableSystemLogHandler is required for enableSystemLogQuery',
  });
  t.match(validate(30, { enableSystemLogQuery: true }, { NodeLogQuery: true }), { ok: true });
});

t.test('fields whose rules are not implemented are reported as not validated', async (t) => {
  t.same(validate(30, { logging: { format: 'text' }, registerWithTaints: [], maxPods: 10 }), { ok: true, notValidated: ['registerWithTaints'] });
  // For minors whose validation.go was not read, every field no implemented rule reads.
  t.same(validate(33, { clusterDomain: 'cluster.local', maxPods: 10 }), { ok: true, notValidated: ['clusterDomain'] });
  // Texts identical in the ~1.25, 1.30 and 1.37-dev copies are exact in between; others are not.
  t.match(validate(33, { port: 70000 }), { ok: false, inexact: false, error: 'invalid configuration: port (--port) 70000 must be between 1 and 65535, inclusive' });
  t.match(validate(33, { enableSystemLogQuery: true }), { ok: false, inexact: true });
  t.match(validate(28, { maxParallelImagePulls: 0 }), { ok: false, inexact: true });
  // The cpuCFSQuotaPeriod lower bound moved from 1usec to 1ms before 1.30.
  t.match(validate(27, { cpuCFSQuotaPeriod: '500us' }, { CustomCPUCFSQuotaPeriod: true }), { undecidable: /1usec to 1ms/ });
  t.match(validate(30, { cpuCFSQuotaPeriod: '500us' }, { CustomCPUCFSQuotaPeriod: true }), {
    error: 'invalid configuration: cpuCFSQuotaPeriod (--cpu-cfs-quota-period) {500µs} must be between 1ms and 1sec, inclusive',
  });
  // TopologyManager gate checks before it went GA (1.27).
  t.match(validate(25, { topologyManagerPolicy: 'best-effort' }, { TopologyManager: false }), {
    error: 'invalid configuration: topologyManagerPolicy best-effort requires feature gate TopologyManager',
    inexact: false,
  });
  // Newer kubelets added rules that 1.30 lacks.
  t.match(validate(30, { containerLogMaxFiles: 1 }), { ok: true });
  t.match(validate(34, { containerLogMaxFiles: 1 }), { undecidable: /containerLogMaxFiles/ });
});

t.test('OpenShift kubelet.conf files validate cleanly at their minor with their gates', async (t) => {
  const cases: [string, number][] = [
    ['ocp-4.14-aws-worker', 27],
    ['ocp-4.15-aws-worker', 28],
    ['ocp-4.16-aws-worker', 29],
    ['ocp-4.21-aws-worker-config-dir', 34],
    ['ocp-4.22-aws-worker-crio-provider-missing', 35],
  ];
  for (const [node, minor] of cases) {
    const loaded = loadKubeletConfigFile(minor, '/etc/kubernetes/kubelet.conf', readFileSync(`test/fixtures/nodes/${node}/root/etc/kubernetes/kubelet.conf`));
    if (!('ok' in loaded) || !loaded.ok) {
      t.fail(node);
      continue;
    }
    const set = loaded.config.featureGates as Record<string, boolean>;
    const r = validateKubeletConfiguration(minor, loaded.config, (g) => set[g] ?? DEFAULT_ON.has(g), { cgroupV2: true }, { flavor: 'openshift' });
    t.match(r, { ok: true }, node);
    t.ok('notValidated' in r && r.notValidated.includes('featureGates'), `${node}: featureGates left to the gate check`);
  }
});

t.test('gated fields a newer kubeadm writes: fatal while their gates are off (kubelet 1.34 log)', async (t) => {
  const config = { crashLoopBackOff: { maxContainerRestartPeriod: '5m0s' }, imagePullCredentialsVerificationPolicy: 'NeverVerifyPreloadedImages' };
  t.match(validate(34, config), {
    ok: false,
    error:
      '[invalid configuration: FeatureGate KubeletCrashLoopBackOffMax not enabled, CrashLoopBackOff.MaxContainerRestartPeriod must not be set, invalid configuration: `imagePullCredentialsVerificationPolicy` must not be set if KubeletEnsureSecretPulledImages feature gate is not enabled]',
    inexact: false, // the 1.34 log and the 1.37-dev code agree
  });
  const on = { KubeletCrashLoopBackOffMax: true, KubeletEnsureSecretPulledImages: true };
  t.match(validate(34, config, on), { ok: true, notValidated: [] });
  t.match(validate(35, { crashLoopBackOff: { maxContainerRestartPeriod: '500ms' }, imagePullCredentialsVerificationPolicy: 'Sometimes' }, on), {
    ok: false,
    errors: [
      'invalid configuration: CrashLoopBackOff.MaxContainerRestartPeriod (got: 0.5 seconds) must be set between 1s and 300s',
      'invalid configuration: option "Sometimes" specified for imagePullCredentialsVerificationPolicy. Valid options are "NeverVerify", "NeverVerifyPreloadedImages", "NeverVerifyAllowlistedImages" or "AlwaysVerify"',
    ],
    inexact: true,
  });
  // Kubelet 1.32 does not know imagePullCredentialsVerificationPolicy: it is dropped at decoding, never validated.
  t.match(validate(32, { crashLoopBackOff: { maxContainerRestartPeriod: '5m0s' } }), { ok: false, errors: ['invalid configuration: FeatureGate KubeletCrashLoopBackOffMax not enabled, CrashLoopBackOff.MaxContainerRestartPeriod must not be set'] });
});

t.test('a kubeadm-written config.yaml validates at 1.30 and at 1.24', async (t) => {
  const kubeadm = {
    authentication: { anonymous: { enabled: false }, webhook: { cacheTTL: '0s', enabled: true }, x509: { clientCAFile: '/etc/kubernetes/pki/ca.crt' } },
    authorization: { mode: 'Webhook' },
    cgroupDriver: 'systemd',
    clusterDNS: ['10.96.0.10'],
    clusterDomain: 'cluster.local',
    containerRuntimeEndpoint: '',
    healthzBindAddress: '127.0.0.1',
    healthzPort: 10248,
    imageMinimumGCAge: '0s',
    memorySwap: {},
    rotateCertificates: true,
    shutdownGracePeriod: '0s',
    shutdownGracePeriodCriticalPods: '0s',
    staticPodPath: '/etc/kubernetes/manifests',
  };
  t.same(validate(30, kubeadm), { ok: true, notValidated: [] });
  const old = validate(24, kubeadm);
  t.match(old, { ok: true });
  t.ok('notValidated' in old && old.notValidated.includes('authentication'), 'fields with no implemented rule are listed for 1.24');
});

// pkg/kubelet/apis/config/validation/validation.go and v1beta1/defaults.go at v1.37.2.
t.test('1.37: memoryThrottlingFactor has no default; with MemoryQoS on (its 1.37 default) nil passes, with it off only 0.9 may stay', async (t) => {
  t.equal(applyKubeletConfigDefaults(37, {})!.memoryThrottlingFactor, undefined);
  t.equal(applyKubeletConfigDefaults(36, {})!.memoryThrottlingFactor, 0.9);
  t.match(validate(37, {}, { MemoryQoS: true }), { ok: true });
  t.match(validate(36, {}, { MemoryQoS: true }), { ok: true }, 'defaulted to 0.9 before 1.37');
  t.match(validate(37, { memoryThrottlingFactor: 0.9 }, { MemoryQoS: false }), { ok: true }, 'the former default');
  t.match(validate(37, { memoryThrottlingFactor: 0.8 }, { MemoryQoS: false }), {
    ok: false,
    error: 'invalid configuration: memoryThrottlingFactor must not be set when MemoryQoS feature gate is disabled',
    inexact: false,
  });
  t.match(validate(36, { memoryThrottlingFactor: 0.8 }, { MemoryQoS: false }), { ok: true });
  t.match(validate(37, { memoryThrottlingFactor: 1.5 }, { MemoryQoS: true }), { ok: false, error: 'invalid configuration: memoryThrottlingFactor 1.5 must be greater than 0 and less than or equal to 1.0' });
});

t.test('1.37: defaultPodSysctls needs its gate, namespaced valid names, no duplicates after normalizing', async (t) => {
  const on = { DefaultPodSysctls: true };
  t.match(validate(37, { defaultPodSysctls: { 'net.core.somaxconn': '1024' } }), {
    ok: false,
    error: 'invalid configuration: DefaultPodSysctls feature gate is required for Kubelet configuration option defaultPodSysctls',
  });
  t.match(validate(37, { defaultPodSysctls: {} }), { ok: true }, 'an empty map is not set');
  t.match(validate(37, { defaultPodSysctls: { 'net.core.somaxconn': '1024', 'kernel.shm_rmid_forced': '1', 'user.max_user_namespaces': '0' } }, on), { ok: true });
  t.match(validate(37, { defaultPodSysctls: { 'Net.core': '1' } }, on), { ok: false, error: 'invalid configuration: "Net.core" is not a valid sysctl name for defaultPodSysctls', inexact: false });
  t.match(validate(37, { defaultPodSysctls: { 'vm.swappiness': '1' } }, on), { ok: false, error: 'invalid configuration: "vm.swappiness" is not known to be namespaced for defaultPodSysctls' });
  t.match(validate(37, { defaultPodSysctls: { 'net.ipv4.ip_forward': '1', 'net/ipv4/ip_forward': '1' } }, on), {
    ok: false,
    error: 'invalid configuration: duplicate sysctl "net.ipv4.ip_forward" found in defaultPodSysctls',
  });
  t.match(validate(37, { defaultPodSysctls: { 'vm.a': '1', 'vm.b': '1' } }, on), { ok: false, inexact: true }, 'two errors in Go map order');
  t.match(validate(36, { defaultPodSysctls: { 'net.core.somaxconn': '1' } }), { ok: true }, 'not a 1.36 field: no rule');
});
