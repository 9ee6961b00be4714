/**
 * Go's strconv.ParseBool / ParseInt / ParseUint (golang/go src/strconv/atob.go, atoi.go), with their
 * exact error texts ("strconv.ParseInt: parsing \"abc\": invalid syntax"). pflag's bool/int32/int/
 * int64/uint64 values and component-base's verbosity parser call these and put the error after
 * `invalid argument "<v>" for "--<flag>" flag: `.
 */
import { goQuote } from './quote.js';

export type GoNumResult = { readonly ok: true; readonly value: bigint } | { readonly ok: false; readonly error: string; readonly range: boolean };

const syntax = (fn: string, s: string): GoNumResult => ({ ok: false, error: `strconv.${fn}: parsing ${goQuote(s)}: invalid syntax`, range: false });
const range = (fn: string, s: string): GoNumResult => ({ ok: false, error: `strconv.${fn}: parsing ${goQuote(s)}: value out of range`, range: true });

const lower = (c: string): string => (c >= 'A' && c <= 'Z' ? c.toLowerCase() : c);

export function goParseBool(s: string): { ok: true; value: boolean } | { ok: false; error: string } {
  if (['1', 't', 'T', 'TRUE', 'true', 'True'].includes(s)) return { ok: true, value: true };
  if (['0', 'f', 'F', 'FALSE', 'false', 'False'].includes(s)) return { ok: true, value: false };
  return { ok: false, error: `strconv.ParseBool: parsing ${goQuote(s)}: invalid syntax` };
}

function underscoreOK(str: string): boolean {
  let s = str;
  let saw = '^';
  let i = 0;
  if (s.length >= 1 && (s[0] === '-' || s[0] === '+')) s = s.slice(1);
  let hex = false;
  if (s.length >= 2 && s[0] === '0' && ['b', 'o', 'x'].includes(lower(s[1]!))) {
    i = 2;
    saw = '0';
    hex = lower(s[1]!) === 'x';
  }
  for (; i < s.length; i++) {
    const c = s[i]!;
    if ((c >= '0' && c <= '9') || (hex && lower(c) >= 'a' && lower(c) <= 'f')) {
      saw = '0';
      continue;
    }
    if (c === '_') {
      if (saw !== '0') return false;
      saw = '_';
      continue;
    }
    if (saw === '_') return false;
    saw = '!';
  }
  return saw !== '_';
}

function parseUint(fn: string, s0: string, baseIn: number, bitSize: number, reportAs: string): GoNumResult {
  if (s0 === '') return syntax(fn, reportAs);
  const base0 = baseIn === 0;
  let base = baseIn;
  let s = s0;
  if (base === 0) {
    base = 10;
    if (s[0] === '0') {
      if (s.length >= 3 && lower(s[1]!) === 'b') { base = 2; s = s.slice(2); }
      else if (s.length >= 3 && lower(s[1]!) === 'o') { base = 8; s = s.slice(2); }
      else if (s.length >= 3 && lower(s[1]!) === 'x') { base = 16; s = s.slice(2); }
      else { base = 8; s = s.slice(1); }
    }
  }
  const maxVal = (1n << BigInt(bitSize)) - 1n;
  const b = BigInt(base);
  let n = 0n;
  let underscores = false;
  for (const c of s) {
    let d: number;
    if (c === '_' && base0) { underscores = true; continue; }
    if (c >= '0' && c <= '9') d = c.charCodeAt(0) - 48;
    else if (lower(c) >= 'a' && lower(c) <= 'z') d = lower(c).charCodeAt(0) - 97 + 10;
    else return syntax(fn, reportAs);
    if (d >= base) return syntax(fn, reportAs);
    n = n * b + BigInt(d);
    if (n > maxVal) return range(fn, reportAs);
  }
  if (underscores && !underscoreOK(s0)) return syntax(fn, reportAs);
  return { ok: true, value: n };
}

/** strconv.ParseUint(s, base, bitSize). */
export function goParseUint(s: string, base: number, bitSize: number): GoNumResult {
  return parseUint('ParseUint', s, base, bitSize, s);
}

/** strconv.ParseInt(s, base, bitSize). */
export function goParseInt(s0: string, base: number, bitSize: number): GoNumResult {
  return parseInt('ParseInt', s0, base, bitSize);
}

/**
 * strconv.Atoi on a 64-bit platform: ParseInt(s, 10, 0), its errors naming Atoi (atoi.go); the
 * value as a number, which is exact for the magnitudes kubelet's callers accept.
 */
export function goAtoi(s: string): { readonly ok: true; readonly value: number } | { readonly ok: false; readonly error: string } {
  const parsed = parseInt('Atoi', s, 10, 64);
  return parsed.ok ? { ok: true, value: Number(parsed.value) } : { ok: false, error: parsed.error };
}

function parseInt(fn: string, s0: string, base: number, bitSize: number): GoNumResult {
  if (s0 === '') return syntax(fn, s0);
  let s = s0;
  let neg = false;
  if (s[0] === '+') s = s.slice(1);
  else if (s[0] === '-') { neg = true; s = s.slice(1); }
  const un = parseUint(fn, s, base, bitSize, s0);
  if (!un.ok) return un.range ? range(fn, s0) : syntax(fn, s0);
  const cutoff = 1n << BigInt(bitSize - 1);
  if (!neg && un.value >= cutoff) return range(fn, s0);
  if (neg && un.value > cutoff) return range(fn, s0);
  return { ok: true, value: neg ? -un.value : un.value };
}

/** strings.TrimSpace: unicode.IsSpace runes at both ends. */
export function goTrimSpace(s: string): string {
  const isSpace = (c: string): boolean =>
    c === ' ' || c === '\t' || c === '\n' || c === '\v' || c === '\f' || c === '\r' || c === '\u0085' || c === '\u00a0' ||
    c === '\u1680' || (c >= '\u2000' && c <= '\u200a') || c === '\u2028' || c === '\u2029' || c === '\u202f' || c === '\u205f' || c === '\u3000';
  let a = 0;
  let b = s.length;
  while (a < b && isSpace(s[a]!)) a++;
  while (b > a && isSpace(s[b - 1]!)) b--;
  return s.slice(a, b);
}
