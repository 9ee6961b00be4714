/**
 * Kubelet's serving certificate before "Started kubelet":
 *  - InitializeTLS (cmd/kubelet/app/server.go, 1.24-1.37): without serverTLSBootstrap and
 *    tlsCertFile/tlsPrivateKeyFile, <cert-dir>/kubelet.crt and kubelet.key, generated and written
 *    when neither can be read (certutil.CanReadCertAndKey);
 *  - NewMainKubelet (pkg/kubelet/kubelet.go): with serverTLSBootstrap and the
 *    RotateKubeletServerCertificate gate, the server certificate manager's store
 *    (<cert-dir>/kubelet-server-current.pem, "failed to initialize certificate manager: %w");
 *    otherwise, from 1.31 with the ReloadKubeletServerCertificateFile gate, the files are loaded
 *    (apiserver dynamiccertificates NewDynamicServingContentFromFiles: os.ReadFile of the
 *    certificate, then of the key, then tls.X509KeyPair) as "failed to initialize file based
 *    certificate manager: unable to set up dynamic certificate manager for kubelet server cert
 *    files: %w". Before 1.31 the files are read when the server starts, after "Started kubelet".
 */
import { goJoin, goQuote } from '../../go/index.js';
import { certStoreFiles, checkCertStore, keyPair, type FileOf } from './kubeconfig.js';
import type { GoAnswer } from '../../model/verdict.js';

/** The serving certificate's answer: a refusal names the file. */
export type ServingCertCheck = GoAnswer<{ readonly path: string }, object>;

export interface ServingCertInput {
  readonly minor: number;
  readonly certDir: string;
  readonly tlsCertFile: string;
  readonly tlsPrivateKeyFile: string;
  readonly serverTLSBootstrap: boolean;
  readonly gateEnabled: (gate: string) => boolean;
  /** GODEBUG in kubelet's environment (the Go builds that parse the pair). */
  readonly godebug?: string | undefined;
  readonly now: Date;
}

/** The files the serving certificate may come from, for discovery. */
export const servingCertFiles = (certDir: string) => [goJoin(certDir, 'kubelet.crt'), goJoin(certDir, 'kubelet.key')];

const ERRNO_TEXT: Readonly<Record<string, string>> = { ENOENT: 'no such file or directory', ENOTDIR: 'not a directory' };

type Read = { data: Buffer } | { error: string } | { undecidable: string };

function read(path: string, fileOf: FileOf): Read {
  const fact = fileOf(path);
  if (!fact) return { undecidable: `${path} was not read` };
  if (!fact.exists) return fact.code in ERRNO_TEXT ? { error: `open ${path}: ${ERRNO_TEXT[fact.code]}` } : { undecidable: `${path} cannot be read here (${fact.code})` };
  if (fact.type !== 'file' || !fact.content?.ok) return { undecidable: `${path} is not a file node-check reads` };
  return { data: fact.content.data };
}

export function checkServingCert(input: ServingCertInput, fileOf: FileOf): ServingCertCheck {
  const builds = { minor: input.minor, godebug: input.godebug };
  if (input.serverTLSBootstrap && input.gateEnabled('RotateKubeletServerCertificate')) {
    // NewKubeletServerCertificateManager: a store without certFile/keyFile or bootstrap data
    // ("failed to initialize server certificate manager: %v"), wrapped by NewMainKubelet; read at 1.31 only.
    const store = checkCertStore({ certDir: input.certDir, prefix: 'kubelet-server', now: input.now }, fileOf, builds);
    if ('undecidable' in store) return { undecidable: `the serving certificate store: ${store.undecidable}`, path: input.certDir };
    return store.ok ? { ok: true } : { ok: false, error: `failed to initialize certificate manager: failed to initialize server certificate manager: ${store.error}`, path: certStoreFiles(input.certDir, 'kubelet-server').current, inexact: true };
  }
  const defaulted = !input.serverTLSBootstrap && input.tlsCertFile === '' && input.tlsPrivateKeyFile === '';
  const [certFile, keyFile] = defaulted ? servingCertFiles(input.certDir) : [input.tlsCertFile, input.tlsPrivateKeyFile];
  if (certFile === '' || keyFile === '') return { ok: true };
  const cert = read(certFile!, fileOf);
  const key = read(keyFile!, fileOf);
  if (defaulted && 'error' in cert && 'error' in key) return { ok: true }; // InitializeTLS writes a self-signed pair
  if (defaulted && ('error' in cert || 'error' in key)) return { undecidable: `only one of ${certFile} and ${keyFile} can be read: InitializeTLS's pair check is not modelled`, path: input.certDir };
  const loads = input.minor >= 31 && input.gateEnabled('ReloadKubeletServerCertificateFile');
  if (!loads) return { ok: true };
  for (const [path, result] of [[certFile!, cert], [keyFile!, key]] as const) {
    if ('undecidable' in result) return { undecidable: result.undecidable, path };
    if ('error' in result) return { ok: false, error: `failed to initialize file based certificate manager: unable to set up dynamic certificate manager for kubelet server cert files: ${result.error}`, path };
  }
  const certData = (cert as { data: Buffer }).data;
  const keyData = (key as { data: Buffer }).data;
  const wrap = (e: string) => `failed to initialize file based certificate manager: unable to set up dynamic certificate manager for kubelet server cert files: ${e}`;
  // DynamicCertKeyPairContent.loadCertKeyPair: empty content, then tls.X509KeyPair.
  if (certData.length === 0 || keyData.length === 0) return { ok: false, error: wrap(`missing content for serving cert ${goQuote(`kubelet-server-cert-files::${certFile}::${keyFile}`)}`), path: certFile! };
  const loaded = keyPair(certData, keyData, builds);
  if ('undecidable' in loaded) return { undecidable: `${certFile} and ${keyFile}: ${loaded.undecidable}`, path: certFile! };
  return loaded.ok ? { ok: true } : { ok: false, error: wrap(loaded.error), path: certFile!, ...(loaded.inexact ? { inexact: true } : {}) };
}
