// Boots the cached Debian root (node-root.ts) as a real systemd machine with systemd-nspawn, and
// runs commands inside it through nsenter. Each node gets a fresh writable layer, its own
// machine name, machine-id, cgroup and (by default) network namespace, so tests run in parallel.
//
// Why not plain `systemd-nspawn --volatile=overlay` (the obvious choice)? Three things
// measured on the CI-like machines (no systemd as PID 1, /run on disk, cgroup v1 hybrid):
//  - nspawn refuses to clean up /run/systemd/nspawn/propagate/<machine> unless it is on tmpfs
//    ("Attempted to remove disk file system ..., and we can't allow that") and exits at once;
//  - with --keep-unit and no systemd on the host, every container lands in the same
//    <own cgroup>/payload cgroup, so two containers' systemd would manage each other's units;
//  - --volatile=overlay has no way to add the test's files under the root before boot.
// So the harness runs nspawn inside a private mount namespace (unshare) with a tmpfs on
// /run/systemd/nspawn, builds the overlay itself (lower = test files + cached root, upper = tmpfs,
// gone with the namespace), and moves nspawn into a cgroup of its own first.
import { randomBytes } from 'node:crypto';
import { existsSync, readdirSync, readFileSync, realpathSync, rmdirSync } from 'node:fs';
import { chmod, mkdir, mkdtemp, writeFile as writeHostFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { execa, type ResultPromise } from 'execa';
import { ensureNodeRoot, removeTree, type NodeRootOptions } from './node-root.js';
import { dieWithParent, toolPath, type TapLike } from './tools.js';

export interface FileSpec {
  content: string | Uint8Array;
  /** Default 0o644. */
  mode?: number;
}

export interface BindSpec {
  host: string;
  container: string;
  readOnly?: boolean;
}

export interface BootOptions {
  /** When given, stop() is registered as the test's teardown. */
  t?: TapLike;
  /** Files present in the root from the start (absolute container paths), e.g. units, configs. */
  files?: Readonly<Record<string, string | Uint8Array | FileSpec>>;
  binds?: readonly BindSpec[];
  /** Host file bound read-only at /usr/bin/node-check. Default: dist/node-check.cjs when built. */
  bundle?: string | false;
  /** Share the host's network namespace. Default false: the node sees only its own loopback. */
  hostNetwork?: boolean;
  /** Bound on spawn-to-running. Default 60 s. */
  bootTimeoutMs?: number;
  root?: NodeRootOptions;
}

export interface ExecOptions {
  input?: string | Uint8Array;
  /** Default 60 s; a timeout throws (it is a harness failure, not a result). */
  timeoutMs?: number;
  /** Added to the fixed minimal environment the command gets (the host's is not passed). */
  env?: Readonly<Record<string, string>>;
}

export interface ExecResult {
  stdout: string;
  stderr: string;
  exitCode: number;
}

/** A `journalctl -o json` value: text, raw bytes for non-UTF-8 data, null when too large, or an array for repeated fields. */
export type JournalValue = string | number[] | null | Array<string | number[] | null>;
export type JournalEntry = Readonly<Record<string, JournalValue>>;

export interface BootedNode {
  readonly machine: string;
  /** Host pid of the container's PID 1 (systemd). */
  readonly leaderPid: number;
  /** What `systemctl is-system-running --wait` said: running or degraded. */
  readonly bootState: string;
  /** Milliseconds from spawning nspawn to the system being up. */
  readonly bootMs: number;
  exec(argv: readonly string[], opts?: ExecOptions): Promise<ExecResult>;
  /** Writes atomically (temp file + rename in the same directory), creating parent directories. */
  writeFile(path: string, content: string | Uint8Array, mode?: number): Promise<void>;
  /** Parsed `journalctl -o json` entries, after `journalctl --sync`; args e.g. ['-u', 'kubelet.service']. */
  journal(args?: readonly string[]): Promise<JournalEntry[]>;
  /** The container's console output so far (boot and shutdown messages), for diagnostics. */
  console(): string;
  /** Halts the node (then kills it after a timeout) and removes everything it left. Idempotent. */
  stop(): Promise<void>;
}

const PATH = '/usr/local/sbin:/usr/local/bin:/usr/sbin:/usr/bin:/sbin:/bin';
// Commands inside get this, not the test process's environment (which names host paths).
const NODE_ENV: Readonly<Record<string, string>> = { PATH, LANG: 'C.UTF-8', TERM: 'dumb', SYSTEMD_PAGER: '', SYSTEMD_COLORS: '0', HOME: '/root' };
const REPO_ROOT = join(dirname(fileURLToPath(import.meta.url)), '..', '..');
const CONSOLE_LIMIT = 256 * 1024;
const STOP_GRACE_MS = 20_000;

// Runs as the unshare'd process: join the node's cgroups, give nspawn a tmpfs for its runtime
// state, assemble the overlay root, then exec nspawn (same pid throughout).
const WRAPPER = `set -eu
work=$1; lower=$2; shift 2
while [ "$1" != -- ]; do echo $$ > "$1/cgroup.procs"; shift; done
shift
mkdir -p /run/systemd/nspawn
mount -t tmpfs -o mode=0755 tmpfs /run/systemd/nspawn
mount -t tmpfs -o mode=0755 tmpfs "$work/rw"
mkdir "$work/rw/upper" "$work/rw/work"
mount -t overlay overlay -o "lowerdir=$lower,upperdir=$work/rw/upper,workdir=$work/rw/work" "$work/root"
exec "$@"
`;

let sequence = 0;
let sweptLeftovers: Promise<void> | undefined;

// Machine names start with the test process's pid: nc-<pid>-<n>-<random>.
const MACHINE_PID = /^(?:node-check-)?nc-(\d+)-/;

/**
 * A test process killed outright (SIGKILL, OOM) takes its nodes down with it (parent-death
 * signal) but cannot remove their work directory and empty cgroups; the next bootNode does.
 */
async function sweepLeftovers(): Promise<void> {
  const isDead = (name: string): boolean => {
    const pid = Number(MACHINE_PID.exec(name)?.[1] ?? NaN);
    return Number.isInteger(pid) && pid !== process.pid && !existsSync(`/proc/${pid}`);
  };
  const parents = nodeCgroupDirs('x').map((dir) => dirname(dir));
  for (const parent of parents) {
    if (!existsSync(parent)) continue;
    const stale = readdirSync(parent).filter(isDead).map((name) => join(parent, name));
    killCgroupMembers(stale);
    removeCgroupTrees(stale);
  }
  for (const name of readdirSync(tmpdir()).filter((n) => n.startsWith('node-check-nc-') && isDead(n))) {
    await removeTree(join(tmpdir(), name));
  }
}

export async function bootNode(opts: BootOptions = {}): Promise<BootedNode> {
  sweptLeftovers ??= sweepLeftovers();
  await sweptLeftovers;
  const root = await ensureNodeRoot(opts.root);
  const started = Date.now();
  const machine = `nc-${process.pid}-${++sequence}-${randomBytes(3).toString('hex')}`;
  const work = await mkdtemp(join(tmpdir(), `node-check-${machine}-`));
  const cgroups = nodeCgroupDirs(machine);
  const node = new Node(machine, work, cgroups);
  opts.t?.teardown(() => node.stop());
  try {
    await mkdir(join(work, 'rw'));
    await mkdir(join(work, 'root'));
    await writeFilesLayer(join(work, 'files'), machine, opts.files ?? {});
    for (const dir of cgroups) await mkdir(dir, { recursive: true });

    const binds: BindSpec[] = [{ host: realpathSync(process.execPath), container: '/usr/bin/node', readOnly: true }];
    // The launcher finds the bundle beside itself (src/launcher/launcher.cjs).
    const launcher = opts.bundle ?? join(REPO_ROOT, 'dist', 'node-check.cjs');
    const bundle = launcher === false ? undefined : join(dirname(launcher), 'node-check.bundle.cjs');
    if (launcher !== false && bundle && existsSync(launcher) && existsSync(bundle)) {
      binds.push({ host: launcher, container: '/usr/bin/node-check', readOnly: true });
      binds.push({ host: bundle, container: '/usr/bin/node-check.bundle.cjs', readOnly: true });
    }
    binds.push(...(opts.binds ?? []));

    const nspawnArgs = [
      `--directory=${work}/root`,
      '--boot',
      `--machine=${machine}`,
      '--register=no',
      '--keep-unit',
      '--console=passive',
      '--link-journal=no',
      ...(opts.hostNetwork === true ? [] : ['--private-network']),
      ...binds.map((b) => `--bind${b.readOnly === false ? '' : '-ro'}=${escapeBindPath(b.host)}:${escapeBindPath(b.container)}`),
    ];
    const argv = dieWithParent([
      toolPath('unshare') ?? 'unshare', '--mount', '--propagation', 'private',
      'sh', '-c', WRAPPER, 'node-check-boot', work, `${work}/files:${root.dir}`, ...cgroups, '--',
      toolPath('systemd-nspawn') ?? 'systemd-nspawn', ...nspawnArgs,
    ]);
    node.start(argv);
    await node.waitUntilUp(started, opts.bootTimeoutMs ?? 60_000);
    return node;
  } catch (error) {
    const consoleTail = node.console().split('\n').slice(-40).join('\n');
    await node.stop();
    throw new Error(`bootNode ${machine} failed: ${(error as Error).message}\n--- console (last lines) ---\n${consoleTail}`);
  }
}

class Node implements BootedNode {
  leaderPid = 0;
  bootState = '';
  bootMs = 0;
  private nspawn: ResultPromise | undefined;
  private exited = false;
  private consoleText = '';
  private stopping: Promise<void> | undefined;

  constructor(
    readonly machine: string,
    private readonly work: string,
    private readonly cgroups: readonly string[],
  ) {}

  start(argv: readonly string[]): void {
    const [file, ...args] = argv;
    const child = execa(file ?? 'unshare', args, {
      stdin: 'ignore',
      all: true,
      buffer: false,
      reject: false,
      env: { PATH, LANG: 'C.UTF-8' },
      extendEnv: false,
      // stop() decides when to SIGKILL; execa's default would cut the orderly halt at 5 s.
      forceKillAfterDelay: false,
    });
    this.nspawn = child;
    child.all?.on('data', (chunk: Buffer) => {
      this.consoleText = (this.consoleText + chunk.toString('utf8')).slice(-CONSOLE_LIMIT);
    });
    void child.then(() => {
      this.exited = true;
    });
  }

  async waitUntilUp(started: number, timeoutMs: number): Promise<void> {
    const deadline = started + timeoutMs;
    const nspawnPid = this.nspawn?.pid;
    if (nspawnPid === undefined) throw new Error('systemd-nspawn did not start');
    // nspawn's direct child becomes the container's PID 1 and execs systemd.
    while (this.leaderPid === 0) {
      if (this.exited) throw new Error('systemd-nspawn exited during boot');
      if (Date.now() > deadline) throw new Error(`no systemd inside after ${timeoutMs} ms`);
      this.leaderPid = childNamed(nspawnPid, 'systemd') ?? 0;
      if (this.leaderPid === 0) await sleep(25);
    }
    // is-system-running fails until systemd's private socket exists, so retry until then.
    for (;;) {
      if (this.exited) throw new Error('systemd-nspawn exited during boot');
      const remaining = deadline - Date.now();
      if (remaining <= 0) throw new Error(`system not up after ${timeoutMs} ms (last state: ${this.bootState || 'unknown'})`);
      const result = await this.run(['systemctl', 'is-system-running', '--wait'], { timeoutMs: remaining }, false);
      this.bootState = result.stdout.trim();
      if (this.bootState === 'running' || this.bootState === 'degraded') break;
      if (result.timedOut) throw new Error(`system not up after ${timeoutMs} ms (state: ${this.bootState || 'unknown'})`);
      await sleep(50);
    }
    this.bootMs = Date.now() - started;
  }

  async exec(argv: readonly string[], opts: ExecOptions = {}): Promise<ExecResult> {
    const { stdout, stderr, exitCode } = await this.run(argv, opts, true);
    return { stdout, stderr, exitCode };
  }

  private async run(argv: readonly string[], opts: ExecOptions, throwOnTimeout: boolean): Promise<ExecResult & { timedOut: boolean }> {
    if (this.leaderPid === 0 || this.exited) throw new Error(`node ${this.machine} is not running`);
    const timeoutMs = opts.timeoutMs ?? 60_000;
    // `env -i` inside, because what reaches nsenter is not only ours: tap's process tracking
    // adds NODE_OPTIONS (with host paths) to every child it spawns.
    const environment = Object.entries({ ...NODE_ENV, ...opts.env }).map(([key, value]) => `${key}=${value}`);
    const nsenterArgv = ['--target', String(this.leaderPid), '--all', '--', 'env', '-i', '--', ...environment, ...argv];
    const result = await execa(toolPath('nsenter') ?? 'nsenter', nsenterArgv, {
      input: opts.input ?? '',
      env: { PATH },
      extendEnv: false,
      reject: false,
      stripFinalNewline: false,
      timeout: timeoutMs,
    });
    if (result.timedOut && throwOnTimeout) throw new Error(`${argv.join(' ')} timed out after ${timeoutMs} ms inside ${this.machine}`);
    return { stdout: String(result.stdout ?? ''), stderr: String(result.stderr ?? ''), exitCode: result.exitCode ?? -1, timedOut: result.timedOut };
  }

  async writeFile(path: string, content: string | Uint8Array, mode = 0o644): Promise<void> {
    const script = 'set -eu; d=$(dirname -- "$1"); mkdir -p -- "$d"; tmp=$(mktemp -p "$d" .node-check-write.XXXXXX); cat > "$tmp"; chmod "$2" "$tmp"; mv -f -- "$tmp" "$1"';
    const result = await this.exec(['sh', '-c', script, 'write', path, mode.toString(8)], { input: content });
    if (result.exitCode !== 0) throw new Error(`writeFile ${path} in ${this.machine} failed: ${result.stderr}`);
  }

  async journal(args: readonly string[] = []): Promise<JournalEntry[]> {
    // --sync returns once journald has stored everything sent before it was called.
    await this.exec(['journalctl', '--sync']);
    const result = await this.exec(['journalctl', '--output=json', '--no-pager', ...args]);
    if (result.exitCode !== 0) throw new Error(`journalctl ${args.join(' ')} failed (${result.exitCode}): ${result.stderr}`);
    return result.stdout
      .split('\n')
      .filter((line) => line.startsWith('{'))
      .map((line) => JSON.parse(line) as JournalEntry);
  }

  console(): string {
    return this.consoleText;
  }

  stop(): Promise<void> {
    this.stopping ??= this.shutdown();
    return this.stopping;
  }

  private async shutdown(): Promise<void> {
    const child = this.nspawn;
    if (child !== undefined && !this.exited) {
      // nspawn turns SIGTERM into SIGRTMIN+3 for the container's systemd: an orderly halt.
      child.kill('SIGTERM');
      if (!(await exitsWithin(child, STOP_GRACE_MS))) {
        child.kill('SIGKILL');
        killCgroupMembers(this.cgroups);
        await exitsWithin(child, 5_000);
      }
    }
    // Processes leave their cgroups a moment after exit; rmdir fails with EBUSY until then.
    for (let attempt = 0; attempt < 50 && !removeCgroupTrees(this.cgroups); attempt++) {
      if (attempt === 20) killCgroupMembers(this.cgroups);
      await sleep(100);
    }
    // The overlay and tmpfs mounts lived only in nspawn's private mount namespace, so on the
    // host these are plain directories; removeTree still detaches anything found mounted there.
    await removeTree(this.work);
  }
}

async function writeFilesLayer(dir: string, machine: string, files: Readonly<Record<string, string | Uint8Array | FileSpec>>): Promise<void> {
  const all: Record<string, string | Uint8Array | FileSpec> = {
    // Each node is its own machine: own hostname, and an own machine-id (so its own journal).
    '/etc/hostname': `${machine}\n`,
    '/etc/machine-id': `${randomBytes(16).toString('hex')}\n`,
    ...files,
  };
  await mkdir(dir, { mode: 0o755 });
  for (const [path, spec] of Object.entries(all)) {
    if (!path.startsWith('/') || path.split('/').includes('..')) throw new Error(`files: ${path} must be an absolute path without ..`);
    const { content, mode } = isFileSpec(spec) ? spec : { content: spec, mode: undefined };
    const hostPath = join(dir, path);
    await mkdir(dirname(hostPath), { recursive: true, mode: 0o755 });
    await writeHostFile(hostPath, content);
    await chmod(hostPath, mode ?? 0o644);
  }
}

function isFileSpec(value: string | Uint8Array | FileSpec): value is FileSpec {
  return typeof value === 'object' && !(value instanceof Uint8Array);
}

// nspawn splits --bind on ':' and reads backslash escapes.
function escapeBindPath(path: string): string {
  return path.replace(/\\/g, '\\\\').replace(/:/g, '\\:');
}

/**
 * One cgroup directory per hierarchy nspawn uses (cgroup2, and name=systemd on v1/hybrid hosts),
 * below this process's own cgroup: <mount><own path>/node-check-test/<machine>.
 */
function nodeCgroupDirs(machine: string): string[] {
  const own = new Map<string, string>(); // "0" for cgroup2, or "name=systemd" → path
  for (const line of readFileSync('/proc/self/cgroup', 'utf8').split('\n')) {
    const match = /^(\d+):([^:]*):(.*)$/.exec(line);
    if (match === null) continue;
    const [, id, controllers, path] = match;
    if (id === '0' && controllers === '') own.set('0', path ?? '/');
    if ((controllers ?? '').split(',').includes('name=systemd')) own.set('name=systemd', path ?? '/');
  }
  const dirs: string[] = [];
  const seen = new Set<string>();
  for (const line of readFileSync('/proc/self/mountinfo', 'utf8').split('\n')) {
    // id parent major:minor root mount-point options [optional...] - fstype source super-options
    const [before, after] = line.split(' - ');
    if (before === undefined || after === undefined) continue;
    const fields = before.split(' ');
    const [fstype, , superOptions] = after.split(' ');
    const mountRoot = fields[3] ?? '/';
    const mountPoint = fields[4] ?? '';
    const key = fstype === 'cgroup2' ? '0' : fstype === 'cgroup' && (superOptions ?? '').split(',').includes('name=systemd') ? 'name=systemd' : undefined;
    if (key === undefined || seen.has(key)) continue;
    const ownPath = own.get(key);
    if (ownPath === undefined) continue;
    seen.add(key);
    const relative = mountRoot !== '/' && ownPath.startsWith(mountRoot) ? ownPath.slice(mountRoot.length) : ownPath;
    dirs.push(join(mountPoint, relative, 'node-check-test', machine));
  }
  return dirs;
}

function cgroupTree(dir: string): string[] {
  if (!existsSync(dir)) return [];
  const below = readdirSync(dir, { withFileTypes: true })
    .filter((entry) => entry.isDirectory())
    .flatMap((entry) => cgroupTree(join(dir, entry.name)));
  return [...below, dir]; // deepest first, the order rmdir needs
}

function killCgroupMembers(cgroups: readonly string[]): void {
  for (const dir of cgroups.flatMap(cgroupTree)) {
    for (const pid of readFileSync(join(dir, 'cgroup.procs'), 'utf8').split('\n').filter(Boolean)) {
      try {
        process.kill(Number(pid), 'SIGKILL');
      } catch {
        // already gone
      }
    }
  }
}

/** True when every directory is gone. */
function removeCgroupTrees(cgroups: readonly string[]): boolean {
  let clean = true;
  for (const dir of cgroups.flatMap(cgroupTree)) {
    try {
      rmdirSync(dir);
    } catch {
      clean = false;
    }
  }
  return clean;
}

/** The pid of a child of `parent` whose comm is `comm`, found by scanning /proc. */
function childNamed(parent: number, comm: string): number | undefined {
  for (const entry of readdirSync('/proc')) {
    if (!/^\d+$/.test(entry)) continue;
    let stat: string;
    try {
      stat = readFileSync(`/proc/${entry}/stat`, 'utf8');
    } catch {
      continue; // exited while scanning
    }
    // "pid (comm) state ppid ...": comm may hold spaces and parentheses.
    const open = stat.indexOf('(');
    const close = stat.lastIndexOf(')');
    const ppid = Number(stat.slice(close + 2).split(' ')[1]);
    if (ppid === parent && stat.slice(open + 1, close) === comm) return Number(entry);
  }
  return undefined;
}

async function exitsWithin(child: ResultPromise, ms: number): Promise<boolean> {
  let timer: NodeJS.Timeout | undefined;
  const timeout = new Promise<boolean>((resolve) => {
    timer = setTimeout(() => resolve(false), ms);
  });
  const exited = child.then(
    () => true,
    () => true,
  );
  const result = await Promise.race([exited, timeout]);
  clearTimeout(timer);
  return result;
}

function sleep(ms: number): Promise<void> {
  return new Promise((resolve) => setTimeout(resolve, ms));
}
