/**
 * Per-minor kubelet knowledge for the host-dependent start checks. Data only (the rules are in
 * check-host.ts). Every lookup returns undefined for a minor that src/kubelet/data/minors.ts does not model.
 * (Kept next to its rules; the lead may move it to src/kubelet/data/.)
 */

import { isModelledMinor } from '../kubelet/data/minors.js';

export const PROVENANCE = {
  swap: [
    'kubernetes/kubernetes pkg/kubelet/cm/container_manager_linux.go NewContainerManager, index ids 7785341280, 39931533453, 53973002259 (os.ReadFile, "File does not exist, assuming that swap is disabled") and container_manager_linux_test.go id 1214797889 (ioutil + golang/mock, <=1.29): "running with swap on is not supported, please disable swap! or set --fail-swap-on flag to false. /proc/swaps contained: %v" (swapLines); the same line is in the diff context of kubernetes/kubernetes #122241 (Dec 2023, 1.30 development).',
    'newest: container_manager_linux.go id 6101079 (NewContainerManager(ctx, ...), swap.IsSwapOn()): "running with swap on is not supported, please disable swap or set --fail-swap-on flag to false" (no /proc/swaps contents; pkg/kubelet/util/swap logs them as "Swap is on"); third-party kubelet v1.36.1 log shows this text. The change came with kubernetes/kubernetes #124060 (swap.IsSwapOn, tmpfs noswap; still under review 2024-05-13, after the 1.30 release, so 1.31), whose reviewed diff still had "please disable swap! or set ..." without the contents: whether 1.31-1.34 print the "!" is NOT pinned (verified: false). The "!"-less text is in a kubelet e2e log of 2025-09-20 (1.35 development) and a v1.36.1 log, so 1.35 and 1.36 are taken as verified.',
    'Both are returned from run() and printed as "failed to run Kubelet: <err>" (third-party logs with run.go:72/74 "command failed").',
  ],
  cgroupV1: [
    'k8s.io/kubelet config/v1beta1/types.go at tags v0.24.0..v0.36.0 (/work/.mirror/kubernetes+kubelet): failCgroupV1 exists from v0.31.0; "Default: false" v0.31..v0.34, "Default: true" v0.35, v0.36.',
    'kubernetes/kubernetes pkg/kubelet/apis/config/validation/validation_linux.go, index ids 118416587 (1.31: only FailCgroupV1), 79448483 (1.32: + singleProcessOOMKill), 378191168 (1.33+: + userNamespaces): "kubelet is configured to not run on a host using cgroup v1. cgroup v1 support is in maintenance mode".',
    '1.35+: "kubelet is configured to not run on a host using cgroup v1. cgroup v1 support is unsupported and will be removed in a future release" (third-party log of a 1.35 kubelet, index id 22632939288, with the prefix "failed to validate kubelet configuration, error: "). 1.34 and 1.36 wording inferred.',
  ],
  kernelTunables: [
    'kubernetes/kubernetes pkg/kubelet/cm/container_manager_linux.go setupKernelTunables (ids 5303967 old, 7785341280, 15509647321, 6101079 newest) and component-helpers/node/util/sysctl (ids 2637195865, 199104837): the same six sysctls and values in every version read; errors "invalid kernel flag: %v, expected value: %v, actual value: %v", aggregated (map order) and logged after start as "Failed to start ContainerManager" err=..., exit 1.',
  ],
  reservedCpus: [
    'kubernetes/kubernetes cmd/kubelet/app/server.go getReservedCPUs (ids 5179783033, 46468843, 6588515735; old and new cpuset packages): "reserved-cpus: %s is not a subset of online-cpus: %s" (the flag value as given, cAdvisor\'s CPU set String()), wrapped "failed to run Kubelet: ".',
  ],
  cri: [
    'shared/research/kubelet-start-preconditions.md §6: 1.27+ (kubernetes/kubernetes #115102) any error of the first CRI Version call is fatal: "failed to run Kubelet: validate service connection: validate CRI v1 runtime API for endpoint %q: <grpc error>"; the gRPC dial text is from crictl logs [I]. Before 1.27 the place and wording of the failure were not pinned.',
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
