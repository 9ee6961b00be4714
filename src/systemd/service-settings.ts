/**
 * Applies the [Service] assignments of the unit file and its drop-ins, in order, the way systemd's
 * load-fragment callbacks do, and checks what service_verify() (src/core/service.c, v239 and v252)
 * checks before it lets the unit load. Interpreted: the settings that decide kubelet's command line
 * (Type=, ExecStart=, Environment=, EnvironmentFile=, UnsetEnvironment=) and those service_verify()
 * reads with them (ExecStop=, RemainAfterExit=, Restart=, BusName=, [Unit] SuccessAction=).
 */
import type { SourceLocation, UnitDiagnostic, UnitRefusal } from '../model/service.js';
import { isValidEnvName, splitEnvAssignment } from './env-names.js';
import { parseEnvironmentValue } from './environment-setting.js';
import { parseExecValue, type ExecParseOptions, type ParsedExecCommand } from './exec-command.js';
import { extractFirstWord } from './extract-word.js';
import { expandSpecifiers, UNKNOWN_SPECIFIER_ERROR } from './specifiers.js';
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
  /** Whether systemd loads the unit with these settings; the caller passes it on as ServiceModel.load. */
  readonly load: { readonly state: 'loaded' } | { readonly state: 'refused'; readonly refusal: UnitRefusal };
}

export interface ServiceSettingsOptions extends ExecParseOptions {
  /** The node's systemd version (undefined: not known): specifiers and service_verify() differ. */
  readonly systemdVersion?: number;
}

/** What service_verify() reads besides ExecStart= and Type=. */
interface VerifiedSettings {
  readonly type: string | undefined;
  readonly execStart: readonly ParsedExecCommand[];
  readonly execStopCount: number;
  /** SuccessAction= set to something else than "none" (unsure: a value node-check does not parse). */
  readonly successAction: boolean;
  readonly remainAfterExit: boolean;
  readonly restart: string;
  readonly busName: boolean;
}

/** systemd ≥ 253 adds notify-reload; v239 lacks exec. Both are accepted here. */
const SERVICE_TYPES = new Set(['simple', 'exec', 'forking', 'oneshot', 'dbus', 'notify', 'notify-reload', 'idle']);

/** `files[0]` is the unit file (fragment), the rest are drop-ins in the order they apply. */
export function collectServiceSettings(files: readonly ParsedUnitFile[], unit: UnitName, options: ServiceSettingsOptions = {}): ServiceSettings {
  const version = options.systemdVersion;
  let type: string | undefined;
  let execStart: ParsedExecCommand[] = [];
  let execStartPreCount = 0;
  let preStartDirectories: string[] = [];
  let execStopCount = 0;
  let successAction = false;
  let remainAfterExit = false;
  let restart = 'no';
  let busName = false;
  const environment = new Map<string, string>();
  const environmentSources = new Map<string, SourceLocation>();
  let environmentFiles: EnvironmentFileSetting[] = [];
  let unsetEnvironment: string[] = [];
  const diagnostics: UnitDiagnostic[] = [];

  const settings = (refusal?: UnitRefusal): ServiceSettings => {
    const refused = refusal ?? serviceVerify({ type, execStart, execStopCount, successAction, remainAfterExit, restart, busName }, version, diagnostics);
    // What node-check could not tell about the files may be what the refusal depends on: then it is "may refuse".
    const unsure = diagnostics.some((d) => d.severity === 'fatal');
    if (refused && unsure) diagnostics.push({ severity: 'fatal', ...(refused.source ?? {}), message: `systemd may refuse to load ${unit.name}: ${refused.reason}` });
    const load = refused && !unsure ? { state: 'refused' as const, refusal: refused } : { state: 'loaded' as const };
    return { type, execStart, execStartPreCount, preStartDirectories, environment, environmentSources, environmentFiles, unsetEnvironment, diagnostics, load };
  };
  const specifiersOf = (text: string, source: SourceLocation, setting: string): string | undefined => {
    const expanded = expandSpecifiers(text, unit, version);
    const at = `${source.file}:${source.line}`;
    if (expanded.invalid.length > 0) {
      diagnostics.push({ severity: 'warning', ...source, message: `${at}: Failed to resolve unit specifiers in '${text}', ignoring: ${UNKNOWN_SPECIFIER_ERROR}` });
      return undefined;
    }
    if (expanded.unsure.length > 0) diagnostics.push({ severity: 'fatal', ...source, message: `${at}: whether this systemd knows the specifier ${expanded.unsure.join(' ')} is not known: if not, it ignores this ${setting}=` });
    if (expanded.unresolved.length > 0) diagnostics.push({ severity: 'warning', ...source, message: `${at}: specifier ${expanded.unresolved.join(' ')} in ${setting}= is not resolved by node-check; kept as written` });
    return expanded.text;
  };

  for (const [index, file] of files.entries()) {
    const isFragment = index === 0;
    diagnostics.push(...file.diagnostics);
    /**
     * config_parse returned an error here: the fragment then fails to load (a refusal), a drop-in's
     * rest is ignored (unit_load_dropin does not look at config_parse's result).
     */
    const stop = (line: number, reason: string, errno: 'ENOEXEC' | 'EBADMSG' | 'EINVAL'): UnitRefusal | undefined => {
      const source = { file: file.file, line };
      if (isFragment) return { loadState: errno === 'ENOEXEC' ? 'bad-setting' : 'error', by: 'config_parse', ...(errno === 'ENOEXEC' ? {} : { errno }), reason, source };
      diagnostics.push({ severity: 'warning', ...source, message: `${file.file}:${line}: ${reason}; systemd ignores the rest of this drop-in` });
      return undefined;
    };

    let skipRest = false;
    for (const assignment of file.assignments) {
      if (skipRest) break;
      const { key, value, source } = assignment;
      if (assignment.section === 'Unit') {
        const unitSetting = unitSectionSetting(key, value, source, diagnostics);
        if (unitSetting) successAction = unitSetting.successAction;
        continue;
      }
      if (assignment.section !== 'Service') continue;
      const at = `${source.file}:${source.line}`;
      switch (key) {
        case 'Type':
          if (SERVICE_TYPES.has(value)) type = value;
          else diagnostics.push({ severity: 'warning', ...source, message: `${at}: Failed to parse service type, ignoring: ${value}` });
          break;
        case 'ExecStartPre':
          execStartPreCount = value === '' ? 0 : execStartPreCount + 1;
          if (value === '') preStartDirectories = [];
          else preStartDirectories.push(...mkdirParents(parseExecValue(value, source, unit, options).commands));
          break;
        case 'ExecStop':
          // Only whether there is one matters (service_verify); the value is not parsed.
          execStopCount = value === '' ? 0 : execStopCount + 1;
          break;
        case 'RemainAfterExit': {
          const parsed = parseBoolean(value);
          if (parsed === undefined) diagnostics.push({ severity: 'warning', ...source, message: `${at}: Failed to parse boolean value, ignoring: ${value}` });
          else remainAfterExit = parsed;
          break;
        }
        case 'Restart':
          if (RESTART_VALUES.has(value)) restart = value;
          else diagnostics.push({ severity: 'warning', ...source, message: `${at}: Failed to parse service restart specifier, ignoring: ${value}` });
          break;
        case 'BusName':
          busName = value !== '';
          break;
        case 'ExecStart': {
          if (value === '') {
            execStart = [];
            break;
          }
          const parsed = parseExecValue(value, source, unit, options);
          diagnostics.push(...parsed.diagnostics);
          execStart.push(...parsed.commands);
          switch (parsed.kind) {
            case 'commands':
              break;
            case 'refused': {
              const refusal = stop(source.line, parsed.refusal, 'ENOEXEC');
              if (refusal) return settings(refusal);
              skipRest = true;
              break;
            }
          }
          break;
        }
        case 'Environment': {
          if (value === '') {
            environment.clear();
            environmentSources.clear();
            break;
          }
          const parsed = parseEnvironmentValue(value, source, unit, version);
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
          const expanded = specifiersOf(value, source, 'EnvironmentFile');
          if (expanded === undefined) break;
          const optional = expanded.startsWith('-');
          const path = optional ? expanded.slice(1) : expanded;
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
          unsetEnvironment.push(...parseUnsetEnvironment(value, source, unit, version, diagnostics));
          break;
        }
        default:
          break;
      }
    }
    if (!skipRest && file.stopped) {
      const refusal = stop(file.stopped.line, file.stopped.reason, file.stopped.errno);
      if (refusal) return settings(refusal);
    }
  }
  return settings();
}

/** [Unit] settings service_verify() reads; the rest of [Unit] is not interpreted. */
function unitSectionSetting(key: string, value: string, source: SourceLocation, diagnostics: UnitDiagnostic[]): { successAction: boolean } | undefined {
  if (key !== 'SuccessAction') return undefined;
  // config_parse_emergency_action: "" and "none" are none; anything else is an action or ignored.
  if (value !== '' && value !== 'none') diagnostics.push({ severity: 'warning', ...source, message: `${source.file}:${source.line}: SuccessAction=${value} is taken as set (its value is not checked)` });
  return { successAction: value !== '' && value !== 'none' };
}

/** parse_boolean (src/basic/parse-util.c). */
function parseBoolean(value: string): boolean | undefined {
  const v = value.toLowerCase();
  if (['1', 'yes', 'y', 'true', 't', 'on'].includes(v)) return true;
  if (['0', 'no', 'n', 'false', 'f', 'off'].includes(v)) return false;
  return undefined;
}

/** service_restart_table (v239 and v252). */
const RESTART_VALUES = new Set(['no', 'on-success', 'on-failure', 'on-abnormal', 'on-watchdog', 'on-abort', 'always']);

function parseUnsetEnvironment(rvalue: string, source: SourceLocation, unit: UnitName, version: number | undefined, diagnostics: UnitDiagnostic[]): string[] {
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
    const expanded = expandSpecifiers(r.word, unit, version);
    if (expanded.invalid.length > 0) {
      diagnostics.push({ severity: 'warning', ...source, message: `${at}: Failed to resolve unit specifiers in ${r.word}, ignoring: ${UNKNOWN_SPECIFIER_ERROR}` });
      continue;
    }
    if (expanded.unsure.length > 0) diagnostics.push({ severity: 'fatal', ...source, message: `${at}: whether this systemd knows the specifier ${expanded.unsure.join(' ')} is not known: if not, it drops ${r.word} from UnsetEnvironment=` });
    const entry = expanded.text;
    if (isValidEnvName(entry) || splitEnvAssignment(entry)) entries.push(entry);
    else diagnostics.push({ severity: 'warning', ...source, message: `${at}: Invalid environment name or assignment UnsetEnvironment=, ignoring: ${entry}` });
  }
  return entries;
}

/**
 * service_verify (src/core/service.c; v239, and v240+ as at v252 and up to v260): what makes
 * systemd refuse the unit (LoadState=bad-setting: "Unit … has a bad unit file setting."), in
 * systemd's order. A Type= left unset is chosen first (service_add_extras): dbus with BusName=,
 * simple with an ExecStart=, otherwise oneshot. Where the version decides and is not known, a
 * fatal diagnostic says so.
 */
function serviceVerify(s: VerifiedSettings, version: number | undefined, diagnostics: UnitDiagnostic[]): UnitRefusal | undefined {
  const type = s.type ?? (s.busName ? 'dbus' : s.execStart.length > 0 ? 'simple' : 'oneshot');
  const oneshot = type === 'oneshot';
  const v239 = version !== undefined && version <= 239;
  const refuse = (reason: string, source?: SourceLocation): UnitRefusal => ({ loadState: 'bad-setting', by: 'service_verify', reason, ...(source ? { source } : {}) });
  const noStart = s.execStart.length === 0;
  // v240 added SuccessAction= to the first two checks and renamed the first.
  const successCounts = !v239 && s.successAction;
  if (noStart && s.execStopCount === 0 && !successCounts) {
    return refuse(v239 ? 'Service lacks both ExecStart= and ExecStop= setting. Refusing.' : 'Service has no ExecStart=, ExecStop=, or SuccessAction=. Refusing.');
  }
  if (!oneshot && noStart) return refuse('Service has no ExecStart= setting, which is only allowed for Type=oneshot services. Refusing.');
  if (!s.remainAfterExit && noStart && !successCounts) {
    return refuse(v239 ? 'Service has no ExecStart= setting, which is only allowed for RemainAfterExit=yes services. Refusing.' : 'Service has no ExecStart= and no SuccessAction= settings and does not have RemainAfterExit=yes set. Refusing.');
  }
  if (!oneshot && s.execStart.length > 1) {
    const second = s.execStart[1]!;
    return refuse('Service has more than one ExecStart= setting, which is only allowed for Type=oneshot services. Refusing.', second.source);
  }
  if (oneshot) {
    // Before v244 any Restart= but "no" was refused; from v244 only always and on-success.
    const oldRule = s.restart !== 'no';
    const newRule = s.restart === 'always' || s.restart === 'on-success';
    if (version !== undefined && version < 244 ? oldRule : newRule) {
      return refuse(version !== undefined && version < 244 ? "Service has Restart= setting other than no, which isn't allowed for Type=oneshot services. Refusing." : "Service has Restart= set to either always or on-success, which isn't allowed for Type=oneshot services. Refusing.");
    }
    if (version === undefined && oldRule) diagnostics.push({ severity: 'fatal', message: `Type=oneshot with Restart=${s.restart}: systemd before 244 refuses it and later versions accept it; the systemd version is not known` });
  }
  if (type === 'dbus' && !s.busName) return refuse('Service is of type D-Bus but no D-Bus service name has been specified. Refusing.');
  return undefined;
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
