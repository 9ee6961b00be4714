/**
 * Facts about the running host that decide kubelet's host-dependent start checks (swap, cgroup
 * version, kernel tunables, the CRI socket, online CPUs, the cloud machine). Plain data, gathered only on the live
 * root "/" by src/discover/host-facts.ts; for any other root every fact is `notChecked`.
 */

/** /proc/swaps: `lines` is what kubelet splits (content with surrounding space trimmed, split on "\n"). */
export type SwapFact = { readonly present: true; readonly lines: readonly string[] } | { readonly present: false };

/** A sysctl as kubelet's GetSysctl reads it (strconv.Atoi of the trimmed file), or the Go error text. */
export type SysctlFact = { readonly value: number } | { readonly error: string };

export type CriSocketFact =
  /** The endpoint is not a unix socket path node-check can look at (tcp, npipe, empty). */
  | { readonly kind: 'not-unix'; readonly endpoint: string }
  | { readonly kind: 'socket' | 'missing' | 'not-socket'; readonly endpoint: string; readonly path: string }
  | { readonly kind: 'error'; readonly endpoint: string; readonly path: string; readonly code: string };

/** The files kubelet's own cloud detection reads (src/host-facts/cloud-machine.ts CLOUD_MACHINE_FILES). */
export type CloudMachineFile = 'hypervisorUuid' | 'productUuid' | 'boardAssetTag' | 'productName';

/** Each file's text as read, or the errno code of the failed read. */
export type CloudMachineFact = Readonly<Partial<Record<CloudMachineFile, { readonly text: string } | { readonly code: string }>>>;

export interface HostFacts {
  readonly swaps?: SwapFact;
  /** 2 when /sys/fs/cgroup is cgroup2fs (libcontainer IsCgroup2UnifiedMode), else 1. */
  readonly cgroupVersion?: 1 | 2;
  /** Keyed by kubelet's names: "vm/overcommit_memory", "kernel/keys/root_maxkeys", ... */
  readonly sysctls?: Readonly<Record<string, SysctlFact>>;
  readonly criSocket?: CriSocketFact;
  /** /sys/devices/system/cpu/online, trimmed ("0-3,8"). */
  readonly onlineCpus?: string;
  /** What the machine shows of the cloud it runs on, for in-tree --cloud-provider values. */
  readonly cloudMachine?: CloudMachineFact;
  /**
   * For each non-default cgroupRoot kubelet may be given: whether the directory the cgroupfs driver
   * validates exists (memory/<root> on cgroup v1, <root> on v2, under /sys/fs/cgroup), undefined
   * when stat failed otherwise.
   */
  readonly cgroupRoots?: Readonly<Record<string, boolean | undefined>>;
}

export type HostFactName = keyof HostFacts;

export interface HostFactsResult {
  readonly facts: HostFacts;
  readonly notChecked: readonly { readonly fact: HostFactName; readonly reason: string }[];
}
