/**
 * Carries out a fallback plan: the only module that writes the fallback's files. Thin I/O.
 *
 * Every write is atomic (a temp file in the same directory, fsync, rename, fsync of the directory),
 * and the steps run in the plan's order, so a crash between two steps leaves the old or the new
 * configuration in effect, never a drop-in pointing at a missing config (plan.ts explains the
 * order). Paths are node paths resolved under `root`; nothing outside /run is ever touched, and no
 * directory on the way may be a symlink (a planted link must not redirect a write into /etc).
 */
import { closeSync, constants, fstatSync, lstatSync, openSync, readFileSync, rmdirSync, unlinkSync } from 'node:fs';
import { join, posix, resolve } from 'node:path';
import { replaceFileAtomically, syncDirectory } from '../host/atomic-file.js';
import { openDirectoryBelow, UnsafeDirectoryError, type DirHandle } from '../host/safe-dir.js';
import type { FallbackAction, FallbackPlan } from './plan-types.js';
import { isUnderRun, RUN_DIR } from './paths.js';
import { describeErrno } from '../host/errno-text.js';
import { killPoint } from '../host/kill-points.js';

export type FallbackStep =
  | { readonly kind: 'write'; readonly path: string; readonly content: string; readonly mode: number }
  | { readonly kind: 'remove'; readonly path: string }
  /** rmdir: only an empty directory goes. */
  | { readonly kind: 'remove-dir'; readonly path: string };

export interface ApplyOptions {
  /** The node's root; "/" on a live node. */
  readonly root: string;
  /** Run `systemctl daemon-reload` after a change (only ever on the live root). */
  readonly reload: boolean;
  /** Bound on each systemctl call. */
  readonly timeoutMs: number;
}

export interface ApplyResult {
  readonly action: FallbackAction;
  /** True when every step was carried out (and the reload, when one was due, succeeded). */
  readonly ok: boolean;
  /** Node paths actually written or removed. */
  readonly changed: readonly string[];
  readonly reloaded: boolean;
  readonly problems: readonly string[];
}

/** The plan as a list of steps: writes in order, then removals in order. */
export function fallbackSteps(plan: Pick<FallbackPlan, 'writes' | 'removes'>): FallbackStep[] {
  return [
    ...plan.writes.map((w): FallbackStep => ({ kind: 'write', path: w.path, content: w.content, mode: w.mode })),
    ...plan.removes.map((p): FallbackStep => (p.endsWith('/') ? { kind: 'remove-dir', path: p.slice(0, -1) } : { kind: 'remove', path: p })),
  ];
}

export async function applyPlan(plan: FallbackPlan, options: ApplyOptions): Promise<ApplyResult> {
  const result = (ok: boolean, changed: readonly string[], reloaded: boolean, problems: readonly string[]): ApplyResult =>
    ({ action: plan.action, ok, changed, reloaded, problems });
  if (plan.action === 'refuse' || plan.action === 'none') return result(true, [], false, []);

  const steps = fallbackSteps(plan);
  const applied = applySteps(steps, options.root);
  const problems = applied.problem ? [applied.problem] : [];
  const notes = applied.skipped ?? [];
  const done = (reloaded: boolean) => result(problems.length === 0, applied.changed, reloaded, [...problems, ...notes]);
  const liveRoot = resolve(options.root) === '/';
  if (!options.reload || !liveRoot) return done(false);

  // After 'keep' nothing changed, but a crash after the last write and before the reload would
  // leave systemd on the old unit: reload when systemd says it needs one.
  const due = applied.changed.length > 0 || (plan.action === 'keep' && (await needsDaemonReload(plan.unit, options.timeoutMs)));
  if (!due) return done(false);
  const reload = await systemctl(['daemon-reload'], options.timeoutMs);
  if (!reload.ok) problems.push(`systemctl daemon-reload failed: ${reload.error}`);
  return done(reload.ok);
}

/**
 * Runs steps in order and stops at the first failure (the earlier steps stay, which the ordering
 * makes safe). Validates every path before touching anything.
 *
 * A removal below a symlinked directory is skipped, not a failure: node-check never writes through
 * a symlink, so nothing of its own can be behind one, and following it could delete a file outside
 * the root. The later removals (the record last) still run, so a stale record can be cleared
 * ; `skipped` says what was not looked at.
 */
export function applySteps(steps: readonly FallbackStep[], root: string): { changed: string[]; problem?: string; skipped?: string[] } {
  const outside = steps.find((s) => !isUnderRun(s.path));
  if (outside) return { changed: [], problem: `refusing to touch ${outside.path}: the fallback only writes below ${RUN_DIR}` };
  const changed: string[] = [];
  const skipped: string[] = [];
  const withSkipped = <T extends object>(result: T) => (skipped.length > 0 ? { ...result, skipped } : result);
  for (const step of steps) {
    try {
      const did = step.kind === 'write' ? writeAtomically(root, step.path, step.content, step.mode) : step.kind === 'remove' ? removeFile(root, step.path) : removeEmptyDir(root, step.path);
      if (did) changed.push(step.path);
    } catch (error) {
      if (step.kind !== 'write' && error instanceof UnsafeDirectoryError) {
        skipped.push(`not removing ${step.path}: ${error.message}; node-check wrote nothing there (check it by hand)`);
        continue;
      }
      return withSkipped({ changed, problem: `${step.kind === 'write' ? 'writing' : 'removing'} ${step.path}: ${describeErrno(error)}` });
    }
  }
  return withSkipped({ changed });
}

/** Returns false when the file already had exactly this content and mode. */
function writeAtomically(root: string, nodePath: string, content: string, mode: number): boolean {
  const dir = ensureDirectory(root, posix.dirname(nodePath));
  try {
    if (sameFile(join(dir.at, posix.basename(nodePath)), content, mode)) return false;
    replaceFileAtomically(dir.at, posix.basename(nodePath), content, mode);
    return true;
  } finally {
    dir.close();
  }
}

function removeFile(root: string, nodePath: string): boolean {
  const dir = existingDirectory(root, posix.dirname(nodePath));
  if (!dir) return false;
  try {
    unlinkSync(join(dir.at, posix.basename(nodePath)));
    killPoint(`remove:${posix.basename(nodePath)}`);
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === 'ENOENT') return false;
    throw error;
  } finally {
    syncDirectory(dir.at);
    dir.close();
  }
  return true;
}

function removeEmptyDir(root: string, nodePath: string): boolean {
  const parent = existingDirectory(root, posix.dirname(nodePath));
  if (!parent) return false;
  const target = join(parent.at, posix.basename(nodePath));
  try {
    if (lstatSync(target).isSymbolicLink()) return false;
    rmdirSync(target);
    killPoint(`rmdir:${posix.basename(nodePath)}`);
    syncDirectory(parent.at);
  } catch (error) {
    const code = (error as NodeJS.ErrnoException).code;
    if (code === 'ENOENT' || code === 'ENOTEMPTY' || code === 'EEXIST' || code === 'ENOTDIR') return false;
    throw error;
  } finally {
    parent.close();
  }
  return true;
}

/**
 * A directory below /run, opened component by component from the root without following a
 * symlink (host/safe-dir.ts: a directory swapped for a link mid-way cannot redirect the write),
 * created (0755) where missing; throws on a symlink or a non-directory. The caller closes it.
 */
function ensureDirectory(root: string, nodeDir: string): DirHandle {
  return openDirectoryBelow(root, [RUN_DIR.slice(1), ...partsBelowRun(nodeDir)], { create: true, mode: 0o755 })!;
}

/** An existing directory below /run, opened the same way, or undefined when it is not there. */
function existingDirectory(root: string, nodeDir: string): DirHandle | undefined {
  return openDirectoryBelow(root, [RUN_DIR.slice(1), ...partsBelowRun(nodeDir)]);
}

function partsBelowRun(nodeDir: string): string[] {
  return posix.relative(RUN_DIR, nodeDir).split('/').filter(Boolean);
}

function sameFile(hostPath: string, content: string, mode: number): boolean {
  let fd: number | undefined;
  try {
    fd = openSync(hostPath, constants.O_RDONLY | constants.O_NOFOLLOW | constants.O_NONBLOCK);
    const st = fstatSync(fd);
    return st.isFile() && (st.mode & 0o7777) === mode && st.size === Buffer.byteLength(content) && readFileSync(fd, 'utf8') === content;
  } catch {
    return false;
  } finally {
    if (fd !== undefined) closeSync(fd);
  }
}

async function needsDaemonReload(unit: string, timeoutMs: number): Promise<boolean> {
  const shown = await systemctl(['show', '--property=NeedDaemonReload', '--value', unit], timeoutMs);
  return shown.ok && shown.stdout.trim() === 'yes';
}

async function systemctl(args: readonly string[], timeoutMs: number): Promise<{ ok: true; stdout: string } | { ok: false; error: string }> {
  const { execa } = await import('execa'); // only when systemd is told something: not on every preflight
  const run = await execa('systemctl', [...args], { timeout: timeoutMs, reject: false, stdin: 'ignore' });
  if (!run.failed) return { ok: true, stdout: String(run.stdout) };
  return { ok: false, error: run.timedOut ? `timed out after ${timeoutMs} ms` : (run.shortMessage ?? `exit ${run.exitCode}`) };
}
