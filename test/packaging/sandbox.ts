// What the packaging tests need to run the shipped shell code (RPM scriptlets, the OpenShift
// wrapper) without touching this machine: stand-in commands that record how they were called, and
// a private mount namespace whose /run is an empty tmpfs, so "is systemd running"
// (/run/systemd/system) and the fallback's runtime files are whatever the test makes them.
import { spawnSync } from 'node:child_process';
import { chmodSync, existsSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { toolPath } from '../harness/tools.js';

export interface Run {
  readonly code: number | null;
  readonly stdout: string;
  readonly stderr: string;
}

/**
 * An executable `dir/name` that appends its arguments (one line per call, joined by spaces) to
 * `dir/name.calls`, runs `body` (shell) if given, and exits with `exitCode`.
 */
export function writeStub(dir: string, name: string, options: { readonly exitCode?: number; readonly body?: string } = {}): void {
  const path = join(dir, name);
  writeFileSync(
    path,
    `#!/bin/sh\nprintf '%s\\n' "$*" >> '${join(dir, `${name}.calls`)}'\n${options.body ?? ''}\nexit ${options.exitCode ?? 0}\n`,
  );
  chmodSync(path, 0o755);
}

/** The recorded calls of a stub, oldest first; [] when it was never called. */
export function callsOf(dir: string, name: string): string[] {
  const file = join(dir, `${name}.calls`);
  return existsSync(file) ? readFileSync(file, 'utf8').split('\n').filter((line) => line !== '') : [];
}

/** Tools runInPrivateRun needs, for requireTools. */
export const PRIVATE_RUN_TOOLS = ['unshare', 'mount', 'mkdir'] as const;

/**
 * Runs `argv` in a new mount namespace with an empty tmpfs on /run (plus `/run/systemd/system`
 * when `systemdRunning`), after `setup` (shell, run as root of the namespace, with /run mounted).
 * As root the namespace is a plain mount namespace; otherwise a user namespace maps us to root.
 */
export function runInPrivateRun(
  argv: readonly string[],
  options: { readonly env: NodeJS.ProcessEnv; readonly systemdRunning?: boolean; readonly setup?: string; readonly input?: string },
): Run {
  const mount = toolPath('mount')!;
  const mkdir = toolPath('mkdir')!;
  const prepare = [
    `${mount} -t tmpfs -o mode=0755 tmpfs /run`,
    options.systemdRunning ? `${mkdir} -p /run/systemd/system` : ':',
    options.setup ?? ':',
    'exec "$@"',
  ].join(' && ');
  const userNamespace = process.getuid?.() === 0 ? [] : ['--map-root-user'];
  const result = spawnSync(toolPath('unshare')!, [...userNamespace, '--mount', '--propagation', 'private', '/bin/sh', '-c', prepare, 'sandbox', ...argv], {
    env: options.env,
    encoding: 'utf8',
    input: options.input ?? '',
    timeout: 60_000,
  });
  if (result.error) throw result.error;
  return { code: result.status, stdout: result.stdout, stderr: result.stderr };
}
