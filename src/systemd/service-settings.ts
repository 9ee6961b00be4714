/**
 * Applies the [Service] assignments of the unit file and its drop-ins, in order, the way systemd's
 * load-fragment callbacks do, and checks what service_verify() checks about ExecStart=.
 * Only the settings that decide kubelet's command line are interpreted: Type=, ExecStart=,
 * Environment=, EnvironmentFile= and UnsetEnvironment=.
 */
import type { SourceLocation, UnitDiagnostic } from '../model/service.js';
import { isValidEnvName, splitEnvAssignment } from './env-names.js';
import { parseEnvironmentValue } from './environment-setting.js';
import { parseExecValue, type ExecParseOptions, type ParsedExecCommand } from './exec-command.js';
import { extractFirstWord } from './extract-word.js';
import { expandSpecifiers } from './specifiers.js';
import type { ParsedUnitFile } from './unit-file.js';
import type { UnitName } from './unit-name.js';

export interface EnvironmentFileSetting {
  readonly path: string;
  readonly optional: boolean;
  readonly source: SourceLocation;
}

export interface ServiceSettings {
  readonly type?: string;
  /** Every ExecStart= command after resets, in order. */
  readonly execStart: readonly ParsedExecCommand[];
  /** ExecStartPre= commands after resets (an empty assignment resets the list). */
  readonly execStartPreCount: number;
  /** Directories an ExecStartPre= `mkdir --parents DIR…` (or `-p`) creates before ExecStart= runs. */
  readonly preStartDirectories: readonly string[];
  /** Environment= after resets; a later assignment of a name wins. */
  readonly environment: ReadonlyMap<string, string>;
  /** Where each Environment= variable was last set. */
  readonly environmentSources: ReadonlyMap<string, SourceLocation>;
  readonly environmentFiles: readonly EnvironmentFileSetting[];
  /** UnsetEnvironment= entries: "NAME" or "NAME=value". */
  readonly unsetEnvironment: readonly string[];
  readonly diagnostics: readonly UnitDiagnostic[];
  /** systemd would not load the unit at all (an error in the unit file itself). */
  readonly loadRefused: boolean;
}

/** systemd ≥ 253 adds notify-reload; v239 lacks exec. Both are accepted here. */
const SERVICE_TYPES = new Set(['simple', 'exec', 'forking', 'oneshot', 'dbus', 'notify', 'notify-reload', 'idle']);

/** `files[0]` is the unit file (fragment), the rest are drop-ins in the order they apply. */
export function collectServiceSettings(files: readonly ParsedUnitFile[], unit: UnitName, execOptions: ExecParseOptions = {}): ServiceSettings {
  let type: string | undefined;
  let execStart: ParsedExecCommand[] = [];
  let execStartPreCount = 0;
  let preStartDirectories: string[] = [];
  const environment = new Map<string, string>();
  const environmentSources = new Map<string, SourceLocation>();
  let environmentFiles: EnvironmentFileSetting[] = [];
  let unsetEnvironment: string[] = [];
  const diagnostics: UnitDiagnostic[] = [];

  const settings = (loadRefused: boolean): ServiceSettings => {
    if (!loadRefused) diagnostics.push(...verifyExecStart(unit, type, execStart));
    return { type, execStart, execStartPreCount, preStartDirectories, environment, environmentSources, environmentFiles, unsetEnvironment, diagnostics, loadRefused };
  };

  for (const [index, file] of files.entries()) {
    const isFragment = index === 0;
    diagnostics.push(...file.diagnostics);
    /** Returns true when systemd stops reading here. */
    const stop = (line: number, reason: string): boolean => {
      const at = { file: file.file, line };
      if (isFragment) {
        diagnostics.push({ severity: 'warning', ...at, systemdRefuses: true, message: `systemd will refuse to load ${unit.name}: ${reason} (${file.file}:${line})` });
      } else {
        diagnostics.push({ severity: 'warning', ...at, message: `${file.file}:${line}: ${reason}; systemd ignores the rest of this drop-in` });
      }
      return isFragment;
    };

    let skipRest = false;
    for (const assignment of file.assignments) {
      if (skipRest) break;
      if (assignment.section !== 'Service') continue;
      const { key, value, source } = assignment;
      const at = `${source.file}:${source.line}`;
      switch (key) {
        case 'Type':
          if (SERVICE_TYPES.has(value)) type = value;
          else diagnostics.push({ severity: 'warning', ...source, message: `${at}: Failed to parse service type, ignoring: ${value}` });
          break;
        case 'ExecStartPre':
          execStartPreCount = value === '' ? 0 : execStartPreCount + 1;
          if (value === '') preStartDirectories = [];
          else preStartDirectories.push(...mkdirParents(parseExecValue(value, source, unit, execOptions).commands));
          break;
        case 'ExecStart': {
          if (value === '') {
            execStart = [];
            break;
          }
          const parsed = parseExecValue(value, source, unit, execOptions);
          diagnostics.push(...parsed.diagnostics);
          execStart.push(...parsed.commands);
          if (parsed.refusal !== undefined) {
            if (stop(source.line, parsed.refusal)) return settings(true);
            skipRest = true;
          }
          break;
        }
        case 'Environment': {
          if (value === '') {
            environment.clear();
            environmentSources.clear();
            break;
          }
          const parsed = parseEnvironmentValue(value, source, unit);
          diagnostics.push(...parsed.diagnostics);
          for (const { name, value: v } of parsed.assignments) {
            environment.set(name, v);
            environmentSources.set(name, source);
          }
          break;
        }
        case 'EnvironmentFile': {
          if (value === '') {
            environmentFiles = [];
            break;
          }
          const expanded = expandSpecifiers(value, unit);
          if (expanded.unresolved.length > 0) {
            diagnostics.push({ severity: 'warning', ...source, message: `${at}: specifier ${expanded.unresolved.join(' ')} in EnvironmentFile= is not resolved by node-check; kept as written` });
          }
          const optional = expanded.text.startsWith('-');
          const path = optional ? expanded.text.slice(1) : expanded.text;
          if (!path.startsWith('/')) {
            diagnostics.push({ severity: 'warning', ...source, message: `${at}: EnvironmentFile= path is not absolute, ignoring: ${path}` });
            break;
          }
          environmentFiles.push({ path, optional, source });
          break;
        }
        case 'UnsetEnvironment': {
          if (value === '') {
            unsetEnvironment = [];
            break;
          }
          unsetEnvironment.push(...parseUnsetEnvironment(value, source, unit, diagnostics));
          break;
        }
        default:
          break;
      }
    }
    if (!skipRest && file.stopped && stop(file.stopped.line, file.stopped.reason)) return settings(true);
  }
  return settings(false);
}

function parseUnsetEnvironment(rvalue: string, source: SourceLocation, unit: UnitName, diagnostics: UnitDiagnostic[]): string[] {
  const entries: string[] = [];
  const at = `${source.file}:${source.line}`;
  let next: number | undefined = 0;
  for (;;) {
    const r = extractFirstWord(rvalue, next, { unquote: true, cunescape: true });
    if (r.kind === 'end') break;
    if (r.kind === 'invalid') {
      diagnostics.push({ severity: 'warning', ...source, message: `${at}: Trailing garbage in UnsetEnvironment=, ignoring: ${rvalue}` });
      break;
    }
    next = r.next;
    const entry = expandSpecifiers(r.word, unit).text;
    if (isValidEnvName(entry) || splitEnvAssignment(entry)) entries.push(entry);
    else diagnostics.push({ severity: 'warning', ...source, message: `${at}: Invalid environment name or assignment UnsetEnvironment=, ignoring: ${entry}` });
  }
  return entries;
}

/** service_verify (src/core/service.c): what makes systemd refuse the unit because of ExecStart=. */
function verifyExecStart(unit: UnitName, type: string | undefined, execStart: readonly ParsedExecCommand[]): UnitDiagnostic[] {
  const oneshot = type === 'oneshot';
  if (execStart.length === 0) {
    return [
      {
        severity: 'warning',
        systemdRefuses: !oneshot,
        message: oneshot
          ? `${unit.name} has no ExecStart=; nothing runs kubelet`
          : `systemd will refuse to start ${unit.name}: Service has no ExecStart= setting, which is only allowed for Type=oneshot services`,
      },
    ];
  }
  if (execStart.length > 1 && !oneshot) {
    const last = execStart[execStart.length - 1]!;
    return [
      {
        severity: 'warning',
        systemdRefuses: true,
        ...last.source,
        message: `systemd will refuse to start ${unit.name}: Service has more than one ExecStart= setting, which is only allowed for Type=oneshot services (${execStart.length} commands; the last one, ${last.source.file}:${last.source.line}, is shown)`,
      },
    ];
  }
  return [];
}

/**
 * What `mkdir --parents DIR…` in ExecStartPre= leaves behind: each absolute DIR exists when
 * ExecStart= runs (systemd runs ExecStartPre= first and stops the unit when one without "-" fails).
 * Only literal words count: a "$" word is expanded at run time, a relative one depends on the cwd.
 */
function mkdirParents(commands: readonly ParsedExecCommand[]): string[] {
  const dirs: string[] = [];
  for (const command of commands) {
    if (!/(^|\/)mkdir$/.test(command.path)) continue;
    const args = command.words.slice(1);
    if (!args.some((a) => a === '--parents' || a === '-p')) continue;
    if (args.some((a) => a.startsWith('-') && a !== '--parents' && a !== '-p')) continue;
    dirs.push(...args.filter((a) => a.startsWith('/') && !a.includes('$')));
  }
  return dirs;
}
