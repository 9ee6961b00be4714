/**
 * golang.org/x/crypto/cryptobyte's ASN.1 reader as vendored in Go 1.18-1.26
 * (src/vendor/golang.org/x/crypto/cryptobyte/asn1.go): DER only, low tag numbers only, minimal
 * lengths of at most 4 bytes, minimal integers. Every read either consumes an element and returns
 * it or returns undefined and leaves the input as it was.
 */
export const TAG = {
  BOOLEAN: 0x01,
  INTEGER: 0x02,
  BIT_STRING: 0x03,
  OCTET_STRING: 0x04,
  OBJECT_IDENTIFIER: 0x06,
  UTF8String: 0x0c,
  SEQUENCE: 0x30,
  SET: 0x31,
  PrintableString: 0x13,
  T61String: 0x14,
  IA5String: 0x16,
  UTCTime: 0x17,
  GeneralizedTime: 0x18,
  NumericString: 0x12,
  BMPString: 0x1e,
} as const;
export const contextSpecific = (n: number) => 0x80 | n;
export const constructedContextSpecific = (n: number) => 0xa0 | n;

export interface AnyElement {
  readonly tag: number;
  /** The contents, header stripped. */
  readonly body: Uint8Array;
  /** The whole element, header included. */
  readonly element: Uint8Array;
}

const INT64_MIN = -(1n << 63n);
export const INT64_MAX = (1n << 63n) - 1n;

export class DerString {
  constructor(public bytes: Uint8Array) {}

  get empty(): boolean {
    return this.bytes.length === 0;
  }

  peekTag(tag: number): boolean {
    return this.bytes.length > 0 && this.bytes[0] === tag;
  }

  /** readASN1: tag, length and contents of the next element. */
  readAny(): AnyElement | undefined {
    const s = this.bytes;
    if (s.length < 2) return undefined;
    const tag = s[0]!;
    const lenByte = s[1]!;
    if ((tag & 0x1f) === 0x1f) return undefined; // high-tag-number form
    let length: number;
    let headerLen: number;
    if ((lenByte & 0x80) === 0) {
      length = lenByte + 2;
      headerLen = 2;
    } else {
      const lenLen = lenByte & 0x7f;
      if (lenLen === 0 || lenLen > 4 || s.length < 2 + lenLen) return undefined;
      let len32 = 0;
      for (let i = 0; i < lenLen; i++) len32 = len32 * 256 + s[2 + i]!;
      if (len32 < 128) return undefined; // should have been short form
      if (s[2] === 0) return undefined; // leading zero octet: not minimal
      headerLen = 2 + lenLen;
      length = headerLen + len32;
      // uint32 overflow of headerLen+len32, and Go's int(length) < 0 check, cannot be reached
      // by an input that also has that many bytes; ReadBytes fails below.
      if (length > 0xffffffff) return undefined;
    }
    if (s.length < length) return undefined;
    this.bytes = s.subarray(length);
    return { tag, body: s.subarray(headerLen, length), element: s.subarray(0, length) };
  }

  /** ReadASN1: the contents of the next element, which must have `tag`. */
  read(tag: number): Uint8Array | undefined {
    return this.readTagged(tag)?.body;
  }

  /** ReadASN1Element: the same, header included. */
  readElement(tag: number): Uint8Array | undefined {
    return this.readTagged(tag)?.element;
  }

  private readTagged(tag: number): AnyElement | undefined {
    const saved = this.bytes;
    const e = this.readAny();
    if (e && e.tag === tag) return e;
    this.bytes = saved;
    return undefined;
  }

  /** ReadOptionalASN1: absent is fine; present must read. */
  readOptional(tag: number): { present: boolean; body: Uint8Array } | undefined {
    if (!this.peekTag(tag)) return { present: false, body: new Uint8Array(0) };
    const body = this.read(tag);
    return body ? { present: true, body } : undefined;
  }

  skipOptional(tag: number): boolean {
    return this.readOptional(tag) !== undefined;
  }

  readBoolean(): boolean | undefined {
    const saved = this.bytes;
    const b = this.read(TAG.BOOLEAN);
    if (!b || b.length !== 1 || (b[0] !== 0 && b[0] !== 0xff)) {
      this.bytes = saved;
      return undefined;
    }
    return b[0] === 0xff;
  }

  /** An INTEGER of any size (big.Int). */
  readBigInt(tag: number = TAG.INTEGER): bigint | undefined {
    const saved = this.bytes;
    const b = this.read(tag);
    if (!b || !minimalInteger(b)) {
      this.bytes = saved;
      return undefined;
    }
    return twosComplement(b);
  }

  /** An INTEGER read into a Go int/int64 (asn1Signed: at most 8 bytes). */
  readInt64(tag: number = TAG.INTEGER): bigint | undefined {
    const saved = this.bytes;
    const b = this.read(tag);
    if (!b || !minimalInteger(b) || b.length > 8) {
      this.bytes = saved;
      return undefined;
    }
    return twosComplement(b);
  }

  /** An INTEGER read into a Go uint/uint64 (asn1Unsigned: non-negative, fits 64 bits). */
  readUint64(): bigint | undefined {
    const saved = this.bytes;
    const b = this.read(TAG.INTEGER);
    if (!b || !minimalInteger(b) || b.length > 9 || (b.length === 9 && b[0] !== 0) || (b[0]! & 0x80) !== 0) {
      this.bytes = saved;
      return undefined;
    }
    return twosComplement(b);
  }

  /**
   * ReadASN1ObjectIdentifier. Arcs are Go ints read 7 bits at a time, at most 5 octets and below
   * 2^31; a first octet 0x80 (non-minimal) is refused from Go 1.21 (rejectLeading80).
   */
  readObjectIdentifier(rejectLeading80: boolean): number[] | undefined {
    const saved = this.bytes;
    const b = this.read(TAG.OBJECT_IDENTIFIER);
    const arcs = b && b.length > 0 ? parseOidBody(b, rejectLeading80) : undefined;
    if (!arcs) this.bytes = saved;
    return arcs;
  }

  readBitString(): { bytes: Uint8Array; bitLength: number } | undefined {
    const saved = this.bytes;
    const b = this.read(TAG.BIT_STRING);
    if (!b || b.length === 0) {
      this.bytes = saved;
      return undefined;
    }
    const padding = b[0]!;
    const rest = b.subarray(1);
    if (padding > 7 || (rest.length === 0 && padding !== 0) || (rest.length > 0 && (rest[rest.length - 1]! & ((1 << padding) - 1)) !== 0)) {
      this.bytes = saved;
      return undefined;
    }
    return { bytes: rest, bitLength: rest.length * 8 - padding };
  }
}

export function minimalInteger(b: Uint8Array): boolean {
  if (b.length === 0) return false;
  if (b.length === 1) return true;
  return !((b[0] === 0 && (b[1]! & 0x80) === 0) || (b[0] === 0xff && (b[1]! & 0x80) === 0x80));
}

function twosComplement(b: Uint8Array): bigint {
  const v = BigInt(`0x${Buffer.from(b.buffer, b.byteOffset, b.byteLength).toString('hex')}`);
  return (b[0]! & 0x80) !== 0 ? v - (1n << BigInt(b.length * 8)) : v;
}

export const fitsInt64 = (v: bigint) => v >= INT64_MIN && v <= INT64_MAX;

function parseOidBody(bytes: Uint8Array, rejectLeading80: boolean): number[] | undefined {
  let at = 0;
  const readBase128 = (): number | undefined => {
    let ret = 0;
    for (let i = 0; at < bytes.length; i++) {
      if (i === 5) return undefined;
      if (ret >= 1 << 24) return undefined;
      ret *= 128;
      const b = bytes[at++]!;
      if (rejectLeading80 && i === 0 && b === 0x80) return undefined;
      ret += b & 0x7f;
      if ((b & 0x80) === 0) return ret;
    }
    return undefined;
  };
  const first = readBase128();
  if (first === undefined) return undefined;
  const arcs = first < 80 ? [Math.floor(first / 40), first % 40] : [2, first - 80];
  while (at < bytes.length) {
    const v = readBase128();
    if (v === undefined) return undefined;
    arcs.push(v);
  }
  return arcs;
}

const DAYS_IN_MONTH = [31, 28, 31, 30, 31, 30, 31, 31, 30, 31, 30, 31];
const isLeap = (y: number) => y % 4 === 0 && (y % 100 !== 0 || y % 400 === 0);

/**
 * The outcome of ReadASN1UTCTime / ReadASN1GeneralizedTime: time.Parse with layout
 * "060102150405Z0700" (UTCTime; "0601021504Z0700" as fallback) or "20060102150405Z0700", then the
 * round trip through Format must give back the same text. 'zone' is a numeric offset: its
 * parse and re-format rules (Local zone, ranges) are not modelled.
 */
export function checkAsn1Time(text: Uint8Array, kind: 'utc' | 'generalized'): 'ok' | 'malformed' | 'zone' {
  const s = Buffer.from(text).toString('latin1');
  const digits = kind === 'utc' ? [12, 10] : [14];
  const zone = /^(\d+)([+-]\d{4})$/.exec(s);
  if (zone && digits.includes(zone[1]!.length)) return 'zone';
  const m = /^(\d+)Z$/.exec(s);
  if (!m || !digits.includes(m[1]!.length)) return 'malformed';
  const d = m[1]!;
  let year: number;
  let rest: string;
  if (kind === 'utc') {
    const yy = Number(d.slice(0, 2));
    year = yy >= 69 ? 1900 + yy : 2000 + yy;
    rest = d.slice(2);
  } else {
    year = Number(d.slice(0, 4));
    rest = d.slice(4);
  }
  const month = Number(rest.slice(0, 2));
  const day = Number(rest.slice(2, 4));
  const hour = Number(rest.slice(4, 6));
  const minute = Number(rest.slice(6, 8));
  const second = rest.length > 8 ? Number(rest.slice(8, 10)) : 0;
  if (month < 1 || month > 12) return 'malformed';
  const daysIn = month === 2 && isLeap(year) ? 29 : DAYS_IN_MONTH[month - 1]!;
  if (day < 1 || day > daysIn || hour > 23 || minute > 59 || second > 59) return 'malformed';
  return 'ok';
}
