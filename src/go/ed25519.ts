/**
 * crypto/ed25519 NewKeyFromSeed's public key (src/crypto/internal/fips140/ed25519/ed25519.go
 * newPrivateKeyFromSeed, RFC 8032 §5.1.5): SHA-512 of the seed, the low half clamped, times the
 * base point, encoded. What crypto/x509's PKCS #8 parser does with an Ed25519 key and tls.X509KeyPair
 * compares with the certificate's key. Pure TypeScript (no node:crypto on kubelet's start path);
 * not constant time.
 */

const MASK64 = (1n << 64n) - 1n;
// FIPS 180-4 §4.2.3: the first 64 bits of the fractional parts of the cube roots of the first 80 primes.
const K = [
  '428a2f98d728ae22', '7137449123ef65cd', 'b5c0fbcfec4d3b2f', 'e9b5dba58189dbbc', '3956c25bf348b538', '59f111f1b605d019', '923f82a4af194f9b', 'ab1c5ed5da6d8118',
  'd807aa98a3030242', '12835b0145706fbe', '243185be4ee4b28c', '550c7dc3d5ffb4e2', '72be5d74f27b896f', '80deb1fe3b1696b1', '9bdc06a725c71235', 'c19bf174cf692694',
  'e49b69c19ef14ad2', 'efbe4786384f25e3', '0fc19dc68b8cd5b5', '240ca1cc77ac9c65', '2de92c6f592b0275', '4a7484aa6ea6e483', '5cb0a9dcbd41fbd4', '76f988da831153b5',
  '983e5152ee66dfab', 'a831c66d2db43210', 'b00327c898fb213f', 'bf597fc7beef0ee4', 'c6e00bf33da88fc2', 'd5a79147930aa725', '06ca6351e003826f', '142929670a0e6e70',
  '27b70a8546d22ffc', '2e1b21385c26c926', '4d2c6dfc5ac42aed', '53380d139d95b3df', '650a73548baf63de', '766a0abb3c77b2a8', '81c2c92e47edaee6', '92722c851482353b',
  'a2bfe8a14cf10364', 'a81a664bbc423001', 'c24b8b70d0f89791', 'c76c51a30654be30', 'd192e819d6ef5218', 'd69906245565a910', 'f40e35855771202a', '106aa07032bbd1b8',
  '19a4c116b8d2d0c8', '1e376c085141ab53', '2748774cdf8eeb99', '34b0bcb5e19b48a8', '391c0cb3c5c95a63', '4ed8aa4ae3418acb', '5b9cca4f7763e373', '682e6ff3d6b2b8a3',
  '748f82ee5defb2fc', '78a5636f43172f60', '84c87814a1f0ab72', '8cc702081a6439ec', '90befffa23631e28', 'a4506cebde82bde9', 'bef9a3f7b2c67915', 'c67178f2e372532b',
  'ca273eceea26619c', 'd186b8c721c0c207', 'eada7dd6cde0eb1e', 'f57d4f7fee6ed178', '06f067aa72176fba', '0a637dc5a2c898a6', '113f9804bef90dae', '1b710b35131c471b',
  '28db77f523047d84', '32caab7b40c72493', '3c9ebe0a15c9bebc', '431d67c49c100d4c', '4cc5d4becb3e42b6', '597f299cfc657e2a', '5fcb6fab3ad6faec', '6c44198c4a475817',
].map((h) => BigInt(`0x${h}`));
const H0 = ['6a09e667f3bcc908', 'bb67ae8584caa73b', '3c6ef372fe94f82b', 'a54ff53a5f1d36f1', '510e527fade682d1', '9b05688c2b3e6c1f', '1f83d9abfb41bd6b', '5be0cd19137e2179'].map((h) => BigInt(`0x${h}`));

const rotr = (x: bigint, n: bigint) => ((x >> n) | (x << (64n - n))) & MASK64;

/** SHA-512 (FIPS 180-4 §6.4). */
export function sha512(message: Uint8Array): Uint8Array {
  const bitLength = BigInt(message.length) * 8n;
  const padded = new Uint8Array(Math.ceil((message.length + 17) / 128) * 128);
  padded.set(message);
  padded[message.length] = 0x80;
  for (let i = 0; i < 16; i++) padded[padded.length - 1 - i] = Number((bitLength >> BigInt(8 * i)) & 0xffn);
  const h = [...H0];
  const w = new Array<bigint>(80);
  for (let block = 0; block < padded.length; block += 128) {
    for (let t = 0; t < 16; t++) {
      let v = 0n;
      for (let i = 0; i < 8; i++) v = (v << 8n) | BigInt(padded[block + t * 8 + i]!);
      w[t] = v;
    }
    for (let t = 16; t < 80; t++) {
      const s0 = rotr(w[t - 15]!, 1n) ^ rotr(w[t - 15]!, 8n) ^ (w[t - 15]! >> 7n);
      const s1 = rotr(w[t - 2]!, 19n) ^ rotr(w[t - 2]!, 61n) ^ (w[t - 2]! >> 6n);
      w[t] = (w[t - 16]! + s0 + w[t - 7]! + s1) & MASK64;
    }
    let [a, b, c, d, e, f, g, hh] = h as [bigint, bigint, bigint, bigint, bigint, bigint, bigint, bigint];
    for (let t = 0; t < 80; t++) {
      const t1 = (hh + (rotr(e, 14n) ^ rotr(e, 18n) ^ rotr(e, 41n)) + ((e & f) ^ (~e & MASK64 & g)) + K[t]! + w[t]!) & MASK64;
      const t2 = ((rotr(a, 28n) ^ rotr(a, 34n) ^ rotr(a, 39n)) + ((a & b) ^ (a & c) ^ (b & c))) & MASK64;
      [hh, g, f, e, d, c, b, a] = [g, f, e, (d + t1) & MASK64, c, b, a, (t1 + t2) & MASK64];
    }
    const next = [a, b, c, d, e, f, g, hh];
    for (let i = 0; i < 8; i++) h[i] = (h[i]! + next[i]!) & MASK64;
  }
  const out = new Uint8Array(64);
  for (let i = 0; i < 8; i++) for (let j = 0; j < 8; j++) out[i * 8 + j] = Number((h[i]! >> BigInt(56 - 8 * j)) & 0xffn);
  return out;
}

// edwards25519 (RFC 8032 §5.1): p = 2^255 - 19, d = -121665/121666, the base point B.
const P = (1n << 255n) - 19n;
const mod = (v: bigint) => {
  const r = v % P;
  return r < 0n ? r + P : r;
};
function inverse(a: bigint): bigint {
  let result = 1n;
  let base = mod(a);
  for (let e = P - 2n; e > 0n; e >>= 1n) {
    if (e & 1n) result = (result * base) % P;
    base = (base * base) % P;
  }
  return result;
}
const D2 = mod(2n * -121665n * inverse(121666n));
const BX = 15112221349535400772501151409588531511454012693041857206046113283949847762202n;
const BY = 46316835694926478169428394003475163141307993866256225615783033603165251855960n;

/** Extended coordinates (X, Y, Z, T), x = X/Z, y = Y/Z, xy = T/Z. */
type Point = [bigint, bigint, bigint, bigint];
const IDENTITY: Point = [0n, 1n, 1n, 0n];

// add-2008-hwcd-3 (a = -1), unified: also doubles.
function add([x1, y1, z1, t1]: Point, [x2, y2, z2, t2]: Point): Point {
  const a = mod((y1 - x1) * (y2 - x2));
  const b = mod((y1 + x1) * (y2 + x2));
  const c = mod(t1 * D2 * t2);
  const d = mod(2n * z1 * z2);
  const e = b - a;
  const f = d - c;
  const g = d + c;
  const h = b + a;
  return [mod(e * f), mod(g * h), mod(f * g), mod(e * h)];
}

let table: Point[] | undefined;
function scalarBaseMult(k: bigint): Point {
  if (!table) {
    const base: Point = [BX, BY, 1n, mod(BX * BY)];
    table = [IDENTITY, base];
    for (let i = 2; i < 16; i++) table.push(add(table[i - 1]!, base));
  }
  let acc = IDENTITY;
  for (const digit of k.toString(16)) {
    for (let i = 0; i < 4; i++) acc = add(acc, acc);
    const d = parseInt(digit, 16);
    if (d !== 0) acc = add(acc, table[d]!);
  }
  return acc;
}

// One key is derived once, whatever number of Go builds parse it (src/kubelet/node-setup/go-builds.ts).
const derived = new Map<string, Uint8Array>();

/** The 32-byte Ed25519 public key of a 32-byte seed. */
export function ed25519PublicKeyFromSeed(seed: Uint8Array): Uint8Array {
  const memo = Buffer.from(seed).toString('hex');
  const known = derived.get(memo);
  if (known) return known;
  const pub = derive(seed);
  if (derived.size > 16) derived.clear();
  derived.set(memo, pub);
  return pub;
}

function derive(seed: Uint8Array): Uint8Array {
  const h = sha512(seed);
  const s = Uint8Array.from(h.subarray(0, 32));
  s[0]! &= 248;
  s[31]! &= 127;
  s[31]! |= 64;
  const scalar = BigInt(`0x${Buffer.from(s).reverse().toString('hex')}`);
  const [x, y, z] = scalarBaseMult(scalar);
  const zi = inverse(z);
  const ax = mod(x * zi);
  const ay = mod(y * zi);
  const out = Buffer.from(ay.toString(16).padStart(64, '0'), 'hex').reverse();
  out[31]! |= Number(ax & 1n) << 7;
  return new Uint8Array(out);
}
