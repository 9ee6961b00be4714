// Kubelet's source at a release tag, for the generators: k8s.io/kubernetes@v1.N.P and its staging
// modules (k8s.io/<name>@v0.N.P) from the Go module cache, at the versions pinned in
// scripts/generate/kubernetes-source.lock.json (the newest patch of each minor, with go.sum hashes).
// The source itself is never committed; the lock is the provenance of every generated table.
//
//   node scripts/generate/kubernetes-source.mjs --lock [--minor 1.N]   pin (again) the newest patch
//   node scripts/generate/kubernetes-source.mjs --dir 1.N [module]     print the source directory
//
// Generators import kubernetesDir(minor) / stagingDir(minor, name). A version that cannot be
// downloaded, or whose hash differs from the lock, stops the generator with a message; nothing is
// written then.
import { execFileSync } from 'node:child_process';
import { readFileSync, writeFileSync, renameSync } from 'node:fs';
import { fileURLToPath } from 'node:url';

export const LOCK_PATH = fileURLToPath(new URL('./kubernetes-source.lock.json', import.meta.url));

/** The staging modules the generators read (each served as k8s.io/<name>@v0.N.P). */
export const STAGING_MODULES = [
  'apimachinery',
  'apiserver',
  'apiextensions-apiserver',
  'client-go',
  'cloud-provider',
  'component-base',
  'component-helpers',
  'controller-manager',
  'cri-api',
  'kubelet',
];

export class SourceError extends Error {}

function goModDownload(path, version) {
  let out;
  try {
    out = execFileSync('go', ['mod', 'download', '-json', `${path}@${version}`], {
      encoding: 'utf8',
      stdio: ['ignore', 'pipe', 'pipe'],
      env: { ...process.env, GOFLAGS: '-mod=mod' },
    });
  } catch (error) {
    const text = String(error.stdout ?? '') || String(error.stderr ?? '') || String(error.message);
    let reason = text.trim();
    try {
      reason = JSON.parse(text).Error ?? reason;
    } catch {}
    if (error.code === 'ENOENT') reason = 'the go command is not installed';
    throw new SourceError(`cannot download ${path}@${version}: ${reason}`);
  }
  const info = JSON.parse(out);
  if (info.Error) throw new SourceError(`cannot download ${path}@${version}: ${info.Error}`);
  return { dir: info.Dir, sum: info.Sum, goModSum: info.GoModSum };
}

function versionExists(path, version) {
  try {
    execFileSync('go', ['list', '-m', '-json', `${path}@${version}`], { stdio: 'ignore', env: { ...process.env, GOFLAGS: '-mod=mod' } });
    return true;
  } catch {
    return false;
  }
}

/** The newest v1.N.P the proxy serves. Its version list is incomplete and some patches in between
 * are missing, so every patch up to MAX_PATCH is asked for. */
const MAX_PATCH = 30;
export function newestPatch(minor) {
  let newest;
  for (let patch = 0; patch <= MAX_PATCH; patch++) if (versionExists('k8s.io/kubernetes', `v1.${minor}.${patch}`)) newest = patch;
  return newest;
}

export function readLock() {
  try {
    return JSON.parse(readFileSync(LOCK_PATH, 'utf8'));
  } catch (error) {
    if (error.code === 'ENOENT') return { minors: {} };
    throw new SourceError(`${LOCK_PATH}: ${error.message}`);
  }
}

/** The minors the lock pins, oldest first: the generators read each of them. */
export function lockedMinors() {
  return Object.keys(readLock().minors)
    .map((m) => Number(m.slice(2)))
    .sort((a, b) => a - b);
}

function lockedMinor(minor) {
  const entry = readLock().minors[`1.${minor}`];
  if (!entry) throw new SourceError(`kubelet 1.${minor} is not in ${LOCK_PATH}: run node scripts/generate/kubernetes-source.mjs --lock --minor 1.${minor}`);
  return entry;
}

function verified(path, pinned) {
  const got = goModDownload(path, pinned.version);
  if (got.sum !== pinned.sum) throw new SourceError(`${path}@${pinned.version}: go.sum hash ${got.sum} differs from the lock's ${pinned.sum}`);
  return got.dir;
}

/** The source tree of k8s.io/kubernetes at the locked patch of 1.<minor>. */
export function kubernetesDir(minor) {
  return verified('k8s.io/kubernetes', lockedMinor(minor).kubernetes);
}

/** The source tree of the staging module k8s.io/<name> at the locked v0.<minor>.P. */
export function stagingDir(minor, name) {
  const pinned = lockedMinor(minor).staging[name];
  if (!pinned) throw new SourceError(`k8s.io/${name} is not locked for 1.${minor}: add it to STAGING_MODULES in scripts/generate/kubernetes-source.mjs and run --lock`);
  if (pinned.unavailable) throw new SourceError(`k8s.io/${name}@${pinned.version} was not available when locked: ${pinned.unavailable}`);
  return verified(`k8s.io/${name}`, pinned);
}

/**
 * The source tree of a third-party module kubelet links (github.com/google/cadvisor, k8s.io/klog/v2, ...)
 * at the version the locked k8s.io/kubernetes go.mod selects (its replace, else its require), checked
 * against the hash that tag's go.sum records.
 */
export function dependencyDir(minor, path) {
  const root = kubernetesDir(minor);
  const goMod = readFileSync(`${root}/go.mod`, 'utf8');
  const escaped = path.replace(/[.*+?^${}()|[\]\\/]/g, '\\$&');
  const replaced = new RegExp(`^\\s*${escaped} => ${escaped} (v\\S+)`, 'm').exec(goMod);
  const required = new RegExp(`^\\s*(?:require )?${escaped} (v\\S+)`, 'm').exec(goMod);
  const version = (replaced ?? required)?.[1];
  if (!version) throw new SourceError(`${path} is not required by k8s.io/kubernetes@${lockedVersion(minor)}`);
  const sum = new RegExp(`^${escaped} ${version.replace(/[.+]/g, '\\$&')} (h1:\\S+)$`, 'm').exec(readFileSync(`${root}/go.sum`, 'utf8'))?.[1];
  if (!sum) throw new SourceError(`${path}@${version} has no hash in the go.sum of k8s.io/kubernetes@${lockedVersion(minor)}`);
  return verified(path, { version, sum });
}

/** The locked patch version of 1.<minor>, e.g. "v1.29.15". */
export function lockedVersion(minor) {
  return lockedMinor(minor).kubernetes.version;
}

export function lockMinor(minor) {
  const patch = newestPatch(minor);
  if (patch === undefined) throw new SourceError(`no v1.${minor}.P release of k8s.io/kubernetes is served by the module proxy`);
  const version = `v1.${minor}.${patch}`;
  const kubernetes = goModDownload('k8s.io/kubernetes', version);
  const staging = {};
  for (const name of STAGING_MODULES) {
    const stagingVersion = `v0.${minor}.${patch}`;
    // The proxy here does not serve every staging module at every tag: such a module is locked as
    // unavailable, and a generator that needs it stops with that reason.
    try {
      staging[name] = { version: stagingVersion, sum: goModDownload(`k8s.io/${name}`, stagingVersion).sum };
    } catch (error) {
      if (!(error instanceof SourceError)) throw error;
      staging[name] = { version: stagingVersion, unavailable: error.message };
    }
  }
  return { kubernetes: { version, sum: kubernetes.sum }, staging };
}

function main(argv) {
  if (argv[0] === '--lock') {
    const lock = readLock();
    const only = argv[1] === '--minor' ? [Number(/^1\.(\d+)$/.exec(argv[2] ?? '')?.[1])] : Object.keys(lock.minors).map((m) => Number(m.slice(2)));
    if (only.some((m) => !Number.isInteger(m))) throw new SourceError('usage: --lock [--minor 1.N]');
    const minors = { ...lock.minors };
    for (const minor of only) {
      minors[`1.${minor}`] = lockMinor(minor);
      process.stderr.write(`1.${minor}: ${minors[`1.${minor}`].kubernetes.version}\n`);
    }
    const sorted = Object.fromEntries(Object.entries(minors).sort(([a], [b]) => Number(a.slice(2)) - Number(b.slice(2))));
    const text = `${JSON.stringify({ comment: 'k8s.io/kubernetes and staging module versions the generators read (written by scripts/generate/kubernetes-source.mjs --lock)', minors: sorted }, null, 1)}\n`;
    writeFileSync(`${LOCK_PATH}.tmp`, text);
    renameSync(`${LOCK_PATH}.tmp`, LOCK_PATH);
    return;
  }
  if (argv[0] === '--dir') {
    const minor = Number(/^1\.(\d+)$/.exec(argv[1] ?? '')?.[1]);
    if (!Number.isInteger(minor)) throw new SourceError('usage: --dir 1.N [module]');
    process.stdout.write(`${argv[2] ? stagingDir(minor, argv[2]) : kubernetesDir(minor)}\n`);
    return;
  }
  throw new SourceError('usage: kubernetes-source.mjs --lock [--minor 1.N] | --dir 1.N [module]');
}

if (process.argv[1] === fileURLToPath(import.meta.url)) {
  try {
    main(process.argv.slice(2));
  } catch (error) {
    if (!(error instanceof SourceError)) throw error;
    process.stderr.write(`kubernetes-source: ${error.message}\n`);
    process.exit(1);
  }
}
