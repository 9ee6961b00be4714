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
import { parseGoCertificate, type X509Verdict } from '../../go/x509/parser.js';
import { KUBELET_GO_TOOLCHAINS } from '../data/go-toolchain.js';
import type { PathFact } from '../../model/node.js';
import { oncePerOwner } from '../../memo.js';

export type ClientCaCheck = { readonly ok: true } | { readonly ok: false; readonly error: string; readonly inexact: boolean } | { readonly undecidable: string };

type Decided = Exclude<X509Verdict, { readonly undecidable: string }>;

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
  const toolchain = KUBELET_GO_TOOLCHAINS[minor];
  if (!toolchain) return { undecidable: `the Go release kubelet 1.${minor} is built with is not known` };
  // Every Go release kubelet 1.<minor> shipped with must give the same answer (src/kubelet/data/go-toolchain.ts).
  let answer: Decided | undefined;
  const negativeSerial = godebug?.includes('x509negativeserial') ? [true, false] : [toolchain.negativeSerialAllowed];
  for (let go = toolchain.firstGo; go <= toolchain.lastGo; go++) {
    for (const [decoder, negativeSerialAllowed] of pemDecodersOf(go).flatMap((d) => negativeSerial.map((n) => [d, n] as const))) {
      const verdict = parsedOnce(data, `${decoder} ${go} ${negativeSerialAllowed}`);
      if ('undecidable' in verdict) return { undecidable: `${path}: ${verdict.undecidable}` };
      if (answer === undefined) answer = verdict;
      else if (answer.ok !== verdict.ok) return { undecidable: `${path}: the Go releases kubelet 1.${minor} was built with (go1.${toolchain.firstGo}-go1.${toolchain.lastGo})${negativeSerial.length > 1 ? ' and GODEBUG x509negativeserial either way' : ''} disagree on it` };
      else if (!answer.ok && !verdict.ok && (answer.error !== verdict.error || !verdict.exact)) answer = { ok: false, error: answer.error, exact: false }; // same verdict, Go's words differ
    }
  }
  if (!answer || answer.ok) return { ok: true };
  return { ok: false, error: `error loading CA bundle for ${goQuote(name)}: ${answer.error}`, inexact: !answer.exact };
}

/**
 * ParseCertsPEM's verdict per Go release, decoder and negative-serial rule: kubelet minors share Go
 * releases, and `check` asks for the same bundle once per minor (14).
 */
const parsedOnce = oncePerOwner((data: Uint8Array, input: string): X509Verdict => {
  const [decoder, go, negativeSerialAllowed] = input.split(' ') as [PemDecoder, string, string];
  return parseCertsPem(data, decoder, { minor: Number(go), negativeSerialAllowed: negativeSerialAllowed === 'true' });
});

/** encoding/pem changed how it finds a block in go1.24.10 and go1.25.4 (src/go/pem.ts): those minors have both. */
function pemDecodersOf(goMinor: number): readonly PemDecoder[] {
  if (goMinor <= 23) return ['begin-first'];
  if (goMinor >= 26) return ['end-first'];
  return ['begin-first', 'end-first'];
}

/**
 * client-go util/cert/pem.go ParseCertsPEM (unchanged v0.24-v0.36): every "CERTIFICATE" block
 * without headers through x509.ParseCertificate, the first error returned, at least one needed.
 */
export function parseCertsPem(data: Uint8Array, decoder: PemDecoder, go: { minor: number; negativeSerialAllowed: boolean }): X509Verdict {
  let rest = data;
  let found = false;
  while (rest.length > 0) {
    const decoded = decodePem(rest, decoder);
    if (!decoded) break;
    rest = decoded.rest;
    const { block } = decoded;
    if (block.hasHeaders || Buffer.compare(block.type, CERTIFICATE) !== 0) continue;
    const verdict = parseGoCertificate(block.bytes, go);
    if (!('ok' in verdict) || !verdict.ok) return verdict;
    found = true;
  }
  return found ? { ok: true } : { ok: false, error: NO_CERTIFICATES, exact: true };
}
