/**
 * A pure re-enactment of kubelet's RegisterCredentialProviderPlugins for one kubelet version
 * (kubernetes/kubernetes pkg/credentialprovider/plugin/plugin.go and config.go at v1.24.17-v1.37.2).
 * Steps run in kubelet's order and the first failure ends registration, exactly as it ends
 * kubelet: the caller (kuberuntime_manager.go) logs "Failed to register CRI auth plugins" and
 * calls os.Exit(1) — or klog.Fatalf exits 255 for a name registered twice (<=1.32).
 */
import { posix } from 'node:path';
import type { FileTable, PathFact } from '../model/node.js';
import type { KubeletTraits } from '../kubelet/version.js';
import { goErrnoText, type ErrnoCode } from '../host/root-fs.js';
import { goJoin, goQuote, isCleanRootedPath } from '../go/index.js';
import { decodeCredentialProviderConfig } from './decode.js';
import { formatValidationErrors, validateCredentialProviderConfig, validationTextIsExact } from './validate.js';
import type { CredentialProvider, CredentialProviderConfig } from './types.js';
import type { FindingId } from '../catalog/findings.js';

export interface RegistrationInput {
  /** --image-credential-provider-config as given ("" when only the bin dir is set). */
  readonly configPath: string;
  /** --image-credential-provider-bin-dir as given ("" when only the config is set). */
  readonly binDir: string;
  readonly files: FileTable;
  readonly traits: KubeletTraits;
  readonly tokenGateEnabled: boolean;
  /**
   * Feature gates as kubelet sees them (defaults, --config, --config-dir, --feature-gates);
   * undefined = the gate's default. Only KubeletCredentialProviders is asked, for 1.24-1.25.
   */
  readonly gateEnabled?: (gate: string) => boolean | undefined;
}

/** The feature gate that had to be on for kubelet 1.24-1.25 to look at the credential flags. */
export const CREDENTIAL_PROVIDERS_GATE = 'KubeletCredentialProviders';

/** What kubelet 1.24-1.25 logs (klog.InfoS) when the flags are set but KubeletCredentialProviders is off. */
export const FLAGS_IGNORED_MESSAGE =
  'Flags --image-credential-provider-config or --image-credential-provider-bin-dir were set but the feature gate was disabled, these flags will be ignored';

/** Why registration failed: the finding id and the exact text kubelet logs as err="…". */
export interface RegistrationFailure {
  readonly findingId: FindingId;
  readonly kubeletError: string;
  /** Kubelet's exit status: 1, or 255 for klog.Fatalf. */
  readonly exitStatus: 1 | 255;
  readonly path?: string;
  readonly provider?: string;
  /** For decoding and validation failures: the detail without kubelet's wrapping. */
  readonly detail?: string;
  /**
   * The verdict is certain but kubeletError is node-check's best rendering of kubelet's text
   * (Go map order, libyaml wording, a scheme line not pinned for this minor).
   */
  readonly inexact?: boolean;
}

export interface PluginCheck {
  readonly provider: string;
  /** The path kubelet looks up, cleaned as filepath.Join does. */
  readonly binary: string;
  /** null = kubelet's check passes; otherwise why it fails. */
  readonly failure: RegistrationFailure | null;
}

export interface RegistrationResult {
  /** undefined = registration succeeds and kubelet starts. */
  readonly failure?: RegistrationFailure;
  /** Set when node-check cannot reproduce kubelet here (an input too large to read, say). */
  readonly undecidable?: { readonly reason: string; readonly path?: string };
  /** The decoded (and for 1.34+ merged) config, when decoding got that far. */
  readonly config?: CredentialProviderConfig;
  /** Per config file: fields this (non-strict) kubelet silently dropped. */
  readonly droppedFields: readonly { readonly path: string; readonly fields: readonly string[] }[];
  /** Kubelet's binary check for every provider in the decoded config, whether or not it was reached. */
  readonly plugins: readonly PluginCheck[];
  /** Set when kubelet ignores both flags (1.24-1.25 with KubeletCredentialProviders off): its log line. */
  readonly flagsIgnored?: string;
}

export function simulateRegistration(input: RegistrationInput): RegistrationResult {
  const { traits } = input;
  const droppedFields: { path: string; fields: string[] }[] = [];

  // 1.24-1.25 kuberuntime_manager.go: registration runs only with KubeletCredentialProviders on
  // (beta, default on); off, kubelet logs FLAGS_IGNORED_MESSAGE and starts without providers.
  if (traits.credentialProvidersGate === 'beta' && input.gateEnabled?.(CREDENTIAL_PROVIDERS_GATE) === false) {
    return { droppedFields, plugins: [], flagsIgnored: FLAGS_IGNORED_MESSAGE };
  }

  // Kubelet reads the config only after the bin dir check passed; it is read here first so that
  // every report (and metric) can name the providers even when an earlier step fails.
  const read = readConfig(input, droppedFields);
  const config = 'config' in read ? read.config : undefined;
  const plugins = config ? config.providers.map((provider) => checkPluginBinary(input, provider)) : [];
  const result = (rest: Pick<RegistrationResult, 'failure' | 'undecidable'>): RegistrationResult =>
    ({ ...rest, ...(config ? { config } : {}), droppedFields, plugins });

  // Step 1: os.Stat(pluginBinDir).
  const binDirFact = factFor(input.files, input.binDir);
  if (!binDirFact.exists && binDirFact.code === 'EACCES') return result({ undecidable: notRoot(input.binDir) });
  if (!binDirFact.exists) {
    if (binDirFact.code === 'ENOENT') return result({ failure: { findingId: 'bin-dir-missing', kubeletError: `plugin binary directory ${input.binDir} did not exist`, exitStatus: 1, path: input.binDir } });
    return result({
      failure: {
        findingId: 'bin-dir-uninspectable',
        kubeletError: `error inspecting binary directory ${input.binDir}: stat ${input.binDir}: ${goErrnoText(binDirFact.code)}`,
        exitStatus: 1,
        path: input.binDir,
      },
    });
  }

  // Step 2: read and decode the config (a file; from 1.34 a file or a directory).
  if ('failure' in read) return result({ failure: read.failure });
  if ('undecidable' in read) return result({ undecidable: read.undecidable });

  // Step 3: validation.
  const errors = validateCredentialProviderConfig(read.config, traits, input.tokenGateEnabled);
  if (errors.length > 0) {
    const onlyDuplicates = errors.every((e) => e.type === 'Duplicate' && e.field === 'providers.name');
    const message = formatValidationErrors(errors, traits);
    return result({
      failure: {
        findingId: onlyDuplicates ? 'config-duplicate-provider' : 'config-invalid',
        kubeletError: message,
        exitStatus: 1,
        path: input.configPath,
        detail: message.replace(/^failed to validate credential provider config: /, ''),
        ...(validationTextIsExact(errors, traits) ? {} : { inexact: true }),
      },
    });
  }

  // Steps 4-6: per provider in order: binary lookup, then registration in the global registry
  // (<=1.32), which already holds the in-tree providers' names (traits.inTreeProviderNames).
  const registered = new Set(traits.duplicateProviderNames === 'fatal-at-registration' ? traits.inTreeProviderNames : []);
  for (const [index, provider] of read.config.providers.entries()) {
    const check = plugins[index]!;
    const fact = factFor(input.files, check.binary);
    if (!fact.exists && fact.code === 'EACCES') return result({ undecidable: notRoot(check.binary) });
    if (check.failure) return result({ failure: check.failure });
    if (registered.has(provider.name)) {
      return result({
        failure: {
          findingId: 'plugin-registered-twice',
          kubeletError: `Credential provider ${goQuote(provider.name)} was registered twice`,
          exitStatus: 255,
          provider: provider.name,
          path: input.configPath,
        },
      });
    }
    registered.add(provider.name);
  }
  return result({});
}

type ReadOutcome =
  | { readonly config: CredentialProviderConfig }
  | { readonly failure: RegistrationFailure }
  | { readonly undecidable: { readonly reason: string; readonly path?: string } };

function readConfig(input: RegistrationInput, droppedFields: { path: string; fields: string[] }[]): ReadOutcome {
  const { configPath, traits } = input;
  const failure = (findingId: FindingId, kubeletError: string, path = configPath, detail?: string, inexact = false): ReadOutcome =>
    ({ failure: { findingId, kubeletError, exitStatus: 1, path, detail, ...(inexact ? { inexact: true } : {}) } });
  if (configPath === '') return failure('config-path-empty', 'credential provider config path is empty');

  const fact = factFor(input.files, configPath);
  const files: string[] = [];
  if (!traits.configMayBeDirectory) {
    // <=1.33 readCredentialProviderConfigFile: os.ReadFile(configPath); a directory opens but
    // reading it fails. Other read errors are reported by the loop below.
    if (fact.exists && fact.type === 'directory') {
      return failure('config-is-directory', `unable to read external registry credential provider configuration from ${goQuote(configPath)}: read ${configPath}: is a directory`);
    }
    files.push(configPath);
  } else {
    // 1.34+ readCredentialProviderConfig: os.Stat, then a directory listing or the file.
    if (!fact.exists && fact.code === 'EACCES') return { undecidable: notRoot(configPath) };
    if (!fact.exists) return failure('config-unreadable', `unable to access path ${goQuote(configPath)}: stat ${configPath}: ${goErrnoText(fact.code)}`);
    if (fact.type === 'directory') {
      const entries = fact.entries;
      if (!entries || 'error' in entries) {
        const code = entries && 'error' in entries ? entries.error : 'EIO';
        if (code === 'EACCES') return { undecidable: notRoot(configPath) };
        return failure('config-unreadable', `unable to read directory ${goQuote(configPath)}: open ${configPath}: ${goErrnoText(code)}`);
      }
      const names = entries
        .filter((e) => !e.isDirectory && ['.json', '.yaml', '.yml'].includes(goExt(e.name)))
        .map((e) => goJoin(configPath, e.name))
        .sort(byteOrder);
      if (names.length === 0) return failure('config-dir-empty', `no configuration files found in directory ${goQuote(configPath)}`);
      files.push(...names);
    } else {
      files.push(configPath);
    }
  }

  const providers: CredentialProvider[] = [];
  const seen = new Set<string>();
  for (const file of files) {
    const fileFact = factFor(input.files, file);
    const content = fileFact.exists ? fileFact.content : undefined;
    if (!fileFact.exists || fileFact.type === 'directory' || !content || !content.ok) {
      const code: ErrnoCode = !fileFact.exists ? fileFact.code : fileFact.type === 'directory' ? 'EISDIR' : content && !content.ok ? content.code : 'EIO';
      if (code === 'EFBIG') return { undecidable: { reason: `${file} is too large to evaluate`, path: file } };
      if (code === 'EACCES') return { undecidable: notRoot(file) };
      const op = code === 'EISDIR' ? `read ${file}` : `open ${file}`;
      if (!traits.configMayBeDirectory) {
        return failure('config-unreadable', `unable to read external registry credential provider configuration from ${goQuote(file)}: ${op}: ${goErrnoText(code)}`);
      }
      return failure('config-unreadable', `unable to read file ${goQuote(file)}: ${op}: ${goErrnoText(code)}`, file);
    }
    const decoded = decodeCredentialProviderConfig(content.data, traits);
    if (!decoded.ok) {
      // node-check's own sentence never stands in for kubelet's text: it cannot tell.
      if (decoded.reason === 'unevaluable') return { undecidable: { reason: `${decoded.error} (${file})`, path: file } };
      const where = traits.configMayBeDirectory ? goQuote(file) : file;
      return failure(decoded.reason === 'strict' ? 'config-unknown-field' : 'config-decode-failed', `error decoding config ${where}: ${decoded.error}`, file, decoded.error, decoded.inexact === true);
    }
    if (decoded.droppedFields.length > 0) droppedFields.push({ path: file, fields: decoded.droppedFields });
    for (const provider of decoded.config.providers) {
      // 1.34+ merges files and rejects a repeated name here, before validation (also within one file).
      if (traits.duplicateProviderNames === 'merge' && seen.has(provider.name)) {
        return failure('config-duplicate-provider', `duplicate provider name ${goQuote(provider.name)} found in configuration file(s)`, file);
      }
      seen.add(provider.name);
      providers.push(provider);
    }
  }
  return { config: { providers } };
}

/** Kubelet's per-provider binary check: os.Stat up to 1.29, exec.LookPath from 1.30. */
export function checkPluginBinary(input: Pick<RegistrationInput, 'binDir' | 'files' | 'traits'>, provider: Pick<CredentialProvider, 'name'>): PluginCheck {
  const binary = goJoin(input.binDir, provider.name);
  const fact = factFor(input.files, binary);
  const base = { provider: provider.name, binary };
  const failure = (findingId: FindingId, kubeletError: string): PluginCheck => ({
    ...base,
    failure: { findingId, kubeletError, exitStatus: 1, path: binary, provider: provider.name },
  });

  if (input.traits.pluginBinaryCheck === 'stat') {
    if (fact.exists) return { ...base, failure: null };
    if (fact.code === 'ENOENT') return failure('plugin-binary-missing', `plugin binary executable ${binary} did not exist`);
    return failure('plugin-binary-uninspectable', `error inspecting binary executable ${binary}: stat ${binary}: ${goErrnoText(fact.code)}`);
  }

  // exec.LookPath(path containing "/"): findExecutable = stat, reject directories, then
  // unix.Eaccess(X_OK) — for root that is "any execute bit" — falling back to the mode bits.
  // On error LookPath returns "", and kubelet prints that: hence the empty path
  // (plugin.go at v1.30.14: `pluginBin, err := exec.LookPath(...)`, then `%s` of pluginBin).
  const lookPathError = (reason: string) => `error inspecting binary executable : exec: ${goQuote(binary)}: ${reason}`;
  if (!fact.exists) {
    if (fact.code === 'ENOENT') return failure('plugin-binary-missing', 'plugin binary executable  did not exist');
    return failure('plugin-binary-uninspectable', lookPathError(`stat ${binary}: ${goErrnoText(fact.code)}`));
  }
  if (fact.type === 'directory') return failure('plugin-binary-not-executable', lookPathError('is a directory'));
  if ((fact.mode & 0o111) === 0 || fact.noexecMount) return failure('plugin-binary-not-executable', lookPathError('permission denied'));
  return { ...base, failure: null };
}

/**
 * Kubelet runs as root and never sees EACCES reading its files; node-check run by another user
 * can. That says nothing about kubelet, so the answer is "cannot tell", not a failure.
 */
function notRoot(path: string): { reason: string; path: string } {
  return { reason: `permission denied reading ${path}, which kubelet (as root) can read; run node-check as root`, path };
}

/** The fact for a path as kubelet (cwd "/") would resolve it. "" is ENOENT, as os.Stat("") is. */
export function factFor(files: FileTable, path: string): PathFact {
  if (path === '') return { exists: false, code: 'ENOENT' };
  return files[nodePathKey(path)] ?? { exists: false, code: 'ENOENT' };
}

/** The FileTable key for a path kubelet uses: absolute (relative to "/"), cleaned. */
export function nodePathKey(path: string): string {
  return isCleanRootedPath(path) ? path : posix.resolve('/', path);
}

/** Go's filepath.Ext: the suffix from the last "." of the final element. */
function goExt(name: string): string {
  const dot = name.lastIndexOf('.');
  return dot === -1 ? '' : name.slice(dot);
}

/** Go's sort.Strings: byte order of the UTF-8 encoding, not UTF-16 code units. */
function byteOrder(a: string, b: string): number {
  return Buffer.compare(Buffer.from(a), Buffer.from(b));
}
