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
import { X509Certificate, createPrivateKey, type KeyObject } from 'node:crypto';
import { goJoin } from '../../go/index.js';
import { goQuote } from '../../go/quote.js';
import { goJsonCheckValid, parseGoJson, type GoJson } from '../../go/json.js';
import { isJsonBuffer } from '../../credentials/decode.js';
import { yamlToGoJson } from '../../credentials/go-yaml.js';
import { toPlain } from '../config/decode.js';
import type { PathFact } from '../../model/node.js';

export type ClientConfigCheck =
  | { readonly ok: true }
  | { readonly ok: false; readonly error: string; readonly inexact: boolean; readonly path: string }
  | { readonly undecidable: string; readonly path: string };

export interface ClientConfigInput {
  /** --kubeconfig; '' is standalone mode. */
  readonly kubeconfig: string;
  readonly bootstrapKubeconfig: string;
  readonly rotateCertificates: boolean;
  /** --cert-dir (default /var/lib/kubelet/pki). */
  readonly certDir: string;
  readonly now: Date;
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
  | { readonly state: 'usable'; readonly resolved: Resolved; readonly clientCert?: { readonly expired: boolean } };

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
  if (!/^(?:[A-Za-z0-9+/]{4})*(?:[A-Za-z0-9+/]{2}==|[A-Za-z0-9+/]{3}=)?$/.test(text)) return undefined;
  return Buffer.from(text, 'base64');
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

// encoding/pem blocks without headers (as client-go's cert.ParseCertsPEM and tls.X509KeyPair read them).
const PEM_BLOCK = /-----BEGIN ([^\r\n-]*)-----\r?\n([\s\S]*?)-----END \1-----/g;

/** The certificates and the first private key of PEM data; undefined when a block is outside what node-check parses. */
export function readPem(data: Buffer): { certs: X509Certificate[]; key?: KeyObject } | undefined {
  const text = data.toString('latin1');
  const certs: X509Certificate[] = [];
  let key: KeyObject | undefined;
  for (const block of text.matchAll(PEM_BLOCK)) {
    const [whole, type, body] = block;
    if (body!.includes(':')) return undefined;
    try {
      if (type === 'CERTIFICATE') certs.push(new X509Certificate(whole));
      else if (type!.endsWith('PRIVATE KEY') && !key) key = createPrivateKey(whole);
    } catch {
      return undefined;
    }
  }
  return { certs, ...(key ? { key } : {}) };
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

/** The kubeconfig at `path` as loadRESTClientConfig / ClientConfig() would take it, with its TLS material. */
function loadKubeconfig(path: string, fileOf: FileOf, now: Date): Loaded {
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
  const parsed = parseKubeconfig(path, fact.content.data);
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
  // The transport (TLSConfigFor): the CA must hold certificates, the client pair must match.
  if (!cluster.insecure) {
    const ca = readPem(cluster.caData ?? contents.get(cluster.caFile!)!);
    if (!ca || ca.certs.length === 0) return { state: 'undecidable', why: `the certificate authority of cluster ${goQuote(clusterName)} in ${path} holds no certificate node-check parses` };
  }
  if (user.certFile || user.certData) {
    const certData = user.certData ?? contents.get(user.certFile!)!;
    if (!isKeyPair(certData, user.keyData ?? contents.get(user.keyFile!)!)) {
      return { state: 'undecidable', why: `the client certificate and key of user ${goQuote(userName)} in ${path} are not a pair node-check parses` };
    }
    return { state: 'usable', resolved: parsed.resolved, clientCert: { expired: readPem(certData)!.certs.some((c) => new Date(c.validTo).getTime() < now.getTime()) } };
  }
  return { state: 'usable', resolved: parsed.resolved };
}

/** Whether PEM data holds a certificate and the key of its first one (tls.X509KeyPair's outcome, where node-check parses both). */
export function isKeyPair(cert: Buffer, key: Buffer): boolean {
  const certs = readPem(cert);
  const keys = readPem(key);
  return certs !== undefined && certs.certs.length > 0 && keys?.key !== undefined && certs.certs[0]!.checkPrivateKey(keys.key);
}

/**
 * A certificate manager's store (NewKubeletClientCertificateManager or
 * NewKubeletServerCertificateManager → NewManager → getCurrentCertificateOrBootstrap →
 * fileStore.Current): the current pair in the cert directory if there is one, else the given
 * cert/key files, else the legacy pair; none is no error (the manager requests one). The reason it
 * cannot be decided, or undefined when the store loads.
 */
export function checkCertStore(certDir: string, userFiles: { certFile?: string; keyFile?: string }, fileOf: FileOf, prefix: CertStorePrefix = 'kubelet-client'): string | undefined {
  const store = certStoreFiles(certDir, prefix);
  const stat = (path: string) => fileOf(path);
  const updated = stat(store.updated);
  if (!updated || updated.exists || updated.code !== 'ENOENT') return `${store.updated}: the certificate store's recovery of an updated pair is not modelled`;
  const current = stat(store.current);
  if (!current) return `${store.current} was not read`;
  if (current.exists) {
    if (current.type !== 'file' || !current.content?.ok) return `${store.current} is not a file node-check reads`;
    return isKeyPair(current.content.data, current.content.data) ? undefined : `${store.current} is not a certificate and key node-check parses`;
  }
  if (current.code !== 'ENOENT') return `${store.current} cannot be read here (${current.code})`;
  // The kubeconfig's files were checked as a pair when the kubeconfig was loaded.
  if (userFiles.certFile && userFiles.keyFile) return undefined;
  for (const legacy of [store.crt, store.key]) {
    const fact = stat(legacy);
    if (!fact || fact.exists || fact.code !== 'ENOENT') return `${legacy}: the legacy client certificate pair is not modelled`;
  }
  return undefined;
}

/** What buildKubeletClientConfig does with the node's kubeconfig files (see the file comment). */
export function checkClientConfig(input: ClientConfigInput, fileOf: FileOf): ClientConfigCheck {
  const { kubeconfig, bootstrapKubeconfig: bootstrap, rotateCertificates: rotate } = input;
  if (kubeconfig === '') return { ok: true };
  const fail = (error: string, inexact: boolean, path: string): ClientConfigCheck => ({ ok: false, error, inexact, path });
  const undecided = (why: string, path: string): ClientConfigCheck => ({ undecidable: why, path });
  const withStore = (path: string, userFiles: { certFile?: string; keyFile?: string }): ClientConfigCheck => {
    if (!rotate) return { ok: true };
    const problem = checkCertStore(input.certDir, userFiles, fileOf);
    return problem ? undecided(problem, path) : { ok: true };
  };
  const loaded = loadKubeconfig(kubeconfig, fileOf, input.now);
  if (bootstrap === '') {
    const wrap = (e: string) => (rotate ? `unable to load kubeconfig: ${e}` : `invalid kubeconfig: ${e}`);
    switch (loaded.state) {
      case 'missing': return fail(wrap(loaded.error), false, kubeconfig);
      case 'error': return fail(wrap(loaded.error), loaded.inexact, kubeconfig);
      case 'undecidable': return undecided(loaded.why, kubeconfig);
      case 'usable': return withStore(kubeconfig, loaded.resolved.user);
    }
  }
  if (loaded.state === 'undecidable') return undecided(loaded.why, kubeconfig);
  // isClientConfigStillValid: a kubeconfig that loads with an unexpired client certificate is kept.
  if (loaded.state === 'usable' && loaded.clientCert && !loaded.clientCert.expired) return withStore(kubeconfig, loaded.resolved.user);
  const boot = loadKubeconfig(bootstrap, fileOf, input.now);
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
      return withStore(bootstrap, {});
  }
}
