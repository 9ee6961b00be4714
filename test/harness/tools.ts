// Finding the real tools the integration tests drive, and skipping loudly when one is absent.
// A missing tool is a reason to skip only on a developer machine: in CI (`CI` set) everything
// is installed by .ci/run, so a missing tool there is a failure, never a silent skip.
import { accessSync, constants } from 'node:fs';
import { delimiter, join } from 'node:path';

/** The slice of a tap `Test` (or the root `t`) that the harness uses. */
export interface TapLike {
  plan(n: number, comment?: string): void;
  fail(message: string): boolean;
  teardown(fn: () => unknown): void;
  comment(...args: unknown[]): void;
}

// Root's PATH on some machines lacks the sbin directories, where debootstrap lives.
const EXTRA_DIRS = ['/usr/local/sbin', '/usr/local/bin', '/usr/sbin', '/usr/bin', '/sbin', '/bin'];

/** Absolute path of an executable found on PATH (or in the sbin/bin directories), else undefined. */
export function toolPath(name: string): string | undefined {
  const dirs = [...(process.env.PATH ?? '').split(delimiter).filter(Boolean), ...EXTRA_DIRS];
  for (const dir of dirs) {
    const candidate = join(dir, name);
    try {
      accessSync(candidate, constants.X_OK);
      return candidate;
    } catch {
      // not here; keep looking
    }
  }
  return undefined;
}

export function haveTool(name: string): boolean {
  return toolPath(name) !== undefined;
}

export function inCI(): boolean {
  const ci = process.env.CI;
  return ci !== undefined && ci !== '' && ci !== 'false' && ci !== '0';
}

/**
 * Ends test `t` as skipped, with a line on stderr nobody can miss. Call it before any assertion
 * in `t`, then return from the test. In CI it fails the test instead: nothing may be skipped there.
 */
export function skipLoudly(t: TapLike, reason: string): void {
  if (inCI()) {
    process.stderr.write(`\n# FAIL (tool missing in CI): ${reason}\n\n`);
    t.fail(`required in CI but missing: ${reason}`);
    return;
  }
  process.stderr.write(`\n# SKIP (tool missing): ${reason}\n\n`);
  t.plan(0, `tool missing: ${reason}`);
}

/** Prerequisites of the real-systemd tests that this machine lacks (tools, and being root). */
export function missingForNodes(): string[] {
  const missing = ['systemd-nspawn', 'debootstrap', 'nsenter', 'unshare', 'flock', 'setpriv'].filter(
    (tool) => !haveTool(tool),
  );
  if (process.getuid?.() !== 0) missing.push('root privileges (systemd-nspawn and debootstrap need root)');
  return missing;
}

/**
 * True when every tool is present. Otherwise calls skipLoudly (which fails in CI) and returns
 * false; the caller returns from its test: `if (!requireTools(t, ['promtool'])) return;`
 */
export function requireTools(t: TapLike, tools: readonly string[]): boolean {
  const missing = tools.filter((tool) => !haveTool(tool));
  if (missing.length === 0) return true;
  skipLoudly(t, missing.join(', '));
  return false;
}

/** Like requireTools, for the prerequisites of bootNode(). */
export function requireNodes(t: TapLike): boolean {
  const missing = missingForNodes();
  if (missing.length === 0) return true;
  skipLoudly(t, missing.join(', '));
  return false;
}

/**
 * Prefixes argv so the child gets SIGTERM when the test process dies, so a crashed or timed-out
 * test file leaves no container or exporter behind. Without setpriv, argv is returned unchanged.
 */
export function dieWithParent(argv: readonly string[]): string[] {
  const setpriv = toolPath('setpriv');
  return setpriv === undefined ? [...argv] : [setpriv, '--pdeathsig', 'TERM', '--', ...argv];
}
