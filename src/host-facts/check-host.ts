/**
 * Pure checks of kubelet's host-dependent start conditions: cgroup v1 with failCgroupV1, the CRI
 * socket, --reserved-cpus against the online CPUs, swap with failSwapOn, and the kernel tunables
 * with protectKernelDefaults. Inputs: the effective KubeletConfiguration values (defaults already
 * applied by the caller; defaultsFor() gives kubelet's), the minor and the HostFacts. No I/O.
 *
 * Outcomes come in kubelet's order (cmd/kubelet/app/server.go, 1.27+): ValidateKubeletConfiguration
 * (failCgroupV1) → the CRI connection → getReservedCPUs → NewContainerManager (swap) → after
 * "Started kubelet", ContainerManager.Start (kernel tunables). Kubelet prints only the first
 * failure; the others would follow once it is fixed. Sources: data.ts PROVENANCE.
 */
import { isFailure, type PreconditionFailure, type PreconditionOutcome } from '../systemd-preconditions/outcome.js';
import { cpusetMembers, formatCpuset } from '../kubernetes/cpuset.js';
import { aggregateError } from '../kubernetes/aggregate.js';
import { isModelledMinor, MODELLED_RANGE } from '../kubelet/data/minors.js';
import { cgroupV1RuleFor, criFatalAtStart, KERNEL_TUNABLES, swapTextFor } from './data.js';
import type { HostFacts } from './types.js';

export interface HostKubeletConfig {
  readonly failSwapOn: boolean;
  /** Undefined on minors without the field (<= 1.30). */
  readonly failCgroupV1?: boolean;
  readonly protectKernelDefaults: boolean;
  readonly containerRuntimeEndpoint: string;
  /** --reserved-cpus / reservedSystemCPUs; "" when unset. */
  readonly reservedSystemCPUs: string;
}

export interface HostCheckInput {
  readonly minor: number;
  readonly config: HostKubeletConfig;
  readonly facts: HostFacts;
}

export const HOST_FINDING = {
  cgroupV1: 'host-cgroup-v1',
  criSocket: 'host-cri-socket-missing',
  reservedCpus: 'host-reserved-cpus-offline',
  swap: 'host-swap-on',
  kernelTunables: 'host-kernel-tunables',
} as const;

/** Kubelet's defaults for the values this module reads (KubeletConfiguration v1beta1 defaults). */
export function defaultsFor(minor: number): Omit<HostKubeletConfig, 'containerRuntimeEndpoint'> | undefined {
  if (!isModelledMinor(minor)) return undefined;
  const rule = cgroupV1RuleFor(minor);
  return {
    failSwapOn: true,
    ...(rule ? { failCgroupV1: rule.defaultFailCgroupV1 } : {}),
    protectKernelDefaults: false,
    reservedSystemCPUs: '',
  };
}

export function checkHostPreconditions(input: HostCheckInput): PreconditionOutcome[] {
  const { minor, config, facts } = input;
  if (!isModelledMinor(minor)) return [{ undecidable: `kubelet 1.${minor} is outside the modelled versions (${MODELLED_RANGE})` }];
  return [
    cgroupV1Outcome(minor, config, facts),
    criOutcome(minor, config, facts),
    reservedCpusOutcome(config, facts),
    swapOutcome(minor, config, facts),
    kernelTunablesOutcome(config, facts),
  ].filter((o): o is PreconditionOutcome => o !== undefined);
}

/** The outcome kubelet would show first (its first failure), if any check fails for certain. */
export function firstFailure(outcomes: readonly PreconditionOutcome[]): PreconditionFailure | undefined {
  return outcomes.find(isFailure);
}

// pkg/kubelet/apis/config/validation/validation_linux.go, 1.31+; aggregated into
// "failed to validate kubelet configuration, error: <errs>, path: <config dump>" (server.go).
function cgroupV1Outcome(minor: number, config: HostKubeletConfig, facts: HostFacts): PreconditionOutcome | undefined {
  const rule = cgroupV1RuleFor(minor);
  if (!rule || config.failCgroupV1 !== true) return undefined;
  if (facts.cgroupVersion === undefined) return { undecidable: 'the cgroup version of the host was not checked', findingId: HOST_FINDING.cgroupV1 };
  if (facts.cgroupVersion === 2) return undefined;
  return {
    findingId: HOST_FINDING.cgroupV1,
    kubeletError: `failed to validate kubelet configuration, error: ${rule.text}`,
    message: `Kubelet 1.${minor} refuses to start on this cgroup v1 host because failCgroupV1 is true${minor >= 35 ? ' (the default since 1.35)' : ''}: "${rule.text}". Kubelet's line continues with ", path: " and its configuration; other validation errors, if any, are listed with it.`,
    remediation: 'Boot the host with the unified cgroup hierarchy (systemd.unified_cgroup_hierarchy=1, RHEL 8: also cgroup_no_v1=all), or set failCgroupV1: false in the KubeletConfiguration while cgroup v1 is still supported.',
    exitStatus: 1,
    ...(rule.verified ? {} : { inexact: true }),
  };
}

// cmd/kubelet/app/server.go → PreInitRuntimeService → cri-client validateServiceConnection (1.27+ fatal, #115102).
function criOutcome(minor: number, config: HostKubeletConfig, facts: HostFacts): PreconditionOutcome | undefined {
  const fact = facts.criSocket;
  if (!fact) return { undecidable: 'the CRI socket was not checked', findingId: HOST_FINDING.criSocket };
  if (fact.kind === 'socket' || fact.kind === 'not-unix') return undefined;
  if (fact.kind === 'error') return { undecidable: `node-check could not inspect the CRI socket ${fact.path}: ${fact.code}`, findingId: HOST_FINDING.criSocket, path: fact.path };
  const dialError = fact.kind === 'missing' ? 'connect: no such file or directory' : 'connect: connection refused';
  const grpc = `rpc error: code = Unavailable desc = connection error: desc = "transport: Error while dialing: dial unix ${fact.path}: ${dialError}"`;
  const fatal = criFatalAtStart(minor)!;
  return {
    findingId: HOST_FINDING.criSocket,
    kubeletError: fatal ? `failed to run Kubelet: validate service connection: validate CRI v1 runtime API for endpoint ${JSON.stringify(config.containerRuntimeEndpoint)}: ${grpc}` : grpc,
    message:
      `The container runtime endpoint ${fact.path} ${fact.kind === 'missing' ? 'does not exist' : 'is not a socket'}` +
      `${fatal ? `; kubelet 1.${minor} checks the CRI connection once at start and exits with status 1 on any error` : `; kubelet 1.${minor} fails when it first talks to the runtime`}. ` +
      'If the runtime is still starting (crio.service, containerd.service) this fixes itself on a later restart of kubelet; if it stays down, kubelet never starts.',
    remediation: `Start the container runtime (systemctl start crio or containerd) and check that it listens on ${fact.path}; check --container-runtime-endpoint / containerRuntimeEndpoint.`,
    path: fact.path,
    exitStatus: 1,
    // The gRPC wording differs between grpc-go versions, and a runtime that comes up later makes it pass.
    inexact: true,
  };
}

// cmd/kubelet/app/server.go getReservedCPUs (all modelled minors).
function reservedCpusOutcome(config: HostKubeletConfig, facts: HostFacts): PreconditionOutcome | undefined {
  if (config.reservedSystemCPUs === '') return undefined;
  const reserved = cpusetMembers(config.reservedSystemCPUs);
  if (!reserved) return { undecidable: `--reserved-cpus "${config.reservedSystemCPUs}" does not parse as a CPU list; kubelet's parse error is not modelled`, findingId: HOST_FINDING.reservedCpus };
  if (facts.onlineCpus === undefined) return { undecidable: 'the online CPUs of the host were not checked', findingId: HOST_FINDING.reservedCpus };
  const online = cpusetMembers(facts.onlineCpus);
  if (!online) return { undecidable: `the host's online CPU list "${facts.onlineCpus}" does not parse`, findingId: HOST_FINDING.reservedCpus };
  const onlineSet = new Set(online);
  const missing = reserved.filter((cpu) => !onlineSet.has(cpu));
  if (missing.length === 0) return undefined;
  const text = `reserved-cpus: ${config.reservedSystemCPUs} is not a subset of online-cpus: ${formatCpuset(online)}`;
  return {
    findingId: HOST_FINDING.reservedCpus,
    kubeletError: `failed to run Kubelet: ${text}`,
    message: `--reserved-cpus / reservedSystemCPUs names CPU${missing.length === 1 ? '' : 's'} ${formatCpuset(missing)}, which ${missing.length === 1 ? 'is' : 'are'} not online (online: ${formatCpuset(online)}); kubelet exits with status 1.`,
    remediation: 'Reserve only online CPUs (the kubelet config is often rendered for another machine size), or bring the CPUs online (maxcpus=, nr_cpus=, CPU hotplug).',
    exitStatus: 1,
  };
}

// pkg/kubelet/cm/container_manager_linux.go NewContainerManager, called from run().
function swapOutcome(minor: number, config: HostKubeletConfig, facts: HostFacts): PreconditionOutcome | undefined {
  if (!config.failSwapOn) return undefined;
  const swaps = facts.swaps;
  if (!swaps) return { undecidable: '/proc/swaps was not checked', findingId: HOST_FINDING.swap };
  if (!swaps.present || swaps.lines.length <= 1) return undefined;
  const rule = swapTextFor(minor)!;
  const text =
    rule.form === 'old'
      ? `running with swap on is not supported, please disable swap! or set --fail-swap-on flag to false. /proc/swaps contained: [${swaps.lines.join(' ')}]`
      : 'running with swap on is not supported, please disable swap or set --fail-swap-on flag to false';
  return {
    findingId: HOST_FINDING.swap,
    kubeletError: `failed to run Kubelet: ${text}`,
    message: `Swap is on (${swaps.lines.slice(1).map((l) => l.split(/\s+/)[0]).join(', ')}) and failSwapOn is true (the default): kubelet 1.${minor} exits with status 1.`,
    remediation: 'Turn swap off (swapoff -a, and remove it from /etc/fstab, zram-generator or the swap unit), or set failSwapOn: false (with memorySwap.swapBehavior on 1.28+ if pods may use it).',
    path: '/proc/swaps',
    exitStatus: 1,
    ...(rule.verified ? {} : { inexact: true }),
  };
}

// pkg/kubelet/cm/container_manager_linux.go setupKernelTunables(KernelTunableError), from
// ContainerManager.Start after "Started kubelet": "Failed to start ContainerManager" err=..., exit 1.
function kernelTunablesOutcome(config: HostKubeletConfig, facts: HostFacts): PreconditionOutcome | undefined {
  if (!config.protectKernelDefaults) return undefined;
  const sysctls = facts.sysctls;
  if (!sysctls) return { undecidable: 'the kernel tunables were not checked', findingId: HOST_FINDING.kernelTunables };
  const errors: string[] = [];
  const wrong: string[] = [];
  for (const [name, expected] of KERNEL_TUNABLES) {
    const fact = sysctls[name];
    if (!fact) return { undecidable: `sysctl ${name} was not checked`, findingId: HOST_FINDING.kernelTunables };
    if ('error' in fact) {
      errors.push(fact.error);
      wrong.push(`${name.replace(/\//g, '.')} (unreadable)`);
    } else if (fact.value !== expected) {
      errors.push(`invalid kernel flag: ${name}, expected value: ${expected}, actual value: ${fact.value}`);
      wrong.push(`${name.replace(/\//g, '.')} = ${fact.value} (kubelet needs ${expected})`);
    }
  }
  if (errors.length === 0) return undefined;
  return {
    findingId: HOST_FINDING.kernelTunables,
    // utilerrors aggregate: one error alone, several in brackets; their order is Go map order.
    kubeletError: aggregateError(errors),
    message: `protectKernelDefaults is true and ${wrong.join(', ')}: kubelet starts, then a few seconds later logs "Failed to start ContainerManager" with this error and exits with status 1.`,
    remediation: `Set the sysctls in /etc/sysctl.d/ (${KERNEL_TUNABLES.map(([n, v]) => `${n.replace(/\//g, '.')}=${v}`).join(', ')}) and run sysctl --system, or set protectKernelDefaults: false so that kubelet sets them itself.`,
    exitStatus: 1,
    ...(new Set(errors).size > 1 ? { inexact: true } : {}),
  };
}
