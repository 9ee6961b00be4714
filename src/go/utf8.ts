/**
 * Go's unicode/utf8 decoding rules, on bytes. Go strings are byte strings: invalid UTF-8 survives
 * in them and every helper in src/go must treat it the way Go does (one RuneError per bad byte).
 */
import { isUtf8 } from 'node:buffer';

export const RUNE_ERROR = 0xfffd;
export const RUNE_SELF = 0x80;

export interface DecodedRune {
  /** The code point, or RUNE_ERROR for an invalid byte. */
  readonly rune: number;
  /** Bytes consumed: 1 for an invalid byte (utf8.DecodeRune). */
  readonly size: number;
}

/** utf8.DecodeRune: rejects overlong forms, surrogates and code points above U+10FFFF. */
export function decodeRune(bytes: Uint8Array, at: number): DecodedRune {
  const b0 = bytes[at];
  if (b0 === undefined) return { rune: RUNE_ERROR, size: 0 };
  if (b0 < 0x80) return { rune: b0, size: 1 };
  const invalid = { rune: RUNE_ERROR, size: 1 };
  const cont = (i: number): number | undefined => {
    const b = bytes[at + i];
    return b !== undefined && (b & 0xc0) === 0x80 ? b & 0x3f : undefined;
  };
  if (b0 >= 0xc2 && b0 <= 0xdf) {
    const c1 = cont(1);
    return c1 === undefined ? invalid : { rune: ((b0 & 0x1f) << 6) | c1, size: 2 };
  }
  if (b0 >= 0xe0 && b0 <= 0xef) {
    const c1 = cont(1);
    const c2 = cont(2);
    if (c1 === undefined || c2 === undefined) return invalid;
    const rune = ((b0 & 0x0f) << 12) | (c1 << 6) | c2;
    if (rune < 0x800 || (rune >= 0xd800 && rune <= 0xdfff)) return invalid;
    return { rune, size: 3 };
  }
  if (b0 >= 0xf0 && b0 <= 0xf4) {
    const c1 = cont(1);
    const c2 = cont(2);
    const c3 = cont(3);
    if (c1 === undefined || c2 === undefined || c3 === undefined) return invalid;
    const rune = ((b0 & 0x07) << 18) | (c1 << 12) | (c2 << 6) | c3;
    if (rune < 0x10000 || rune > 0x10ffff) return invalid;
    return { rune, size: 4 };
  }
  return invalid;
}

/** A JS string as the bytes Go would hold for it (lone surrogates become U+FFFD, as Buffer does). */
export function utf8Bytes(s: string): Uint8Array {
  return Buffer.from(s, 'utf8');
}

/** Bytes to a JS string, one U+FFFD per invalid byte exactly as Go's []rune conversion does. */
export function goBytesToString(bytes: Uint8Array): string {
  // Valid UTF-8 decodes the same either way; only invalid sequences need Go's rune-by-rune U+FFFD
  // rules, so the whole buffer is decoded at once when it is valid (the common case, and O(n)).
  if (isUtf8(bytes)) return Buffer.from(bytes.buffer, bytes.byteOffset, bytes.byteLength).toString('utf8');
  let out = '';
  for (let i = 0; i < bytes.length; ) {
    const { rune, size } = decodeRune(bytes, i);
    out += String.fromCodePoint(rune);
    i += size;
  }
  return out;
}

/** Go's string comparison (byte order of UTF-8), for sort.Strings and map-key ordering. */
export function compareGoStrings(a: string, b: string): number {
  // Below the surrogates, UTF-16 code units order as their UTF-8 bytes do: sorting a large
  // config's keys need not encode both strings at every comparison (start-path cost).
  const n = Math.min(a.length, b.length);
  for (let i = 0; i < n; i++) {
    const x = a.charCodeAt(i);
    const y = b.charCodeAt(i);
    if (x >= 0xd800 || y >= 0xd800) return Buffer.compare(Buffer.from(a, 'utf8'), Buffer.from(b, 'utf8'));
    if (x !== y) return x < y ? -1 : 1;
  }
  return a.length === b.length ? 0 : a.length < b.length ? -1 : 1;
}

/**
 * A file name's bytes as a string, reversibly: valid UTF-8 is decoded, every other byte becomes
 * U+DC00 + byte (a lone surrogate, which decoded UTF-8 never holds). Names are bytes to the kernel
 * and to systemd, so a name that is not UTF-8 still opens (hostFileName).
 */
export function fileNameFromBytes(bytes: Uint8Array): string {
  if (isUtf8(bytes)) return Buffer.from(bytes.buffer, bytes.byteOffset, bytes.byteLength).toString('utf8');
  let out = '';
  for (let at = 0; at < bytes.length;) {
    const { rune, size } = decodeRune(bytes, at);
    out += rune === RUNE_ERROR && size === 1 && !(bytes[at] === 0xef && bytes[at + 1] === 0xbf && bytes[at + 2] === 0xbd) ? String.fromCharCode(0xdc00 + bytes[at]!) : String.fromCodePoint(rune);
    at += size;
  }
  return out;
}

const ESCAPED_BYTE = /[\udc80-\udcff]/;

/** The path as the file system takes it: the string, or its bytes when it holds escaped ones (fileNameFromBytes). */
export function hostFileName(path: string): string | Buffer {
  if (!ESCAPED_BYTE.test(path)) return path;
  const parts: Buffer[] = [];
  for (const ch of path) {
    const code = ch.charCodeAt(0);
    parts.push(ch.length === 1 && code >= 0xdc80 && code <= 0xdcff ? Buffer.from([code - 0xdc00]) : Buffer.from(ch, 'utf8'));
  }
  return Buffer.concat(parts);
}
