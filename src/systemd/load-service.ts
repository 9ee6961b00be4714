/**
 * Reads a service the way systemd would load and start it, from the node's files (through RootFs),
 * and returns its effective ExecStart= argv and environment. I/O only; every rule lives in the
 * pure modules next to this one.
 */
import { goErrnoText, type RootFs } from '../host/root-fs.js';
import type { ExecCommand, ServiceModel, UnitDiagnostic, UnitLoadState } from '../model/service.js';
import { pickDropIns, type DirectoryListing } from './dropin-selection.js';
import { effectiveEnvironment } from './effective-environment.js';
import { expandArgv } from './env-expand.js';
import { findUnitFile } from './find-unit-file.js';
import { loadEnvironmentFiles } from './load-environment-files.js';
import { unitFileKind } from './masked-path.js';
import { strerror } from '../systemd-preconditions/outcome.js';
import { collectServiceSettings } from './service-settings.js';
import { detectSystemdVersion, rulesFor, type VersionRules } from './systemd-version.js';
import { LEGACY_UNIT_FILE_DIALECT, parseUnitFile, type ParsedUnitFile } from './unit-file.js';
import { parseUnitName } from './unit-name.js';
import { dropInDirectories, UNIT_SEARCH_PATHS } from './unit-search-paths.js';
import { MAX_DROP_INS } from '../limits/bounds.js';

export interface LoadServiceOptions {
  /** The node's systemd version; detected from libsystemd-shared-NNN.so when absent. */
  readonly systemdVersion?: number;
}

const LOADED: UnitLoadState = { state: 'loaded' };

/** node-check's own limit for a unit file or drop-in (systemd has none beyond 1 MiB per line). */
const UNIT_FILE_MAX_BYTES = 4 * 1024 * 1024;

export function loadService(fs: RootFs, unitName: string, options: LoadServiceOptions = {}): ServiceModel {
  const systemdVersion = options.systemdVersion ?? detectSystemdVersion(fs);
  const rules = rulesFor(systemdVersion);
  // Until the files are read the unit counts as loaded; a fatal diagnostic then makes the answer unknown.
  const base = { unitName, dropInPaths: [] as string[], environment: {}, environmentFiles: [], load: LOADED, ...(systemdVersion !== undefined ? { systemdVersion } : {}) };
  const fatal = (message: string, extra: Partial<ServiceModel> = {}): ServiceModel => ({ ...base, ...extra, diagnostics: [{ severity: 'fatal', message }] });

  const unit = parseUnitName(unitName);
  if (!unit) return fatal(`"${unitName}" is not a valid unit name`);
  const lookup = findUnitFile(fs, unit, systemdVersion);
  if (lookup.kind === 'not-found') return fatal(`unit ${unitName} not found in ${UNIT_SEARCH_PATHS.join(', ')}`);
  if (lookup.kind === 'unreadable') return fatal(`cannot read ${lookup.path}: ${goErrnoText(lookup.code)}`);
  if (lookup.kind === 'cannot-tell') return fatal(lookup.why, { fragmentPath: lookup.path });
  const fragmentPath = lookup.path;
  const fragmentKind = unitFileKind(fs, fragmentPath, systemdVersion);
  switch (fragmentKind.kind) {
    case 'read':
      break;
    case 'masked':
      return fatal(`unit is masked: ${fragmentPath} is empty, a character device or a link to /dev/null`, { fragmentPath, load: { state: 'masked' } });
    case 'cannot-tell':
      return fatal(fragmentKind.why, { fragmentPath });
    case 'open-fails':
      // unit_load_fragment (v252) logs "<unit>: Failed to open <path>: %m"; the unit is in LoadState=error.
      return { ...base, fragmentPath, load: { state: 'refused', refusal: { loadState: 'error', by: 'unit_load', errno: fragmentKind.errno, reason: `Failed to open ${fragmentPath}: ${strerror(fragmentKind.errno)}` } }, diagnostics: [] };
  }

  const diagnostics: UnitDiagnostic[] = [];
  const fragment = readUnitFile(fs, fragmentPath, rules, diagnostics, 'fragment');
  if (!fragment) return { ...base, fragmentPath, diagnostics };

  const dropIns: ParsedUnitFile[] = [];
  const dropInPaths: string[] = [];
  const listings: DirectoryListing[] = [];
  for (const dir of dropInDirectories(lookup.names, { typeWideFirst: rules.typeWideDropInsFirst })) {
    const listed = fs.readdir(dir);
    if (listed.ok) listings.push({ dir, names: listed.entries.map((e) => e.name) });
    else if (listed.code !== 'ENOENT' && listed.code !== 'ENOTDIR') diagnostics.push({ severity: 'fatal', message: `cannot list ${dir}: ${goErrnoText(listed.code)}` });
  }
  // Counted before they are sorted and read: that alone took seconds for 100,000.
  const names = new Set(listings.flatMap((l) => l.names.filter((n) => n.endsWith('.conf') && !n.startsWith('.'))));
  if (names.size > MAX_DROP_INS) {
    const dirs = listings.filter((l) => l.names.some((n) => n.endsWith('.conf'))).map((l) => l.dir);
    return fatal(`${names.size} drop-ins in ${dirs.join(', ')}: more than the ${MAX_DROP_INS} node-check reads (its bound on work before kubelet starts); node-check cannot tell what they set`, { fragmentPath });
  }
  for (const candidate of pickDropIns(listings)) {
    // A masked drop-in still hides same-named ones in lower-priority directories; it adds nothing.
    const kind = unitFileKind(fs, candidate.path, systemdVersion);
    if (kind.kind === 'masked') continue;
    if (kind.kind === 'cannot-tell') {
      diagnostics.push({ severity: 'fatal', file: candidate.path, message: kind.why });
      continue;
    }
    if (kind.kind === 'open-fails') {
      // unit_load_dropin does not look at config_parse's result: the drop-in is skipped.
      diagnostics.push({ severity: 'warning', file: candidate.path, message: `${candidate.path}: Failed to open configuration file: ${strerror(kind.errno)}; systemd skips this drop-in` });
      continue;
    }
    const parsed = readUnitFile(fs, candidate.path, rules, diagnostics, 'drop-in');
    if (!parsed) continue;
    dropIns.push(parsed);
    dropInPaths.push(candidate.path);
  }
  if ([fragment, ...dropIns].some((f) => f.diagnostics.some((d) => d.severity === 'fatal')) || diagnostics.some((d) => d.severity === 'fatal')) {
    return { ...base, fragmentPath, dropInPaths, diagnostics: [...diagnostics, ...[fragment, ...dropIns].flatMap((f) => f.diagnostics)] };
  }

  const settings = collectServiceSettings([fragment, ...dropIns], unit, { colonPrefix: rules.execColonPrefix, ...(systemdVersion !== undefined ? { systemdVersion } : {}) });
  diagnostics.push(...settings.diagnostics);
  const envFiles = loadEnvironmentFiles(fs, unitName, settings.environmentFiles, rules.envCommentBackslashContinues);
  diagnostics.push(...envFiles.diagnostics);
  const env = effectiveEnvironment(settings.environment, envFiles.variables, settings.unsetEnvironment);

  const last = settings.execStart[settings.execStart.length - 1];
  let execStart: ExecCommand | undefined;
  if (last) {
    const expanded: ReturnType<typeof expandArgv> = last.noEnvExpand ? { argv: last.words, variables: [], unset: [] } : expandArgv(last.words, env);
    execStart = {
      raw: last.raw,
      source: last.source,
      prefixes: last.prefixes,
      path: last.path,
      words: last.words,
      argv: expanded.argv,
      ...(expanded.variables.some((names) => names.length > 0) ? { argvVariables: expanded.variables } : {}),
      ...(expanded.unset.length > 0 ? { unsetVariables: expanded.unset } : {}),
      // execve(2) will refuse it (E2BIG): a finding of the systemd step, not a reason to stop here.
      ...(expanded.tooLarge ? { argvTooLarge: expanded.tooLarge } : {}),
    };
  }
  return {
    ...base,
    fragmentPath,
    dropInPaths,
    load: settings.load,
    execStartPreCount: settings.execStartPreCount,
    ...(settings.preStartDirectories.length > 0 ? { preStartDirectories: settings.preStartDirectories } : {}),
    ...(execStart ? { execStart } : {}),
    environment: Object.fromEntries(env),
    environmentOrigins: environmentOrigins(env, settings.environmentSources, envFiles),
    environmentFiles: envFiles.refs,
    diagnostics,
  };
}

/**
 * Reads and parses one unit file or drop-in. Undefined when there is nothing to apply (a dangling
 * drop-in link, which systemd skips); a fatal diagnostic is added when node-check cannot read it.
 */
function readUnitFile(
  fs: RootFs,
  path: string,
  rules: VersionRules,
  diagnostics: UnitDiagnostic[],
  role: 'fragment' | 'drop-in',
): ParsedUnitFile | undefined {
  const read = fs.readFile(path, UNIT_FILE_MAX_BYTES);
  if (!read.ok) {
    if (role === 'drop-in' && (read.code === 'ENOENT' || read.code === 'EISDIR')) {
      diagnostics.push({ severity: 'warning', file: path, message: `${path}: ${goErrnoText(read.code)}; systemd skips this drop-in (it still hides drop-ins of the same name in lower-priority directories)` });
      return undefined;
    }
    const why = read.code === 'EFBIG' ? 'larger than 4 MiB, which node-check does not read' : goErrnoText(read.code);
    diagnostics.push({ severity: 'fatal', file: path, message: `cannot read ${path}: ${why}` });
    return undefined;
  }
  const parsed = parseUnitFile(read.data, path, rules.unitFile);
  if (rules.compareWithLegacy) {
    const difference = legacyDifference(parsed, parseUnitFile(read.data, path, LEGACY_UNIT_FILE_DIALECT));
    if (difference !== undefined) {
      diagnostics.push({
        severity: 'warning',
        file: path,
        line: difference,
        message: `${path}:${difference}: systemd 239 (RHEL 8) reads this file differently from newer systemd (a comment inside a continued line, or a line without "="); read with the newer rules`,
      });
    }
  }
  return parsed;
}

/** The first line where the two readings disagree, if they do. */
function legacyDifference(modern: ParsedUnitFile, legacy: ParsedUnitFile): number | undefined {
  const a = modern.assignments;
  const b = legacy.assignments;
  for (let i = 0; i < Math.max(a.length, b.length); i++) {
    const x = a[i];
    const y = b[i];
    if (!x || !y || x.section !== y.section || x.key !== y.key || x.value !== y.value) {
      return Math.min(x?.source.line ?? Infinity, y?.source.line ?? Infinity, legacy.stopped?.line ?? Infinity);
    }
  }
  if (legacy.stopped && !modern.stopped) return legacy.stopped.line;
  return undefined;
}

/** Which assignment each variable of the final environment comes from: the last file that set it wins. */
function environmentOrigins(env: ReadonlyMap<string, string>, sources: ReadonlyMap<string, { file: string; line: number }>, files: { variables: readonly Readonly<Record<string, string>>[]; origins: readonly string[] }): Record<string, string> {
  const origins: Record<string, string> = {};
  for (const [name, source] of sources) origins[name] = `${source.file}:${source.line}`;
  files.variables.forEach((variables, i) => {
    for (const name of Object.keys(variables)) origins[name] = files.origins[i]!;
  });
  for (const name of Object.keys(origins)) if (!env.has(name)) delete origins[name];
  return origins;
}
