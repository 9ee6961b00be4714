/** Unit tests of the key ports: scalar-base multiplication, Ed25519 from a seed, encoding/asn1, tls.parsePrivateKey. */
import t from 'tap';
import { COMB_P256, NIST_CURVES, scalarBaseMult, onCurve, windowMult, type Curve } from '../../src/go/elliptic.js';
import { createECDH, createHash } from 'node:crypto';
import { ed25519PublicKeyFromSeed, sha512 } from '../../src/go/ed25519.js';
import { asn1Unmarshal, Asn1Error, type Asn1Field } from '../../src/go/asn1.js';
import { parseTlsPrivateKey } from '../../src/go/x509/pkcs.js';

const curve = (name: string): Curve => Object.values(NIST_CURVES).find((c) => c.name === name)!;
const hex = (s: string) => BigInt(`0x${s}`);

t.test('scalar-base multiplication: Go\'s test vectors', async (t) => {
  // src/crypto/elliptic/p224_test.go p224BaseMultTests (k decimal; x, y), a selection.
  const p224: [string, string, string][] = [
    ['1', 'b70e0cbd6bb4bf7f321390b94a03c1d356c21122343280d6115c1d21', 'bd376388b5f723fb4c22dfe6cd4375a05a07476444d5819985007e34'],
    ['2', '706a46dc76dcb76798e60e6d89474788d16dc18032d268fd1a704fa6', '1c2b76a7bc25e7702a704fa986892849fca629487acf3709d2e4e8bb'],
    ['11', 'ef53b6294aca431f0f3c22dc82eb9050324f1d88d377e716448e507c', '20b510004092e96636cfb7e32efded8265c266dfb754fa6d6491a6da'],
    ['112233445566778899', '61f077c6f62ed802dad7c2f38f5c67f2cc453601e61bd076bb46179e', '2272f9e9f5933e70388ee652513443b5e289dd135dcc0d0299b225e4'],
    ['13479966930919337728895168462090683249159702977113823384618282123295', 'ef353bf5c73cd551b96d596fbc9a67f16d61dd9fe56af19de1fba9cd', '21771b9cdce3e8430c09b3838be70b48c21e15bc09ee1f2d7945b91f'],
    ['26959946667150639794667015087019625940457807714424391721682722368059', '706a46dc76dcb76798e60e6d89474788d16dc18032d268fd1a704fa6', 'e3d4895843da188fd58fb0567976d7b50359d6b78530c8f62d1b1746'],
    ['26959946667150639794667015087019625940457807714424391721682722368060', 'b70e0cbd6bb4bf7f321390b94a03c1d356c21122343280d6115c1d21', '42c89c774a08dc04b3dd201932bc8a5ea5f8b89bbb2a7e667aff81cd'],
  ];
  for (const [k, x, y] of p224) t.same(scalarBaseMult(curve('P224'), BigInt(k)), { x: hex(x), y: hex(y) }, `P-224 ${k}·G`);
  // src/crypto/ecdsa/ecdsa_test.go testRFC6979: the RFC 6979 A.2 keys (D, then the public X, Y).
  const rfc6979: [string, string, string, string][] = [
    ['P224', 'F220266E1105BFE3083E03EC7A3A654651F45E37167E88600BF257C1', '00CF08DA5AD719E42707FA431292DEA11244D64FC51610D94B130D6C', 'EEAB6F3DEBE455E3DBF85416F7030CBD94F34F2D6F232C69F3C1385A'],
    ['P256', 'C9AFA9D845BA75166B5C215767B1D6934E50C3DB36E89B127B8A622B120F6721', '60FED4BA255A9D31C961EB74C6356D68C049B8923B61FA6CE669622E60F29FB6', '7903FE1008B8BC99A41AE9E95628BC64F2F1B20C2D7E9F5177A3C294D4462299'],
    ['P384', '6B9D3DAD2E1B8C1C05B19875B6659F4DE23C3B667BF297BA9AA47740787137D896D5724E4C70A825F872C9EA60D2EDF5', 'EC3A4E415B4E19A4568618029F427FA5DA9A8BC4AE92E02E06AAE5286B300C64DEF8F0EA9055866064A254515480BC13', '8015D9B72D7D57244EA8EF9AC0C621896708A59367F9DFB9F54CA84B3F1C9DB1288B231C3AE0D4FE7344FD2533264720'],
    ['P521', '0FAD06DAA62BA3B25D2FB40133DA757205DE67F5BB0018FEE8C86E1B68C7E75CAA896EB32F1F47C70855836A6D16FCC1466F6D8FBEC67DB89EC0C08B0E996B83538', '1894550D0785932E00EAA23B694F213F8C3121F86DC97A04E5A7167DB4E5BCD371123D46E45DB6B5D5370A7F20FB633155D38FFA16D2BD761DCAC474B9A2F5023A4', '0493101C962CD4D2FDDF782285E64584139C2F91B47F87FF82354D6630F746A28A0DB25741B5B34A828008B22ACC23F924FAAFBD4D33F81EA66956DFEAA2BFDFCF5'],
  ];
  for (const [name, d, x, y] of rfc6979) {
    const c = curve(name);
    const q = scalarBaseMult(c, hex(d));
    t.same(q, { x: hex(x), y: hex(y) }, `${name}: RFC 6979 key`);
    t.ok(onCurve(c, hex(x), hex(y)), `${name}: the point is on the curve`);
    // elliptic_test.go testInfinity: N·G and 0·G are the point at infinity; (N-1)·G is -G.
    t.equal(scalarBaseMult(c, c.n), 'infinity', `${name}: N·G`);
    t.equal(scalarBaseMult(c, 0n), 'infinity', `${name}: 0·G`);
    t.same(scalarBaseMult(c, c.n - 1n), { x: c.gx, y: c.p - c.gy }, `${name}: (N-1)·G`);
  }
});

t.test("P-256's comb: its table, and its products against the window method and OpenSSL", async (t) => {
  const c = curve('P256');
  COMB_P256.forEach(([x, y], index) => {
    const b = index + 1;
    let k = 0n;
    for (let i = 0; i < 4; i++) if (b & (1 << i)) k += 1n << BigInt(64 * i);
    t.same(windowMult(c, k), { x: hex(x), y: hex(y) }, `COMB_P256[${index}] = ${k.toString(16)}·G`);
  });
  const openssl = (k: bigint) => {
    const ecdh = createECDH('prime256v1');
    ecdh.setPrivateKey(Buffer.from(k.toString(16).padStart(64, '0'), 'hex'));
    const point = ecdh.getPublicKey();
    return { x: BigInt(`0x${point.subarray(1, 33).toString('hex')}`), y: BigInt(`0x${point.subarray(33).toString('hex')}`) };
  };
  // Edge scalars (single teeth, full columns, the top bit), then 64 from a fixed hash chain.
  const scalars = [1n, 2n, 15n, 1n << 63n, 1n << 64n, (1n << 64n) - 1n, (1n << 192n) + (1n << 128n) + (1n << 64n) + 1n, 1n << 255n, c.n - 2n];
  for (let i = 0; i < 64; i++) scalars.push(BigInt(`0x${createHash('sha256').update(`node-check comb ${i}`).digest('hex')}`) % c.n);
  for (const k of scalars) {
    const product = scalarBaseMult(c, k);
    t.same(product, windowMult(c, k), `${k.toString(16)}: the window method agrees`);
    t.same(product, openssl(k), `${k.toString(16)}: OpenSSL agrees`);
  }
});

t.test('Ed25519 public keys and SHA-512', async (t) => {
  // src/crypto/ed25519/testdata/sign.input.gz (RFC 8032 §7.1): seed ‖ public key, first lines.
  const vectors = [
    ['9d61b19deffd5a60ba844af492ec2cc44449c5697b326919703bac031cae7f60', 'd75a980182b10ab7d54bfed3c964073a0ee172f3daa62325af021a68f707511a'],
    ['4ccd089b28ff96da9db6c346ec114e0f5b8a319f35aba624da8cf6ed4fb8a6fb', '3d4017c3e843895a92b70aa74d1b7ebc9c982ccf2ec4968cc0cd55f12af4660c'],
  ];
  for (const [seed, pub] of vectors) t.equal(Buffer.from(ed25519PublicKeyFromSeed(Buffer.from(seed!, 'hex'))).toString('hex'), pub);
  // FIPS 180-4 examples (src/crypto/sha512/sha512_test.go golden512): "", "abc", a two-block message.
  t.equal(Buffer.from(sha512(Buffer.alloc(0))).toString('hex'), 'cf83e1357eefb8bdf1542850d66d8007d620e4050b5715dc83f4a921d36ce9ce47d0d13c5d85f2b0ff8318d2877eec2f63b931bd47417a81a538327af927da3e');
  t.equal(Buffer.from(sha512(Buffer.from('abc'))).toString('hex'), 'ddaf35a193617abacc417349ae20413112e6fa4e89a97ea20a9eeee64b55d39a2192992a274fc1a836ba3c23a3feebbd454d4423643ce80e2a9ac94fa54ca49f');
  t.equal(Buffer.from(sha512(Buffer.from('abcdefghbcdefghicdefghijdefghijkefghijklfghijklmghijklmnhijklmnoijklmnopjklmnopqklmnopqrlmnopqrsmnopqrstnopqrstu'))).toString('hex'), '8e959b75dae313da8cf4f72814fc143f8f7779c6eb9f7fa17299aeadb6889018501d289e4900f7e4331b99dec4b5433ac7d329eeb6dd26545e96e55b874be909');
});

t.test('encoding/asn1 Unmarshal as Go runs it', async (t) => {
  const der = (h: string) => Buffer.from(h, 'hex');
  const struct: Asn1Field = { kind: 'struct', fields: [{ kind: 'int' }, { kind: 'octets' }, { kind: 'oid', optional: true, explicitTag: 0 }] };
  t.same(asn1Unmarshal(der('3006020101040100'), struct).value, [1n, Buffer.of(0), undefined], 'an absent optional field');
  t.same(asn1Unmarshal(der('3009020101040100040100'), struct).value, [1n, Buffer.of(0), undefined], 'bytes after the last field are ignored');
  t.same(asn1Unmarshal(der('300d020101040100a0050603550403'), struct).value, [1n, Buffer.of(0), [2, 5, 4, 3]], 'an explicit [0] OID');
  t.same(asn1Unmarshal(der('3006020101040100ff'), struct).rest, Buffer.of(0xff), 'Unmarshal returns the rest');
  const refuses = (h: string, message: string) => t.throws(() => asn1Unmarshal(der(h), struct), new Asn1Error(message), message);
  refuses('300a020101040100a0000500', 'zero length explicit tag was not an asn1.Flag');
  refuses('3005020101a000', 'sequence truncated or tags don\'t match');
  refuses('30080201010401000500', 'explicit tag has no child');
  refuses('300702020001040100', 'integer not minimally-encoded');
  refuses('308106020101040100', 'non-minimal length');
  refuses('300e0209010101010101010101040100', 'integer too large');
  refuses('3009020101040100bf0100', 'non-minimal tag');
  t.same(asn1Unmarshal(der('300b020101040100bf1f000500'), struct).value, [1n, Buffer.of(0), undefined], 'a high tag number (which cryptobyte refuses) is read, and does not match');
});

t.test('tls.parsePrivateKey: the three encodings, per Go minor', async (t) => {
  const go = (minor: number, rsaCrtRecompute = false) => ({ minor, rsaCrtRecompute });
  // SEC 1, P-256, scalar 1: the public key is G.
  const sec1 = (scalar: string) => Buffer.from(`3031020101${'04' + (scalar.length / 2).toString(16).padStart(2, '0')}${scalar}a00a06082a8648ce3d030107`.replace(/^3031/, (30 + 0).toString() + ((3 + 2 + scalar.length / 2 + 12).toString(16).padStart(2, '0'))), 'hex');
  const one = '00'.repeat(31) + '01';
  const c = curve('P256');
  t.same(parseTlsPrivateKey(sec1(one), go(26)), { key: { type: 'ecdsa', curve: c, public: { x: c.gx, y: c.gy } } });
  t.same(parseTlsPrivateKey(sec1('00'.repeat(32)), go(25)), { key: { type: 'ecdsa', curve: c, public: 'infinity' } }, 'Go <= 1.25: a zero scalar parses (elliptic\'s (0, 0))');
  t.same(parseTlsPrivateKey(sec1('00'.repeat(32)), go(26)), { error: 'tls: failed to parse private key' }, 'Go 1.26: ecdsa.ParseRawPrivateKey refuses it');
  t.same(parseTlsPrivateKey(sec1(`00${one}`), go(26)).hasOwnProperty('key'), true, 'leading zeros beyond the size are dropped');
  t.same(parseTlsPrivateKey(sec1(`01${one}`), go(26)), { error: 'tls: failed to parse private key' }, 'a longer scalar is refused');
  t.same(parseTlsPrivateKey(Buffer.from('302e020100300506032b656e042204200000000000000000000000000000000000000000000000000000000000000000', 'hex'), go(20)), { error: 'tls: found unknown private key type in PKCS#8 wrapping' }, 'X25519 from Go 1.20');
  t.same(parseTlsPrivateKey(Buffer.from('302e020100300506032b656e042204200000000000000000000000000000000000000000000000000000000000000000', 'hex'), go(19)), { error: 'tls: failed to parse private key' }, 'X25519 before crypto/ecdh');
  t.same(parseTlsPrivateKey(Buffer.from('302e020100300506032b6570042204209d61b19deffd5a60ba844af492ec2cc44449c5697b326919703bac031cae7f60', 'hex'), go(26)), { key: { type: 'ed25519', public: new Uint8Array(Buffer.from('d75a980182b10ab7d54bfed3c964073a0ee172f3daa62325af021a68f707511a', 'hex')) } }, 'Ed25519 PKCS #8: the RFC 8032 key');
  // PKCS #1 with textbook primes too small for Go's checks: each Go's rules tell.
  const rsa = (fields: bigint[]) => {
    const int = (v: bigint) => { let h = v.toString(16); if (h.length % 2) h = `0${h}`; if (parseInt(h[0]!, 16) >= 8) h = `00${h}`; return `02${(h.length / 2).toString(16).padStart(2, '0')}${h}`; };
    const body = fields.map(int).join('');
    return Buffer.from(`30${(body.length / 2).toString(16).padStart(2, '0')}${body}`, 'hex');
  };
  // p = 61, q = 53, n = 3233, e = 17, d = 2753 (λ-based 413 also inverts e).
  t.same(parseTlsPrivateKey(rsa([0n, 3233n, 17n, 2753n, 61n, 53n]), go(23)), { key: { type: 'rsa', n: 3233n, e: 17n } }, 'Go <= 1.23: product and exponents only');
  t.same(parseTlsPrivateKey(rsa([0n, 3233n, 17n, 2754n, 61n, 53n]), go(23)), { error: 'tls: failed to parse private key' }, 'a d that does not invert e');
  t.same(parseTlsPrivateKey(rsa([0n, 3234n, 17n, 2753n, 61n, 53n]), go(23)), { error: 'tls: failed to parse private key' }, 'a modulus that is not the primes\' product');
  // Checked with x509.ParsePKCS1PrivateKey of go1.22.12, go1.24.13 and go1.26.8 (nil; nil; "input overflows the modulus" from 1.24).
  t.same(parseTlsPrivateKey(rsa([0n, 3233n, 17n, 413n, 61n, 53n]), go(26)), { key: { type: 'rsa', n: 3233n, e: 17n } }, 'Go 1.26: the thresholds (|p - q|, d) scale with the modulus');
  t.same(parseTlsPrivateKey(rsa([0n, 3233n, 17n, 6653n, 61n, 53n]), go(23)), { key: { type: 'rsa', n: 3233n, e: 17n } }, 'Go <= 1.23: d above the modulus still inverts e');
  t.same(parseTlsPrivateKey(rsa([0n, 3233n, 17n, 6653n, 61n, 53n]), go(24)), { error: 'tls: failed to parse private key' }, 'Go 1.24: d must be below the modulus');
  t.same(parseTlsPrivateKey(rsa([2n, 3233n, 17n, 2753n, 61n, 53n]), go(23)), { error: 'tls: failed to parse private key' }, 'version 2');
});
