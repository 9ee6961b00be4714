/**
 * resource.ParseQuantity of k8s.io/apimachinery (pkg/api/resource/quantity.go, suffix.go), as far as
 * kubelet's parseResourceList needs it: does the string parse, with which error, and its sign.
 * ParseQuantity and parseQuantityString are byte-identical in apimachinery v0.24.0, v0.30.0 and
 * v0.36.0 (checked with git on the fetched repo) and unchanged v0.36.5 -> v0.37.2 (module cache),
 * so one port serves 1.24-1.37.
 */

export const QUANTITY_REGEXP = '^([+-]?[0-9.]+)([eEinumkKMGTP]*[-+]?[0-9]*)$';
/** resource.ErrFormatWrong */
export const ERR_FORMAT_WRONG = `quantities must match the regular expression '${QUANTITY_REGEXP}'`;
/** resource.ErrNumeric */
export const ERR_NUMERIC = 'unable to parse numeric part of quantity';
/** resource.ErrSuffix */
export const ERR_SUFFIX = "unable to parse quantity's suffix";

export type QuantityParse = { readonly ok: true; readonly sign: -1 | 0 | 1 } | { readonly ok: false; readonly error: string };

const DIGITS = '0123456789';
const SUFFIX_CHARS = 'eEinumkKMGTP';
const MAX_INT64_FACTORS = 18;
const NANO = -9;

interface Parts {
  positive: boolean;
  value: string;
  num: string;
  denom: string;
  suffix: string;
}

/** parseQuantityString: splits sign, numerator, denominator and suffix; ErrFormatWrong on junk after the suffix. */
function parseQuantityString(str: string): Parts | { error: string } {
  let positive = true;
  let pos = 0;
  const end = str.length;
  if (pos < end) {
    if (str[0] === '-') {
      positive = false;
      pos++;
    } else if (str[0] === '+') {
      pos++;
    }
  }
  // strip leading zeros
  for (let i = pos; ; i++) {
    if (i >= end) return { positive, value: '0', num: '0', denom: '', suffix: '' };
    if (str[i] === '0') pos++;
    else break;
  }
  // numerator
  let num = '';
  for (let i = pos; ; i++) {
    if (i >= end) return { positive, value: str.slice(0, end), num: str.slice(pos, end), denom: '', suffix: '' };
    if (!DIGITS.includes(str[i]!)) {
      num = str.slice(pos, i);
      pos = i;
      break;
    }
  }
  if (num.length === 0) num = '0';
  let denom = '';
  if (pos < end && str[pos] === '.') {
    pos++;
    for (let i = pos; ; i++) {
      if (i >= end) return { positive, value: str.slice(0, end), num, denom: str.slice(pos, end), suffix: '' };
      if (!DIGITS.includes(str[i]!)) {
        denom = str.slice(pos, i);
        pos = i;
        break;
      }
    }
  }
  const value = str.slice(0, pos);
  const suffixStart = pos;
  for (let i = pos; ; i++) {
    if (i >= end) return { positive, value, num, denom, suffix: str.slice(suffixStart, end) };
    if (!SUFFIX_CHARS.includes(str[i]!)) {
      pos = i;
      break;
    }
  }
  if (pos < end && (str[pos] === '-' || str[pos] === '+')) pos++;
  for (let i = pos; ; i++) {
    if (i >= end) return { positive, value, num, denom, suffix: str.slice(suffixStart, end) };
    if (!DIGITS.includes(str[i]!)) break;
  }
  return { error: ERR_FORMAT_WRONG };
}

type Format = 'DecimalSI' | 'BinarySI' | 'DecimalExponent';

const DEC: Record<string, number> = { n: -9, u: -6, m: -3, '': 0, k: 3, M: 6, G: 9, T: 12, P: 15, E: 18 };
const BIN: Record<string, number> = { Ki: 10, Mi: 20, Gi: 30, Ti: 40, Pi: 50, Ei: 60 };

/** suffixHandler.interpret */
function interpret(suffix: string): { base: 2 | 10; exponent: number; format: Format } | undefined {
  if (Object.hasOwn(DEC, suffix)) return { base: 10, exponent: DEC[suffix]!, format: 'DecimalSI' };
  if (Object.hasOwn(BIN, suffix)) return { base: 2, exponent: BIN[suffix]!, format: 'BinarySI' };
  if (suffix.length > 1 && (suffix[0] === 'E' || suffix[0] === 'e')) {
    const exp = goParseInt64(suffix.slice(1));
    if (exp === undefined) return undefined;
    // Go converts the int64 with int32(parsed); only the range check of ParseInt matters here.
    return { base: 10, exponent: Number(BigInt.asIntN(32, exp)), format: 'DecimalExponent' };
  }
  return undefined;
}

/** strconv.ParseInt(s, 10, 64): optional sign, decimal digits, int64 range. */
function goParseInt64(s: string): bigint | undefined {
  if (!/^[+-]?[0-9]+$/.test(s)) return undefined;
  const v = BigInt(s);
  if (v > 9223372036854775807n || v < -9223372036854775808n) return undefined;
  return v;
}

/** resource.ParseQuantity: ok with the sign of the value, or the error kubelet wraps. */
export function parseQuantity(str: string): QuantityParse {
  if (str.length === 0) return { ok: false, error: ERR_FORMAT_WRONG };
  if (str === '0') return { ok: true, sign: 0 };
  const parts = parseQuantityString(str);
  if ('error' in parts) return { ok: false, error: parts.error };
  const suffix = interpret(parts.suffix);
  if (!suffix) return { ok: false, error: ERR_SUFFIX };

  let precision = 0;
  let scale = 0;
  if (suffix.format === 'DecimalExponent' || suffix.format === 'DecimalSI') {
    scale = suffix.exponent;
    precision = MAX_INT64_FACTORS - (parts.num.length + parts.denom.length);
  } else if (suffix.exponent >= 0 && parts.denom.length === 0) {
    precision = 15 - parts.num.length - Math.trunc((suffix.exponent * 3) / 10) - 1;
  } else {
    precision = -1;
  }
  const nonZero = /[1-9]/.test(parts.num + parts.denom);
  const sign: -1 | 0 | 1 = !nonZero ? 0 : parts.positive ? 1 : -1;
  if (precision >= 0 && scale - parts.denom.length >= NANO) {
    // int64 fast path: num+denom has at most 18 digits, so strconv.ParseInt cannot fail.
    return { ok: true, sign };
  }
  // inf.Dec.SetString(value): needs at least one digit ("no digits read" otherwise).
  if (!/[0-9]/.test(parts.value)) return { ok: false, error: ERR_NUMERIC };
  return { ok: true, sign };
}
