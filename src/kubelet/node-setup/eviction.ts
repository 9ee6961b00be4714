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
import { goQuote } from '../../go/quote.js';
import { parseQuantity } from '../../kubernetes/quantity.js';

const SIGNALS = ['memory.available', 'allocatableMemory.available', 'imagefs.available', 'imagefs.inodesFree', 'nodefs.available', 'nodefs.inodesFree', 'pid.available'];
const CONTAINERFS_SIGNALS = ['containerfs.available', 'containerfs.inodesFree'];

/** signalToResource's keys for kubelet 1.<minor>. */
export function evictionSignals(minor: number): readonly string[] {
  return minor >= 29 ? [...SIGNALS, ...CONTAINERFS_SIGNALS] : SIGNALS;
}

export type EvictionCheck = { readonly ok: true } | { readonly ok: false; readonly error: string; readonly inexact: boolean } | { readonly undecidable: string };

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
export function checkEvictionHard(minor: number, evictionHard: Readonly<Record<string, unknown>> | undefined, ignoreEviction: boolean): EvictionCheck {
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
