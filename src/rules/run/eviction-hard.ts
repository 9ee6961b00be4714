/**
 * evictionHard / --eviction-hard as run() parses it (cmd/kubelet/app/server.go, 1.24-1.37:
 * eviction.ParseThresholdConfig([]string{}, s.EvictionHard, nil, nil, nil), skipped when
 * --experimental-allocatable-ignore-eviction is true; the error is returned unwrapped). Rules from
 * pkg/kubelet/eviction/helpers.go parseThresholdStatement at each tag: the signal must be one of
 * signalToResource (containerfs.* from 1.29), "0%" and "100%" are ignored, a percentage is
 * strconv.ParseFloat(…, 32)/100 within [0, 1], anything else resource.ParseQuantity and positive.
 *
 * Go ranges over the map, so with several bad entries the one reported depends on map order:
 * the verdict is certain, the text then inexact.
 */
import type { FindingKind } from '../../catalog/findings.js';
import { goQuote } from '../../go/quote.js';
import { MODELLED_RANGE } from '../../kubelet/data/minors.js';
import { parseQuantity } from '../../kubernetes/quantity.js';
import { cannotTell, PASS, type GoAnswer } from '../../model/verdict.js';
import { atConfig, runFails, type Rule } from '../rule.js';

const KINDS = [
  {
    id: 'kubelet-eviction-hard-invalid',
    title: 'evictionHard (--eviction-hard) has a threshold kubelet cannot parse',
    severity: 'error',
    versions: `all (${MODELLED_RANGE}); containerfs.* signals from 1.29`,
    messageId: '6e17b13b869f471bb331505203ee2a1e',
    meaning:
      'run() parses the hard eviction thresholds before it starts the container manager. An unknown signal ("unsupported eviction signal …"), a value that is not a quantity or a percentage, a percentage above 100% or a quantity that is not positive exits with status 1 ("failed to run Kubelet: …").',
    fix: 'Use known signals (memory.available, nodefs.available, nodefs.inodesFree, imagefs.available, imagefs.inodesFree, pid.available) with a positive quantity (100Mi) or a percentage (10%).',
  },
] as const satisfies readonly FindingKind[];
const SIGNALS = ['memory.available', 'allocatableMemory.available', 'imagefs.available', 'imagefs.inodesFree', 'nodefs.available', 'nodefs.inodesFree', 'pid.available'];
const CONTAINERFS_SIGNALS = ['containerfs.available', 'containerfs.inodesFree'];

/** signalToResource's keys for kubelet 1.<minor>. */
export function evictionSignals(minor: number): readonly string[] {
  return minor >= 29 ? [...SIGNALS, ...CONTAINERFS_SIGNALS] : SIGNALS;
}


/** Plain decimals only: Go's ParseFloat also takes hex, "inf" and exponents, which are not modelled. */
const DECIMAL = /^[+-]?(\d+\.?\d*|\.\d+)$/;

/** The error parseThresholdStatement returns for one entry, undefined when it parses, or "undecided". */
function statementError(minor: number, signal: string, value: string): string | undefined | { undecidable: string } {
  if (!evictionSignals(minor).includes(signal)) return `unsupported eviction signal ${signal}`;
  if (value.endsWith('%')) {
    if (value === '0%' || value === '100%') return undefined;
    const number = value.replace(/%+$/, '');
    if (!DECIMAL.test(number)) return { undecidable: `evictionHard ${signal}: ${goQuote(value)} is not a plain decimal percentage` };
    const percentage = Math.fround(Math.fround(Number(number)) / 100);
    if (percentage < 0) return `eviction percentage threshold ${signal} must be >= 0%: ${value}`;
    if (percentage > 1) return `eviction percentage threshold ${signal} must be <= 100%: ${value}`;
    return undefined;
  }
  const quantity = parseQuantity(value);
  if (!quantity.ok) return quantity.error;
  // %s of the parsed Quantity is its canonical form; node-check prints "0" only for "0" itself.
  if (quantity.sign <= 0) return value === '0' ? `eviction threshold ${signal} must be positive: 0` : { undecidable: `eviction threshold ${signal} must be positive: ${value} (canonical form not modelled)` };
  return undefined;
}

/** ParseThresholdConfig on the hard thresholds. */
export function checkEvictionHard(minor: number, evictionHard: Readonly<Record<string, unknown>> | undefined, ignoreEviction: boolean): GoAnswer {
  if (!evictionHard || ignoreEviction) return { ok: true };
  const errors: string[] = [];
  let undecided: string | undefined;
  for (const [signal, value] of Object.entries(evictionHard)) {
    if (typeof value !== 'string') return { undecidable: `evictionHard ${signal} is not a string` };
    const error = statementError(minor, signal, value);
    if (typeof error === 'string') errors.push(error);
    else if (error !== undefined) undecided ??= error.undecidable;
  }
  if (errors.length > 0) return { ok: false, error: errors[0]!, inexact: errors.length > 1 || undecided !== undefined };
  return undecided !== undefined ? { undecidable: undecided } : { ok: true };
}

export const evictionHardRule: Rule<typeof KINDS> = {
  id: 'run/eviction-hard',
  step: 'run:eviction-hard',
  kinds: KINDS,
  inputs: { fields: { evictionHard: 'run() ParseThresholdConfig (kubelet-eviction-hard-invalid)' }, flags: { 'experimental-allocatable-ignore-eviction': 'run(): skips ParseThresholdConfig' } },
  decide(context) {
    const evictionHard = context.effectiveConfig['evictionHard'];
    const eviction = checkEvictionHard(context.minor, evictionHard && typeof evictionHard === 'object' ? (evictionHard as Record<string, unknown>) : undefined, context.flagIsTrue('experimental-allocatable-ignore-eviction'));
    if ('undecidable' in eviction) return cannotTell(eviction.undecidable, context.configPath);
    if (eviction.ok) return PASS;
    return runFails(context, eviction.error, {
      findingId: 'kubelet-eviction-hard-invalid',
      message: `Kubelet 1.${context.minor} cannot parse its hard eviction thresholds (evictionHard, --eviction-hard): ${eviction.error}.`,
      remediation: 'Give every evictionHard entry a known signal (memory.available, nodefs.available, nodefs.inodesFree, imagefs.available, imagefs.inodesFree, pid.available) and a positive quantity or a percentage.',
      ...atConfig(context),
      ...(eviction.inexact ? { inexact: true } : {}),
    });
  },
};
