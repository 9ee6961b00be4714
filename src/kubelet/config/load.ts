/**
 * Loading the --config file as kubelet does (1.24-1.37):
 *
 * cmd/kubelet/app/server.go loadConfigFile():
 *   errFmt = "failed to load Kubelet config file %s, error %v"   (name as given on the command line)
 * pkg/kubelet/kubeletconfig/configfiles/configfiles.go fsLoader.Load():
 *   read error -> `failed to read kubelet config file %q, error: %v`
 *   len(data) == 0 -> `kubelet config file %q was empty`
 *   DecodeKubeletConfiguration (see decode.ts)
 *   resolveRelativePaths(KubeletConfigurationPathRefs(kc), filepath.Dir(file))
 * and the caller wraps the result (kubeletConfigFileError below).
 *
 * Evidence: pkg/kubelet/kubeletconfig/configfiles/configfiles.go and cmd/kubelet/app/server.go at
 * v1.24.17-v1.37.2 (the texts above in every tag); the whole chain verbatim in a 2019 log:
 * `failed to load Kubelet config file /var/lib/kubelet/config.yaml, error failed to read kubelet
 * config file "/var/lib/kubelet/config.yaml", error: open /var/lib/kubelet/config.yaml: no such
 * file or directory`. The outer wrapper changed in 1.28: `failed to load kubelet config file, error:
 * %w, path: %s` at v1.27.16, `failed to load kubelet config file, path: %s, error: %w` at v1.28.15.
 */
import { goClean, goJoin } from '../../go/filepath.js';
import { isModelledMinor, MODELLED_RANGE } from '../data/minors.js';
import { decodeKubeletConfig, type KubeletConfigDecodeResult, type KubeletConfigObject } from './decode.js';

export type LoadResult =
  | Extract<KubeletConfigDecodeResult, { ok: true }>
  | {
      readonly ok: false;
      /** What kubelet wraps as `failed to load kubelet config file, path: P, error: <this>`. */
      readonly error: string;
      readonly reason: 'unreadable' | 'empty' | 'invalid' | 'wrong-kind';
      readonly inexact?: true;
    }
  | { readonly undecidable: string };

/** Go's syscall error strings for the errno values a read can fail with. */
const ERRNO_TEXT: Readonly<Record<string, string>> = {
  ENOENT: 'no such file or directory',
  EACCES: 'permission denied',
  EPERM: 'operation not permitted',
  ENOTDIR: 'not a directory',
  ELOOP: 'too many levels of symbolic links',
  ENAMETOOLONG: 'file name too long',
  EIO: 'input/output error',
  EISDIR: 'is a directory',
};

/** os.ReadFile's *PathError text: open fails with "open P: …"; a directory opens, then read fails. */
function readErrorText(path: string, errno: string): string | undefined {
  const text = ERRNO_TEXT[errno];
  if (text === undefined) return undefined;
  return errno === 'EISDIR' ? `read ${path}: ${text}` : `open ${path}: ${text}`;
}

/**
 * fsLoader.Load through loadConfigFile for the --config file at `path` (as given on kubelet's
 * command line; must be absolute, since kubelet resolves a relative one against its working
 * directory). `content` is the file's bytes or the errno reading it failed with.
 */
export function loadKubeletConfigFile(minor: number, path: string, content: Buffer | { errno: string }): LoadResult {
  if (!isModelledMinor(minor)) return { undecidable: `kubelet 1.${minor} is outside the modelled minors ${MODELLED_RANGE}` };
  if (!path.startsWith('/')) return { undecidable: `the config path ${path} is relative; kubelet resolves it against its working directory` };
  const abs = goClean(path); // filepath.Abs cleans the path
  const wrap = (inner: string) => `failed to load Kubelet config file ${path}, error ${inner}`;
  if (!Buffer.isBuffer(content)) {
    const text = readErrorText(abs, content.errno);
    if (text === undefined) return { undecidable: `reading ${path} failed with ${content.errno}, whose Go error text node-check does not know` };
    return { ok: false, reason: 'unreadable', error: wrap(`failed to read kubelet config file "${abs}", error: ${text}`) };
  }
  if (content.length === 0) return { ok: false, reason: 'empty', error: wrap(`kubelet config file "${abs}" was empty`) };
  const decoded = decodeKubeletConfig(minor, content)!;
  if (!decoded.ok) {
    const wrongKind = decoded.error.includes('is registered for version') || decoded.error.startsWith('failed to cast');
    return { ok: false, reason: wrongKind ? 'wrong-kind' : 'invalid', error: wrap(decoded.error), ...(decoded.inexact ? { inexact: true as const } : {}) };
  }
  const config = resolveRelativePaths(minor, decoded.config, dirOf(abs));
  return {
    ok: true,
    config,
    droppedFields: decoded.droppedFields,
    duplicateFields: decoded.duplicateFields,
    ...(decoded.lenientWarning !== undefined ? { lenientWarning: decoded.lenientWarning } : {}),
  };
}

/**
 * The text kubelet prints for a failed load (cmd/kubelet/app/server.go):
 * <=1.27 `failed to load kubelet config file, error: <err>, path: P`;
 * 1.28+ `failed to load kubelet config file, path: P, error: <err>` (PR #119390).
 */
export function kubeletConfigFileError(minor: number, path: string, error: string): string {
  return minor >= 28 ? `failed to load kubelet config file, path: ${path}, error: ${error}` : `failed to load kubelet config file, error: ${error}, path: ${path}`;
}

function dirOf(path: string): string {
  const i = path.lastIndexOf('/');
  return i <= 0 ? '/' : path.slice(0, i);
}

/**
 * KubeletConfigurationPathRefs (pkg/kubelet/apis/config/helpers.go at v1.24.17-v1.37.2): staticPodPath, authentication.x509.clientCAFile,
 * tlsCertFile, tlsPrivateKeyFile, resolvConf, then volumePluginDir, then podLogsDir (a field from
 * 1.30). Relative non-empty paths are joined onto the config file's directory (filepath.Join).
 * volumePluginDir is in the list at every tag from v1.24.17, podLogsDir from v1.30.14.
 */
export function resolveRelativePaths(minor: number, config: KubeletConfigObject, root: string): KubeletConfigObject {
  const out: KubeletConfigObject = { ...config };
  const fix = (v: unknown) => (typeof v === 'string' && v !== '' && !v.startsWith('/') ? goJoin(root, v) : v);
  for (const key of ['staticPodPath', 'tlsCertFile', 'tlsPrivateKeyFile', 'resolvConf', 'volumePluginDir', ...(minor >= 30 ? ['podLogsDir'] : [])]) {
    if (key in out) out[key] = fix(out[key]);
  }
  const auth = out.authentication;
  if (isObject(auth) && isObject(auth.x509) && 'clientCAFile' in auth.x509) {
    out.authentication = { ...auth, x509: { ...auth.x509, clientCAFile: fix(auth.x509.clientCAFile) } };
  }
  return out;
}

function isObject(v: unknown): v is Record<string, unknown> {
  return typeof v === 'object' && v !== null && !Array.isArray(v);
}
