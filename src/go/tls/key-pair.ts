/**
 * crypto/tls X509KeyPair (src/crypto/tls/tls.go, Go 1.18-1.26) and crypto/x509
 * CertPool.AppendCertsFromPEM (cert_pool.go), over the ports of encoding/pem (src/go/pem.ts),
 * x509.ParseCertificate (src/go/x509/parser.ts) and tls.parsePrivateKey (src/go/x509/pkcs.ts).
 * The pair check differs by Go minor: up to 1.22 an RSA key matches on the modulus and an ECDSA
 * key on the point's coordinates; from 1.23 PublicKey.Equal also compares the exponent and the
 * curve.
 */
import { decodePem, type PemDecoder } from '../pem.js';
import { parseGoCertificateFields, type GoCertificate, type X509Verdict } from '../x509/parser.js';
import { parseTlsPrivateKey, type PrivateKey } from '../x509/pkcs.js';

export interface GoTls {
  readonly minor: number;
  readonly decoder: PemDecoder;
  readonly negativeSerialAllowed: boolean;
  /** GODEBUG x509rsacrt=0 (src/go/x509/pkcs.ts). */
  readonly rsaCrtRecompute: boolean;
}

export type KeyPairVerdict =
  | { readonly ok: true; readonly leaf: GoCertificate }
  | Exclude<X509Verdict, { readonly ok: true }>;

const ascii = (s: string) => Uint8Array.from(s, (c) => c.charCodeAt(0));
const CERTIFICATE = ascii('CERTIFICATE');
const PRIVATE_KEY = ascii('PRIVATE KEY');
const SPACE_PRIVATE_KEY = ascii(' PRIVATE KEY');
const same = (a: Uint8Array, b: Uint8Array) => a.length === b.length && a.every((v, i) => v === b[i]);
const endsWith = (a: Uint8Array, suffix: Uint8Array) => a.length >= suffix.length && same(a.subarray(a.length - suffix.length), suffix);
/** fmt's %v of a []string: "[a b]"; the block types as bytes (latin1 keeps them one to one). */
const typeList = (types: readonly Uint8Array[]) => `[${types.map((t) => Buffer.from(t).toString('latin1')).join(' ')}]`;

function refused(error: string, exact = true): KeyPairVerdict {
  return { ok: false, error, exact };
}

/** tls.X509KeyPair(certPEM, keyPEM) as Go 1.`go.minor` runs it: the leaf when it loads, else Go's error. */
export function x509KeyPair(certPem: Uint8Array, keyPem: Uint8Array, go: GoTls): KeyPairVerdict {
  const certificates: Uint8Array[] = [];
  const skipped: Uint8Array[] = [];
  for (let rest = certPem; ;) {
    const decoded = decodePem(rest, go.decoder);
    if (!decoded) break;
    rest = decoded.rest;
    if (same(decoded.block.type, CERTIFICATE)) certificates.push(decoded.block.bytes);
    else skipped.push(decoded.block.type);
  }
  // A type that is not ASCII is printed as Go's string of those bytes: not modelled exactly.
  const exactTypes = (types: readonly Uint8Array[]) => types.every((t) => t.every((b) => b < 0x80));
  if (certificates.length === 0) {
    if (skipped.length === 0) return refused('tls: failed to find any PEM data in certificate input');
    if (skipped.length === 1 && endsWith(skipped[0]!, PRIVATE_KEY)) return refused('tls: failed to find certificate PEM data in certificate input, but did find a private key; PEM inputs may have been switched');
    return refused(`tls: failed to find "CERTIFICATE" PEM block in certificate input after skipping PEM blocks of the following types: ${typeList(skipped)}`, exactTypes(skipped));
  }

  const skippedKeys: Uint8Array[] = [];
  let keyDer: Uint8Array | undefined;
  for (let rest = keyPem; ;) {
    const decoded = decodePem(rest, go.decoder);
    if (!decoded) {
      if (skippedKeys.length === 0) return refused('tls: failed to find any PEM data in key input');
      if (skippedKeys.length === 1 && same(skippedKeys[0]!, CERTIFICATE)) return refused('tls: found a certificate rather than a key in the PEM for the private key');
      return refused(`tls: failed to find PEM block with type ending in "PRIVATE KEY" in key input after skipping PEM blocks of the following types: ${typeList(skippedKeys)}`, exactTypes(skippedKeys));
    }
    rest = decoded.rest;
    const type = decoded.block.type;
    // Headers (an encrypted key's Proc-Type, DEK-Info) are not read: the bytes are parsed as they are.
    if (same(type, PRIVATE_KEY) || endsWith(type, SPACE_PRIVATE_KEY)) {
      keyDer = decoded.block.bytes;
      break;
    }
    skippedKeys.push(type);
  }

  const leaf = parseGoCertificateFields(certificates[0]!, go);
  if (!('ok' in leaf) || !leaf.ok) return leaf;
  const parsedKey = parseTlsPrivateKey(keyDer, go);
  if ('undecidable' in parsedKey) return parsedKey;
  if ('error' in parsedKey) return refused(parsedKey.error);
  const mismatch = keyMismatch(leaf.certificate, parsedKey.key, go.minor);
  return mismatch ? refused(mismatch) : { ok: true, leaf: leaf.certificate };
}

function keyMismatch({ publicKey: pub }: GoCertificate, priv: PrivateKey, minor: number): string | undefined {
  const TYPE = 'tls: private key type does not match public key type';
  const MATCH = 'tls: private key does not match public key';
  switch (pub.type) {
    case 'rsa':
      if (priv.type !== 'rsa') return TYPE;
      return priv.n === pub.n && (minor <= 22 || priv.e === pub.e) ? undefined : MATCH;
    case 'ecdsa':
      if (priv.type !== 'ecdsa') return TYPE;
      if (priv.public === 'infinity') return MATCH;
      return priv.public.x === pub.x && priv.public.y === pub.y && (minor <= 22 || priv.curve === pub.curve) ? undefined : MATCH;
    case 'ed25519':
      if (priv.type !== 'ed25519') return TYPE;
      return same(priv.public, pub.bytes) ? undefined : MATCH;
    case 'other':
      return 'tls: unknown public key algorithm';
  }
}

/**
 * client-go transport rootCertPool (transport.go, v0.24-v0.36): x509.CertPool.AppendCertsFromPEM
 * keeps every "CERTIFICATE" block without headers that parses and skips the rest; with none,
 * createErrorParsingCAData words the first problem it meets. Undecidable where a block's parse is
 * and no other block loaded.
 */
export function rootCertPool(data: Uint8Array, go: GoTls): { readonly ok: true } | { readonly ok: false; readonly error: string; readonly exact: boolean } | { readonly undecidable: string } {
  let undecided: string | undefined;
  for (let rest = data; rest.length > 0;) {
    const decoded = decodePem(rest, go.decoder);
    if (!decoded) break;
    rest = decoded.rest;
    if (decoded.block.hasHeaders || !same(decoded.block.type, CERTIFICATE)) continue;
    const parsed = parseGoCertificateFields(decoded.block.bytes, go);
    if ('undecidable' in parsed) undecided ??= parsed.undecidable;
    else if (parsed.ok) return { ok: true };
  }
  if (undecided) return { undecidable: undecided };
  for (let rest = data; rest.length > 0;) {
    const decoded = decodePem(rest, go.decoder);
    if (!decoded) return { ok: false, error: 'unable to parse bytes as PEM block', exact: true };
    rest = decoded.rest;
    if (decoded.block.hasHeaders || !same(decoded.block.type, CERTIFICATE)) continue;
    const parsed = parseGoCertificateFields(decoded.block.bytes, go);
    if (!('ok' in parsed) || parsed.ok) throw new Error('unreachable: decided above');
    return { ok: false, error: `failed to parse certificate: ${parsed.error}`, exact: parsed.exact };
  }
  return { ok: false, error: 'no valid certificate authority data seen', exact: true };
}
