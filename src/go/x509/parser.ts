/**
 * crypto/x509.ParseCertificate (src/crypto/x509/parser.go) as Go 1.18 to 1.26 ship it, over the
 * DER bytes. Each Go minor's differences are switched on `go.minor` (read from the newest and the
 * earliest patch kubelet releases were built with; see docs/unverified.md for patch-level limits).
 * Constructs whose checks are not re-implemented answer `undecidable`, never a guess: URI SANs and
 * name constraints (domain checks changed within Go 1.24/1.25 patches), zoned times.
 */
import { isUtf8 } from 'node:buffer';
import { DerString, INT64_MAX, TAG, checkAsn1Time, constructedContextSpecific, contextSpecific, fitsInt64 } from './cryptobyte.js';
import { NIST_CURVES, onCurve, type Curve } from '../elliptic.js';

export interface GoX509 {
  /** The Go minor version (18 for go1.18). */
  readonly minor: number;
  /** GODEBUG x509negativeserial=1 (Go 1.23+; the default follows the main module's go line). */
  readonly negativeSerialAllowed: boolean;
}

export type X509Verdict =
  | { readonly ok: true }
  | { readonly ok: false; readonly error: string; readonly exact: boolean }
  | { readonly undecidable: string };

class Refusal {
  constructor(
    readonly verdict: X509Verdict,
  ) {}
}
const fail = (error: string, exact = true): never => {
  throw new Refusal({ ok: false, error, exact });
};
const undecidable = (why: string): never => {
  throw new Refusal({ undecidable: why });
};

const oidString = (arcs: readonly number[]) => arcs.join('.');
const OID = {
  rsa: '1.2.840.113549.1.1.1',
  dsa: '1.2.840.10040.4.1',
  ecdsa: '1.2.840.10045.2.1',
  ed25519: '1.3.101.112',
  authorityInfoAccess: '1.3.6.1.5.5.7.1.1',
};
const ASN1_NULL = Uint8Array.of(0x05, 0x00);
const sameBytes = (a: Uint8Array, b: Uint8Array) => a.length === b.length && a.every((v, i) => v === b[i]);

/** Certificate.PublicKey as crypto/tls's X509KeyPair switches on it; 'other': DSA or an algorithm x509 leaves nil. */
export type CertificatePublicKey =
  | { readonly type: 'rsa'; readonly n: bigint; readonly e: bigint }
  | { readonly type: 'ecdsa'; readonly curve: Curve; readonly x: bigint; readonly y: bigint }
  | { readonly type: 'ed25519'; readonly bytes: Uint8Array }
  | { readonly type: 'other' };

/** What node-check reads of a certificate Go parses. */
export interface GoCertificate {
  readonly publicKey: CertificatePublicKey;
  readonly notAfter: Date;
}

export type X509Parsed = { readonly ok: true; readonly certificate: GoCertificate } | Exclude<X509Verdict, { readonly ok: true }>;

/** x509.ParseCertificate(der): the error Go returns, or ok. */
export function parseGoCertificate(der: Uint8Array, go: GoX509): X509Verdict {
  const parsed = parseGoCertificateFields(der, go);
  return 'ok' in parsed && parsed.ok ? { ok: true } : parsed;
}

/** x509.ParseCertificate(der), with the fields node-check reads when Go accepts it. */
export function parseGoCertificateFields(der: Uint8Array, go: GoX509): X509Parsed {
  try {
    const { raw, certificate } = parseCertificate(der, go);
    if (raw.length !== der.length) return { ok: false, error: 'x509: trailing data', exact: true };
    return { ok: true, certificate };
  } catch (e) {
    if (e instanceof Refusal) return e.verdict as X509Parsed;
    throw e;
  }
}

function parseCertificate(der: Uint8Array, go: GoX509): { raw: Uint8Array; certificate: GoCertificate } {
  const rejectLeading80 = go.minor >= 21;
  const readOid = (s: DerString) => s.readObjectIdentifier(rejectLeading80);

  const outer = new DerString(der);
  const raw = outer.readElement(TAG.SEQUENCE) ?? fail('x509: malformed certificate');
  const input = new DerString(new DerString(raw).read(TAG.SEQUENCE) ?? fail('x509: malformed certificate'));

  const tbsElement = input.readElement(TAG.SEQUENCE) ?? fail('x509: malformed tbs certificate');
  const tbs = new DerString(new DerString(tbsElement).read(TAG.SEQUENCE) ?? fail('x509: malformed tbs certificate'));

  // Version: [0] EXPLICIT INTEGER DEFAULT 0, read into an int; the whole [0] must be the INTEGER.
  let version = 0n;
  const versionField = tbs.readOptional(constructedContextSpecific(0)) ?? fail('x509: malformed version');
  if (versionField.present) {
    const inner = new DerString(versionField.body);
    version = inner.readInt64() ?? fail('x509: malformed version');
    if (!inner.empty) fail('x509: malformed version');
  }
  if (version < 0n) fail('x509: malformed version');
  // Version is one-indexed: Go's cert.Version++ wraps MaxInt64 round to MinInt64, which passes the
  // "> 3" check and skips the v2/v3 fields.
  const certVersion = version === INT64_MAX ? -1 : Number(version) + 1;
  if (certVersion > 3) fail('x509: invalid version');

  const serial = tbs.readBigInt() ?? fail('x509: malformed serial number');
  // Go 1.23+: refused unless GODEBUG x509negativeserial=1; before, accepted.
  if (serial < 0n && go.minor >= 23 && !go.negativeSerialAllowed) fail('x509: negative serial number');

  const sigAISeq = tbs.read(TAG.SEQUENCE) ?? fail('x509: malformed signature algorithm identifier');
  const outerSigAISeq = input.read(TAG.SEQUENCE) ?? fail('x509: malformed algorithm identifier');
  if (!sameBytes(outerSigAISeq, sigAISeq)) fail("x509: inner and outer signature algorithm identifiers don't match");
  parseAI(new DerString(sigAISeq), readOid);

  const issuer = tbs.readElement(TAG.SEQUENCE) ?? fail('x509: malformed issuer');
  parseName(issuer, go, readOid);

  const validity = new DerString(tbs.read(TAG.SEQUENCE) ?? fail('x509: malformed validity'));
  parseTime(validity, go);
  const notAfter = parseTime(validity, go);

  // Go reports a malformed subject as "malformed issuer" (parser.go, every version read).
  const subject = tbs.readElement(TAG.SEQUENCE) ?? fail('x509: malformed issuer');
  parseName(subject, go, readOid);

  const spkiElement = tbs.readElement(TAG.SEQUENCE) ?? fail('x509: malformed spki');
  const spki = new DerString(new DerString(spkiElement).read(TAG.SEQUENCE) ?? fail('x509: malformed spki'));
  const pkAISeq = spki.read(TAG.SEQUENCE) ?? fail('x509: malformed public key algorithm identifier');
  const pkAI = parseAI(new DerString(pkAISeq), readOid);
  const spk = spki.readBitString() ?? fail('x509: malformed subjectPublicKey');
  const algorithm = oidString(pkAI.oid);
  const publicKey: CertificatePublicKey = algorithm === OID.rsa || algorithm === OID.dsa || algorithm === OID.ecdsa || algorithm === OID.ed25519
    ? parsePublicKey(algorithm, pkAI.params, rightAlign(spk), go, readOid)
    : { type: 'other' };

  if (certVersion > 1) {
    // Go 1.18.1 skipped [1]/[2] as constructed tags, later 1.18 patches as primitive ones.
    if (go.minor === 18 && [0x81, 0x82, 0xa1, 0xa2].includes(tbs.bytes[0] ?? -1)) undecidable('a unique identifier field (Go 1.18 patches differ on its tag)');
    if (!tbs.skipOptional(contextSpecific(1))) fail('x509: malformed issuerUniqueID');
    if (!tbs.skipOptional(contextSpecific(2))) fail('x509: malformed subjectUniqueID');
    if (certVersion === 3) {
      const field = tbs.readOptional(constructedContextSpecific(3)) ?? fail('x509: malformed extensions');
      if (field.present) {
        const extensions = new DerString(new DerString(field.body).read(TAG.SEQUENCE) ?? fail('x509: malformed extensions'));
        const seen = new Set<string>();
        const parsed: Extension[] = [];
        while (!extensions.empty) {
          const extension = new DerString(extensions.read(TAG.SEQUENCE) ?? fail('x509: malformed extension'));
          const ext = parseExtension(extension, readOid);
          const id = oidString(ext.id);
          if (seen.has(id) && go.minor >= 19) {
            fail(go.minor >= 23 ? `x509: certificate contains duplicate extension with OID "${id}"` : 'x509: certificate contains duplicate extensions');
          }
          seen.add(id);
          parsed.push(ext);
        }
        processExtensions(parsed, go, readOid);
      }
    }
  }

  input.readBitString() ?? fail('x509: malformed signature');
  return { raw, certificate: { publicKey, notAfter } };
}

type ReadOid = (s: DerString) => number[] | undefined;

function parseAI(der: DerString, readOid: ReadOid): { oid: number[]; params: Uint8Array } {
  const oid = readOid(der) ?? fail('x509: malformed OID');
  if (der.empty) return { oid, params: new Uint8Array(0) };
  const params = der.readAny() ?? fail('x509: malformed parameters');
  return { oid, params: params.element };
}

/** A validity time; only Z times reach the end (zoned ones are undecidable). */
function parseTime(der: DerString, go: GoX509): Date {
  if (der.peekTag(TAG.UTCTime)) {
    const body = der.read(TAG.UTCTime) ?? fail('x509: malformed UTCTime');
    const outcome = checkAsn1Time(body, 'utc');
    if (outcome === 'zone') undecidable('a UTCTime with a numeric zone offset');
    // Go 1.18 parsed UTCTime inline and returned time.Parse's own error (its words not ported).
    if (outcome === 'malformed') fail('x509: malformed UTCTime', go.minor > 18);
    return timeOf(body, 'utc');
  }
  if (der.peekTag(TAG.GeneralizedTime)) {
    const body = der.read(TAG.GeneralizedTime) ?? fail('x509: malformed GeneralizedTime');
    const outcome = checkAsn1Time(body, 'generalized');
    if (outcome === 'zone') undecidable('a GeneralizedTime with a numeric zone offset');
    if (outcome === 'malformed') fail('x509: malformed GeneralizedTime');
    return timeOf(body, 'generalized');
  }
  return fail('x509: unsupported time format');
}

/**
 * The instant of a time checkAsn1Time accepted: UTCTime years 50-99 are 19xx (cryptobyte
 * ReadASN1UTCTime: time.Parse's "06" gives 1969-2068, then years >= 2050 go back a century).
 */
function timeOf(body: Uint8Array, kind: 'utc' | 'generalized'): Date {
  const d = Buffer.from(body).toString('latin1').slice(0, -1);
  const yy = Number(d.slice(0, 2));
  const [year, rest] = kind === 'utc' ? [yy >= 50 ? 1900 + yy : 2000 + yy, d.slice(2)] : [Number(d.slice(0, 4)), d.slice(4)];
  const date = new Date(0);
  date.setUTCFullYear(year, Number(rest.slice(0, 2)) - 1, Number(rest.slice(2, 4)));
  date.setUTCHours(Number(rest.slice(4, 6)), Number(rest.slice(6, 8)), rest.length > 8 ? Number(rest.slice(8, 10)) : 0, 0);
  return date;
}

function parseName(element: Uint8Array, go: GoX509, readOid: ReadOid): void {
  const raw = new DerString(new DerString(element).read(TAG.SEQUENCE) ?? fail('x509: invalid RDNSequence'));
  while (!raw.empty) {
    const set = new DerString(raw.read(TAG.SET) ?? fail('x509: invalid RDNSequence'));
    while (!set.empty) {
      const atav = new DerString(set.read(TAG.SEQUENCE) ?? fail('x509: invalid RDNSequence: invalid attribute'));
      readOid(atav) ?? fail('x509: invalid RDNSequence: invalid attribute type');
      const value = atav.readAny() ?? fail('x509: invalid RDNSequence: invalid attribute value');
      const problem = asn1StringProblem(value.tag, value.body, go);
      if (problem) fail(`x509: invalid RDNSequence: invalid attribute value: ${problem}`);
    }
  }
}

/** x509's isPrintable: PrintableString plus '*' and '&'. */
function isPrintable(b: number): boolean {
  return (b >= 0x61 && b <= 0x7a) || (b >= 0x41 && b <= 0x5a) || (b >= 0x30 && b <= 0x39) || (b >= 0x27 && b <= 0x29) || (b >= 0x2b && b <= 0x2f) || b === 0x20 || b === 0x3a || b === 0x3d || b === 0x3f || b === 0x2a || b === 0x26;
}
/** isIA5String on a Go string: every rune ASCII, so every byte below 0x80. */
const isIA5 = (bytes: Uint8Array) => bytes.every((b) => b < 0x80);

/** parseASN1String's error text for this value, or undefined when it parses. */
function asn1StringProblem(tag: number, value: Uint8Array, go: GoX509): string | undefined {
  switch (tag) {
    case TAG.T61String:
      return undefined; // raw bytes (Go <= 1.24) or Latin-1 (1.25+): never an error
    case TAG.PrintableString:
      return value.every(isPrintable) ? undefined : 'invalid PrintableString';
    case TAG.UTF8String:
      return isUtf8(value) ? undefined : 'invalid UTF-8 string';
    case TAG.BMPString: {
      if (value.length % 2 !== 0) return 'invalid BMPString';
      if (go.minor < 25) return undefined;
      let end = value.length;
      if (end >= 2 && value[end - 1] === 0 && value[end - 2] === 0) end -= 2;
      for (let i = 0; i < end; i += 2) {
        const point = (value[i]! << 8) | value[i + 1]!;
        if (point === 0xfffe || point === 0xffff || (point >= 0xfdd0 && point <= 0xfdef) || (point >= 0xd800 && point <= 0xdfff)) return 'invalid BMPString';
      }
      return undefined;
    }
    case TAG.IA5String:
      return isIA5(value) ? undefined : 'invalid IA5String';
    case TAG.NumericString:
      return value.every((b) => (b >= 0x30 && b <= 0x39) || b === 0x20) ? undefined : 'invalid NumericString';
    default:
      return `unsupported string type: ${tag}`;
  }
}

/** BitString.RightAlign: the bits shifted so that the padding is at the front. */
function rightAlign(bits: { bytes: Uint8Array; bitLength: number }): Uint8Array {
  const shift = 8 - (bits.bitLength % 8);
  if (shift === 8 || bits.bytes.length === 0) return bits.bytes;
  const out = new Uint8Array(bits.bytes.length);
  let a = bits.bytes[0]! >> shift;
  out[0] = a;
  for (let i = 1; i < bits.bytes.length; i++) {
    const b = bits.bytes[i - 1]! << (8 - shift);
    a = b | (bits.bytes[i]! >> shift);
    out[i] = a & 0xff;
  }
  return out;
}

const bigFromBytes = (b: Uint8Array) => (b.length === 0 ? 0n : BigInt(`0x${Buffer.from(b.buffer, b.byteOffset, b.byteLength).toString('hex')}`));

function parsePublicKey(algorithm: string, params: Uint8Array, data: Uint8Array, go: GoX509, readOid: ReadOid): CertificatePublicKey {
  if (algorithm === OID.rsa) {
    if (!sameBytes(params, ASN1_NULL)) fail('x509: RSA key missing NULL parameters');
    const der = new DerString(new DerString(data).read(TAG.SEQUENCE) ?? fail('x509: invalid RSA public key'));
    const n = der.readBigInt() ?? fail('x509: invalid RSA modulus');
    const e = der.readInt64() ?? fail('x509: invalid RSA public exponent');
    if (n <= 0n) fail('x509: RSA modulus is not a positive number');
    if (e <= 0n) fail('x509: RSA public exponent is not a positive number');
    return { type: 'rsa', n, e };
  }
  if (algorithm === OID.ecdsa) {
    const curveOid = readOid(new DerString(params)) ?? fail('x509: invalid ECDSA parameters');
    const curve = NIST_CURVES[oidString(curveOid)] ?? fail('x509: unsupported elliptic curve');
    // Go <= 1.25: elliptic.Unmarshal, one error for all; 1.26: ecdsa.ParseUncompressedPublicKey,
    // whose nistec SetBytes names the curve and the check (crypto/internal/fips140/nistec; P-256
    // is the amd64 assembly's wording, fiat's "P256Element" elsewhere, hence inexact).
    const legacy = 'x509: failed to unmarshal elliptic curve point';
    const modern = go.minor >= 26;
    if (data.length < 1 || data[0] !== 4) fail(modern ? 'ecdsa: invalid uncompressed public key' : legacy);
    if (data.length !== 1 + 2 * curve.byteLen) fail(modern ? `invalid ${curve.name} point encoding` : legacy);
    const x = bigFromBytes(data.subarray(1, 1 + curve.byteLen));
    const y = bigFromBytes(data.subarray(1 + curve.byteLen));
    if (x >= curve.p || y >= curve.p) fail(modern ? (curve.name === 'P256' ? 'invalid P256 element encoding' : `invalid ${curve.name}Element encoding`) : legacy, !modern || curve.name !== 'P256');
    if (!onCurve(curve, x, y)) fail(modern ? `${curve.name} point not on curve` : legacy);
    return { type: 'ecdsa', curve, x, y };
  }
  if (algorithm === OID.ed25519) {
    if (params.length !== 0) fail('x509: Ed25519 key encoded with illegal parameters');
    if (data.length !== 32) fail('x509: wrong Ed25519 public key size');
    return { type: 'ed25519', bytes: data };
  }
  // DSA
  const y = new DerString(data).readBigInt() ?? fail('x509: invalid DSA public key');
  const p = new DerString(params);
  const seq = new DerString(p.read(TAG.SEQUENCE) ?? fail('x509: invalid DSA parameters'));
  const P = seq.readBigInt() ?? fail('x509: invalid DSA parameters');
  const Q = seq.readBigInt() ?? fail('x509: invalid DSA parameters');
  const G = seq.readBigInt() ?? fail('x509: invalid DSA parameters');
  if (y <= 0n || P <= 0n || Q <= 0n || G <= 0n) fail('x509: zero or negative DSA parameter');
  return { type: 'other' };
}

interface Extension {
  readonly id: number[];
  readonly critical: boolean;
  readonly value: Uint8Array;
}

function parseExtension(der: DerString, readOid: ReadOid): Extension {
  const id = readOid(der) ?? fail('x509: malformed extension OID field');
  let critical = false;
  if (der.peekTag(TAG.BOOLEAN)) critical = der.readBoolean() ?? fail('x509: malformed extension critical field');
  const value = der.read(TAG.OCTET_STRING) ?? fail('x509: malformed extension value field');
  return { id, critical, value };
}

function processExtensions(extensions: readonly Extension[], go: GoX509, readOid: ReadOid): void {
  for (const e of extensions) {
    const val = new DerString(e.value);
    if (e.id.length === 4 && e.id[0] === 2 && e.id[1] === 5 && e.id[2] === 29) {
      switch (e.id[3]) {
        case 15: // key usage
          val.readBitString() ?? fail('x509: invalid key usage');
          break;
        case 19:
          parseBasicConstraints(val, go);
          break;
        case 17:
          parseSubjectAltNames(val);
          break;
        case 30:
          undecidable('a name constraints extension (its domain checks differ between Go patch releases)');
          break;
        case 31:
          parseCrlDistributionPoints(val);
          break;
        case 35: // authority key identifier
          if (e.critical && go.minor >= 23) fail('x509: authority key identifier incorrectly marked critical');
          {
            const akid = new DerString(val.read(TAG.SEQUENCE) ?? fail('x509: invalid authority key identifier'));
            if (akid.peekTag(contextSpecific(0))) akid.read(contextSpecific(0)) ?? fail('x509: invalid authority key identifier');
          }
          break;
        case 36:
          if (go.minor >= 24) parsePolicyConstraints(val);
          break;
        case 37: {
          const seq = new DerString(val.read(TAG.SEQUENCE) ?? fail('x509: invalid extended key usages'));
          while (!seq.empty) readOid(seq) ?? fail('x509: invalid extended key usages');
          break;
        }
        case 14: // subject key identifier
          if (e.critical && go.minor >= 23) fail('x509: subject key identifier incorrectly marked critical');
          val.read(TAG.OCTET_STRING) ?? fail('x509: invalid subject key identifier');
          break;
        case 32:
          parseCertificatePolicies(val, go, readOid);
          break;
        case 33:
          if (go.minor >= 24) {
            const seq = new DerString(val.read(TAG.SEQUENCE) ?? fail('x509: invalid policy mappings extension'));
            while (!seq.empty) {
              const s = new DerString(seq.read(TAG.SEQUENCE) ?? fail('x509: invalid policy mappings extension'));
              s.read(TAG.OBJECT_IDENTIFIER) ?? fail('x509: invalid policy mappings extension');
              s.read(TAG.OBJECT_IDENTIFIER) ?? fail('x509: invalid policy mappings extension');
            }
          }
          break;
        case 54:
          // InhibitAnyPolicy is an int: ReadASN1Integer into int64.
          if (go.minor >= 24) val.readInt64() ?? fail('x509: invalid inhibit any policy extension');
          break;
        default:
          break; // unknown: recorded as unhandled when critical, not an error
      }
    } else if (oidString(e.id) === OID.authorityInfoAccess) {
      if (e.critical && go.minor >= 23) fail('x509: authority info access incorrectly marked critical');
      const seq = new DerString(val.read(TAG.SEQUENCE) ?? fail('x509: invalid authority info access'));
      while (!seq.empty) {
        const aia = new DerString(seq.read(TAG.SEQUENCE) ?? fail('x509: invalid authority info access'));
        readOid(aia) ?? fail('x509: invalid authority info access');
        if (!aia.peekTag(contextSpecific(6))) continue;
        aia.read(contextSpecific(6)) ?? fail('x509: invalid authority info access');
      }
    }
  }
}

function parseBasicConstraints(val: DerString, go: GoX509): void {
  // Go <= 1.20 suffixes the three messages with " a", " b", " c".
  const message = (which: string) => (go.minor <= 20 ? `x509: invalid basic constraints ${which}` : 'x509: invalid basic constraints');
  const der = new DerString(val.read(TAG.SEQUENCE) ?? fail(message('a')));
  if (der.peekTag(TAG.BOOLEAN)) der.readBoolean() ?? fail(message('b'));
  if (der.peekTag(TAG.INTEGER)) {
    // <= 1.24 reads an int (negative allowed); 1.25+ a uint no larger than MaxInt.
    const maxPathLen = go.minor >= 25 ? der.readUint64() : der.readInt64();
    if (maxPathLen === undefined || !fitsInt64(maxPathLen)) fail(message('c'));
  }
}

function parseSubjectAltNames(val: DerString): void {
  const der = new DerString(val.read(TAG.SEQUENCE) ?? fail('x509: invalid subject alternative names'));
  while (!der.empty) {
    const san = der.readAny() ?? fail('x509: invalid subject alternative name');
    switch (san.tag ^ 0x80) {
      case 1:
        if (!isIA5(san.body)) fail('x509: SAN rfc822Name is malformed');
        break;
      case 2:
        if (!isIA5(san.body)) fail('x509: SAN dNSName is malformed');
        break;
      case 6:
        undecidable('a URI subject alternative name (url.Parse and its domain check are not modelled)');
        break;
      case 7:
        if (san.body.length !== 4 && san.body.length !== 16) fail(`x509: cannot parse IP address of length ${san.body.length}`);
        break;
      default:
        break;
    }
  }
}

function parseCrlDistributionPoints(val: DerString): void {
  const seq = new DerString(val.read(TAG.SEQUENCE) ?? fail('x509: invalid CRL distribution points'));
  while (!seq.empty) {
    const dp = new DerString(seq.read(TAG.SEQUENCE) ?? fail('x509: invalid CRL distribution point'));
    const name = dp.readOptional(constructedContextSpecific(0)) ?? fail('x509: invalid CRL distribution point');
    if (!name.present) continue;
    const full = new DerString(new DerString(name.body).read(constructedContextSpecific(0)) ?? fail('x509: invalid CRL distribution point'));
    while (!full.empty) {
      if (!full.peekTag(contextSpecific(6))) break;
      full.read(contextSpecific(6)) ?? fail('x509: invalid CRL distribution point');
    }
  }
}

function parsePolicyConstraints(val: DerString): void {
  const seq = new DerString(val.read(TAG.SEQUENCE) ?? fail('x509: invalid policy constraints extension'));
  // ReadASN1Int64WithTag into an int64, then int(v): no overflow on 64-bit platforms.
  for (const n of [0, 1]) {
    if (seq.peekTag(contextSpecific(n))) seq.readInt64(contextSpecific(n)) ?? fail('x509: invalid policy constraints extension');
  }
}

function parseCertificatePolicies(val: DerString, go: GoX509, readOid: ReadOid): void {
  const invalid = 'x509: invalid certificate policies';
  const seq = new DerString(val.read(TAG.SEQUENCE) ?? fail(invalid));
  const seen = new Set<string>();
  while (!seq.empty) {
    const cp = new DerString(seq.read(TAG.SEQUENCE) ?? fail(invalid));
    if (go.minor <= 21) {
      readOid(cp) ?? fail(invalid);
      continue;
    }
    // 1.22+: newOIDFromDER (any arc size, minimal octets); 1.24+ refuses a repeated policy.
    const oid = cp.read(TAG.OBJECT_IDENTIFIER) ?? fail(invalid);
    const key = Buffer.from(oid).toString('hex');
    if (go.minor >= 24 && seen.has(key)) fail(invalid);
    seen.add(key);
    if (!validOidDer(oid)) fail(invalid);
  }
}

/** crypto/x509 newOIDFromDER (Go 1.22+). */
function validOidDer(der: Uint8Array): boolean {
  if (der.length === 0 || (der[der.length - 1]! & 0x80) !== 0) return false;
  let start = 0;
  for (let i = 0; i < der.length; i++) {
    if (i === start && der[i] === 0x80) return false;
    if ((der[i]! & 0x80) === 0) start = i + 1;
  }
  return true;
}
