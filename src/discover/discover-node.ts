/**
 * Discovery: the I/O half of a check. Reads the kubelet unit as systemd would, finds kubelet's
 * flags, and records a PathFact for every file kubelet's credential-provider registration would
 * touch under any modelled version. Produces a NodeModel; decides nothing.
 */
import { RootFs, goErrnoText } from '../host/root-fs.js';
import { parseElf, EXECUTABLE_HEAD_BYTES, machineOfNodeArch } from '../host/elf.js';
import type { FileContent, FileTable, KubeletConfigFacts, KubeletLinkage, NodeModel, PathFact } from '../model/node.js';
import { allValues, CredentialFlag, lastValue, locateKubelet, parseKubeletFlags, type KubeletFlags } from '../kubelet/flags.js';
import { certStoreFiles, DEFAULT_CERT_DIR, kubeconfigReferences } from '../kubelet/node-setup/kubeconfig.js';
import { servingCertFiles } from '../kubelet/node-setup/serving-cert.js';
import { getsubidsCandidates, kubeletUserEntry, PASSWD_PATH } from '../kubelet/node-setup/user-namespaces.js';
import { loadService } from '../systemd/load-service.js';
import { parseEnvFile } from '../systemd/env-file.js';
import { providerEntriesIn } from '../credentials/provider-names.js';
import { MAX_PROVIDER_ENTRIES } from '../limits/bounds.js';
import { goJoin } from '../go/index.js';
import { parseConfigData, toPlain } from '../kubelet/config/decode.js';
import { NEWEST_MODELLED_MINOR } from '../kubelet/version.js';
import { nodePathKey } from '../credentials/registration.js';
import { pathFact, parseMountinfo, type MountFacts } from './path-facts.js';
import { oncePerInput } from '../lib/memo.js';
import { probeKubeletVersion } from './kubelet-version-probe.js';
import { collectExecFacts, discoverHostFacts, type HostIo } from './host-facts.js';
import type { NodeModel as Model } from '../model/node.js';
import { decideFlavor, OPENSHIFT_MARKER_PATHS, type KubeletFlavor } from '../kubelet/flavor.js';
import { findInProcessKubelet } from './in-process-kubelet.js';

export interface DiscoverOptions {
  readonly root: string;
  readonly unit: string;
  /** --kubelet-version; when absent and root is "/", `kubelet --version` is asked (never under another root). */
  readonly kubeletVersion?: string;
  readonly versionProbeTimeoutMs: number;
  /** --kubelet-flavor; otherwise decided from evidence on the node. */
  readonly kubeletFlavor?: KubeletFlavor;
  /** Read the node through this instead of a plain RootFs (the fallback hides its own drop-in). */
  readonly rootFs?: RootFs;
  /** The machine the node runs on, when it is not this one (the oracle's recorded sandbox,
   * test/oracle/compare.ts): host facts are then read through it, whatever the root. */
  readonly hostIo?: HostIo;
  /** The linkage of the kubelet that runs, when it is not the root's binary (the oracle binds its own). */
  readonly kubeletLinkage?: KubeletLinkage;
}

export async function discoverNode(options: DiscoverOptions): Promise<NodeModel> {
  const fs = options.rootFs ?? new RootFs(options.root);
  const service = loadService(fs, options.unit);
  const located = service.execStart ? locateKubelet(service.execStart.argv) : undefined;
  const kubelet = located ? { ...located, flags: parseKubeletFlags(located.args) } : undefined;
  const mounts = fs.isHostRoot ? readMounts(fs) : undefined;

  const files: Record<string, PathFact> = {};
  const record = (path: string, fact: PathFact) => {
    files[nodePathKey(path)] = fact;
  };
  const configPath = kubelet ? lastValue(kubelet.flags, CredentialFlag.config) : undefined;
  const binDir = kubelet ? lastValue(kubelet.flags, CredentialFlag.binDir) : undefined;
  if (configPath || binDir) collectCredentialFacts(fs, configPath ?? '', binDir ?? '', record, mounts);
  for (const [path, fact] of Object.entries(collectExecFacts(fs, service, kubelet?.kubeletPath))) {
    files[nodePathKey(path)] ??= fact;
    // Whether the root carries that directory at all (a copy of /etc may not carry /usr/bin).
    const dir = path.slice(0, path.lastIndexOf('/')) || '/';
    files[nodePathKey(dir)] ??= pathFact(fs, dir);
  }

  let version: NodeModel['kubeletVersion'];
  let versionProblem: string | undefined;
  if (options.kubeletVersion !== undefined) {
    version = { text: options.kubeletVersion, source: 'flag' };
  } else if (!fs.isHostRoot) {
    versionProblem = `not running kubelet under --root ${fs.root} (node-check never executes files there); pass --kubelet-version`;
  } else if (!kubelet) {
    versionProblem = 'kubelet was not found in ExecStart';
  } else {
    const probed = await probeKubeletVersion(kubelet.kubeletPath, options.versionProbeTimeoutMs);
    if (probed.ok) version = { text: probed.version, source: 'binary' };
    else versionProblem = probed.problem;
  }

  const kubeletConfig = kubelet ? readKubeletConfig(fs, lastValue(kubelet.flags, 'config'), lastValue(kubelet.flags, 'config-dir')) : {};
  for (const path of clientCaCandidates(kubeletConfig, kubelet ? lastValue(kubelet.flags, 'client-ca-file') : undefined)) {
    files[nodePathKey(path)] ??= pathFact(fs, path, { content: true });
  }
  if (kubelet) for (const path of [...clientConfigFiles(fs, kubelet.flags), ...servingCertCandidates(kubelet.flags, kubeletConfig)]) files[nodePathKey(path)] ??= pathFact(fs, path, { content: true });
  // Kubelet 1.24-1.30 opens --cloud-config before it initialises an in-tree provider.
  const cloudConfig = kubelet ? lastValue(kubelet.flags, 'cloud-config') : undefined;
  if (cloudConfig) files[nodePathKey(cloudConfig)] ??= pathFact(fs, cloudConfig);
  if (kubelet) recordUserLookupFiles(fs, service.environment['PATH'], (path, fact) => { files[nodePathKey(path)] ??= fact; });
  const osRelease = readOsRelease(fs);
  const flavor = decideFlavor({
    versionText: version?.text,
    wrapper: kubelet?.wrapper ?? [],
    osRelease,
    openshiftMarkers: OPENSHIFT_MARKER_PATHS.filter((path) => fs.stat(path).ok),
    nodeLabels: kubelet ? allValues(kubelet.flags, 'node-labels') : [],
  }, options.kubeletFlavor);

  return {
    root: fs.root,
    service,
    kubelet,
    kubeletConfig,
    host: readHostFacts(fs, kubelet ? lastValue(kubelet.flags, 'container-runtime-endpoint') : undefined, kubelet ? lastValue(kubelet.flags, 'cgroup-root') : undefined, kubeletConfig, options.hostIo),
    kubeletEnvironment: service.environment,
    kubeletVersion: version,
    kubeletVersionProblem: versionProblem,
    files: files as FileTable,
    nodeMachine: fs.isHostRoot ? machineOfNodeArch(process.arch) : kubelet ? machineOfFile(fs, kubelet.kubeletPath) : undefined,
    ...linkageOf(options.kubeletLinkage, kubelet ? files[nodePathKey(kubelet.kubeletPath)] : undefined),
    flavor,
    osRelease,
    ...(kubelet ? {} : inProcess(fs, service)),
  };
}

function linkageOf(given: KubeletLinkage | undefined, binary: PathFact | undefined): { kubeletLinkage?: KubeletLinkage } {
  if (given) return { kubeletLinkage: given };
  const elf = binary?.exists ? binary.elf : undefined;
  return elf ? { kubeletLinkage: elf.interpreter === undefined ? 'static' : 'dynamic' } : {};
}

/**
 * The user namespace manager's inputs (src/kubelet/node-setup/user-namespaces.ts): /etc/passwd,
 * and, when it names the "kubelet" user, each place exec.LookPath would find getsubids.
 */
function recordUserLookupFiles(fs: RootFs, path: string | undefined, record: (path: string, fact: PathFact) => void): void {
  const passwd = pathFact(fs, PASSWD_PATH, { content: true });
  record(PASSWD_PATH, passwd);
  if (!passwd.exists || !passwd.content?.ok || kubeletUserEntry(passwd.content.data) === 'absent') return;
  for (const candidate of getsubidsCandidates(path) ?? []) {
    record(candidate, pathFact(fs, candidate));
    const dir = candidate.slice(0, candidate.lastIndexOf('/'));
    record(dir, pathFact(fs, dir));
  }
}

function inProcess(fs: RootFs, service: NodeModel['service']): Pick<NodeModel, 'inProcessKubelet'> {
  const found = findInProcessKubelet(fs, service);
  return found ? { inProcessKubelet: found } : {};
}

function collectCredentialFacts(
  fs: RootFs,
  configPath: string,
  binDir: string,
  record: (path: string, fact: PathFact) => void,
  mounts: readonly MountFacts[] | undefined,
): void {
  if (binDir !== '') record(binDir, pathFact(fs, binDir));
  if (configPath === '') return;

  const names = new Set<string>();
  const configFact = pathFact(fs, configPath, { content: true, entries: true });
  record(configPath, configFact);
  const contents: { path: string; fact: PathFact; data: Buffer }[] = [];
  if (configFact.exists && configFact.content?.ok) contents.push({ path: configPath, fact: configFact, data: configFact.content.data });
  if (configFact.exists && configFact.entries && !('error' in configFact.entries)) {
    for (const entry of configFact.entries.slice(0, MAX_PROVIDER_ENTRIES + 1)) {
      const file = goJoin(configPath, entry.name);
      const fact = pathFact(fs, file, { content: true });
      record(file, fact);
      if (fact.exists && fact.content?.ok) contents.push({ path: file, fact, data: fact.content.data });
    }
  }
  // Bounded work (test/hostile/budget.test.ts): past MAX_PROVIDER_ENTRIES, the file counts as too large to evaluate.
  let entries = 0;
  for (const { path, fact, data } of contents) {
    const listed = providerEntriesIn(data);
    entries += listed.entries;
    if (entries > MAX_PROVIDER_ENTRIES) {
      record(path, { ...fact, content: { ok: false, code: 'EFBIG' } } as PathFact);
      break;
    }
    for (const name of listed.names) names.add(name);
  }

  // Plugins that are shell scripts all name /bin/sh: each interpreter is read once in this check
  // (through this one RootFs), and recorded after each plugin as before.
  const interpreterFact = oncePerInput((interpreter) => pathFact(fs, interpreter));
  for (const name of names) {
    const binary = goJoin(binDir, name);
    const fact = pathFact(fs, binary, { executable: true, mounts });
    record(binary, fact);
    const interpreter = fact.exists ? (fact.elf?.interpreter ?? fact.shebang) : undefined;
    if (interpreter) record(interpreter, interpreterFact(interpreter));
  }
}

/** The --config file and the --config-dir drop-ins, as bytes: what they mean depends on the kubelet minor. */
export function readKubeletConfig(fs: RootFs, configFile: string | undefined, configDir: string | undefined): KubeletConfigFacts {
  const facts: { -readonly [K in keyof KubeletConfigFacts]: KubeletConfigFacts[K] } = {};
  if (configFile) facts.configFile = { path: configFile, content: readContent(fs, configFile) };
  if (configDir) {
    const dropIns: { path: string; content: FileContent }[] = [];
    const walked = walkConfFiles(fs, configDir, (path) => dropIns.push({ path, content: readContent(fs, path) }));
    facts.configDir = { path: configDir, dropIns, ...(walked.problem ? { problem: walked.problem } : {}), ...(walked.missing ? { missing: true } : {}) };
  }
  return facts;
}

/**
 * Every path kubelet may load as its client CA bundle (BuildAuth, after the config is merged):
 * --client-ca-file and authentication.x509.clientCAFile of the config file and each drop-in,
 * a relative one resolved against its file's directory as kubelet's config loader does. Which one
 * wins is decided per minor by the start checks; files outside this list count as not read.
 */
function clientCaCandidates(facts: KubeletConfigFacts, flag: string | undefined): string[] {
  const paths = new Set<string>();
  if (flag) paths.add(flag);
  const files = [...(facts.configFile ? [facts.configFile] : []), ...(facts.configDir?.dropIns ?? [])];
  for (const { path, content } of files) {
    if (!Buffer.isBuffer(content)) continue;
    // The config step's own decoder (kept per buffer, so that step reuses this parse); duplicate
    // keys, as MCO's 4.13 kubelet.conf has in featureGates, are no error to go-yaml v2.
    const decoded = parseConfigData(NEWEST_MODELLED_MINOR, content);
    if (!decoded.ok) continue; // the config step reports it
    const parsed = toPlain(decoded.json);
    const x509 = (parsed as { authentication?: { x509?: { clientCAFile?: unknown } } } | null)?.authentication?.x509;
    const file = x509 && typeof x509 === 'object' ? x509.clientCAFile : undefined;
    if (typeof file === 'string' && file !== '') paths.add(file.startsWith('/') ? file : goJoin(path.slice(0, path.lastIndexOf('/')) || '/', file));
  }
  return [...paths].slice(0, 8);
}

/**
 * The files buildKubeletClientConfig may read (src/kubelet/node-setup/kubeconfig.ts): --kubeconfig,
 * --bootstrap-kubeconfig, the CA and client certificate files each names, and the client
 * certificate store in --cert-dir. Nothing in standalone mode (no --kubeconfig).
 */
function clientConfigFiles(fs: RootFs, flags: KubeletFlags): string[] {
  const kubeconfig = lastValue(flags, 'kubeconfig') ?? '';
  if (kubeconfig === '') return [];
  const paths = new Set<string>();
  for (const path of [kubeconfig, lastValue(flags, 'bootstrap-kubeconfig') ?? '']) {
    if (path === '') continue;
    paths.add(path);
    const read = fs.readFile(path, KUBELET_CONFIG_MAX_BYTES);
    if (read.ok) for (const file of kubeconfigReferences(path, read.data)) paths.add(file);
  }
  for (const file of Object.values(certStoreFiles(lastValue(flags, 'cert-dir') || DEFAULT_CERT_DIR))) paths.add(file);
  return [...paths];
}

/**
 * The files kubelet's serving certificate may come from (src/kubelet/node-setup/serving-cert.ts):
 * --tls-cert-file / --tls-private-key-file and the tlsCertFile / tlsPrivateKeyFile the config
 * files write, the generated pair and the server certificate store in --cert-dir.
 */
function servingCertCandidates(flags: KubeletFlags, config: KubeletConfigFacts): string[] {
  const certDir = lastValue(flags, 'cert-dir') || DEFAULT_CERT_DIR;
  const paths = new Set<string>([...servingCertFiles(certDir), ...Object.values(certStoreFiles(certDir, 'kubelet-server'))]);
  for (const flag of ['tls-cert-file', 'tls-private-key-file']) {
    const value = lastValue(flags, flag);
    if (value) paths.add(value);
  }
  const texts = [config.configFile?.content, ...(config.configDir?.dropIns ?? []).map((d) => d.content)].flatMap((c) => (Buffer.isBuffer(c) ? [c.toString('utf8')] : []));
  for (const text of texts) for (const match of text.matchAll(/"?tls(?:CertFile|PrivateKeyFile)"?\s*:\s*["']?([^"'\s,}]+)/g)) if (match[1]!.startsWith('/')) paths.add(match[1]!);
  return [...paths].slice(0, 16);
}

/** Kubelet reads config files whole; past the bound node-check answers "cannot tell" (EFBIG). */
const KUBELET_CONFIG_MAX_BYTES = 4 * 1024 * 1024;

function readContent(fs: RootFs, path: string): FileContent {
  const read = fs.readFile(path, KUBELET_CONFIG_MAX_BYTES);
  return read.ok ? read.data : { errno: read.code };
}

/** kubelet's --config-dir walk: filepath.WalkDir (lexical, recursive), files ending in ".conf". */
function walkConfFiles(fs: RootFs, dir: string, visit: (path: string) => void, depth = 0): { problem?: string; missing?: boolean } {
  const listed = fs.readdir(dir);
  if (!listed.ok) {
    if (depth > 0) return {};
    return { problem: `cannot read ${dir}: ${goErrnoText(listed.code)}`, ...(listed.code === 'ENOENT' ? { missing: true } : {}) };
  }
  for (const entry of [...listed.entries].sort((a, b) => Buffer.compare(Buffer.from(a.name), Buffer.from(b.name)))) {
    const path = goJoin(dir, entry.name);
    if (entry.isDirectory) {
      if (depth < 16) walkConfFiles(fs, path, visit, depth + 1);
    } else if (entry.name.endsWith('.conf')) {
      visit(path);
    }
  }
  return {};
}

/**
 * Host facts, only for the live root (discoverHostFacts reads nothing for another root). The CRI
 * socket is looked up for every endpoint kubelet may end up with: the flag's, and any
 * containerRuntimeEndpoint written in the config file or its drop-ins (the minor decides which wins).
 */
function readHostFacts(fs: RootFs, flagEndpoint: string | undefined, flagCgroupRoot: string | undefined, config: KubeletConfigFacts, io?: HostIo): Model['host'] {
  const host = io ? { root: '/', io } : { root: fs.root };
  const texts = [config.configFile?.content, ...(config.configDir?.dropIns ?? []).map((d) => d.content)].flatMap((c) => (Buffer.isBuffer(c) ? [c.toString('utf8')] : []));
  const endpoints = new Set<string>(flagEndpoint ? [flagEndpoint] : []);
  for (const text of texts) for (const match of text.matchAll(/"?containerRuntimeEndpoint"?\s*:\s*["']?([^"'\s,}]+)/g)) endpoints.add(match[1]!);
  const cgroupRoots = new Set<string>(flagCgroupRoot ? [flagCgroupRoot] : []);
  for (const text of texts) for (const match of text.matchAll(/"?cgroupRoot"?\s*:\s*["']?([^"'\s,}]+)/g)) cgroupRoots.add(match[1]!);
  for (const root of cgroupRoots) if (root === '' || root === '/') cgroupRoots.delete(root);
  const first = discoverHostFacts({ ...host, ...(endpoints.size > 0 ? { containerRuntimeEndpoint: [...endpoints][0]! } : {}), ...(cgroupRoots.size > 0 ? { cgroupRoots: [...cgroupRoots].slice(0, 8) } : {}) });
  const criSockets: Record<string, NonNullable<typeof first.facts.criSocket>> = {};
  for (const endpoint of endpoints) {
    const fact = endpoint === [...endpoints][0] ? first.facts.criSocket : discoverHostFacts({ ...host, containerRuntimeEndpoint: endpoint }).facts.criSocket;
    if (fact) criSockets[endpoint] = fact;
  }
  const { criSocket: _ignored, ...facts } = first.facts;
  return { facts, criSockets, notChecked: first.notChecked };
}

function machineOfFile(fs: RootFs, nodePath: string): string | undefined {
  const head = fs.readHead(nodePath, EXECUTABLE_HEAD_BYTES);
  return head.ok ? parseElf(head.data)?.machine : undefined;
}

function readMounts(fs: RootFs): MountFacts[] | undefined {
  const read = fs.readFile('/proc/self/mountinfo', 4 * 1024 * 1024);
  return read.ok ? parseMountinfo(read.data.toString('utf8')) : undefined;
}

function readOsRelease(fs: RootFs): Record<string, string> {
  for (const path of ['/etc/os-release', '/usr/lib/os-release']) {
    const read = fs.readFile(path, 64 * 1024);
    if (read.ok) return parseEnvFile(read.data.toString('utf8'), path).variables;
  }
  return {};
}
