/**
 * The NIST curves Go's crypto/elliptic and crypto/internal/fips140/nistec implement (P-224, P-256,
 * P-384, P-521; parameters from src/crypto/elliptic/nistec.go, SP 800-186 §3.2.1, a = -3), with
 * exact scalar-base multiplication in BigInt: what crypto/x509's SEC 1 parser does to derive a
 * private key's public point (sec1.go: curve.ScalarBaseMult before Go 1.26, ecdsa.ParseRawPrivateKey
 * from 1.26). Not constant time: node-check multiplies keys it only compares.
 */
export interface Curve {
  /** Go's curve name as nistec words it ("P256"). */
  readonly name: 'P224' | 'P256' | 'P384' | 'P521';
  /** Bytes of a field element. */
  readonly byteLen: number;
  readonly p: bigint;
  readonly n: bigint;
  readonly b: bigint;
  readonly gx: bigint;
  readonly gy: bigint;
}

const curve = (name: Curve['name'], byteLen: number, p: string, n: string, b: string, gx: string, gy: string): Curve => ({ name, byteLen, p: BigInt(p), n: BigInt(n), b: BigInt(b), gx: BigInt(gx), gy: BigInt(gy) });

/** By the named-curve OID crypto/x509 maps (x509.go namedCurveFromOID). */
export const NIST_CURVES: Readonly<Record<string, Curve>> = {
  '1.3.132.0.33': curve('P224', 28, '0xffffffffffffffffffffffffffffffff000000000000000000000001', '0xffffffffffffffffffffffffffff16a2e0b8f03e13dd29455c5c2a3d',
    '0xb4050a850c04b3abf54132565044b0b7d7bfd8ba270b39432355ffb4', '0xb70e0cbd6bb4bf7f321390b94a03c1d356c21122343280d6115c1d21', '0xbd376388b5f723fb4c22dfe6cd4375a05a07476444d5819985007e34'),
  '1.2.840.10045.3.1.7': curve('P256', 32, '0xffffffff00000001000000000000000000000000ffffffffffffffffffffffff', '0xffffffff00000000ffffffffffffffffbce6faada7179e84f3b9cac2fc632551',
    '0x5ac635d8aa3a93e7b3ebbd55769886bc651d06b0cc53b0f63bce3c3e27d2604b', '0x6b17d1f2e12c4247f8bce6e563a440f277037d812deb33a0f4a13945d898c296', '0x4fe342e2fe1a7f9b8ee7eb4a7c0f9e162bce33576b315ececbb6406837bf51f5'),
  '1.3.132.0.34': curve('P384', 48, '0xfffffffffffffffffffffffffffffffffffffffffffffffffffffffffffffffeffffffff0000000000000000ffffffff',
    '0xffffffffffffffffffffffffffffffffffffffffffffffffc7634d81f4372ddf581a0db248b0a77aecec196accc52973',
    '0xb3312fa7e23ee7e4988e056be3f82d19181d9c6efe8141120314088f5013875ac656398d8a2ed19d2a85c8edd3ec2aef',
    '0xaa87ca22be8b05378eb1c71ef320ad746e1d3b628ba79b9859f741e082542a385502f25dbf55296c3a545e3872760ab7',
    '0x3617de4a96262c6f5d9e98bf9292dc29f8f41dbd289a147ce9da3113b5f0b8c00a60b1ce1d7e819d7a431d7c90ea0e5f'),
  '1.3.132.0.35': curve('P521', 66, '0x1ffffffffffffffffffffffffffffffffffffffffffffffffffffffffffffffffffffffffffffffffffffffffffffffffffffffffffffffffffffffffffffffffff',
    '0x1fffffffffffffffffffffffffffffffffffffffffffffffffffffffffffffffffa51868783bf2f966b7fcc0148f709a5d03bb5c9b8899c47aebb6fb71e91386409',
    '0x51953eb9618e1c9a1f929a21a0b68540eea2da725b99b315f3b8b489918ef109e156193951ec7e937b1652c0bd3bb1bf073573df883d2c34f1ef451fd46b503f00',
    '0xc6858e06b70404e9cd9e3ecb662395b4429c648139053fb521f828af606b4d3dbaa14b5e77efe75928fe1dc127a2ffa8de3348b3c1856a429bf97e7e31c2e5bd66',
    '0x11839296a789a3bc0045c8a5fb42c7d1bd998f54449579b446817afbd17273e662c97ee72995ef42640c550b9013fad0761353c7086a272c24088be94769fd16650'),
};

export type AffinePoint = { readonly x: bigint; readonly y: bigint } | 'infinity';

/** Jacobian (X, Y, Z): x = X/Z², y = Y/Z³; Z = 0 is the point at infinity. */
type Jacobian = [bigint, bigint, bigint];

const mod = (v: bigint, p: bigint) => {
  const r = v % p;
  return r < 0n ? r + p : r;
};

/** The inverse of a mod p (p prime, a not 0 mod p), by the extended Euclidean algorithm. */
export function modInverse(a: bigint, p: bigint): bigint {
  let [r0, r1] = [mod(a, p), p];
  let [s0, s1] = [1n, 0n];
  while (r1 !== 0n) {
    const q = r0 / r1;
    [r0, r1] = [r1, r0 - q * r1];
    [s0, s1] = [s1, s0 - q * s1];
  }
  return mod(s0, p);
}

// dbl-2001-b and add-2007-bl (hyperelliptic.org EFD, short Weierstrass, a = -3). Differences are
// taken non-negative by adding multiples of p before the one reduction each product needs.
function double([x, y, z]: Jacobian, p: bigint): Jacobian {
  if (z === 0n || y === 0n) return [1n, 1n, 0n];
  const delta = (z * z) % p;
  const gamma = (y * y) % p;
  const beta = (x * gamma) % p;
  const alpha = (3n * (x + p - delta) * (x + delta)) % p;
  const beta8 = (8n * beta) % p;
  const x3 = (alpha * alpha + p - beta8) % p;
  const z3 = ((y + z) * (y + z) + 2n * p - gamma - delta) % p;
  const y3 = (alpha * (4n * beta + p - x3) + p * p * 8n - 8n * gamma * gamma) % p;
  return [x3, y3, z3];
}

function add(a: Jacobian, b: Jacobian, p: bigint): Jacobian {
  if (a[2] === 0n) return b;
  if (b[2] === 0n) return a;
  const [x1, y1, z1] = a;
  const [x2, y2, z2] = b;
  const z1z1 = (z1 * z1) % p;
  const z2z2 = (z2 * z2) % p;
  const u1 = (x1 * z2z2) % p;
  const u2 = (x2 * z1z1) % p;
  const s1 = (((y1 * z2) % p) * z2z2) % p;
  const s2 = (((y2 * z1) % p) * z1z1) % p;
  const h = (u2 + p - u1) % p;
  const r = (2n * (s2 + p - s1)) % p;
  if (h === 0n) return r === 0n ? double(a, p) : [1n, 1n, 0n];
  const i = (4n * h * h) % p;
  const j = (h * i) % p;
  const v = (u1 * i) % p;
  const x3 = (r * r + 3n * p - j - 2n * v) % p;
  const y3 = (r * (v + p - x3) + 2n * p * p - 2n * s1 * j) % p;
  const z3 = (((z1 + z2) * (z1 + z2) + 2n * p - z1z1 - z2z2) % p * h) % p;
  return [x3, y3, z3];
}

function toAffine([x, y, z]: Jacobian, p: bigint): AffinePoint {
  if (z === 0n) return 'infinity';
  const zi = modInverse(z, p);
  const zi2 = (zi * zi) % p;
  return { x: (x * zi2) % p, y: (((y * zi2) % p) * zi) % p };
}

const WINDOW = 4;
const tables = new Map<Curve, Jacobian[]>();
/** 0·G … 15·G, for a 4-bit fixed window. */
function tableOf(c: Curve): Jacobian[] {
  let table = tables.get(c);
  if (!table) {
    const g: Jacobian = [c.gx, c.gy, 1n];
    table = [[1n, 1n, 0n], g];
    for (let i = 2; i < 1 << WINDOW; i++) table.push(add(table[i - 1]!, g, c.p));
    tables.set(c, table);
  }
  return table;
}

// One key is multiplied once, whatever number of Go builds parse it (src/kubelet/node-setup/go-builds.ts).
const products = new Map<string, AffinePoint>();

/** k·G for any k ≥ 0 (Go reduces or refuses k ≥ N before it gets here). */
export function scalarBaseMult(c: Curve, k: bigint): AffinePoint {
  const memo = `${c.name}:${k.toString(16)}`;
  const known = products.get(memo);
  if (known) return known;
  const table = tableOf(c);
  let acc: Jacobian = [1n, 1n, 0n];
  for (const digit of k.toString(16)) {
    for (let i = 0; i < WINDOW; i++) acc = double(acc, c.p);
    const d = parseInt(digit, 16);
    if (d !== 0) acc = add(acc, table[d]!, c.p);
  }
  const point = toAffine(acc, c.p);
  if (products.size > 16) products.clear();
  products.set(memo, point);
  return point;
}

/** Whether (x, y) is on the curve: y² = x³ - 3x + b (mod p). */
export const onCurve = (c: Curve, x: bigint, y: bigint) => mod(y * y - (x * x * x - 3n * x + c.b), c.p) === 0n;
