/**
 * --node-ip (kubelet flag only) as RunKubelet checks it, before NewMainKubelet.
 * Source: cmd/kubelet/app/server.go RunKubelet (inline checks at v1.24.17-v1.26.15,
 * nodeutil.ParseNodeIPArgument from v1.27.16) and k8s.io/component-helpers node/util/ips.go
 * (tags v0.27.0-v0.29.0 take the CloudDualStackNodeIPs gate, v0.30.0+ do not; identical v0.31-v0.36).
 *
 * Unparsable entries are ignored with an Info log in every minor (not fatal): only the count and
 * the families of the entries that parse decide.
 */
import { goQuote } from '../../go/quote.js';
import { isModelledMinor } from '../data/minors.js';
import { wrapStepError } from '../data/start-sequence.js';
import { isIPv6, isUnspecified, parseIPSloppy, type Ip16 } from './ip.js';
import type { GateEnabled, NodeSetupFailure } from './types.js';

export const CLOUD_DUAL_STACK_GATE = 'CloudDualStackNodeIPs';

/** The parsed entries of --node-ip, as kubelet keeps them (split on ",", trimmed, invalid dropped). */
export function nodeIPEntries(nodeIP: string): { ips: Ip16[]; invalid: string[] } {
  const ips: Ip16[] = [];
  const invalid: string[] = [];
  if (nodeIP === '') return { ips, invalid };
  for (const raw of nodeIP.split(',')) {
    const ip = raw.trim();
    const parsed = parseIPSloppy(ip);
    if (parsed) ips.push(parsed);
    else invalid.push(ip);
  }
  return { ips, invalid };
}

/** The inner error text (without "failed to run Kubelet: "), or undefined when kubelet accepts it. */
export function nodeIPError(minor: number, nodeIP: string, cloudProvider: string, gateEnabled: GateEnabled): string | undefined {
  const { ips } = nodeIPEntries(nodeIP);
  const sameFamilyPair = ips.length === 2 && isIPv6(ips[0]!) === isIPv6(ips[1]!);
  const unspecifiedPair = ips.length === 2 && (isUnspecified(ips[0]!) || isUnspecified(ips[1]!));
  if (minor <= 26) {
    // 1.24-1.26: inline in RunKubelet; any non-empty --cloud-provider (even "external") forbids a pair.
    if (ips.length > 2 || sameFamilyPair) {
      return `bad --node-ip ${goQuote(nodeIP)}; must contain either a single IP or a dual-stack pair of IPs`;
    }
    if (ips.length === 2 && cloudProvider !== '') return `dual-stack --node-ip ${goQuote(nodeIP)} not supported when using a cloud provider`;
    if (unspecifiedPair) return `dual-stack --node-ip ${goQuote(nodeIP)} cannot include '0.0.0.0' or '::'`;
    return undefined;
  }
  // 1.27+: nodeutil.ParseNodeIPArgument, wrapped as `bad --node-ip %q: %v`.
  const external = cloudProvider === 'external';
  const allowDual = cloudProvider === '' || (external && (minor >= 30 || gateEnabled(CLOUD_DUAL_STACK_GATE)));
  let inner: string | undefined;
  if (ips.length > 2 || sameFamilyPair) inner = 'must contain either a single IP or a dual-stack pair of IPs';
  else if (ips.length === 2 && !allowDual) inner = 'dual-stack not supported in this configuration';
  else if (unspecifiedPair) inner = "dual-stack node IP cannot include '0.0.0.0' or '::'";
  return inner === undefined ? undefined : `bad --node-ip ${goQuote(nodeIP)}: ${inner}`;
}

/** 1.27+: the nodeutil.ParseNodeIPArgument error alone (what `bad --node-ip %q: %v` wraps). */
function parseNodeIPArgumentError(nodeIP: string, full: string): string {
  const head = `bad --node-ip ${goQuote(nodeIP)}: `;
  return full.startsWith(head) ? full.slice(head.length) : full;
}

/**
 * Checks --node-ip for kubelet `minor` (a modelled minor; undefined for any other). `gateEnabled` answers
 * CloudDualStackNodeIPs for 1.27-1.29 (alpha off in 1.27-1.28, beta on in 1.29, GA from 1.30).
 */
export function checkNodeIP(
  minor: number,
  nodeIP: string,
  cloudProvider: string,
  gateEnabled: GateEnabled,
): NodeSetupFailure | undefined {
  if (!isModelledMinor(minor)) return undefined;
  const inner = nodeIPError(minor, nodeIP, cloudProvider, gateEnabled);
  if (inner === undefined) return undefined;
  const kubeletError =
    minor >= 27
      ? wrapStepError(minor, 'run:node-ip', parseNodeIPArgumentError(nodeIP, inner), nodeIP)
      : wrapStepError(minor, 'run:node-ip', inner);
  if (kubeletError === undefined) return undefined;
  return {
    findingId: 'node-ip-rejected',
    kubeletError,
    message: `kubelet ${'1.' + minor} rejects --node-ip=${nodeIP}: ${inner.replace(/^bad --node-ip "(?:[^"\\]|\\.)*"(?::|;) /, '')}`,
    remediation:
      'Give --node-ip one address, or one IPv4 and one IPv6 address (neither 0.0.0.0 nor ::); a dual-stack pair needs --cloud-provider unset' +
      (minor >= 27 ? ' or "external"' : '') +
      (minor >= 27 && minor <= 29 ? ` (with "external", also the ${CLOUD_DUAL_STACK_GATE} gate)` : '') +
      '.',
  };
}
