/**
 * authentication.x509.clientCAFile / --client-ca-file as run() loads it: BuildAuth → BuildAuthn
 * (cmd/kubelet/app/auth.go, 1.24-1.37) → dynamiccertificates.NewDynamicCAContentFromFile
 * ("client-ca-bundle", file) in k8s.io/apiserver pkg/server/dynamiccertificates/
 * dynamic_cafile_content.go (v0.24.17 … v0.36.5): os.ReadFile, then "missing content for CA
 * bundle %q" for an empty file, then cert.NewPoolFromBytes (client-go util/cert/pem.go
 * ParseCertsPEM: PEM "CERTIFICATE" blocks without headers, each x509.ParseCertificate) wrapped as
 * "error loading CA bundle for %q: %v". run() returns the error unwrapped.
 */
import { goQuote } from '../../go/quote.js';
import { decodePem, type PemDecoder } from '../../go/pem.js';
import { parseGoCertificateFields, type GoCertificate, type GoX509, type X509Verdict } from '../../go/x509/parser.js';
import { acrossKubeletGo } from './go-builds.js';
import type { PathFact } from '../../model/node.js';
import { oncePerOwner } from '../../lib/memo.js';
import type { GoTls } from '../../go/tls/key-pair.js';
import type { GoAnswer } from '../../model/verdict.js';

export type ClientCaCheck = GoAnswer;

type Decided = Exclude<X509Verdict, { readonly undecidable: string } | { readonly ok: true }>;

const NO_CERTIFICATES = 'data does not contain any valid RSA or ECDSA certificates';
const CERTIFICATE = Uint8Array.from('CERTIFICATE', (c) => c.charCodeAt(0));

/**
 * The CA bundle check for `path` (as kubelet `minor` names it) given what the root holds there.
 * `godebug`: GODEBUG in kubelet's environment; one naming x509negativeserial is tried both ways
 * (its parsing rules are not ported), so a negative serial number then decides nothing.
 */
export function checkClientCaFile(minor: number, path: string, fact: PathFact | undefined, godebug?: string): ClientCaCheck {
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
  // Every Go release kubelet 1.<minor> shipped with must give the same answer (src/kubelet/node-setup/go-builds.ts).
  const answer = acrossKubeletGo(minor, godebug, (go) => {
    const verdict = parseCertsPemFieldsOnce(data, go);
    return 'undecidable' in verdict ? verdict : verdict.ok ? { ok: true, value: undefined } : verdict;
  });
  if ('undecidable' in answer) return { undecidable: `${path}: ${answer.undecidable}` };
  if (answer.ok) return { ok: true };
  return { ok: false, error: `error loading CA bundle for ${goQuote(name)}: ${answer.error}`, inexact: answer.inexact };
}

/**
 * ParseCertsPEM per PEM data and Go build: kubelet minors share Go releases, and `check` asks for
 * the same bundle (the client CA's, the kubeconfig's client certificate) once per minor (14).
 */
const parsedFieldsOnce = oncePerOwner((data: Uint8Array, build: string): ReturnType<typeof parseCertsPemFields> => {
  const go = JSON.parse(build) as GoTls;
  return parseCertsPemFields(data, go.decoder, go);
});

/** parseCertsPemFields(data, go.decoder, go), once per data (the same object) and Go build. */
export function parseCertsPemFieldsOnce(data: Uint8Array, go: GoTls): ReturnType<typeof parseCertsPemFields> {
  return parsedFieldsOnce(data, JSON.stringify(go));
}

/**
 * client-go util/cert/pem.go ParseCertsPEM (unchanged v0.24-v0.36): every "CERTIFICATE" block
 * without headers through x509.ParseCertificate, the first error returned, at least one needed.
 */
export function parseCertsPem(data: Uint8Array, decoder: PemDecoder, go: GoX509): X509Verdict {
  const parsed = parseCertsPemFields(data, decoder, go);
  return 'ok' in parsed && parsed.ok ? { ok: true } : parsed;
}

/** ParseCertsPEM with the certificates it returns. */
export function parseCertsPemFields(data: Uint8Array, decoder: PemDecoder, go: GoX509): { readonly ok: true; readonly certificates: readonly GoCertificate[] } | Decided | { readonly undecidable: string } {
  let rest = data;
  const certificates: GoCertificate[] = [];
  while (rest.length > 0) {
    const decoded = decodePem(rest, decoder);
    if (!decoded) break;
    rest = decoded.rest;
    const { block } = decoded;
    if (block.hasHeaders || Buffer.compare(block.type, CERTIFICATE) !== 0) continue;
    const parsed = parseGoCertificateFields(block.bytes, go);
    if (!('ok' in parsed) || !parsed.ok) return parsed;
    certificates.push(parsed.certificate);
  }
  return certificates.length > 0 ? { ok: true, certificates } : { ok: false, error: NO_CERTIFICATES, exact: true };
}
