/**
 * v1beta1 defaults (SetDefaults_KubeletConfiguration, pkg/kubelet/apis/config/v1beta1/defaults.go)
 * for the fields node-check's validation rules read. Only these are modelled.
 *
 * `when`: 'zero' = Go tests the value against its zero value (a non-pointer field: an explicit 0,
 * "" or "0s" is replaced too); 'nil' = the field is a pointer, slice or map and only an absent
 * (or null) value is replaced. Which one applies follows from the Go type in
 * kubelet-config-fields.ts (generated from kubernetes/kubelet config/v1beta1/types.go per tag).
 *
 * Provenance: the "Default: …" lines of kubernetes/kubelet config/v1beta1/types.go at v0.24.0,
 * v0.30.0, v0.35.0 (compared by script) and pkg/kubelet/apis/config/v1beta1/defaults.go of
 * kubernetes/kubernetes at the locked tags (serializeImagePulls defaulting from
 * maxParallelImagePulls; at v1.34.12 podLogsDir "/var/log/pods", failCgroupV1 false,
 * crashLoopBackOff / imagePullCredentialsVerificationPolicy defaulted only with their gates on,
 * which node-check leaves unset).
 * Changes by minor: 1.27 raised eventRecordQPS 5->50, eventBurst 10->100, kubeAPIQPS 5->50,
 * kubeAPIBurst 10->100 (types.go docs v0.24.0 vs v0.30.0) and added containerRuntimeEndpoint; 1.30
 * added containerLogMaxWorkers, containerLogMonitorInterval and podLogsDir; failCgroupV1 (1.31+)
 * defaults to false until 1.34 and to true from 1.35 (types.go v0.34.0 / v0.35.0 docs).
 * memoryThrottlingFactor was 0.8 in 1.24's docs and 0.9 in 1.30's: both valid, so 0.9 is used.
 */
export interface DefaultRule {
  readonly field: string;
  readonly value: unknown;
  readonly since?: number;
  readonly until?: number;
}

export const KUBELET_CONFIG_DEFAULTS: readonly DefaultRule[] = [
  { field: 'nodeLeaseDurationSeconds', value: 40 },
  { field: 'cgroupsPerQOS', value: true },
  { field: 'enforceNodeAllocatable', value: ['pods'] },
  { field: 'eventBurst', value: 10, until: 26 },
  { field: 'eventBurst', value: 100, since: 27 },
  { field: 'eventRecordQPS', value: 5, until: 26 },
  { field: 'eventRecordQPS', value: 50, since: 27 },
  { field: 'kubeAPIBurst', value: 10, until: 26 },
  { field: 'kubeAPIBurst', value: 100, since: 27 },
  { field: 'kubeAPIQPS', value: 5, until: 26 },
  { field: 'kubeAPIQPS', value: 50, since: 27 },
  { field: 'healthzPort', value: 10248 },
  { field: 'cpuCFSQuotaPeriod', value: '100ms' },
  { field: 'imageGCHighThresholdPercent', value: 85 },
  { field: 'imageGCLowThresholdPercent', value: 80 },
  { field: 'imageMinimumGCAge', value: '2m0s' },
  { field: 'iptablesDropBit', value: 15 },
  { field: 'iptablesMasqueradeBit', value: 14 },
  { field: 'nodeStatusMaxImages', value: 50 },
  { field: 'maxOpenFiles', value: 1000000 },
  { field: 'maxPods', value: 110 },
  { field: 'oomScoreAdj', value: -999 },
  { field: 'port', value: 10250 },
  { field: 'registryBurst', value: 10 },
  { field: 'registryPullQPS', value: 5 },
  { field: 'topologyManagerPolicy', value: 'none' },
  { field: 'topologyManagerScope', value: 'container' },
  { field: 'hairpinMode', value: 'promiscuous-bridge' },
  // 1.37 (pkg/kubelet/apis/config/v1beta1/defaults.go at v1.37.2) no longer defaults it: nil = memory.high unset.
  { field: 'memoryThrottlingFactor', value: 0.9, until: 36 },
  { field: 'enableSystemLogHandler', value: true },
  { field: 'containerRuntimeEndpoint', value: 'unix:///run/containerd/containerd.sock', since: 27 },
  { field: 'containerLogMaxWorkers', value: 1, since: 30 },
  { field: 'containerLogMonitorInterval', value: '10s', since: 30 },
  { field: 'podLogsDir', value: '/var/log/pods', since: 30 },
  { field: 'failCgroupV1', value: false, since: 31, until: 34 },
  { field: 'failCgroupV1', value: true, since: 35 },
];
