/**
 * crypto/tls parsePrivateKey (src/crypto/tls/tls.go: x509.ParsePKCS1PrivateKey, then
 * ParsePKCS8PrivateKey, then ParseECPrivateKey; the same order Go 1.18-1.26) with the three
 * parsers of crypto/x509 (pkcs1.go, pkcs8.go, sec1.go) over the encoding/asn1 port
 * (src/go/asn1.ts), switched per Go minor where they differ (read at go1.18.10, 1.20.14, 1.22.12,
 * 1.23.12, 1.24.13, 1.25.14 and 1.26.8):
 *  - PKCS #1: up to 1.23 the CRT values are parsed and ignored and rsa.Validate checks the primes'
 *    product and d·e ≡ 1 mod p-1 for each prime; from 1.24 they must be positive and
 *    crypto/internal/fips140/rsa checks the key (checkPrivateKey), retrying without the CRT values
 *    under GODEBUG x509rsacrt=0 (kubelet's default up to 1.32: src/kubelet/data/go-toolchain.ts);
 *    1.26 also checks d against the CRT exponents;
 *  - SEC 1: up to 1.25 a scalar of zero gives the point (0, 0) (elliptic's point at infinity);
 *    from 1.26 ecdsa.ParseRawPrivateKey refuses it;
 *  - PKCS #8: X25519 keys parse from 1.20 (crypto/ecdh), and tls calls them an unknown type.
 * Multi-prime RSA keys are not ported (undecidable).
 */
import { asn1Unmarshal, Asn1Error, type Asn1Field, type Asn1Value } from '../asn1.js';
import { NIST_CURVES, scalarBaseMult, type AffinePoint, type Curve } from '../elliptic.js';
import { ed25519PublicKeyFromSeed } from '../ed25519.js';

export interface GoKeys {
  readonly minor: number;
  /** GODEBUG x509rsacrt=0 (Go 1.24+): inconsistent CRT values are recomputed instead of refused. */
  readonly rsaCrtRecompute: boolean;
}

export type PrivateKey =
  | { readonly type: 'rsa'; readonly n: bigint; readonly e: bigint }
  | { readonly type: 'ecdsa'; readonly curve: Curve; readonly public: AffinePoint }
  | { readonly type: 'ed25519'; readonly public: Uint8Array };

export type ParsedKey = { readonly key: PrivateKey } | { readonly error: string } | { readonly undecidable: string };

class Undecidable {
  constructor(readonly why: string) {}
}
const FAILED = new Asn1Error('failed');
const refuse = (): never => {
  throw FAILED;
};

const oidString = (arcs: readonly number[]) => arcs.join('.');
const OID_RSA = '1.2.840.113549.1.1.1';
const OID_ECDSA = '1.2.840.10045.2.1';
const OID_ED25519 = '1.3.101.112';
const OID_X25519 = '1.3.101.110';

const PKCS1: Asn1Field = {
  kind: 'struct',
  fields: [
    { kind: 'int' }, { kind: 'bigint' }, { kind: 'int' }, { kind: 'bigint' }, { kind: 'bigint' }, { kind: 'bigint' },
    { kind: 'bigint', optional: true }, { kind: 'bigint', optional: true }, { kind: 'bigint', optional: true },
    { kind: 'seqof', optional: true },
  ],
};
const PKCS8: Asn1Field = { kind: 'struct', fields: [{ kind: 'int' }, { kind: 'struct', fields: [{ kind: 'oid' }, { kind: 'raw', optional: true }] }, { kind: 'octets' }] };
const EC_PRIVATE_KEY: Asn1Field = { kind: 'struct', fields: [{ kind: 'int' }, { kind: 'octets' }, { kind: 'oid', optional: true, explicitTag: 0 }, { kind: 'bitstring', optional: true, explicitTag: 1 }] };

const unmarshal = (der: Uint8Array, field: Asn1Field) => asn1Unmarshal(der, field).value as readonly (Asn1Value | undefined)[];
const bigFromBytes = (b: Uint8Array) => (b.length === 0 ? 0n : BigInt(`0x${Buffer.from(b.buffer, b.byteOffset, b.byteLength).toString('hex')}`));
const bitLen = (v: bigint) => (v <= 0n ? 0 : v.toString(2).length);
const modPow = (base: bigint, exp: bigint, m: bigint) => {
  let result = 1n % m;
  base %= m;
  for (; exp > 0n; exp >>= 1n) {
    if (exp & 1n) result = (result * base) % m;
    base = (base * base) % m;
  }
  return result;
};

/** x509.ParsePKCS1PrivateKey: the public half, or a throw (Asn1Error: Go refuses; Undecidable). */
function parsePkcs1(der: Uint8Array, go: GoKeys): PrivateKey {
  const { value, rest } = asn1Unmarshal(der, PKCS1);
  if (rest.length > 0) refuse(); // "trailing data"
  const [version, n, e, d, p, q, dp, dq, qinv, additional] = value as [bigint, bigint, bigint, bigint, bigint, bigint, bigint?, bigint?, bigint?, { elements: number }?];
  if (version > 1n) refuse();
  const crt = [dp, dq, qinv];
  if (n <= 0n || d <= 0n || p <= 0n || q <= 0n || (go.minor >= 24 && crt.some((v) => v !== undefined && v <= 0n))) refuse();
  if (additional && additional.elements > 0) throw new Undecidable('a multi-prime RSA key');
  const checkD = go.minor >= 26;
  const valid = go.minor <= 23 ? legacyRsaValid(n, e, d, [p, q]) : fipsRsaValid(n, e, d, p, q, dp !== undefined && dq !== undefined && qinv !== undefined ? [dp, dq, qinv] : undefined, checkD) || (go.rsaCrtRecompute && fipsRsaValid(n, e, d, p, q, undefined, checkD));
  if (!valid) refuse();
  return { type: 'rsa', n, e };
}

/** crypto/rsa Validate up to Go 1.23 (checkPub, then the primes' product and exponents). */
function legacyRsaValid(n: bigint, e: bigint, d: bigint, primes: readonly bigint[]): boolean {
  if (e < 2n || e > 0x7fffffffn) return false;
  let product = 1n;
  for (const prime of primes) {
    if (prime <= 1n) return false;
    product *= prime;
  }
  if (product !== n) return false;
  return primes.every((prime) => (e * d) % (prime - 1n) === 1n);
}

/**
 * crypto/rsa precompute → fips140/rsa NewPrivateKeyWithPrecomputation (CRT values given) or
 * NewPrivateKey (computed), then checkPrivateKey and checkPublicKey (Go 1.24-1.26), two primes.
 * bigmod.NewModulus refuses 0 and 1; Nat.SetBytes refuses a value not below its modulus.
 */
function fipsRsaValid(n: bigint, e: bigint, d: bigint, p: bigint, q: bigint, crt: readonly [bigint, bigint, bigint] | undefined, checkD: boolean): boolean {
  if (n <= 1n || p <= 1n || q <= 1n || d >= n) return false;
  let dp: bigint;
  let dq: bigint;
  let qinv: bigint;
  if (crt) {
    [dp, dq, qinv] = crt;
    if (qinv >= p) return false;
  } else {
    if (p - 1n <= 1n || q - 1n <= 1n) return false;
    dp = d % (p - 1n);
    dq = d % (q - 1n);
    if ((p & 1n) === 0n) return false; // "p is even"
    qinv = modPow(q % p, p - 2n, p);
  }
  // bigmod's Mul needs e reduced below p-1 and q-1 (SetUint, ExpandFor): true of every real key.
  if (p - 1n <= e || q - 1n <= e) throw new Undecidable('an RSA key whose primes are not larger than its public exponent');
  // checkPublicKey
  if ((n & 1n) === 0n || e < 2n || (e & 1n) === 0n || e > 0x7fffffffn) return false;
  // checkPrivateKey
  if (p >= n || q >= n || (p * q) % n !== 0n) return false;
  if (p - 1n <= 1n || dp >= p - 1n || (e * dp) % (p - 1n) !== 1n) return false;
  if (q - 1n <= 1n || dq >= q - 1n || (e * dq) % (q - 1n) !== 1n) return false;
  if ((q % p) * qinv % p !== 1n % p) return false;
  // Go 1.26 also checks d against dP and dQ ("d does not match dP"); 1.24 and 1.25 do not.
  if (checkD && (d % (p - 1n) !== dp || d % (q - 1n) !== dq)) return false;
  if (p === q) return false;
  const nBits = bitLen(n);
  if (bitLen(p > q ? p - q : q - p) <= Math.trunc(nBits / 2) - 100) return false;
  return bitLen(d) > Math.trunc(nBits / 2);
}

/** x509.ParseECPrivateKey / parseECPrivateKey(namedCurveOID, der). */
function parseSec1(curveOid: number[] | undefined, der: Uint8Array, go: GoKeys): PrivateKey {
  const [version, privateKey, innerOid] = unmarshal(der, EC_PRIVATE_KEY) as [bigint, Uint8Array, number[]?];
  if (version !== 1n) refuse();
  const oid = curveOid ?? innerOid;
  const curve = oid ? NIST_CURVES[oidString(oid)] : undefined;
  if (!curve) return refuse();
  const k = bigFromBytes(privateKey);
  const size = Math.ceil(bitLen(curve.n) / 8);
  if (go.minor <= 25 && k >= curve.n) refuse(); // "invalid elliptic curve private key value"
  let raw = privateKey;
  while (raw.length > size) {
    if (raw[0] !== 0) refuse(); // "invalid private key length"
    raw = raw.subarray(1);
  }
  if (go.minor >= 26 && (k === 0n || k >= curve.n)) refuse(); // ecdsa.NewPrivateKey
  // Before 1.26 a zero scalar gives elliptic's (0, 0), which matches no certificate's point.
  return { type: 'ecdsa', curve, public: scalarBaseMult(curve, k) };
}

/** x509.ParsePKCS8PrivateKey, with tls's type switch: the key, or 'unknown type' (tls), or a throw. */
function parsePkcs8(der: Uint8Array, go: GoKeys): PrivateKey | 'unknown-type' {
  const [version, algo, privateKey] = unmarshal(der, PKCS8) as [bigint, [number[], { full: Uint8Array }?], Uint8Array];
  void version; // pkcs8.go does not check it
  const [algorithm, params] = algo;
  const paramBytes = params?.full ?? new Uint8Array(0);
  switch (oidString(algorithm)) {
    case OID_RSA:
      return parsePkcs1(privateKey, go);
    case OID_ECDSA: {
      let curveOid: number[] | undefined;
      try {
        curveOid = asn1Unmarshal(paramBytes, { kind: 'oid' }).value as number[];
      } catch (e) {
        if (!(e instanceof Asn1Error)) throw e;
      }
      return parseSec1(curveOid, privateKey, go);
    }
    case OID_ED25519: {
      if (paramBytes.length !== 0) refuse();
      const seed = asn1Unmarshal(privateKey, { kind: 'octets' }).value as Uint8Array;
      if (seed.length !== 32) refuse();
      return { type: 'ed25519', public: ed25519PublicKeyFromSeed(seed) };
    }
    case OID_X25519: {
      if (go.minor < 20) refuse(); // unknown algorithm before crypto/ecdh
      if (paramBytes.length !== 0) refuse();
      const scalar = asn1Unmarshal(privateKey, { kind: 'octets' }).value as Uint8Array;
      if (scalar.length !== 32) refuse(); // ecdh: invalid private key size
      return 'unknown-type';
    }
    default:
      return refuse();
  }
}

/** tls.parsePrivateKey(der) as Go 1.`minor` runs it. */
export function parseTlsPrivateKey(der: Uint8Array, go: GoKeys): ParsedKey {
  const attempt = <T>(parse: () => T): T | 'refused' => {
    try {
      return parse();
    } catch (e) {
      if (e instanceof Asn1Error) return 'refused';
      throw e;
    }
  };
  try {
    const pkcs1 = attempt(() => parsePkcs1(der, go));
    if (pkcs1 !== 'refused') return { key: pkcs1 };
    const pkcs8 = attempt(() => parsePkcs8(der, go));
    if (pkcs8 === 'unknown-type') return { error: 'tls: found unknown private key type in PKCS#8 wrapping' };
    if (pkcs8 !== 'refused') return { key: pkcs8 };
    const sec1 = attempt(() => parseSec1(undefined, der, go));
    if (sec1 !== 'refused') return { key: sec1 };
    return { error: 'tls: failed to parse private key' };
  } catch (e) {
    if (e instanceof Undecidable) return { undecidable: e.why };
    throw e;
  }
}
