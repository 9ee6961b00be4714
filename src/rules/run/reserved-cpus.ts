/**
 * --reserved-cpus (reservedSystemCPUs) against the online CPUs: getReservedCPUs in run()
 * (cmd/kubelet/app/server.go, all modelled minors). The decision is src/host-facts/check-host.ts;
 * the online CPUs are a host fact, read on the live root only.
 */
import type { FindingKind } from '../../catalog/findings.js';
import { HOST_FINDING } from '../../host-facts/check-host.js';
import { hostVerdict } from '../host-verdict.js';
import { type Rule } from '../rule.js';

const KINDS = [
  {
    id: 'host-reserved-cpus-offline',
    title: '--reserved-cpus names CPUs that are not online',
    severity: 'error',
    versions: 'all',
    messageId: 'ee55581877f64b0cad063216d3891509',
    meaning:
      'Kubelet checks reservedSystemCPUs against the CPUs it finds: "failed to run Kubelet: reserved-cpus: <list> is not a subset of online-cpus: <online>", exit status 1 (a config rendered for a larger machine, or maxcpus= on the kernel command line).',
    fix: 'Reserve only online CPUs, or bring the CPUs online.',
  },
] as const satisfies readonly FindingKind[];

export const reservedCpusRule: Rule<typeof KINDS> = {
  id: 'run/reserved-cpus',
  step: 'run:reserved-cpus',
  kinds: KINDS,
  hostFacts: ['onlineCpus'],
  decide: (context) => hostVerdict(context, HOST_FINDING.reservedCpus, 'onlineCpus'),
};
