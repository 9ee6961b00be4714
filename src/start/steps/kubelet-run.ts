/**
 * Kubelet's Run() and RunKubelet (cmd/kubelet/app/server.go, 1.24-1.36), in the order of the
 * start-sequence table (src/kubelet/data/start-sequence.ts): the in-tree cloud provider (<=1.30),
 * the CRI connection (fatal from 1.27), --reserved-cpus against the online CPUs, the
 * --kube-reserved / --system-reserved quantities, swap (the container manager), --node-ip, and
 * NewMainKubelet's cloud-provider check. Offline rules come from src/kubelet/node-setup/, host
 * facts (the machine's cloud for an in-tree provider, too) from src/host-facts/ and only for the live root: with another root they are listed as not
 * checked and never change the answer. After "Started kubelet", protectKernelDefaults (kernel
 * tunables) is the last fatal check (postStartStep).
 */
import type { StartCheck, StepOutcome } from '../start-check.js';
import { PASS } from '../start-check.js';
import type { StartContext } from '../start-context.js';
import { evaluateNodeSetup } from '../../kubelet/node-setup/index.js';
import type { ResourceMap } from '../../kubelet/node-setup/reserved.js';
import { stepIndex, type StartStepId } from '../../kubelet/data/start-sequence.js';
import { checkHostPreconditions, defaultsFor, HOST_FINDING } from '../../host-facts/check-host.js';
import { isFailure, type PreconditionOutcome } from '../../systemd-preconditions/outcome.js';
import { lastValue } from '../../kubelet/flags.js';
import { providerCloudShown, type ProviderCloud } from '../../host-facts/cloud-machine.js';

/** Host checks by the start step they belong to (kernel tunables fail only after start). */
const HOST_STEP: Readonly<Record<string, StartStepId | 'post-start'>> = {
  [HOST_FINDING.criSocket]: 'run:cri',
  [HOST_FINDING.reservedCpus]: 'run:reserved-cpus',
  [HOST_FINDING.swap]: 'run:container-manager',
  [HOST_FINDING.kernelTunables]: 'post-start',
};

interface Ordered {
  readonly step: StartStepId | 'post-start';
  readonly outcome: PreconditionOutcome;
}

export const kubeletRunStep: StartCheck = {
  id: 'kubelet-run',
  title: 'Kubelet sets up the node (cloud provider, CRI, reserved resources, swap, --node-ip)',
  stage: 'kubelet',
  appliesTo: () => true,
  run: (context) => decide(context, ordered(context).filter((o) => o.step !== 'post-start')),
};

export const postStartStep: StartCheck = {
  id: 'kubelet-post-start',
  title: 'The container manager starts (protectKernelDefaults: kernel tunables)',
  stage: 'kubelet',
  appliesTo: () => true,
  run: (context) => decide(context, ordered(context).filter((o) => o.step === 'post-start')),
};

function ordered(context: StartContext): Ordered[] {
  const config = context.effectiveConfig;
  const flags = context.model.kubelet?.flags;
  const text = (field: string) => (typeof config[field] === 'string' ? (config[field] as string) : undefined);
  const map = (field: string) => (config[field] && typeof config[field] === 'object' ? (config[field] as ResourceMap) : undefined);
  const items: Ordered[] = [];

  const cloudProvider = flags ? lastValue(flags, 'cloud-provider') : undefined;
  const cloudConfigFile = flags ? lastValue(flags, 'cloud-config') : undefined;
  const nodeIP = flags ? lastValue(flags, 'node-ip') : undefined;
  const providerCloud = cloudOfMachine(context, cloudProvider);
  const setup = evaluateNodeSetup(context.minor, {
    ...(cloudProvider !== undefined ? { cloudProvider } : {}),
    ...(cloudConfigFile !== undefined ? { cloudConfigFile } : {}),
    ...(providerCloud !== undefined ? { providerCloud } : {}),
    ...(nodeIP !== undefined ? { nodeIP } : {}),
    ...(map('kubeReserved') ? { kubeReserved: map('kubeReserved') } : {}),
    ...(map('systemReserved') ? { systemReserved: map('systemReserved') } : {}),
    ...(text('reservedSystemCPUs') !== undefined ? { reservedSystemCPUs: text('reservedSystemCPUs') } : {}),
    ...(context.model.kubeletConfig.configFile ? { reservedPath: context.model.kubeletConfig.configFile.path } : {}),
  }, (gate) => context.gateEnabled(gate), context.flavor) ?? [];
  for (const { step, result } of setup) items.push({ step, outcome: result });

  const host = context.model.host;
  const defaults = defaultsFor(context.minor);
  if (host && defaults) {
    const bool = (field: string, fallback: boolean) => (typeof config[field] === 'boolean' ? (config[field] as boolean) : fallback);
    const endpoint = text('containerRuntimeEndpoint') ?? '';
    const notChecked = new Set(host.notChecked.map((n) => n.fact));
    const outcomes = checkHostPreconditions({
      minor: context.minor,
      config: {
        failSwapOn: bool('failSwapOn', defaults.failSwapOn),
        protectKernelDefaults: bool('protectKernelDefaults', defaults.protectKernelDefaults),
        containerRuntimeEndpoint: endpoint,
        reservedSystemCPUs: text('reservedSystemCPUs') ?? '',
      },
      facts: { ...host.facts, ...(host.criSockets[endpoint] ? { criSocket: host.criSockets[endpoint] } : {}) },
    });
    const factOf: Readonly<Record<string, string>> = { [HOST_FINDING.criSocket]: 'criSocket', [HOST_FINDING.reservedCpus]: 'onlineCpus', [HOST_FINDING.swap]: 'swaps', [HOST_FINDING.kernelTunables]: 'sysctls' };
    for (const outcome of outcomes) {
      const id = outcome.findingId ?? '';
      const step = HOST_STEP[id];
      // cgroup v1 is ValidateKubeletConfiguration's (kubelet-config step); facts not read are "not checked".
      if (!step || notChecked.has(factOf[id] as never)) continue;
      if (!isFailure(outcome) && id === HOST_FINDING.criSocket && !host.criSockets[endpoint]) continue;
      items.push({ step, outcome });
    }
  }
  const rank = (step: Ordered['step']) => (step === 'post-start' ? Number.MAX_SAFE_INTEGER : stepIndex(context.minor, step) ?? Number.MAX_SAFE_INTEGER - 1);
  return items.sort((a, b) => rank(a.step) - rank(b.step));
}

/** The host fact for --cloud-provider: 'not-checked' when the host was not read (another root). */
function cloudOfMachine(context: StartContext, cloudProvider: string | undefined): ProviderCloud | 'not-checked' | undefined {
  const host = context.model.host;
  if (!host || !cloudProvider) return undefined;
  if (host.notChecked.some((n) => n.fact === 'cloudMachine')) return 'not-checked';
  return host.facts.cloudMachine ? providerCloudShown(cloudProvider, host.facts.cloudMachine) : undefined;
}

/** The first failure in kubelet's order decides; an undecided step before it makes its text inexact. */
function decide(context: StartContext, items: readonly Ordered[]): StepOutcome {
  let undecided: string | undefined;
  for (const { outcome } of items) {
    if (!isFailure(outcome)) {
      undecided ??= outcome.undecidable;
      continue;
    }
    const logLine = context.fatalLogLine(outcome.kubeletError);
    return {
      fail: {
        findingId: outcome.findingId,
        message: outcome.message,
        remediation: outcome.remediation,
        kubeletError: outcome.kubeletError,
        exitStatus: outcome.exitStatus ?? 1,
        ...(logLine && outcome.findingId !== HOST_FINDING.kernelTunables ? { logLine } : {}),
        ...(outcome.path ? { path: outcome.path } : {}),
        ...(outcome.inexact || undecided ? { inexact: true } : {}),
      },
    };
  }
  return undecided ? { undecidable: undecided } : PASS;
}
