/**
 * NewMainKubelet's refusal of a built-in --cloud-provider (pkg/kubelet/kubelet.go, 1.24-1.31 with
 * DisableCloudProviders on, 1.34+ always; 1.32-1.33 refuse in run(), ./cloud-provider.ts):
 * "failed to create kubelet: cloud provider … was specified, but built-in cloud providers are
 * disabled". The decision is src/kubelet/node-setup/cloud-provider.ts.
 */
import type { FindingKind } from '../../catalog/findings.js';
import { verdictOf, type Rule } from '../rule.js';
import { cloudProviderResult, meetsInRun } from './cloud-provider.js';

const KINDS = [
  {
    id: 'cloud-provider-disabled',
    title: '--cloud-provider names a built-in cloud provider that this kubelet has disabled',
    severity: 'error',
    versions: '1.29-1.30 by default (DisableCloudProviders beta), 1.24-1.28 with the gate set; 1.31+ always',
    messageId: '33581d8a6e7a439ba9aabcdf7e2100c4',
    meaning:
      'NewMainKubelet refuses a built-in provider name: "failed to run Kubelet: failed to create kubelet: cloud provider "aws" was specified, but built-in cloud providers are disabled. Please set --cloud-provider=external and migrate to an external cloud provider". Up to 1.30 kubelet first tries to initialise the provider, which may fail with a cloud-specific error instead.',
    fix: 'Set --cloud-provider=external (or drop it) and run the external cloud controller manager.',
  },
] as const satisfies readonly FindingKind[];

export const cloudProviderDisabledRule: Rule<typeof KINDS> = {
  id: 'run/cloud-provider-disabled',
  step: 'run:create-kubelet',
  kinds: KINDS,
  decide(context) {
    const result = cloudProviderResult(context);
    return verdictOf(context, result && !meetsInRun(context.minor, result) ? result : undefined);
  },
};
