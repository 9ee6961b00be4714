/**
 * Kubelet's API client as run() builds it when --kubeconfig is set (cmd/kubelet/app/server.go run()
 * "standaloneMode" and buildKubeletClientConfig, the same logic 1.24-1.37; only the logger
 * argument changes in 1.35), with pkg/kubelet/certificate/bootstrap/bootstrap.go LoadClientConfig,
 * LoadClientCert, isClientConfigStillValid and loadRESTClientConfig, and client-go's loader
 * (tools/clientcmd/loader.go ClientConfigLoadingRules.Load: os.Stat of the explicit path, then
 * LoadFromFile) and DirectClientConfig.ClientConfig / ConfirmUsable (client_config.go,
 * validation.go):
 *  - no --kubeconfig: standalone mode, nothing is read (not even --bootstrap-kubeconfig);
 *  - rotateCertificates false, no --bootstrap-kubeconfig: "invalid kubeconfig: %w";
 *  - rotateCertificates true, no --bootstrap-kubeconfig: "unable to load kubeconfig: %v";
 *  - --bootstrap-kubeconfig set: the kubeconfig is kept when it loads and holds an unexpired client
 *    certificate; otherwise the bootstrap kubeconfig is loaded ("unable to load bootstrap
 *    kubeconfig: %v"); with rotation kubelet then writes a kubeconfig pointing at the cert
 *    directory and bootstraps in the background; without it LoadClientCert asks the API server
 *    for a certificate (not a node fact: "cannot tell");
 *  - with rotation the client certificate manager loads <cert-dir>/kubelet-client-current.pem
 *    (client-go util/certificate certificate_store.go fileStore.Current).
 * Only a plain kubeconfig is modelled: apiVersion v1, kind Config, the usual keys, a https server,
 * a CA (file or data) holding certificates, and a token, a client certificate and key, or an exec
 * plugin. Anything else is "cannot tell"; a file node-check cannot read, too.
 */
import { rootCertPool, x509KeyPair, type GoTls } from '../../go/tls/key-pair.js';
import type { GoCertificate } from '../../go/x509/parser.js';
import { acrossKubeletGo, type KubeletGoAnswer } from './go-builds.js';
import { parseCertsPemFieldsOnce } from './client-ca.js';
import { oncePerOwner } from '../../lib/memo.js';
import { goJoin } from '../../go/index.js';
import { goQuote } from '../../go/quote.js';
import { goJsonCheckValid, parseGoJson, type GoJson } from '../../go/json.js';
import { isJsonBuffer } from '../../credentials/decode.js';
import { yamlToGoJson } from '../../credentials/go-yaml.js';
import { toPlain } from '../config/decode.js';
import type { PathFact } from '../../model/node.js';
import type { GoAnswer } from '../../model/verdict.js';

/** buildKubeletClientConfig's answer, always naming the file it is about. */
export type ClientConfigCheck = GoAnswer<{ readonly path: string }>;

export interface ClientConfigInput {
  /** --kubeconfig; '' is standalone mode. */
  readonly kubeconfig: string;
  readonly bootstrapKubeconfig: string;
  readonly rotateCertificates: boolean;
  /** --cert-dir (default /var/lib/kubelet/pki). */
  readonly certDir: string;
  readonly now: Date;
  /** Kubelet's minor, for the Go builds that parse the TLS material. */
  readonly minor: number;
  /** GODEBUG in kubelet's environment. */
  readonly godebug?: string | undefined;
}

export type FileOf = (path: string) => PathFact | undefined;

export const DEFAULT_CERT_DIR = '/var/lib/kubelet/pki';
/** The certificate managers' stores in --cert-dir: the client's and, with serverTLSBootstrap, the server's. */
export type CertStorePrefix = 'kubelet-client' | 'kubelet-server';

/** certificate_store.go: pairNamePrefix + "-current.pem" / "-updated.pem", and the legacy .crt/.key pair. */
export const certStoreFiles = (certDir: string, prefix: CertStorePrefix = 'kubelet-client') => ({
  current: goJoin(certDir, `${prefix}-current.pem`),
  updated: goJoin(certDir, `${prefix}-updated.pem`),
  crt: goJoin(certDir, `${prefix}.crt`),
  key: goJoin(certDir, `${prefix}.key`),
});

const ERRNO_TEXT: Readonly<Record<string, string>> = { ENOENT: 'no such file or directory', ENOTDIR: 'not a directory' };
const EMPTY_CONFIG = 'invalid configuration: no configuration has been provided, try setting KUBERNETES_MASTER environment variable';

interface ClusterInfo { readonly server: string; readonly caFile?: string; readonly caData?: Buffer; readonly insecure: boolean }
interface UserInfo { readonly token?: string; readonly certFile?: string; readonly keyFile?: string; readonly certData?: Buffer; readonly keyData?: Buffer; readonly exec?: true }
interface Resolved { readonly clusterName: string; readonly cluster: ClusterInfo; readonly userName: string; readonly user: UserInfo }

type Parsed = { readonly ok: true; readonly resolved: Resolved } | { readonly ok: false; readonly error: string; readonly inexact: boolean } | { readonly undecidable: string };

/** A kubeconfig as kubelet loads it: missing (the loader's stat), failing, usable, or not modelled. */
type Loaded =
  | { readonly state: 'missing'; readonly error: string }
  | { readonly state: 'error'; readonly error: string; readonly inexact: boolean }
  | { readonly state: 'undecidable'; readonly why: string }
  | { readonly state: 'usable'; readonly resolved: Resolved; readonly tls: TlsMaterial };

const CLUSTER_KEYS = new Set(['server', 'certificate-authority', 'certificate-authority-data', 'insecure-skip-tls-verify', 'tls-server-name']);
const USER_KEYS = new Set(['token', 'client-certificate', 'client-key', 'client-certificate-data', 'client-key-data', 'exec']);
const EXEC_KEYS = new Set(['apiVersion', 'command', 'args', 'env', 'interactiveMode', 'provideClusterInfo']);
const EXEC_VERSIONS = new Set(['client.authentication.k8s.io/v1beta1', 'client.authentication.k8s.io/v1']);
const INTERACTIVE_MODES = new Set(['Never', 'IfAvailable', 'Always']);

const isObject = (v: unknown): v is Record<string, unknown> => typeof v === 'object' && v !== null && !Array.isArray(v);
const onlyKeys = (v: Record<string, unknown>, keys: ReadonlySet<string>) => Object.keys(v).every((k) => keys.has(k));
const optionalString = (v: unknown) => v === undefined || typeof v === 'string';

/** Go's base64.StdEncoding (padded) as encoding/json decodes []byte. */
function goBase64(text: string): Buffer | undefined {
  // Given back unchanged by Node's encoder: well formed, without the pattern's interpreted run.
  const decoded = Buffer.from(text, 'base64');
  if (decoded.toString('base64') === text) return decoded;
  if (!/^(?:[A-Za-z0-9+/]{4})*(?:[A-Za-z0-9+/]{2}==|[A-Za-z0-9+/]{3}=)?$/.test(text)) return undefined;
  return decoded;
}

/** ResolveLocalPaths: a relative file path is taken against the kubeconfig's directory. */
const resolveAgainst = (kubeconfigPath: string, file: string) => (file.startsWith('/') ? file : goJoin(kubeconfigPath.slice(0, kubeconfigPath.lastIndexOf('/')) || '/', file));

function decodeDocument(data: Buffer): { value: unknown } | { error: string; inexact: boolean } {
  let json: GoJson;
  if (isJsonBuffer(data)) {
    const syntax = goJsonCheckValid(data);
    if (syntax !== undefined) return { error: syntax, inexact: true };
    json = parseGoJson(data);
  } else {
    const converted = yamlToGoJson(data, { capitalisedMapKeyError: false });
    if (!converted.ok) return { error: converted.error, inexact: true };
    json = converted.value;
  }
  return { value: toPlain(json) };
}

/** The named entries of clusters/contexts/users: undefined when a list is not the plain shape. */
function namedEntries(list: unknown, field: string): Map<string, Record<string, unknown>> | undefined {
  if (list === undefined || list === null) return new Map();
  if (!Array.isArray(list)) return undefined;
  const out = new Map<string, Record<string, unknown>>();
  for (const entry of list) {
    if (!isObject(entry) || !onlyKeys(entry, new Set(['name', field])) || typeof entry['name'] !== 'string' || out.has(entry['name'])) return undefined;
    const body = entry[field] ?? {};
    if (!isObject(body)) return undefined;
    out.set(entry['name'], body);
  }
  return out;
}

/** Every file a kubeconfig's clusters and users name (for discovery), resolved as the loader resolves them. */
export function kubeconfigReferences(path: string, data: Buffer): string[] {
  if (data.length === 0) return [];
  const decoded = decodeDocument(data);
  if (!('value' in decoded) || !isObject(decoded.value)) return [];
  const files: string[] = [];
  for (const [list, field, keys] of [['clusters', 'cluster', ['certificate-authority']], ['users', 'user', ['client-certificate', 'client-key']]] as const) {
    const entries = decoded.value[list];
    if (!Array.isArray(entries)) continue;
    for (const entry of entries.slice(0, 8)) {
      const body = isObject(entry) ? entry[field] : undefined;
      if (!isObject(body)) continue;
      for (const key of keys) if (typeof body[key] === 'string' && body[key] !== '') files.push(resolveAgainst(path, body[key] as string));
    }
  }
  return files;
}

/** The loaded document, flattened to the current context as DirectClientConfig does. */
function parseKubeconfig(path: string, data: Buffer): Parsed {
  // clientcmd.Load: no data is the empty config, which ConfirmUsable calls empty.
  if (data.length === 0) return { ok: false, error: EMPTY_CONFIG, inexact: true };
  const decoded = decodeDocument(data);
  if ('error' in decoded) return { ok: false, error: `error loading config file ${goQuote(path)}: ${decoded.error}`, inexact: true };
  const doc = decoded.value;
  if (!isObject(doc)) return { undecidable: `${path} is not a YAML mapping` };
  if (!onlyKeys(doc, new Set(['apiVersion', 'kind', 'clusters', 'contexts', 'users', 'current-context', 'preferences']))) return { undecidable: `${path} has keys node-check does not model (only apiVersion, kind, clusters, contexts, users, current-context, preferences)` };
  if (doc['apiVersion'] !== 'v1' || doc['kind'] !== 'Config') return { undecidable: `${path}: only apiVersion v1, kind Config is modelled` };
  if (doc['preferences'] !== undefined && !(isObject(doc['preferences']) && Object.keys(doc['preferences']).length === 0)) return { undecidable: `${path}: preferences are not modelled` };
  const clusters = namedEntries(doc['clusters'], 'cluster');
  const contexts = namedEntries(doc['contexts'], 'context');
  const users = namedEntries(doc['users'], 'user');
  if (!clusters || !contexts || !users) return { undecidable: `${path}: clusters, contexts and users are modelled only as lists of uniquely named entries` };
  const current = doc['current-context'];
  if (!optionalString(current)) return { undecidable: `${path}: current-context is not a string` };
  // getContext does not require the context; ConfirmUsable then finds an empty cluster (ErrEmptyConfig).
  if (current === undefined || current === '') return { ok: false, error: EMPTY_CONFIG, inexact: true };
  const context = contexts.get(current as string);
  if (!context) return { ok: false, error: `invalid configuration: context was not found for specified context: ${current as string}`, inexact: true };
  if (!onlyKeys(context, new Set(['cluster', 'user', 'namespace'])) || typeof context['cluster'] !== 'string' || typeof context['user'] !== 'string' || !optionalString(context['namespace'])) {
    return { undecidable: `${path}: context ${goQuote(current as string)} is not a plain cluster/user/namespace` };
  }
  const clusterName = context['cluster'];
  const userName = context['user'];
  const cluster = clusters.get(clusterName);
  const user = users.get(userName);
  if (!cluster || !user) return { undecidable: `${path}: context ${goQuote(current as string)} names a cluster or user the file does not define` };
  if (!onlyKeys(cluster, CLUSTER_KEYS) || !onlyKeys(user, USER_KEYS)) return { undecidable: `${path}: cluster ${goQuote(clusterName)} or user ${goQuote(userName)} has keys node-check does not model` };
  const server = cluster['server'];
  if (server === undefined || server === '') return { ok: false, error: `invalid configuration: no server found for cluster ${goQuote(clusterName)}`, inexact: true };
  if (typeof server !== 'string' || !/^https:\/\/[^\s/?#]+(\/[^\s]*)?$/.test(server)) return { undecidable: `${path}: server ${JSON.stringify(server)} is not a plain https URL` };
  for (const key of ['certificate-authority', 'certificate-authority-data', 'tls-server-name']) if (!optionalString(cluster[key])) return { undecidable: `${path}: ${key} is not a string` };
  for (const key of ['token', 'client-certificate', 'client-key', 'client-certificate-data', 'client-key-data']) if (!optionalString(user[key])) return { undecidable: `${path}: ${key} is not a string` };
  const insecure = cluster['insecure-skip-tls-verify'];
  if (insecure !== undefined && typeof insecure !== 'boolean') return { undecidable: `${path}: insecure-skip-tls-verify is not a boolean` };
  const caFile = (cluster['certificate-authority'] as string | undefined) || undefined;
  const caDataText = (cluster['certificate-authority-data'] as string | undefined) || undefined;
  if ((caFile ? 1 : 0) + (caDataText ? 1 : 0) + (insecure ? 1 : 0) !== 1) return { undecidable: `${path}: cluster ${goQuote(clusterName)} is modelled only with exactly one of certificate-authority, certificate-authority-data, insecure-skip-tls-verify` };
  const caData = caDataText ? goBase64(caDataText) : undefined;
  if (caDataText && !caData) return { undecidable: `${path}: certificate-authority-data is not base64 node-check decodes` };

  const text = (key: string) => (user[key] as string | undefined) || undefined;
  const certDataText = text('client-certificate-data');
  const keyDataText = text('client-key-data');
  const certData = certDataText ? goBase64(certDataText) : undefined;
  const keyData = keyDataText ? goBase64(keyDataText) : undefined;
  if ((certDataText && !certData) || (keyDataText && !keyData)) return { undecidable: `${path}: client certificate or key data is not base64 node-check decodes` };
  const certFile = text('client-certificate');
  const keyFile = text('client-key');
  const hasCert = Boolean(certFile || certData);
  const hasKey = Boolean(keyFile || keyData);
  const methods = [text('token') ? 1 : 0, hasCert || hasKey ? 1 : 0, user['exec'] !== undefined ? 1 : 0].reduce((a, b) => a + b, 0);
  if (methods !== 1 || (certFile && certData) || (keyFile && keyData) || hasCert !== hasKey) {
    return { undecidable: `${path}: user ${goQuote(userName)} is modelled only with exactly one of a token, a client certificate and key (file or data), an exec plugin` };
  }
  if (user['exec'] !== undefined) {
    const exec = user['exec'];
    const ok = isObject(exec) && onlyKeys(exec, EXEC_KEYS) && typeof exec['apiVersion'] === 'string' && EXEC_VERSIONS.has(exec['apiVersion']) &&
      typeof exec['command'] === 'string' && exec['command'] !== '' &&
      (exec['args'] === undefined || exec['args'] === null || (Array.isArray(exec['args']) && exec['args'].every((a) => typeof a === 'string'))) &&
      (exec['env'] === undefined || exec['env'] === null || (Array.isArray(exec['env']) && exec['env'].every((e) => isObject(e) && onlyKeys(e, new Set(['name', 'value'])) && typeof e['name'] === 'string' && typeof e['value'] === 'string'))) &&
      (exec['interactiveMode'] === undefined ? exec['apiVersion'] !== 'client.authentication.k8s.io/v1' : typeof exec['interactiveMode'] === 'string' && INTERACTIVE_MODES.has(exec['interactiveMode'])) &&
      (exec['provideClusterInfo'] === undefined || typeof exec['provideClusterInfo'] === 'boolean');
    if (!ok) return { undecidable: `${path}: the exec plugin of user ${goQuote(userName)} is not one node-check models` };
  }
  return {
    ok: true,
    resolved: {
      clusterName,
      userName,
      cluster: { server, insecure: insecure === true, ...(caFile ? { caFile: resolveAgainst(path, caFile) } : {}), ...(caData ? { caData } : {}) },
      user: {
        ...(text('token') ? { token: text('token')! } : {}),
        ...(certFile ? { certFile: resolveAgainst(path, certFile) } : {}),
        ...(keyFile ? { keyFile: resolveAgainst(path, keyFile) } : {}),
        ...(certData ? { certData } : {}),
        ...(keyData ? { keyData } : {}),
        ...(user['exec'] !== undefined ? { exec: true as const } : {}),
      },
    },
  };
}

type Bytes = { data: Buffer } | { missing: string } | { undecidable: string };

/** A file clientcmd's validation opens (os.Open) and the transport then reads. */
function fileBytes(path: string, fileOf: FileOf): Bytes {
  const fact = fileOf(path);
  if (!fact) return { undecidable: `${path} was not read` };
  if (!fact.exists) {
    if (fact.code === 'ENOENT' || fact.code === 'ENOTDIR') return { missing: `open ${path}: ${ERRNO_TEXT[fact.code]}` };
    return { undecidable: `${path} cannot be read here (${fact.code}); kubelet, as root, may read it` };
  }
  if (fact.type !== 'file' || !fact.content) return { undecidable: `${path} is not a regular file node-check reads` };
  if (!fact.content.ok) return { undecidable: `${path} cannot be read here (${fact.content.code})` };
  return { data: fact.content.data };
}

/** The kubeconfig's TLS material as client-go's loadTLSFiles reads it. */
interface TlsMaterial {
  readonly caData?: Buffer;
  readonly certData?: Buffer;
  readonly keyData?: Buffer;
  /** client-certificate and client-key are both files: the transport then loads them at the first handshake (ReloadTLSFiles). */
  readonly certFromFiles: boolean;
}

/** The kubeconfig at `path` as loadRESTClientConfig / ClientConfig() would take it, with its TLS material. */
function loadKubeconfig(path: string, fileOf: FileOf): Loaded {
  const fact = fileOf(path);
  if (!fact) return { state: 'undecidable', why: `${path} was not read` };
  if (!fact.exists) {
    // ClientConfigLoadingRules.Load returns os.Stat's error only when it is "not exist".
    if (fact.code === 'ENOENT') return { state: 'missing', error: `stat ${path}: no such file or directory` };
    return { state: 'undecidable', why: `${path} cannot be read here (${fact.code})` };
  }
  if (fact.type === 'directory') return { state: 'error', error: `error loading config file ${goQuote(path)}: read ${path}: is a directory`, inexact: true };
  if (fact.type !== 'file' || !fact.content) return { state: 'undecidable', why: `${path} is not a regular file node-check reads` };
  if (!fact.content.ok) return { state: 'undecidable', why: `${path} cannot be read here (${fact.content.code}); kubelet, as root, may read it` };
  const parsed = parsedKubeconfigOnce(fact.content.data, path);
  if ('undecidable' in parsed) return { state: 'undecidable', why: parsed.undecidable };
  if (!parsed.ok) return { state: 'error', error: parsed.error, inexact: parsed.inexact };
  const { cluster, clusterName, user, userName } = parsed.resolved;

  // ConfirmUsable opens every file named (validateClusterInfo, validateAuthInfo).
  const opened: [string | undefined, string][] = [[cluster.caFile, `certificate-authority ${cluster.caFile} for ${clusterName}`], [user.certFile, `client-cert ${user.certFile} for ${userName}`], [user.keyFile, `client-key ${user.keyFile} for ${userName}`]];
  const contents = new Map<string, Buffer>();
  for (const [file, what] of opened) {
    if (!file) continue;
    const bytes = fileBytes(file, fileOf);
    if ('undecidable' in bytes) return { state: 'undecidable', why: bytes.undecidable };
    if ('missing' in bytes) return { state: 'error', error: `invalid configuration: unable to read ${what} due to ${bytes.missing}`, inexact: true };
    contents.set(file, bytes.data);
  }
  const caData = cluster.insecure ? undefined : cluster.caData ?? contents.get(cluster.caFile!);
  const certData = user.certData ?? (user.certFile ? contents.get(user.certFile) : undefined);
  const keyData = user.keyData ?? (user.keyFile ? contents.get(user.keyFile) : undefined);
  const tls: TlsMaterial = { ...(caData ? { caData } : {}), ...(certData ? { certData } : {}), ...(keyData ? { keyData } : {}), certFromFiles: Boolean(user.certFile && user.keyFile) };
  return { state: 'usable', resolved: parsed.resolved, tls };
}

/**
 * The kubeconfig's parse, and its TLS material's per Go build, once per file (the same bytes
 * object of the node's model): `check` replays kubelet's client for 14 minors, which share Go
 * releases, and each replay asks for the CA pool twice (isClientConfigStillValid, then the
 * transport). The kubeconfig's parse is kept, so its certificate-authority-data stays one object.
 */
const parsedKubeconfigOnce = oncePerOwner((data: Buffer, path: string) => parseKubeconfig(path, data));
const keyPairOnce = oncePerOwner((cert: Uint8Array, _: string) => oncePerOwner((key: Uint8Array, build: string) => x509KeyPair(cert, key, JSON.parse(build) as GoTls)));
const rootCertPoolOnce = oncePerOwner((data: Uint8Array, build: string) => rootCertPool(data, JSON.parse(build) as GoTls));

/** The Go builds kubelet's answer depends on (src/kubelet/node-setup/go-builds.ts). */
export interface GoBuilds {
  readonly minor: number;
  /** GODEBUG in kubelet's environment. */
  readonly godebug?: string | undefined;
}

/** tls.X509KeyPair(cert, key) across kubelet's Go builds (src/go/tls/key-pair.ts): the leaf, or Go's refusal. */
export function keyPair(cert: Uint8Array, key: Uint8Array, builds: GoBuilds): KubeletGoAnswer<GoCertificate> {
  return acrossKubeletGo(builds.minor, builds.godebug, (go) => {
    const verdict = keyPairOnce(cert, '')(key, JSON.stringify(go));
    return 'undecidable' in verdict || !verdict.ok ? verdict : { ok: true, value: verdict.leaf };
  });
}

/** client-go's rootCertPool across kubelet's Go builds. */
function caPool(data: Uint8Array, builds: GoBuilds): KubeletGoAnswer<undefined> {
  return acrossKubeletGo(builds.minor, builds.godebug, (go) => {
    const verdict = rootCertPoolOnce(data, JSON.stringify(go));
    return 'undecidable' in verdict || !verdict.ok ? verdict : { ok: true, value: undefined };
  });
}

type Step = { readonly ok: true } | { readonly ok: false; readonly error: string; readonly inexact: boolean } | { readonly undecidable: string };
const PASSED: Step = { ok: true };

/**
 * transport.TLSConfigFor (client-go transport.go, v0.24-v0.36), as clientset.NewForConfig reaches
 * it: the CA pool ("unable to load root certificates: %w"), then tls.X509KeyPair of the client
 * certificate and key when either is data. Files are loaded at the first TLS handshake, after
 * kubelet has started: a pair Go refuses there is "cannot tell", not a refusal at start.
 */
function transportStep(tls: TlsMaterial, builds: GoBuilds, path: string, userName: string, pair: 'none' | 'data' | 'data-or-files'): Step {
  if (tls.caData) {
    const ca = caPool(tls.caData, builds);
    if ('undecidable' in ca) return { undecidable: `the certificate authority in ${path}: ${ca.undecidable}` };
    if (!ca.ok) return { ok: false, error: `unable to load root certificates: ${ca.error}`, inexact: ca.inexact };
  }
  if (pair === 'none' || !tls.certData || !tls.keyData || (pair === 'data' && tls.certFromFiles)) return PASSED;
  const loaded = keyPair(tls.certData, tls.keyData, builds);
  if ('undecidable' in loaded) return { undecidable: `the client certificate and key of user ${goQuote(userName)} in ${path}: ${loaded.undecidable}` };
  if (loaded.ok) return PASSED;
  if (tls.certFromFiles) return { undecidable: `kubelet loads the client certificate and key files of user ${goQuote(userName)} in ${path} at its first TLS handshake, after it has started, and Go refuses them there (${loaded.error})` };
  return { ok: false, error: loaded.error, inexact: loaded.inexact };
}

/**
 * bootstrap.go isClientConfigStillValid: the transport's TLS config builds, and
 * certutil.ParseCertsPEM of the client certificate gives certificates none of which has expired
 * (now.After(NotAfter)). Its errors are logged, not returned: false is "bootstrap".
 */
function stillValid(loaded: Extract<Loaded, { state: 'usable' }>, builds: GoBuilds, now: Date, path: string): boolean | { undecidable: string } {
  const transport = transportStep(loaded.tls, builds, path, loaded.resolved.userName, 'data');
  if ('undecidable' in transport) return transport;
  if (!transport.ok) return false;
  return certificatesValid(loaded.tls, builds, now, path);
}

function certificatesValid(tls: TlsMaterial, builds: GoBuilds, now: Date, path: string): boolean | { undecidable: string } {
  if (!tls.certData) return false;
  const certData = tls.certData;
  const certs = acrossKubeletGo(builds.minor, builds.godebug, (go) => {
    const parsed = parseCertsPemFieldsOnce(certData, go);
    return 'undecidable' in parsed || !parsed.ok ? parsed : { ok: true, value: parsed.certificates };
  });
  if ('undecidable' in certs) return { undecidable: `the client certificate in ${path}: ${certs.undecidable}` };
  return certs.ok && certs.value.every((c) => now.getTime() <= c.notAfter.getTime());
}

/** fileExists (certificate_store.go): os.Stat; an error other than "not exist" is returned. */
function storeFile(path: string, fileOf: FileOf): { data: Buffer } | 'absent' | { undecidable: string } {
  const fact = fileOf(path);
  if (!fact) return { undecidable: `${path} was not read` };
  if (!fact.exists) return fact.code === 'ENOENT' ? 'absent' : { undecidable: `${path} cannot be read here (${fact.code})` };
  if (fact.type !== 'file' || !fact.content?.ok) return { undecidable: `${path} is not a file node-check reads` };
  return { data: fact.content.data };
}

/** What the certificate store gives the certificate manager (see checkCertStore). */
export interface CertStoreInput {
  readonly certDir: string;
  readonly prefix?: CertStorePrefix;
  /** The store's certFile/keyFile (NewFileStore): the kubeconfig's client certificate files, if any. */
  readonly certFile?: string | undefined;
  readonly keyFile?: string | undefined;
  /** BootstrapCertificatePEM / BootstrapKeyPEM: the kubeconfig's client certificate data, if any. */
  readonly bootstrapCert?: Buffer | undefined;
  readonly bootstrapKey?: Buffer | undefined;
  readonly now: Date;
}

/**
 * A certificate manager's start (client-go util/certificate certificate_manager.go NewManager →
 * getCurrentCertificateOrBootstrap, certificate_store.go fileStore.Current, v0.24-v0.36):
 * <prefix>-current.pem (tls.LoadX509KeyPair of the file with itself, "could not convert data from
 * %q into cert/key pair: %v"), else the given certFile and keyFile when both exist, else
 * <prefix>.crt and .key; a pair whose leaf has expired, or none, falls back to the bootstrap data
 * (tls.X509KeyPair), and without it the manager starts with no certificate. The error is
 * NewManager's, unwrapped.
 */
export function checkCertStore(input: CertStoreInput, fileOf: FileOf, builds: GoBuilds): Step {
  const store = certStoreFiles(input.certDir, input.prefix);
  const updated = fileOf(store.updated);
  if (!updated || updated.exists || updated.code !== 'ENOENT') return { undecidable: `${store.updated}: the certificate store's recovery of an updated pair is not modelled` };
  const load = (cert: Buffer, key: Buffer, wrap: (e: string) => string, what: string): { leaf: GoCertificate } | Step => {
    const loaded = keyPair(cert, key, builds);
    if ('undecidable' in loaded) return { undecidable: `${what}: ${loaded.undecidable}` };
    if (!loaded.ok) return { ok: false, error: wrap(loaded.error), inexact: loaded.inexact };
    return { leaf: loaded.value };
  };
  let current: { leaf: GoCertificate } | Step | undefined;
  const pair = storeFile(store.current, fileOf);
  if (typeof pair === 'object' && 'undecidable' in pair) return pair;
  if (pair !== 'absent') current = load(pair.data, pair.data, (e) => `could not convert data from ${goQuote(store.current)} into cert/key pair: ${e}`, store.current);
  else {
    for (const [certFile, keyFile] of [[input.certFile, input.keyFile], [store.crt, store.key]] as const) {
      const cert = certFile ? storeFile(certFile, fileOf) : 'absent';
      const key = keyFile ? storeFile(keyFile, fileOf) : 'absent';
      for (const f of [cert, key]) if (typeof f === 'object' && 'undecidable' in f) return f;
      if (cert !== 'absent' && key !== 'absent') {
        current = load((cert as { data: Buffer }).data, (key as { data: Buffer }).data, (e) => e, `${certFile} and ${keyFile}`);
        break;
      }
    }
  }
  if (current && !('leaf' in current)) return current;
  // "if the current cert is expired, fall back to the bootstrap cert": time.Now().Before(NotAfter).
  if (current && input.now.getTime() < current.leaf.notAfter.getTime()) return PASSED;
  if (!input.bootstrapCert || !input.bootstrapKey) return PASSED;
  const boot = load(input.bootstrapCert, input.bootstrapKey, (e) => e, 'the kubeconfig\'s client certificate data');
  return 'leaf' in boot ? PASSED : boot;
}

/** What buildKubeletClientConfig does with the node's kubeconfig files (see the file comment). */
export function checkClientConfig(input: ClientConfigInput, fileOf: FileOf): ClientConfigCheck {
  const { kubeconfig, bootstrapKubeconfig: bootstrap, rotateCertificates: rotate } = input;
  if (kubeconfig === '') return { ok: true };
  const builds: GoBuilds = { minor: input.minor, godebug: input.godebug };
  const fail = (error: string, inexact: boolean, path: string): ClientConfigCheck => ({ ok: false, error, inexact, path });
  const undecided = (why: string, path: string): ClientConfigCheck => ({ undecidable: why, path });
  const asCheck = (step: Step, path: string, wrap: (e: string) => string, wrapExact = true): ClientConfigCheck =>
    'undecidable' in step ? undecided(step.undecidable, path) : step.ok ? { ok: true } : fail(wrap(step.error), step.inexact || !wrapExact, path);
  // Without rotation: clientset.NewForConfig builds the transport ("failed to initialize kubelet client: %w").
  const withClient = (loaded: Extract<Loaded, { state: 'usable' }>, path: string) =>
    asCheck(transportStep(loaded.tls, builds, path, loaded.resolved.userName, 'data-or-files'), path, (e) => `failed to initialize kubelet client: ${e}`);
  // With rotation: the client certificate manager ("failed to initialize client certificate
  // manager: %v"), then UpdateTransport's TLSConfigFor of the anonymous config, CA only ("unable to
  // configure TLS for the rest client: %v"); the second's words were read at 1.31 only (inexact).
  const withStore = (loaded: Extract<Loaded, { state: 'usable' }>, path: string, user: { certFile?: string; keyFile?: string; bootstrapCert?: Buffer; bootstrapKey?: Buffer }) => {
    const store = checkCertStore({ certDir: input.certDir, now: input.now, ...user }, fileOf, builds);
    if (!('ok' in store) || !store.ok) return asCheck(store, 'undecidable' in store ? path : certStoreFiles(input.certDir).current, (e) => `failed to initialize client certificate manager: ${e}`);
    return asCheck(transportStep(loaded.tls, builds, path, loaded.resolved.userName, 'none'), path, (e) => `unable to configure TLS for the rest client: ${e}`, false);
  };
  const userFiles = (loaded: Extract<Loaded, { state: 'usable' }>) => {
    const { certFile, keyFile, certData, keyData } = loaded.resolved.user;
    return { ...(certFile ? { certFile } : {}), ...(keyFile ? { keyFile } : {}), ...(certData ? { bootstrapCert: certData } : {}), ...(keyData ? { bootstrapKey: keyData } : {}) };
  };
  const loaded = loadKubeconfig(kubeconfig, fileOf);
  if (bootstrap === '') {
    const wrap = (e: string) => (rotate ? `unable to load kubeconfig: ${e}` : `invalid kubeconfig: ${e}`);
    switch (loaded.state) {
      case 'missing': return fail(wrap(loaded.error), false, kubeconfig);
      case 'error': return fail(wrap(loaded.error), loaded.inexact, kubeconfig);
      case 'undecidable': return undecided(loaded.why, kubeconfig);
      case 'usable': return rotate ? withStore(loaded, kubeconfig, userFiles(loaded)) : withClient(loaded, kubeconfig);
    }
  }
  if (loaded.state === 'undecidable') return undecided(loaded.why, kubeconfig);
  // isClientConfigStillValid: a kubeconfig that loads with an unexpired client certificate is kept.
  if (loaded.state === 'usable') {
    const valid = stillValid(loaded, builds, input.now, kubeconfig);
    if (typeof valid === 'object') return undecided(valid.undecidable, kubeconfig);
    if (valid) return rotate ? withStore(loaded, kubeconfig, userFiles(loaded)) : withClient(loaded, kubeconfig);
  }
  const boot = loadKubeconfig(bootstrap, fileOf);
  switch (boot.state) {
    case 'missing':
    case 'error':
      return fail(`unable to load bootstrap kubeconfig: ${boot.error}`, boot.state === 'error' && boot.inexact, bootstrap);
    case 'undecidable':
      return undecided(boot.why, bootstrap);
    case 'usable':
      // With rotation kubelet writes a kubeconfig naming <cert-dir>/kubelet-client-current.pem and
      // bootstraps in the background; without it LoadClientCert waits for the API server's certificate.
      if (!rotate) return undecided(`kubelet requests its client certificate from the API server with ${bootstrap} before it goes on (LoadClientCert); whether it gets one is not a node fact`, bootstrap);
      return withStore(boot, bootstrap, {});
  }
}
