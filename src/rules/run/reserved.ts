/**
 * --kube-reserved / --system-reserved (kubeReserved, systemReserved) as run() parses them with
 * parseResourceList, kubeReserved first (cmd/kubelet/app/server.go run(), 1.24-1.37). Both are
 * one rule at run:kube-reserved: run:system-reserved follows it with no other check between. The
 * decision is src/kubelet/node-setup/reserved.ts. A bad value given on the command line names the
 * file and variable that hold it (flags override the config file's field): an unset ${VAR} in it
 * is the usual empty quantity.
 */
import type { FindingKind } from '../../catalog/findings.js';
import { MODELLED_RANGE } from '../../kubelet/data/minors.js';
import { checkReservedResources } from '../../kubelet/node-setup/reserved.js';
import { PASS } from '../../model/verdict.js';
import { kubeletFails, type Rule } from '../rule.js';

const KINDS = [
  {
    id: 'kube-reserved-unparsable',
    title: '--kube-reserved (kubeReserved) has an entry kubelet cannot parse',
    severity: 'error',
    versions: `all (${MODELLED_RANGE})`,
    messageId: '74e69ddbeaa54efb8691150a9aa37bed',
    meaning:
      'Kubelet parses kubeReserved just before systemReserved and exits with "failed to run Kubelet: --kube-reserved value failed to parse: …" on a value that is not a non-negative quantity or a resource other than cpu, memory, ephemeral-storage or pid.',
    fix: 'Give every --kube-reserved entry a valid quantity, or remove the entry.',
  },
  {
    id: 'system-reserved-unparsable',
    title: '--system-reserved (systemReserved) has an entry kubelet cannot parse',
    severity: 'error',
    versions: `all (${MODELLED_RANGE})`,
    messageId: 'f506b5b0fb2741c7ba3fca8edf58d9a3',
    meaning:
      'Kubelet parses systemReserved after connecting to the container runtime and exits with "failed to run Kubelet: --system-reserved value failed to parse: …" when a value is not a quantity (an empty value from an unset environment variable, "1GB"), is negative, or names a resource other than cpu, memory, ephemeral-storage or pid ("cannot reserve …"). Exit status 1, every restart.',
    fix: 'Give every entry a valid quantity (cpu=500m, memory=1Gi); on OpenShift check that /etc/node-sizing.env sets SYSTEM_RESERVED_CPU, SYSTEM_RESERVED_MEMORY and SYSTEM_RESERVED_ES.',
  },
] as const satisfies readonly FindingKind[];

export const reservedRule: Rule<typeof KINDS> = {
  id: 'run/reserved',
  step: 'run:kube-reserved',
  kinds: KINDS,
  inputs: { fields: { kubeReserved: 'run() parseResourceList (kube-reserved-unparsable)', systemReserved: 'run() parseResourceList (system-reserved-unparsable)' } },
  decide(context) {
    const kubeReserved = context.configMap('kubeReserved');
    const systemReserved = context.configMap('systemReserved');
    const reservedSystemCPUs = context.configString('reservedSystemCPUs');
    const result = checkReservedResources(context.minor, {
      ...(kubeReserved ? { kubeReserved } : {}),
      ...(systemReserved ? { systemReserved } : {}),
      ...(reservedSystemCPUs !== undefined ? { reservedSystemCPUs } : {}),
      ...(context.configPath ? { path: context.configPath } : {}),
    });
    if (!result) return PASS;
    const flag = result.findingId === 'kube-reserved-unparsable' ? 'kube-reserved' : 'system-reserved';
    const origin = context.flag(flag) === undefined ? undefined : context.flagOrigin(flag);
    if (!origin) return kubeletFails(context, result);
    return kubeletFails(context, {
      ...result,
      message: `${result.message} (--${flag} comes from ${origin.sentence})`,
      remediation: origin.variable ? `${result.remediation} Set $${origin.variable} in ${origin.path}.` : result.remediation,
      path: origin.path,
    });
  },
};
