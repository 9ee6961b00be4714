/**
 * authentication.x509.clientCAFile / --client-ca-file as run() loads it: BuildAuth → BuildAuthn
 * (cmd/kubelet/app/auth.go, 1.24-1.36) → dynamiccertificates.NewDynamicCAContentFromFile
 * ("client-ca-bundle", file) in k8s.io/apiserver pkg/server/dynamiccertificates/
 * dynamic_cafile_content.go (v0.24.17 … v0.36.5): os.ReadFile, then "missing content for CA
 * bundle %q" for an empty file, then cert.NewPoolFromBytes (client-go util/cert/pem.go
 * ParseCertsPEM: PEM "CERTIFICATE" blocks without headers, each x509.ParseCertificate) wrapped as
 * "error loading CA bundle for %q: %v". run() returns the error unwrapped.
 */
import { X509Certificate } from 'node:crypto';
import { goQuote } from '../../go/quote.js';
import type { PathFact } from '../../model/node.js';

export type ClientCaCheck = { readonly ok: true } | { readonly ok: false; readonly error: string; readonly inexact: boolean } | { readonly undecidable: string };

const NO_CERTIFICATES = 'data does not contain any valid RSA or ECDSA certificates';
// encoding/pem: "-----BEGIN TYPE-----", base64 body, "-----END TYPE-----".
const PEM_BLOCK = /-----BEGIN ([^\r\n-]*)-----\r?\n([\s\S]*?)-----END \1-----/g;

/** The CA bundle check for `path` (as kubelet names it) given what the root holds there. */
export function checkClientCaFile(path: string, fact: PathFact | undefined): ClientCaCheck {
  if (!path.startsWith('/')) return { undecidable: `clientCAFile ${goQuote(path)} is relative: kubelet resolves it against the config file's directory, which node-check does not model` };
  if (fact === undefined) return { undecidable: `${path} was not read` };
  if (!fact.exists) {
    if (fact.code === 'ENOENT' || fact.code === 'ENOTDIR' || fact.code === 'ELOOP') {
      const text = { ENOENT: 'no such file or directory', ENOTDIR: 'not a directory', ELOOP: 'too many levels of symbolic links' }[fact.code];
      return { ok: false, error: `open ${path}: ${text}`, inexact: false };
    }
    return { undecidable: `${path} cannot be read here (${fact.code}); kubelet, as root, may read it` };
  }
  if (fact.type === 'directory') return { ok: false, error: `read ${path}: is a directory`, inexact: false };
  if (fact.type !== 'file' || !fact.content) return { undecidable: `${path} is not a regular file node-check reads` };
  if (!fact.content.ok) return { undecidable: `${path} cannot be read here (${fact.content.code})` };
  const data = fact.content.data;
  const name = `client-ca-bundle::${path}`;
  if (data.length === 0) return { ok: false, error: `missing content for CA bundle ${goQuote(name)}`, inexact: false };
  const text = data.toString('latin1');
  let certificates = 0;
  for (const block of text.matchAll(PEM_BLOCK)) {
    const [, type, body] = block;
    if (type !== 'CERTIFICATE') continue;
    // A block with headers ("Proc-Type: …") is skipped by ParseCertsPEM; its body decoding is not modelled.
    if (body!.includes(':')) return { undecidable: `${path}: a PEM block with headers is not modelled` };
    try {
      new X509Certificate(block[0]);
      certificates++;
    } catch {
      // x509.ParseCertificate's wording differs from OpenSSL's; the verdict is the same.
      return { ok: false, error: `error loading CA bundle for ${goQuote(name)}: x509: malformed certificate`, inexact: true };
    }
  }
  if (certificates > 0) return { ok: true };
  // "-----BEGIN" text that is not a PEM block node-check recognises: pem.Decode's edge cases are not modelled.
  if (text.includes('-----BEGIN')) return { undecidable: `${path} holds PEM text with no certificate node-check recognises` };
  return { ok: false, error: `error loading CA bundle for ${goQuote(name)}: ${NO_CERTIFICATES}`, inexact: false };
}
