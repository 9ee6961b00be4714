/**
 * Starts a child in its own process group, stdin and stdout on /dev/null, stderr shared with
 * node-check, and never waits for it: the watchdog on kubelet's start path (cli/watchdog.ts).
 *
 * Through libuv's process handle (process.binding('process_wrap'): allow-listed, and deprecated
 * only under --pending-deprecation, in Node 20 to 24) when Node offers it: 5 M instructions
 * against child_process.spawn's 13 M (its option normalising, stdio set-up and ChildProcess
 * object), about 1 ms of every preflight (start-path cost). Anything unexpected there falls back to
 * child_process.spawn, which does the same through the public API.
 */
import { lazyBuiltin } from './builtins.js';

export interface DetachedChild {
  readonly pid: number;
  /** The child has exited and been reaped: its pid (and group) may belong to someone else now. */
  readonly exited: () => boolean;
}

export interface DetachedSpawn {
  readonly file: string;
  /** argv[0] included. */
  readonly argv: readonly string[];
  readonly env: Readonly<Record<string, string>>;
}

/** The child, or undefined when none could be started (resource limits). Never throws. */
export function spawnDetached(spawn: DetachedSpawn): DetachedChild | undefined {
  return spawnThroughProcessWrap(spawn) ?? spawnThroughChildProcess(spawn);
}

interface ProcessHandle {
  onexit: () => void;
  spawn(options: Record<string, unknown>): number;
  readonly pid: number | undefined;
  unref(): void;
  close(): void;
}

/** libuv's uv_spawn, as child_process calls it (lib/internal/child_process.js); undefined when unavailable. */
export function spawnThroughProcessWrap({ file, argv, env }: DetachedSpawn): DetachedChild | undefined {
  const quiet = process.noDeprecation;
  try {
    // --pending-deprecation would print DEP0111 on stderr (the journal): never for this.
    process.noDeprecation = true;
    const { Process } = (process as unknown as { binding(name: string): { Process: new () => ProcessHandle } }).binding('process_wrap');
    const handle = new Process();
    let exited = false;
    handle.onexit = () => {
      exited = true;
      handle.close();
    };
    const error = handle.spawn({
      file,
      args: [...argv],
      envPairs: Object.entries(env).map(([name, value]) => `${name}=${value}`),
      stdio: [{ type: 'ignore' }, { type: 'ignore' }, { type: 'fd', fd: 2 }],
      detached: true,
      windowsHide: false,
      windowsVerbatimArguments: false,
    });
    if (error !== 0 || handle.pid === undefined) {
      handle.close();
      return undefined;
    }
    handle.unref();
    return { pid: handle.pid, exited: () => exited };
  } catch {
    return undefined;
  } finally {
    process.noDeprecation = quiet;
  }
}

export function spawnThroughChildProcess({ file, argv, env }: DetachedSpawn): DetachedChild | undefined {
  try {
    const { spawn } = lazyBuiltin('node:child_process');
    const child = spawn(file, argv.slice(1), { argv0: argv[0], stdio: ['ignore', 'ignore', 'inherit'], detached: true, env: { ...env } });
    child.on('error', () => undefined);
    if (child.pid === undefined) return undefined;
    child.unref();
    return { pid: child.pid, exited: () => child.exitCode !== null || child.signalCode !== null };
  } catch {
    return undefined;
  }
}
