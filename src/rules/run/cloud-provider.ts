/**
 * --cloud-provider where run() meets it (cmd/kubelet/app/server.go run()): up to 1.31 the in-tree
 * provider is initialised (an unknown name, --cloud-config that does not open, a provider whose
 * cloud the machine does not show); 1.32-1.33 refuse a built-in provider in run() itself. The
 * refusal NewMainKubelet makes is ./cloud-provider-disabled.ts. The decision, per minor, is
 * src/kubelet/node-setup/cloud-provider.ts; the machine's cloud is a host fact (the DMI files,
 * src/host-facts/cloud-machine.ts), read on the live root only.
 */
import type { FindingKind } from '../../catalog/findings.js';
import { nodePathKey } from '../../credentials/registration.js';
import { providerCloudShown, type ProviderCloud } from '../../host-facts/cloud-machine.js';
import { checkCloudProvider, refusedInRun } from '../../kubelet/node-setup/cloud-provider.js';
import type { NodeSetupResult } from '../../kubelet/node-setup/types.js';
import type { PathFact } from '../../model/node.js';
import type { StartContext } from '../../start/start-context.js';
import { verdictOf, type Rule } from '../rule.js';

const KINDS = [
  {
    id: 'cloud-provider-unknown',
    title: '--cloud-provider names a provider this kubelet does not have',
    severity: 'error',
    versions: '1.24-1.30',
    messageId: '4fa2c502e50c48ceb6080983dc7573a2',
    meaning:
      'Up to 1.30 kubelet initialises the named in-tree provider early in run(); a name it does not have (OpenStack from 1.26, AWS from 1.27, Azure and vSphere from 1.30, or a typo) exits with "failed to run Kubelet: unknown cloud provider "…"".',
    fix: 'Set --cloud-provider=external (or drop it) and run the external cloud controller manager.',
  },
  {
    id: 'cloud-config-unopenable',
    title: '--cloud-config cannot be opened',
    severity: 'error',
    versions: '1.24-1.30 (with a --cloud-provider other than external)',
    messageId: 'd3f535d47ed242099dcc0c42de06350a',
    meaning:
      'Before initialising a cloud provider, kubelet opens --cloud-config; if that fails it calls klog.Fatalf("Couldn\'t open cloud provider configuration …") and exits with status 255.',
    fix: 'Restore the --cloud-config file, or drop --cloud-config and --cloud-provider.',
  },
] as const satisfies readonly FindingKind[];

/**
 * Whether Go's os.Open (O_RDONLY) succeeds for root on this path: it does for any file or
 * directory that exists; a missing one is ENOENT; a FIFO or device, or another error, is not known.
 */
function opensAsRoot(fact: PathFact | undefined): boolean | undefined {
  if (!fact) return undefined;
  if (!fact.exists) return fact.code === 'ENOENT' || fact.code === 'ENOTDIR' ? false : undefined;
  return fact.type === 'other' ? undefined : true;
}

/** The host fact for --cloud-provider: 'not-checked' when the host was not read (another root). */
function cloudOfMachine(context: StartContext, cloudProvider: string | undefined): ProviderCloud | 'not-checked' | undefined {
  const host = context.model.host;
  if (!host || !cloudProvider) return undefined;
  if (host.notChecked.some((n) => n.fact === 'cloudMachine')) return 'not-checked';
  return host.facts.cloudMachine ? providerCloudShown(cloudProvider, host.facts.cloudMachine) : undefined;
}

/** checkCloudProvider on this node's flags and machine. */
export function cloudProviderResult(context: StartContext): NodeSetupResult {
  const cloudProvider = context.flag('cloud-provider');
  const cloudConfigFile = context.flag('cloud-config');
  const providerCloud = cloudOfMachine(context, cloudProvider);
  const cloudConfigOpens = cloudConfigFile ? opensAsRoot(context.model.files[nodePathKey(cloudConfigFile)]) : undefined;
  return checkCloudProvider(
    context.minor,
    {
      cloudProvider: cloudProvider ?? '',
      ...(cloudConfigFile !== undefined ? { cloudConfigFile } : {}),
      ...(cloudConfigOpens !== undefined ? { cloudConfigOpens } : {}),
      ...(providerCloud !== undefined ? { providerCloud } : {}),
    },
    (gate) => context.gateEnabled(gate),
    context.flavor,
  );
}

/** Whether run() (not NewMainKubelet) meets this result: every cannot-tell, every refusal but NewMainKubelet's disabled provider. */
export function meetsInRun(minor: number, result: NonNullable<NodeSetupResult>): boolean {
  return 'undecidable' in result || result.findingId !== 'cloud-provider-disabled' || refusedInRun(minor);
}

export const cloudProviderRule: Rule<typeof KINDS> = {
  id: 'run/cloud-provider',
  step: 'run:cloud-init',
  kinds: KINDS,
  inputs: { flags: { 'cloud-provider': 'run() / NewMainKubelet (cloud-provider-*)', 'cloud-config': 'run() InitCloudProvider (cloud-config-unopenable)' } },
  hostFacts: ['cloudMachine'],
  decide(context) {
    const result = cloudProviderResult(context);
    return verdictOf(context, result && meetsInRun(context.minor, result) ? result : undefined);
  },
};
