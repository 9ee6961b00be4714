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

/**
 * P-256's fixed-base comb (Lim-Lee, 4 teeth 64 bits apart): COMB_P256[b - 1] is the affine point
 * (Σ 2^(64·i) for each bit i of b)·G, b = 1 … 15, so k·G is 64 doublings and at most 64 mixed
 * additions instead of 256 doublings and 64 additions (one kubelet client key is ~18 M
 * instructions fewer on kubelet's start path). Computed with OpenSSL's P-256 (node:crypto ECDH);
 * test/go/keys.test.ts recomputes every point with the window method (windowMult).
 */
export const COMB_P256: readonly (readonly [string, string])[] = [
  ['6b17d1f2e12c4247f8bce6e563a440f277037d812deb33a0f4a13945d898c296', '4fe342e2fe1a7f9b8ee7eb4a7c0f9e162bce33576b315ececbb6406837bf51f5'],
  ['0fa822bc2811aaa58492592e326e25de29493baaad651f7e90e75cb48e14db63', 'bff44ae8f5dba80d6f4ad4bcb3df188b34b1a65050fe82f5e41124545f462ee7'],
  ['300a4bbc89d6726fb257c0de95e02789e96c98fd0d35f1fa93391ce2097992af', '72aac7e0d09b46447f1ddb25ff1e3c6f5bb1eeada9d806a5aa54a291c08127a0'],
  ['447d739beedb5e67fb982fd588c6766efc35ff7dc297eac357c84fc9d789bd85', '2d4825ab834131eee12e9d953a4aaff73d349b95a7fae5000c7e33c972e25b32'],
  ['ef9519328a9c72ffddc6068bb91dfc60ef7fbd2b1a0a11b713949c932a1d367f', '611e9fc37dbb2c9bc1ee9807022c219c23183b0895ca1740196035a77376d8a8'],
  ['550663797b51f5d87dea6482e11238bf2936df5ec6c9bc36cae2b1920b57f4bc', '157164848aecb8510afa40018d9d50e59fb3d576dbdefbe144ffe216348a964c'],
  ['eb5d7745b21141eaa2e8f483f43e43917ccd84e70d715f26e48ecafffc5cde01', 'eafd72ebdbecc17b0990e6a158006cee85f22cfe2844b645cac917e2731a3479'],
  ['a6d39677a78492762736ff8344315fc596439591a3c6b94a6cf20ffb313728be', '674f84749b0b881666b8babd2d27ecdf824a920c2284059bf2bab833c357f5f4'],
  ['4e769e7672c9ddad31855f7db8c7fedb74e02f080203a56b2df48c04677c8a3e', '42b99082de8306631ec0057206947281fb9ae16f3b9122a5a4c36165b824bbb0'],
  ['78878ef61c6ce04d7fdc1ca008a1c478d1f89e799c0ce1316ef95150dda868b9', 'b6cb3f5d7b72c321de53142c12309def6ace570ebde08d4f9c62b9121fe0d976'],
  ['0c88bc4d716b1287595c5220812ffcae5b82dd5bd54fb4967f991ed2c31a3573', 'dd5ddea3f3901dc618d1b5b39c04e6aa7c8181f4df2564f33a57bf635f48aca8'],
  ['68f344af6b317466efe0a423083e49f343a0a28c42ba792fe96a79fb3e72ad0c', '31b9c405f8540a20604ed93c24d67ff3668bfc2271f5c626cdfe17db3fb24d4a'],
  ['4052bf4b6f461db9663c62c3edbad7a00d1a10144ec39c28d36b4789a2582e7f', 'fecf4d5190b0fc61862be6bd71d70cc8e724f33999bfcc5b235a27c3188d25eb'],
  ['1eddbae2c802e41a123202a8f62bff7aafdf5cc08526a7a474346c10a1d4cfac', '43104d86560ebcfc0c45f45273db33a036e06b7e4c7019178fa0af2dd603f844'],
  ['b48e26b484f7a21c0a4a46fb6aaf363a66b0de3225c4744b9615b5110d1d78e5', 'fac015404d4d3dab64131bcdfed6f668c004e4048b7b0f9806ebb0f621a01b2d'],
];

let combP256: Jacobian[] | undefined;

/** madd-2007-bl (hyperelliptic.org EFD): a + (x2, y2, 1), the affine point b not at infinity. */
function addAffine(a: Jacobian, [x2, y2]: Jacobian, p: bigint): Jacobian {
  const [x1, y1, z1] = a;
  if (z1 === 0n) return [x2, y2, 1n];
  const z1z1 = (z1 * z1) % p;
  const u2 = (x2 * z1z1) % p;
  const s2 = (((y2 * z1) % p) * z1z1) % p;
  const h = (u2 + p - x1) % p;
  const r = (2n * (s2 + p - y1)) % p;
  if (h === 0n) return r === 0n ? double(a, p) : [1n, 1n, 0n];
  const hh = (h * h) % p;
  const i = (4n * hh) % p;
  const j = (h * i) % p;
  const v = (x1 * i) % p;
  const x3 = (r * r + 3n * p - j - 2n * v) % p;
  const y3 = (r * (v + p - x3) + 2n * p * p - 2n * y1 * j) % p;
  const z3 = ((z1 + h) * (z1 + h) + 2n * p - z1z1 - hh) % p;
  return [x3, y3, z3];
}

/** k·G on P-256 by the comb, for 0 ≤ k < 2^256. */
function combMultP256(c: Curve, k: bigint): AffinePoint {
  combP256 ??= COMB_P256.map(([x, y]): Jacobian => [BigInt(`0x${x}`), BigInt(`0x${y}`), 1n]);
  // Bit n of k is bits[255 - n]; tooth i of column j is bit 64·i + j.
  const bits = k.toString(2).padStart(256, '0');
  let acc: Jacobian = [1n, 1n, 0n];
  for (let j = 63; j >= 0; j--) {
    acc = double(acc, c.p);
    let b = 0;
    for (let i = 0; i < 4; i++) if (bits[255 - 64 * i - j] === '1') b |= 1 << i;
    if (b !== 0) acc = addAffine(acc, combP256[b - 1]!, c.p);
  }
  return toAffine(acc, c.p);
}

// One key is multiplied once, whatever number of Go builds parse it (src/kubelet/node-setup/go-builds.ts).
const products = new Map<string, AffinePoint>();

/** k·G for any k ≥ 0 (Go reduces or refuses k ≥ N before it gets here). */
export function scalarBaseMult(c: Curve, k: bigint): AffinePoint {
  const memo = `${c.name}:${k.toString(16)}`;
  const known = products.get(memo);
  if (known) return known;
  const point = c.name === 'P256' && k < 1n << 256n ? combMultP256(c, k) : windowMult(c, k);
  if (products.size > 16) products.clear();
  products.set(memo, point);
  return point;
}

/** k·G by a 4-bit fixed window, any curve and k ≥ 0. */
export function windowMult(c: Curve, k: bigint): AffinePoint {
  const table = tableOf(c);
  let acc: Jacobian = [1n, 1n, 0n];
  for (const digit of k.toString(16)) {
    for (let i = 0; i < WINDOW; i++) acc = double(acc, c.p);
    const d = parseInt(digit, 16);
    if (d !== 0) acc = add(acc, table[d]!, c.p);
  }
  return toAffine(acc, c.p);
}

/** Whether (x, y) is on the curve: y² = x³ - 3x + b (mod p). */
export const onCurve = (c: Curve, x: bigint, y: bigint) => mod(y * y - (x * x * x - 3n * x + c.b), c.p) === 0n;
