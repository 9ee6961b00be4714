/**
 * The host-fact checks of kubelet's start (src/host-facts/check-host.ts) as one rule's Verdict:
 * only on a root whose host facts were read (the live "/"); a fact listed as not checked never
 * changes the answer, and a CRI endpoint node-check did not look at is not "cannot tell".
 */
import { checkHostPreconditions, defaultsFor, HOST_FINDING } from '../host-facts/check-host.js';
import type { HostFactName } from '../host-facts/types.js';
import { PASS, type Verdict } from '../model/verdict.js';
import { isFailure, type PreconditionOutcome } from '../systemd-preconditions/outcome.js';
import type { StartContext } from '../start/start-context.js';
import { verdictOf } from './rule.js';

const outcomesOf = new WeakMap<StartContext, readonly PreconditionOutcome[]>();

function hostOutcomes(context: StartContext): readonly PreconditionOutcome[] {
  let outcomes = outcomesOf.get(context);
  if (outcomes) return outcomes;
  const host = context.model.host;
  const defaults = defaultsFor(context.minor);
  outcomes = [];
  if (host && defaults) {
    const config = context.effectiveConfig;
    const bool = (field: string, fallback: boolean) => (typeof config[field] === 'boolean' ? (config[field] as boolean) : fallback);
    const endpoint = context.configString('containerRuntimeEndpoint') ?? '';
    outcomes = checkHostPreconditions({
      minor: context.minor,
      config: {
        failSwapOn: bool('failSwapOn', defaults.failSwapOn),
        protectKernelDefaults: bool('protectKernelDefaults', defaults.protectKernelDefaults),
        containerRuntimeEndpoint: endpoint,
        reservedSystemCPUs: context.configString('reservedSystemCPUs') ?? '',
      },
      facts: { ...host.facts, ...(host.criSockets[endpoint] ? { criSocket: host.criSockets[endpoint] } : {}) },
    });
  }
  outcomesOf.set(context, outcomes);
  return outcomes;
}

/**
 * The Verdict of the host check that reports `findingId`, reading `fact`. A refusal is kubelet's
 * error in this minor's journal line, unless kubelet fails after "Started kubelet" (`afterStart`:
 * not a "command failed" line).
 */
export function hostVerdict(context: StartContext, findingId: string, fact: HostFactName, afterStart = false): Verdict {
  const host = context.model.host;
  if (!host || host.notChecked.some((n) => n.fact === fact)) return PASS;
  const outcome = hostOutcomes(context).find((o) => o.findingId === findingId);
  if (!outcome) return PASS;
  if (!isFailure(outcome) && findingId === HOST_FINDING.criSocket && !host.criSockets[context.configString('containerRuntimeEndpoint') ?? '']) return PASS;
  if (afterStart && isFailure(outcome)) return { fail: { ...outcome, exitStatus: outcome.exitStatus ?? 1 } };
  return verdictOf(context, outcome);
}
