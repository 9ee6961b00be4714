/**
 * The value of one non-empty `ExecStart=` line (src/core/load-fragment.c `config_parse_exec`, v252;
 * v239 is the same apart from the prefixes it knows). It may hold several commands separated by a
 * lone ";" ("\;" is a literal ";" argument). Each command: prefixes on the first word, then the
 * executable, then arguments; words are unquoted, C-unescaped and specifier-expanded here, while
 * $VAR/${VAR} stay for execution time (env-expand.ts).
 */
import type { SourceLocation, UnitDiagnostic } from '../model/service.js';
import { extractFirstWordAndWarn, WHITESPACE } from './extract-word.js';
import { expandSpecifiers, UNKNOWN_SPECIFIER_ERROR } from './specifiers.js';
import type { UnitName } from './unit-name.js';

export interface ParsedExecCommand {
  /** The whole value after "ExecStart=", continuation lines joined. */
  readonly raw: string;
  readonly source: SourceLocation;
  /** Prefix characters as written, e.g. "-", ":", "@+", "!!". */
  readonly prefixes: string;
  /** The executable systemd runs (path_simplify'd). */
  readonly path: string;
  /** What systemd stores as argv: the executable (or, with "@", the second word) and the arguments. */
  readonly words: readonly string[];
  /** ":" was given: no environment expansion. */
  readonly noEnvExpand: boolean;
}

export type ExecSetting =
  | { readonly kind: 'commands'; readonly commands: readonly ParsedExecCommand[]; readonly diagnostics: readonly UnitDiagnostic[] }
  /** systemd returns -ENOEXEC: it stops reading this file (a fragment then fails to load, LoadState=bad-setting). */
  | { readonly kind: 'refused'; readonly commands: readonly ParsedExecCommand[]; readonly diagnostics: readonly UnitDiagnostic[]; readonly refusal: string };

export interface ExecParseOptions {
  /** The ":" prefix exists (systemd ≥ 243, systemd/systemd#11654; not in RHEL 8's 239, where ":/path" is refused). */
  readonly colonPrefix?: boolean;
  /** The node's systemd version (undefined: not known), for the specifiers its table has. */
  readonly systemdVersion?: number;
}

const FLAG = { ignore: 1, argv0: 2, noEnv: 4, privileged: 8, noSetuid: 16, ambient: 32, viaShell: 64 } as const;

export function parseExecValue(rvalue: string, source: SourceLocation, unit: UnitName, options: ExecParseOptions = {}): ExecSetting {
  const colonPrefix = options.colonPrefix ?? true;
  const commands: ParsedExecCommand[] = [];
  const diagnostics: UnitDiagnostic[] = [];
  const at = `${source.file}:${source.line}`;
  const warn = (message: string) => diagnostics.push({ severity: 'warning', ...source, message: `${at}: ${message}` });
  const done = (): ExecSetting => ({ kind: 'commands', commands, diagnostics });
  const refused = (refusal: string): ExecSetting => ({ kind: 'refused', commands, diagnostics, refusal });
  /** Expands a word; undefined when systemd fails it (an unknown specifier). */
  const expand = (word: string, quoted: boolean): { text: string } | { failure: string } => {
    const expanded = expandSpecifiers(word, unit, options.systemdVersion);
    if (expanded.invalid.length > 0) return { failure: `Failed to resolve unit specifiers in ${quoted ? `'${word}'` : word}` };
    if (expanded.unsure.length > 0) {
      diagnostics.push({ severity: 'fatal', ...source, message: `${at}: whether systemd${options.systemdVersion === undefined ? ' (version unknown)' : ` ${options.systemdVersion}`} knows the specifier ${expanded.unsure.join(' ')} is not known: if not, it drops this ExecStart= and stops reading the file` });
    }
    if (expanded.unresolved.length > 0) warn(`specifier ${expanded.unresolved.join(' ')} is not resolved by node-check; kept as written`);
    return { text: expanded.text };
  };
  /** config_parse_exec on a failed specifier: "Failed to resolve unit specifiers in …[, ignoring]: Invalid slot". */
  const specifierFailure = (failure: string, ignore: boolean): ExecSetting => {
    const message = `${failure}${ignore ? ', ignoring' : ''}: ${UNKNOWN_SPECIFIER_ERROR}`;
    warn(message);
    return ignore ? done() : refused(message);
  };
  const extract = { unquote: true, cunescape: true } as const;
  let p: number | undefined = 0;
  let semicolon: boolean;
  do {
    semicolon = false;
    const first = extractFirstWordAndWarn(rvalue, p, extract, rvalue);
    if (first.kind === 'end') break;
    if (first.kind === 'invalid') {
      // An unparsable first word drops the line without refusing the unit.
      warn(first.warning);
      break;
    }
    if (first.warning) warn(first.warning);
    p = first.next;
    if (first.word === ';') {
      semicolon = true;
      continue;
    }

    let flags = 0;
    let f = 0;
    for (; ; f++) {
      const c = first.word[f];
      if (c === '-' && !(flags & FLAG.ignore)) flags |= FLAG.ignore;
      else if (c === '@' && !(flags & FLAG.argv0)) flags |= FLAG.argv0;
      else if (c === ':' && colonPrefix && !(flags & FLAG.noEnv)) flags |= FLAG.noEnv;
      else if (c === '+' && !(flags & (FLAG.privileged | FLAG.noSetuid | FLAG.ambient))) flags |= FLAG.privileged;
      else if (c === '!' && !(flags & (FLAG.privileged | FLAG.noSetuid | FLAG.ambient))) flags |= FLAG.noSetuid;
      else if (c === '!' && !(flags & (FLAG.privileged | FLAG.ambient))) flags = (flags & ~FLAG.noSetuid) | FLAG.ambient;
      else if (c === '|' && !(flags & FLAG.viaShell)) flags |= FLAG.viaShell;
      else break;
    }
    const ignore = (flags & FLAG.ignore) !== 0;
    const refuse = (message: string): ExecSetting => {
      if (ignore) {
        warn(`${message}, ignoring`);
        return done();
      }
      return refused(message);
    };
    if (flags & FLAG.viaShell) warn('the "|" prefix (run through a shell, systemd ≥ 258) is not modelled; argv is shown as written');

    const pathExpansion = expand(first.word.slice(f), true);
    if ('failure' in pathExpansion) return specifierFailure(pathExpansion.failure, ignore);
    const path = pathExpansion.text;
    if (path === '') return refuse(`Empty path in command line: '${rvalue}'`);
    if (!isSafeString(path)) return refuse(`Executable name contains special characters: ${path}`);
    if (path.endsWith('/')) return refuse(`Executable path specifies a directory: ${path}`);
    if (!(path.startsWith('/') ? isValidPath(path) : isValidFilename(path))) {
      return refuse(`Neither a valid executable name nor an absolute path: ${path}`);
    }

    const words: string[] = flags & FLAG.argv0 ? [] : [path];
    while (p !== undefined && p < rvalue.length) {
      if (rvalue[p] === ';' && isEndOrBlank(rvalue, p + 1)) {
        p = skipBlanks(rvalue, p + 1);
        semicolon = true;
        break;
      }
      if (rvalue[p] === '\\' && rvalue[p + 1] === ';' && isEndOrBlank(rvalue, p + 2)) {
        p = skipBlanks(rvalue, p + 2);
        words.push(';');
        continue;
      }
      const word = extractFirstWordAndWarn(rvalue, p, extract, rvalue);
      if (word.kind === 'end') break;
      if (word.kind === 'invalid') {
        warn(word.warning);
        return ignore ? done() : refused(word.warning);
      }
      if (word.warning) warn(word.warning);
      const expanded = expand(word.word, false);
      if ('failure' in expanded) return specifierFailure(expanded.failure, ignore);
      words.push(expanded.text);
      p = word.next;
    }
    if (words.length === 0) return refuse(`Empty executable name or zeroeth argument: ${rvalue}`);
    commands.push({
      raw: rvalue,
      source,
      prefixes: first.word.slice(0, f),
      path: simplifyPath(path),
      words,
      noEnvExpand: (flags & FLAG.noEnv) !== 0,
    });
  } while (semicolon);
  return done();
}

function isEndOrBlank(text: string, index: number): boolean {
  return index >= text.length || WHITESPACE.includes(text[index]!);
}

function skipBlanks(text: string, index: number): number | undefined {
  while (index < text.length && WHITESPACE.includes(text[index]!)) index++;
  return index < text.length ? index : undefined;
}

/** string_is_safe: no control characters, quotes, backslash or DEL. */
function isSafeString(s: string): boolean {
  return !/[\x01-\x1f\x7f"'\\]/.test(s);
}

function isValidFilename(s: string): boolean {
  return s !== '' && s !== '.' && s !== '..' && !s.includes('/') && Buffer.byteLength(s) <= 255;
}

function isValidPath(s: string): boolean {
  return Buffer.byteLength(s) < 4096 && s.split('/').every((part) => Buffer.byteLength(part) <= 255);
}

/** path_simplify: no "//", no "/./", no trailing "/." (".." is kept, as systemd does). */
function simplifyPath(path: string): string {
  const absolute = path.startsWith('/');
  const parts = path.split('/').filter((part) => part !== '' && part !== '.');
  const joined = parts.join('/');
  return absolute ? '/' + joined : joined || '.';
}
