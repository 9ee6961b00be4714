/**
 * time.ParseDuration and time.Duration.String (golang/go src/time/format.go, time.go).
 * Kubelet's defaultCacheDuration is a metav1.Duration, which parses with ParseDuration and
 * prints with String; both appear verbatim in kubelet's errors.
 */
import { goTimeQuote } from './quote.js';
import { utf8Bytes } from './utf8.js';

const NANOSECOND = 1n;
const MICROSECOND = 1000n * NANOSECOND;
const MILLISECOND = 1000n * MICROSECOND;
const SECOND = 1000n * MILLISECOND;
const MINUTE = 60n * SECOND;
const HOUR = 60n * MINUTE;
const MAX_INT64 = (1n << 63n) - 1n;
const TWO_63 = 1n << 63n;

// Keyed by the unit's UTF-8 bytes (as latin1 text), since Go compares byte strings.
const UNITS: ReadonlyMap<string, bigint> = new Map(
  (
    [
      ['ns', NANOSECOND],
      ['us', MICROSECOND],
      ['µs', MICROSECOND], // U+00B5 micro sign
      ['μs', MICROSECOND], // U+03BC Greek mu
      ['ms', MILLISECOND],
      ['s', SECOND],
      ['m', MINUTE],
      ['h', HOUR],
    ] as const
  ).map(([name, ns]) => [Buffer.from(name, 'utf8').toString('latin1'), ns]),
);

/**
 * time.ParseDuration: the duration in nanoseconds, or Go's error text (a string) when it fails,
 * e.g. `time: unknown unit "x" in duration "10x"`.
 */
export function parseGoDuration(s: string): bigint | string {
  const bytes = utf8Bytes(s);
  const invalid = `time: invalid duration ${goTimeQuote(bytes)}`;
  let i = 0;
  let neg = false;
  if (i < bytes.length && (bytes[i] === 0x2d || bytes[i] === 0x2b)) {
    neg = bytes[i] === 0x2d;
    i++;
  }
  if (bytes.length - i === 1 && bytes[i] === 0x30) return 0n; // special case: "0"
  if (i === bytes.length) return invalid;
  let d = 0n;
  const isDigit = (b: number | undefined): boolean => b !== undefined && b >= 0x30 && b <= 0x39;
  while (i < bytes.length) {
    // The next character must be [0-9.]
    if (!(bytes[i] === 0x2e || isDigit(bytes[i]))) return invalid;
    // leadingInt: [0-9]*, failing on overflow past 1<<63.
    const intStart = i;
    let v = 0n;
    while (isDigit(bytes[i])) {
      if (v > TWO_63 / 10n) return invalid;
      v = v * 10n + BigInt(bytes[i]! - 0x30);
      if (v > TWO_63) return invalid;
      i++;
    }
    const pre = i !== intStart;
    // leadingFraction: (\.[0-9]*)?, which stops gaining precision instead of failing.
    let f = 0n;
    let scale = 1;
    let post = false;
    if (bytes[i] === 0x2e) {
      i++;
      const fracStart = i;
      let overflow = false;
      while (isDigit(bytes[i])) {
        if (!overflow) {
          if (f > (TWO_63 - 1n) / 10n) overflow = true;
          else {
            const y = f * 10n + BigInt(bytes[i]! - 0x30);
            if (y > TWO_63) overflow = true;
            else {
              f = y;
              scale *= 10;
            }
          }
        }
        i++;
      }
      post = i !== fracStart;
    }
    if (!pre && !post) return invalid; // no digits, e.g. ".s"
    // Consume the unit: everything up to the next '.' or digit.
    const unitStart = i;
    while (i < bytes.length && !(bytes[i] === 0x2e || isDigit(bytes[i]))) i++;
    if (i === unitStart) return `time: missing unit in duration ${goTimeQuote(bytes)}`;
    const unitBytes = bytes.subarray(unitStart, i);
    const unit = UNITS.get(Buffer.from(unitBytes).toString('latin1'));
    if (unit === undefined) {
      return `time: unknown unit ${goTimeQuote(unitBytes)} in duration ${goTimeQuote(bytes)}`;
    }
    if (v > TWO_63 / unit) return invalid;
    v *= unit;
    if (f > 0n) {
      // float64 arithmetic, exactly as Go: uint64(float64(f) * (float64(unit) / scale)).
      v += BigInt(Math.trunc(Number(f) * (Number(unit) / scale)));
      if (v > TWO_63) return invalid;
    }
    d += v;
    if (d > TWO_63) return invalid;
  }
  if (neg) return -d;
  if (d > MAX_INT64) return invalid;
  return d;
}

/** time.Duration.String: "1h0m0s", "1.5s", "-1m0s", "0s", "1.2ms", "1µs". */
export function formatGoDuration(ns: bigint): string {
  const neg = ns < 0n;
  let u = neg ? -ns : ns;
  // Go works on uint64; -MinInt64 wraps to itself, which as uint64 is 1<<63.
  let out = '';
  if (u < SECOND) {
    let prec: number;
    let unit: string;
    if (u === 0n) return '0s';
    if (u < MICROSECOND) {
      prec = 0;
      unit = 'ns';
    } else if (u < MILLISECOND) {
      prec = 3;
      unit = 'µs';
    } else {
      prec = 6;
      unit = 'ms';
    }
    const frac = formatFraction(u, prec);
    out = frac.integer.toString() + frac.text + unit;
  } else {
    const frac = formatFraction(u, 9);
    u = frac.integer;
    out = `${(u % 60n).toString()}${frac.text}s`;
    u /= 60n;
    if (u > 0n) {
      out = `${(u % 60n).toString()}m${out}`;
      u /= 60n;
      if (u > 0n) out = `${u.toString()}h${out}`;
    }
  }
  return neg ? `-${out}` : out;
}

/** fmtFrac: the fraction v/10^prec without trailing zeros (and without "." when zero). */
function formatFraction(v: bigint, prec: number): { integer: bigint; text: string } {
  let digits = '';
  let print = false;
  let rest = v;
  for (let i = 0; i < prec; i++) {
    const digit = rest % 10n;
    print = print || digit !== 0n;
    if (print) digits = digit.toString() + digits;
    rest /= 10n;
  }
  return { integer: rest, text: print ? `.${digits}` : '' };
}
