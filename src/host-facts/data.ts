/**
 * Per-minor kubelet knowledge for the host-dependent start checks. Data only (the rules are in
 * check-host.ts). Every lookup returns undefined for a minor that src/kubelet/data/minors.ts does not model.
 */

import { isModelledMinor } from '../kubelet/data/minors.js';

export const PROVENANCE = {
  swap: [
    'kubernetes/kubernetes pkg/kubelet/cm/container_manager_linux.go NewContainerManager at v1.24.17-v1.30.14 (os.ReadFile of /proc/swaps, "File does not exist, assuming that swap is disabled"): "running with swap on is not supported, please disable swap! or set --fail-swap-on flag to false. /proc/swaps contained: %v" (swapLines).',
    'container_manager_linux.go at v1.31.14-v1.37.2 (swap.IsSwapOn(), kubernetes/kubernetes PR #124060): "running with swap on is not supported, please disable swap or set --fail-swap-on flag to false" (no /proc/swaps contents; pkg/kubelet/util/swap logs them as "Swap is on"). The tags settle 1.31-1.34 too; swapTextFor still marks them unverified (docs/unverified.md).',
    'Both are returned from run() and printed as "failed to run Kubelet: <err>" (cmd/kubelet/app/server.go; the journal line via component-base cli/run.go "command failed").',
  ],
  cgroupV1: [
    'k8s.io/kubelet config/v1beta1/types.go (module k8s.io/kubelet, tags v0.24.0..v0.36.5): failCgroupV1 exists from v0.31; "Default: false" at v0.31.14 and v0.34.12, "Default: true" at v0.35.8 and v0.36.5.',
    'kubernetes/kubernetes pkg/kubelet/apis/config/validation/validation_linux.go: only FailCgroupV1 at v1.31.14, + singleProcessOOMKill from v1.32.13, + userNamespaces from v1.33.13; "kubelet is configured to not run on a host using cgroup v1. cgroup v1 support is in maintenance mode" at v1.31.14-v1.34.12.',
    '1.35+: "kubelet is configured to not run on a host using cgroup v1. cgroup v1 support is unsupported and will be removed in a future release" (validation_linux.go at v1.35.8-v1.37.2), wrapped by server.go as "failed to validate kubelet configuration, error: ". cgroupV1RuleFor still marks 1.34 unverified though v1.34.12 settles it (docs/unverified.md).',
  ],
  kernelTunables: [
    'kubernetes/kubernetes pkg/kubelet/cm/container_manager_linux.go setupKernelTunables (v1.24.17-v1.37.2) and component-helpers node/util/sysctl: the same six sysctls and values in every version read; errors "invalid kernel flag: %v, expected value: %v, actual value: %v", aggregated (map order) and logged after start as "Failed to start ContainerManager" err=..., exit 1.',
  ],
  reservedCpus: [
    'kubernetes/kubernetes cmd/kubelet/app/server.go getReservedCPUs at v1.24.17-v1.37.2 (old and new cpuset packages): "reserved-cpus: %s is not a subset of online-cpus: %s" (the flag value as given, cAdvisor\'s CPU set String()), wrapped "failed to run Kubelet: ".',
  ],
  cri: [
    '1.27+ (kubernetes/kubernetes PR #115102) any error of the first CRI Version call is fatal: "failed to run Kubelet: validate service connection: validate CRI v1 runtime API for endpoint %q: <grpc error>" (pkg/kubelet/cri/remote/remote_runtime.go at v1.27.16, k8s.io/cri-client pkg/remote_runtime.go from v0.31); the gRPC dial text is from crictl logs [I]. v1.26.15 remote_runtime.go also has validateServiceConnection (with the v1alpha2 fallback); before 1.27 the place and wording of the failure are not modelled.',
  ],
} as const;

export interface SwapText {
  /** "old": with "! ... /proc/swaps contained: [...]"; "new": without the contents. */
  readonly form: 'old' | 'new';
  readonly verified: boolean;
}

export function swapTextFor(minor: number): SwapText | undefined {
  if (!isModelledMinor(minor)) return undefined;
  if (minor <= 30) return { form: 'old', verified: true };
  return { form: 'new', verified: minor >= 35 };
}

export interface CgroupV1Rule {
  /** failCgroupV1's default when not set. */
  readonly defaultFailCgroupV1: boolean;
  readonly text: string;
  readonly verified: boolean;
}

const CGROUP_V1_PREFIX = 'kubelet is configured to not run on a host using cgroup v1. cgroup v1 support is';

/** Undefined for minors without failCgroupV1 (<= 1.30: a cgroup v1 host never stops kubelet here). */
export function cgroupV1RuleFor(minor: number): CgroupV1Rule | undefined {
  if (!isModelledMinor(minor) || minor < 31) return undefined;
  if (minor <= 34) return { defaultFailCgroupV1: false, text: `${CGROUP_V1_PREFIX} in maintenance mode`, verified: minor <= 33 };
  // 1.35-1.37: also pkg/kubelet/apis/config/validation/validation_linux.go at v1.36.5 and v1.37.2.
  return { defaultFailCgroupV1: true, text: `${CGROUP_V1_PREFIX} unsupported and will be removed in a future release`, verified: true };
}

/** utilsysctl names and the values kubelet requires with protectKernelDefaults (1.24..1.37 alike). */
export const KERNEL_TUNABLES: readonly (readonly [string, number])[] = [
  ['vm/overcommit_memory', 1],
  ['vm/panic_on_oom', 0],
  ['kernel/panic', 10],
  ['kernel/panic_on_oops', 1],
  ['kernel/keys/root_maxkeys', 1000000],
  ['kernel/keys/root_maxbytes', 25000000],
];

/** Whether kubelet validates the CRI connection fatally at start (any error, incl. Unavailable). */
export function criFatalAtStart(minor: number): boolean | undefined {
  if (!isModelledMinor(minor)) return undefined;
  return minor >= 27;
}
