/**
 * encoding/asn1 Unmarshal (src/encoding/asn1/asn1.go, the same for these types in Go 1.18-1.26:
 * parseTagAndLength, parseField, parseBase128Int, checkInteger, parseInt64, parseBigInt,
 * parseObjectIdentifier, parseBitString, setDefaultValue), for the field types crypto/x509's
 * private key structures use (pkcs1.go, pkcs8.go, sec1.go). Unlike cryptobyte it reads high tag
 * numbers, ignores what follows the last field of a SEQUENCE, and an EXPLICIT field's inner
 * element is read from the enclosing SEQUENCE, not bounded by the wrapper. Only success or failure
 * is modelled (crypto/tls turns every key parsing error into one message), not the error texts.
 */

export type Asn1Field =
  | { readonly kind: 'int' | 'bigint' | 'octets' | 'oid' | 'bitstring' | 'raw'; readonly optional?: boolean; readonly explicitTag?: number }
  | { readonly kind: 'struct'; readonly fields: readonly Asn1Field[]; readonly optional?: boolean }
  /** A SEQUENCE OF SEQUENCE (pkcs1's AdditionalPrimes): only whether it is present and empty. */
  | { readonly kind: 'seqof'; readonly optional?: boolean };

export type Asn1Value =
  | bigint
  | Uint8Array
  | number[]
  | { readonly bytes: Uint8Array; readonly bitLength: number }
  | { readonly full: Uint8Array }
  | { readonly elements: number }
  | readonly (Asn1Value | undefined)[];

/** Unmarshal's error (its text is not modelled). */
export class Asn1Error extends Error {}
const fail = (why: string): never => {
  throw new Asn1Error(why);
};

interface TagAndLength { readonly cls: number; readonly compound: boolean; readonly tag: number; readonly length: number }

function parseBase128Int(bytes: Uint8Array, at: number): { value: number; at: number } {
  let ret = 0;
  for (let shifted = 0; at < bytes.length; shifted++) {
    if (shifted === 5) fail('base 128 integer too large');
    const b = bytes[at]!;
    if (shifted === 0 && b === 0x80) fail('integer is not minimally encoded');
    ret = ret * 128 + (b & 0x7f);
    at++;
    if ((b & 0x80) === 0) {
      if (ret > 0x7fffffff) fail('base 128 integer too large');
      return { value: ret, at };
    }
  }
  return fail('truncated base 128 integer');
}

function parseTagAndLength(bytes: Uint8Array, at: number): { t: TagAndLength; at: number } {
  let b = bytes[at++]!;
  const cls = b >> 6;
  const compound = (b & 0x20) === 0x20;
  let tag = b & 0x1f;
  if (tag === 0x1f) {
    const r = parseBase128Int(bytes, at);
    tag = r.value;
    at = r.at;
    if (tag < 0x1f) fail('non-minimal tag');
  }
  if (at >= bytes.length) fail('truncated tag or length');
  b = bytes[at++]!;
  let length: number;
  if ((b & 0x80) === 0) length = b & 0x7f;
  else {
    const numBytes = b & 0x7f;
    if (numBytes === 0) fail('indefinite length found (not DER)');
    length = 0;
    for (let i = 0; i < numBytes; i++) {
      if (at >= bytes.length) fail('truncated tag or length');
      b = bytes[at++]!;
      if (length >= 1 << 23) fail('length too large');
      length = length * 256 + b;
      if (length === 0) fail('superfluous leading zeros in length');
    }
    if (length < 0x80) fail('non-minimal length');
  }
  return { t: { cls, compound, tag, length }, at };
}

function checkInteger(b: Uint8Array): void {
  if (b.length === 0) fail('empty integer');
  if (b.length === 1) return;
  if ((b[0] === 0 && (b[1]! & 0x80) === 0) || (b[0] === 0xff && (b[1]! & 0x80) === 0x80)) fail('integer not minimally-encoded');
}

function twosComplement(b: Uint8Array): bigint {
  const v = BigInt(`0x${Buffer.from(b.buffer, b.byteOffset, b.byteLength).toString('hex')}`);
  return (b[0]! & 0x80) !== 0 ? v - (1n << BigInt(b.length * 8)) : v;
}

function parseObjectIdentifier(bytes: Uint8Array): number[] {
  if (bytes.length === 0) fail('zero length OBJECT IDENTIFIER');
  let { value, at } = parseBase128Int(bytes, 0);
  const arcs = value < 80 ? [Math.floor(value / 40), value % 40] : [2, value - 80];
  while (at < bytes.length) {
    ({ value, at } = parseBase128Int(bytes, at));
    arcs.push(value);
  }
  return arcs;
}

function parseBitString(bytes: Uint8Array): { bytes: Uint8Array; bitLength: number } {
  if (bytes.length === 0) fail('zero length BIT STRING');
  const padding = bytes[0]!;
  if (padding > 7 || (bytes.length === 1 && padding > 0) || (bytes[bytes.length - 1]! & ((1 << padding) - 1)) !== 0) fail('invalid padding bits in BIT STRING');
  return { bytes: bytes.subarray(1), bitLength: (bytes.length - 1) * 8 - padding };
}

/** getUniversalType: the expected universal tag and constructed bit; undefined for RawValue (any). */
function universalOf(field: Asn1Field): { tag: number; compound: boolean } | undefined {
  switch (field.kind) {
    case 'int':
    case 'bigint': return { tag: 2, compound: false };
    case 'octets': return { tag: 4, compound: false };
    case 'oid': return { tag: 6, compound: false };
    case 'bitstring': return { tag: 3, compound: false };
    case 'struct':
    case 'seqof': return { tag: 16, compound: true };
    case 'raw': return undefined;
  }
}

/** parseField: the new offset and the value (undefined: an optional field left at its default). */
function parseField(field: Asn1Field, bytes: Uint8Array, initOffset: number): { at: number; value: Asn1Value | undefined } {
  let at = initOffset;
  const absent = () => (field.optional ? { at: initOffset, value: undefined } : fail('sequence truncated or tags don\'t match'));
  if (at === bytes.length) return absent();
  let read = parseTagAndLength(bytes, at);
  let t = read.t;
  at = read.at;
  const explicitTag = 'explicitTag' in field ? field.explicitTag : undefined;
  if (explicitTag !== undefined) {
    if (at === bytes.length) fail('explicit tag has no child');
    if (t.cls === 2 && t.tag === explicitTag && (t.length === 0 || t.compound)) {
      // No field here is an asn1.Flag: a zero-length wrapper is an error.
      if (t.length === 0) fail('zero length explicit tag was not an asn1.Flag');
      read = parseTagAndLength(bytes, at);
      t = read.t;
      at = read.at;
    } else return absent();
  }
  const expected = universalOf(field);
  if (expected && (t.cls !== 0 || t.tag !== expected.tag || t.compound !== expected.compound)) return absent();
  if (at + t.length > bytes.length) fail('data truncated');
  const inner = bytes.subarray(at, at + t.length);
  at += t.length;
  switch (field.kind) {
    case 'raw': return { at, value: { full: bytes.subarray(initOffset, at) } };
    case 'oid': return { at, value: parseObjectIdentifier(inner) };
    case 'bitstring': return { at, value: parseBitString(inner) };
    case 'bigint':
      checkInteger(inner);
      return { at, value: twosComplement(inner) };
    case 'int':
      checkInteger(inner);
      if (inner.length > 8) fail('integer too large');
      return { at, value: twosComplement(inner) };
    case 'octets': return { at, value: inner };
    case 'seqof': {
      // parseSequenceOf's element checks, without the elements' own fields (counted only).
      let elements = 0;
      for (let off = 0; off < inner.length;) {
        const e = parseTagAndLength(inner, off);
        if (e.t.cls !== 0 || !e.t.compound || e.t.tag !== 16) fail('sequence tag mismatch');
        if (e.at + e.t.length > inner.length) fail('truncated sequence');
        off = e.at + e.t.length;
        elements++;
      }
      return { at, value: { elements } };
    }
    case 'struct': {
      const values: (Asn1Value | undefined)[] = [];
      let off = 0;
      for (const f of field.fields) {
        const r = parseField(f, inner, off);
        off = r.at;
        values.push(r.value);
      }
      // Bytes after the last field are allowed (asn1.go: "We allow extra bytes at the end of the SEQUENCE").
      return { at, value: values };
    }
  }
}

/** asn1.Unmarshal(der, &v): the value and the rest after it; throws Asn1Error where Go returns an error. */
export function asn1Unmarshal(der: Uint8Array, field: Asn1Field): { value: Asn1Value | undefined; rest: Uint8Array } {
  const { at, value } = parseField(field, der, 0);
  return { value, rest: der.subarray(at) };
}
