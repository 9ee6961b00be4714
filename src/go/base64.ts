/**
 * encoding/base64 StdEncoding.Decode (Go 1.18-1.26, unchanged in behaviour): the standard alphabet,
 * '=' padding required, '\r' and '\n' skipped anywhere, non-zero trailing bits accepted (the
 * encoding is not Strict). Only the outcome is modelled, not CorruptInputError's offset.
 */
const ALPHABET = 'ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789+/';
const DECODE_MAP = new Int16Array(256).fill(-1);
for (let i = 0; i < ALPHABET.length; i++) DECODE_MAP[ALPHABET.charCodeAt(i)] = i;
const PAD = 0x3d;
const isNewline = (b: number) => b === 0x0a || b === 0x0d;

// Go skips '\r' and '\n' anywhere, padding included; without them a valid input is whole quanta,
// padding only at the end. Node's decoder gives the same bytes for such input (it also drops the
// non-zero trailing bits Go ignores), so the common case needs no quantum loop.
const WELL_FORMED = /^(?:[A-Za-z0-9+/]{4})*(?:[A-Za-z0-9+/]{2}==|[A-Za-z0-9+/]{3}=)?$/;

/** The decoded bytes, or undefined where Go returns a CorruptInputError. */
export function decodeGoStdBase64(src: Uint8Array): Uint8Array | undefined {
  const text = Buffer.from(src.buffer, src.byteOffset, src.byteLength).toString('latin1').replace(/[\r\n]/g, '');
  // Input that Node's encoder gives back unchanged is well formed (and has zero trailing bits):
  // native both ways, where the pattern below runs interpreted over each body's first test.
  const decoded = Buffer.from(text, 'base64');
  if (decoded.toString('base64') === text) return decoded;
  if (WELL_FORMED.test(text)) return decoded;
  return decodeQuanta(src);
}

/** encoding/base64's quantum loop, for input the fast path refuses (it finds the same refusals). */
function decodeQuanta(src: Uint8Array): Uint8Array | undefined {
  const out: number[] = [];
  let si = 0;
  for (;;) {
    const quantum: number[] = [];
    let padded = false;
    while (quantum.length < 4) {
      if (si === src.length) {
        if (quantum.length === 0) return Uint8Array.from(out);
        return undefined; // an incomplete quantum: StdEncoding requires padding
      }
      const b = src[si++]!;
      const value = DECODE_MAP[b]!;
      if (value >= 0) {
        quantum.push(value);
        continue;
      }
      if (isNewline(b)) continue;
      if (b !== PAD || quantum.length < 2) return undefined;
      if (quantum.length === 2) {
        // "==" expected; newlines may sit between the two.
        while (si < src.length && isNewline(src[si]!)) si++;
        if (si === src.length || src[si] !== PAD) return undefined;
        si++;
      }
      while (si < src.length && isNewline(src[si]!)) si++;
      if (si < src.length) return undefined; // data after padding
      padded = true;
      break;
    }
    const [a = 0, b = 0, c = 0, d = 0] = quantum;
    const bits = (a << 18) | (b << 12) | (c << 6) | d;
    out.push((bits >> 16) & 0xff);
    if (quantum.length > 2) out.push((bits >> 8) & 0xff);
    if (quantum.length > 3) out.push(bits & 0xff);
    if (padded) return Uint8Array.from(out);
  }
}
