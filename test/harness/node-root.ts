// A Debian bookworm root with systemd, built once per machine with debootstrap and shared by all
// integration tests (read-only; each booted node writes to its own overlay, see nspawn.ts).
//
// Cache: /var/cache/node-check-test/root-<suite>-<key>, key = hash of everything that shapes the
// root. The build goes to a temp dir renamed into place only when complete, so a killed build
// never leaves a half cache, and runs under an flock so parallel test files build it once.
import { createHash } from 'node:crypto';
import { closeSync, existsSync, openSync, readFileSync } from 'node:fs';
import { chmod, mkdir, mkdtemp, readdir, rename, rm } from 'node:fs/promises';
import { join } from 'node:path';
import { spawn } from 'node:child_process';
import { execa } from 'execa';
import tap from 'tap';
import { dieWithParent, toolPath } from './tools.js';

export const NODE_ROOT_SUITE = 'bookworm';
export const NODE_ROOT_PACKAGES: readonly string[] = ['systemd', 'systemd-sysv', 'dbus', 'util-linux'];
// Bump when the build steps below change in a way the package list does not show.
const RECIPE_VERSION = 1;

export interface NodeRootOptions {
  cacheDir?: string;
  packages?: readonly string[];
  suite?: string;
  /** Defaults to $NODE_CHECK_TEST_MIRROR, else debootstrap's own default (deb.debian.org). */
  mirror?: string;
  /** How long to wait for another process's build of the same root. */
  lockTimeoutSeconds?: number;
  log?: (line: string) => void;
}

export interface NodeRoot {
  dir: string;
  /** True when this call ran debootstrap; false when the cache already had the root. */
  built: boolean;
  /** Milliseconds spent in this call, including waiting for another build. */
  elapsedMs: number;
}

export const DEFAULT_CACHE_DIR = '/var/cache/node-check-test';

export function nodeRootKey(suite: string, packages: readonly string[]): string {
  const recipe = JSON.stringify({ RECIPE_VERSION, suite, variant: 'minbase', arch: process.arch, packages: [...packages].sort() });
  return createHash('sha256').update(recipe).digest('hex').slice(0, 12);
}

// One build per process, however many nodes a test file boots at once.
const inProcess = new Map<string, Promise<NodeRoot>>();

/** Returns the cached root, building it first if absent. Needs root and debootstrap. */
export function ensureNodeRoot(opts: NodeRootOptions = {}): Promise<NodeRoot> {
  const suite = opts.suite ?? NODE_ROOT_SUITE;
  const packages = opts.packages ?? NODE_ROOT_PACKAGES;
  const cacheDir = opts.cacheDir ?? DEFAULT_CACHE_DIR;
  const dir = join(cacheDir, `root-${suite}-${nodeRootKey(suite, packages)}`);
  const started = Date.now();
  const pending = inProcess.get(dir);
  if (pending !== undefined) return pending.then((root) => ({ dir: root.dir, built: false, elapsedMs: Date.now() - started }));
  const building = buildOnce(dir, cacheDir, suite, packages, opts);
  inProcess.set(dir, building);
  // A failed build may be retried by a later call.
  building.catch(() => inProcess.delete(dir));
  return building;
}

// Building (or waiting for another file's build) takes one to two minutes, which should not eat
// the test file's own tap timeout (TAP_TIMEOUT seconds): stretch it meanwhile, then restart it.
const BUILD_BUDGET_MS = 20 * 60 * 1000;
function stretchFileTimeout(extraMs: number): void {
  const fileTimeoutMs = Number(process.env.TAP_TIMEOUT ?? '0') * 1000;
  if (Number.isFinite(fileTimeoutMs) && fileTimeoutMs > 0) tap.setTimeout(fileTimeoutMs + extraMs);
}

async function buildOnce(
  dir: string,
  cacheDir: string,
  suite: string,
  packages: readonly string[],
  opts: NodeRootOptions,
): Promise<NodeRoot> {
  const started = Date.now();
  const log = opts.log ?? ((line: string) => process.stderr.write(`# node-root: ${line}\n`));
  // The rename is the commit point, so an existing directory is a complete root.
  if (existsSync(dir)) return { dir, built: false, elapsedMs: Date.now() - started };

  await mkdir(cacheDir, { recursive: true });
  const lockFd = openSync(`${dir}.lock`, 'a');
  stretchFileTimeout(BUILD_BUDGET_MS);
  try {
    // flock(1) locks the open file description it inherits as fd 3, which this process keeps
    // open: the lock lasts until closeSync below, or until this process dies.
    const waitSeconds = opts.lockTimeoutSeconds ?? 900;
    await lockThroughFd(lockFd, waitSeconds);
    if (existsSync(dir)) {
      log(`${dir} was built by another process meanwhile`);
      return { dir, built: false, elapsedMs: Date.now() - started };
    }
    await removeStaleBuilds(dir);
    const tmp = await mkdtemp(`${dir}.build-`);
    const debootstrap = toolPath('debootstrap') ?? 'debootstrap';
    const mirror = opts.mirror ?? process.env.NODE_CHECK_TEST_MIRROR;
    const argv = ['--variant=minbase', `--include=${packages.join(',')}`, suite, tmp, ...(mirror ? [mirror] : [])];
    log(`debootstrap ${argv.join(' ')} (about a minute, once per machine)`);
    // If this test process dies, debootstrap must not go on writing into a directory the next
    // build will remove.
    const [file, ...args] = dieWithParent([debootstrap, ...argv]);
    const result = await execa(file ?? debootstrap, args, { reject: false, all: true, stdin: 'ignore' });
    if (result.exitCode !== 0) {
      const tail = String(result.all ?? '').split('\n').slice(-30).join('\n');
      const logFile = join(tmp, 'debootstrap', 'debootstrap.log');
      const detail = existsSync(logFile) ? readFileSync(logFile, 'utf8').split('\n').slice(-30).join('\n') : '';
      await removeTree(tmp);
      throw new Error(`debootstrap failed (exit ${result.exitCode}):\n${tail}\n${detail}`);
    }
    // The downloaded .debs are not part of the root; ~60 MB saved per cached root.
    await rm(join(tmp, 'var/cache/apt/archives'), { recursive: true, force: true });
    await mkdir(join(tmp, 'var/cache/apt/archives/partial'), { recursive: true });
    await chmod(tmp, 0o755); // mkdtemp made it 0700; it is the nodes' "/"
    await rename(tmp, dir);
    log(`built ${dir} in ${((Date.now() - started) / 1000).toFixed(1)} s`);
    return { dir, built: true, elapsedMs: Date.now() - started };
  } finally {
    closeSync(lockFd);
    stretchFileTimeout(0);
  }
}

// execa's types do not take a raw fd for extra stdio entries; child_process does.
function lockThroughFd(fd: number, waitSeconds: number): Promise<void> {
  return new Promise((resolve, reject) => {
    const child = spawn(toolPath('flock') ?? 'flock', ['--exclusive', '--timeout', String(waitSeconds), '3'], {
      stdio: ['ignore', 'ignore', 'pipe', fd],
    });
    let stderr = '';
    child.stderr?.on('data', (chunk: Buffer) => (stderr += chunk.toString()));
    child.on('error', reject);
    child.on('close', (code) =>
      code === 0 ? resolve() : reject(new Error(`flock on the node-root lock failed (exit ${code}): ${stderr}`)),
    );
  });
}

// Called with the lock held, so no live build owns these directories.
async function removeStaleBuilds(dir: string): Promise<void> {
  const parent = join(dir, '..');
  const prefix = `${dir.slice(parent.length + 1)}.build-`;
  for (const entry of await readdir(parent)) {
    if (entry.startsWith(prefix)) await removeTree(join(parent, entry));
  }
}

/** rm -rf that first detaches mounts below the path (a killed debootstrap leaves /proc mounted). */
export async function removeTree(path: string): Promise<void> {
  const mounted = readFileSync('/proc/self/mountinfo', 'utf8')
    .split('\n')
    .map((line) => unescapeMountPath(line.split(' ')[4] ?? ''))
    .filter((mountPoint) => mountPoint === path || mountPoint.startsWith(`${path}/`))
    .sort((a, b) => b.length - a.length);
  for (const mountPoint of mounted) {
    await execa('umount', ['--lazy', mountPoint], { reject: false });
  }
  await rm(path, { recursive: true, force: true });
}

function unescapeMountPath(field: string): string {
  return field.replace(/\\([0-7]{3})/g, (_, octal: string) => String.fromCharCode(parseInt(octal, 8)));
}

/**
 * Shared libraries the host's node binary needs that the root lacks (empty = node will load in a
 * container booted from the root). The binary is bind-mounted in, not installed, so its libraries
 * must come from the root's glibc/libstdc++.
 */
export async function librariesMissingForNode(rootDir: string, nodeBinary = process.execPath): Promise<string[]> {
  const { stdout } = await execa('ldd', [nodeBinary]);
  const missing: string[] = [];
  for (const line of stdout.split('\n')) {
    // "libstdc++.so.6 => /lib/x86_64-linux-gnu/libstdc++.so.6 (0x...)" or "/lib64/ld-linux-x86-64.so.2 (0x...)"
    const match = /^\s*(\S+)(?:\s+=>\s+(\S+))?\s+\(0x[0-9a-f]+\)/.exec(line);
    if (match === null) continue;
    const name = match[1] ?? '';
    const resolved = match[2] ?? name;
    if (name.startsWith('linux-vdso') || !resolved.startsWith('/')) continue;
    const base = resolved.slice(resolved.lastIndexOf('/') + 1);
    const dirs = [resolved.slice(0, resolved.lastIndexOf('/')), '/lib/x86_64-linux-gnu', '/usr/lib/x86_64-linux-gnu', '/lib64', '/usr/lib64', '/lib', '/usr/lib'];
    if (!dirs.some((d) => existsSync(join(rootDir, d, base)))) missing.push(base);
  }
  return missing;
}
