/**
 * --node-ip as RunKubelet checks it before creating the kubelet (cmd/kubelet/app/server.go,
 * nodeutil.ParseNodeIPArgument from 1.27). The decision is src/kubelet/node-setup/node-ip.ts.
 */
import type { FindingKind } from '../../catalog/findings.js';
import { MODELLED_RANGE } from '../../kubelet/data/minors.js';
import { checkNodeIP } from '../../kubelet/node-setup/node-ip.js';
import { verdictOf, type Rule } from '../rule.js';

const KINDS = [
  {
    id: 'node-ip-rejected',
    title: 'kubelet rejects --node-ip',
    severity: 'error',
    versions: `all (${MODELLED_RANGE}); the dual-stack rules differ before 1.27 and 1.30`,
    messageId: '97bef88573d24dfb859c4d3096a81801',
    meaning:
      'RunKubelet checks --node-ip before creating the kubelet: more than two addresses, two of one family, 0.0.0.0 or :: in a pair, or a pair together with a cloud provider (up to 1.26 any --cloud-provider; 1.27-1.29 "external" only with CloudDualStackNodeIPs; 1.30+ "external" is fine) make it exit with "failed to run Kubelet: bad --node-ip …" (or "dual-stack --node-ip … " up to 1.26). Entries that do not parse as IPs are ignored, not fatal.',
    fix: 'Set --node-ip to one address, or to one IPv4 and one IPv6 address.',
  },
] as const satisfies readonly FindingKind[];

export const nodeIpRule: Rule<typeof KINDS> = {
  id: 'run/node-ip',
  step: 'run:node-ip',
  kinds: KINDS,
  inputs: { flags: { 'node-ip': 'RunKubelet (node-ip-rejected)' } },
  decide(context) {
    const result = checkNodeIP(context.minor, context.flag('node-ip') ?? '', context.flag('cloud-provider') ?? '', (gate) => context.gateEnabled(gate));
    return verdictOf(context, result);
  },
};
