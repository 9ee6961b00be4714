/**
 * Reads the EnvironmentFile= entries the way systemd does just before it runs a command
 * (src/core/execute.c `exec_context_load_environment`, v239/v252): each path is a glob pattern; a
 * leading "-" makes a missing or unloadable file harmless; otherwise systemd refuses to start the
 * unit. Files that node-check itself cannot read (permissions, I/O) make the result unknown.
 */
import { posix } from 'node:path';
import { goErrnoText, type RootFs } from '../host/root-fs.js';
import type { EnvironmentFileRef, UnitDiagnostic } from '../model/service.js';
import { parseEnvFile } from './env-file.js';
import { componentMatcher, hasGlobMagic } from './glob-pattern.js';
import type { EnvironmentFileSetting } from './service-settings.js';

export interface LoadedEnvironmentFiles {
  readonly refs: readonly EnvironmentFileRef[];
  /** Variables of each loaded file, in the order systemd merges them. */
  readonly variables: readonly Readonly<Record<string, string>>[];
  /** The file each entry of `variables` was read from (for --verbose: which file set a variable). */
  readonly origins: readonly string[];
  readonly diagnostics: readonly UnitDiagnostic[];
}

/** READ_FULL_BYTES_MAX: systemd refuses larger environment files. */
const ENV_FILE_MAX_BYTES = 4 * 1024 * 1024;
/** Errors that say nothing about what systemd (root) would see, only that node-check could not look. */
const CANNOT_TELL = new Set(['EACCES', 'EPERM', 'EIO']);

export function loadEnvironmentFiles(
  fs: RootFs,
  unitName: string,
  settings: readonly EnvironmentFileSetting[],
  commentBackslashContinues: boolean,
): LoadedEnvironmentFiles {
  const refs: EnvironmentFileRef[] = [];
  const variables: Record<string, string>[] = [];
  const origins: string[] = [];
  const diagnostics: UnitDiagnostic[] = [];

  for (const setting of settings) {
    const { source, optional } = setting;
    // A file that is missing or that systemd cannot read is the systemd step's finding
    // (src/systemd-preconditions/check-systemd.ts, with the errno systemd prints); only a content
    // that systemd rejects needs a diagnostic of its own, naming why.
    const refuse = (reason: string) => {
      if (!optional) {
        diagnostics.push({
          severity: 'warning',
          ...source,
          message: `systemd will refuse to start the unit: ${unitName}: failed to load environment file ${reason} (EnvironmentFile= at ${source.file}:${source.line})`,
        });
      }
    };
    const paths = hasGlobMagic(setting.path) ? expandGlob(fs, setting.path) : [setting.path];
    let loaded = paths.length > 0;
    // safe_glob() turns GLOB_NOMATCH into ENOENT; a literal path that does not exist is a no-match too.
    let errno: string | undefined = paths.length === 0 ? 'ENOENT' : undefined;
    for (const file of paths) {
      const read = fs.readFile(file, ENV_FILE_MAX_BYTES);
      if (!read.ok) {
        loaded = false;
        if (!CANNOT_TELL.has(read.code)) errno ??= read.code;
        if (CANNOT_TELL.has(read.code)) diagnostics.push({ severity: 'fatal', ...source, message: `cannot read environment file ${file}: ${goErrnoText(read.code)}` });
        continue;
      }
      const parsed = parseEnvFile(read.data, file, { commentBackslashContinues });
      diagnostics.push(...parsed.diagnostics);
      if (parsed.failure !== undefined) {
        loaded = false;
        refuse(parsed.failure);
        continue;
      }
      variables.push(parsed.variables);
      origins.push(file);
    }
    refs.push({ path: setting.path, optional, loaded, source, ...(!loaded && errno !== undefined ? { errno } : {}) });
  }
  return { refs, variables, origins, diagnostics };
}

/** glob(3) over the node's file system, sorted like glob's default (C locale: byte order). */
export function expandGlob(fs: RootFs, pattern: string): string[] {
  let current = ['/'];
  for (const component of pattern.split('/').filter((c) => c !== '')) {
    const matches = componentMatcher(component);
    const next: string[] = [];
    for (const dir of current) {
      if (!matches) {
        next.push(posix.join(dir, component));
        continue;
      }
      const listed = fs.readdir(dir);
      if (!listed.ok) continue;
      for (const entry of listed.entries) if (matches(entry.name)) next.push(posix.join(dir, entry.name));
    }
    current = next;
  }
  return current.filter((p) => fs.lstat(p).ok).sort((a, b) => Buffer.compare(Buffer.from(a), Buffer.from(b)));
}
