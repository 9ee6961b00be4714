/**
 * strconv.Quote (and fmt's %q, which uses it) and the private quote() of Go's time package.
 * Kubelet's messages quote paths, names and values with these, so node-check must too.
 */
import { decodeRune, RUNE_ERROR, RUNE_SELF, utf8Bytes } from './utf8.js';

const LOWER_HEX = '0123456789abcdef';

// Go's strconv.IsPrint: letters, marks, numbers, punctuation, symbols and the ASCII space.
// Node's Unicode tables may be a version apart from Go's; that only matters for code points
// assigned in between. Made at the first non-ASCII rune: even creating the pattern costs ~0.4 ms
// (its Unicode sets), at every start, for what most nodes never need (start-path cost).
let printable: RegExp | undefined;

export function isGoPrint(rune: number): boolean {
  if (rune === 0x20) return true;
  if (rune < 0x20 || rune === 0x7f) return false;
  // Every other ASCII rune is a letter, digit, punctuation or symbol: no need to compile the
  // Unicode-property pattern, which costs ~15 M instructions at its first use (start-path cost).
  if (rune < 0x7f) return true;
  // Latin-1 and General Punctuation (node-check's own "…" among them) without the pattern either:
  // Go's isPrint16 ranges there, 0x00a1-0x0377 (but 0x00ad), 0x2010-0x2027 and 0x2030-0x205e.
  if (rune >= 0xa1 && rune <= 0xff) return rune !== 0xad;
  if ((rune >= 0x2010 && rune <= 0x2027) || (rune >= 0x2030 && rune <= 0x205e)) return true;
  printable ??= new RegExp('^[\\p{L}\\p{M}\\p{N}\\p{P}\\p{S}]$', 'u');
  return printable.test(String.fromCodePoint(rune));
}

/** strconv.Quote: a double-quoted Go string literal. Invalid UTF-8 bytes become \xNN. */
export function goQuote(s: string | Uint8Array): string {
  const bytes = typeof s === 'string' ? utf8Bytes(s) : s;
  let out = '"';
  for (let i = 0; i < bytes.length; ) {
    const { rune, size } = decodeRune(bytes, i);
    if (size === 1 && rune === RUNE_ERROR && bytes[i]! >= RUNE_SELF) {
      out += `\\x${hex2(bytes[i]!)}`;
      i += 1;
      continue;
    }
    out += escapeRune(rune);
    i += size;
  }
  return out + '"';
}

/** strconv.Quote of a single rune's string, as encoding/json's quoteChar uses for a byte. */
export function goQuoteRune(rune: number): string {
  return escapeRune(rune);
}

function escapeRune(r: number): string {
  if (r === 0x22) return '\\"';
  if (r === 0x5c) return '\\\\';
  if (isGoPrint(r)) return String.fromCodePoint(r);
  switch (r) {
    case 0x07: return '\\a';
    case 0x08: return '\\b';
    case 0x0c: return '\\f';
    case 0x0a: return '\\n';
    case 0x0d: return '\\r';
    case 0x09: return '\\t';
    case 0x0b: return '\\v';
  }
  if (r < 0x20 || r === 0x7f) return `\\x${hex2(r)}`;
  if (r < 0x10000) return `\\u${r.toString(16).padStart(4, '0')}`;
  return `\\U${r.toString(16).padStart(8, '0')}`;
}

function hex2(b: number): string {
  return LOWER_HEX[b >> 4]! + LOWER_HEX[b & 0xf]!;
}

/**
 * The time package's private quote(), used by time.ParseDuration errors: only '"' and '\' are
 * escaped; every byte of a non-ASCII or control rune is written as \xNN.
 */
export function goTimeQuote(s: string | Uint8Array): string {
  const bytes = typeof s === 'string' ? utf8Bytes(s) : s;
  let out = '"';
  for (let i = 0; i < bytes.length; ) {
    const { rune, size } = decodeRune(bytes, i);
    if (rune >= RUNE_SELF || rune < 0x20) {
      let width = size;
      // An invalid byte is one RuneError of width 1; a real U+FFFD is three bytes.
      if (rune === RUNE_ERROR && size === 1) width = 1;
      for (let j = 0; j < width; j++) out += `\\x${hex2(bytes[i + j]!)}`;
      i += width;
      continue;
    }
    if (rune === 0x22 || rune === 0x5c) out += '\\';
    out += String.fromCharCode(rune);
    i += size;
  }
  return out + '"';
}
