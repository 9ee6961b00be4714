/**
 * An `EnvironmentFile=` as systemd reads it (src/basic/env-file.c `parse_env_file_internal` +
 * `load_env_file`, v252; v239 has the same state machine in fileio.c):
 * - `KEY=VALUE` lines; blanks around the key and before the value are dropped; a key without "="
 *   is ignored; a later assignment of the same key wins;
 * - "#" or ";" starts a comment only where a key could start;
 * - '…' is literal; "…" keeps a backslash except before " \ ` $ (and drops backslash-newline);
 *   unquoted, a backslash takes the next character literally (backslash-newline joins lines) and
 *   trailing blanks are cut;
 * - reading stops at a NUL byte; invalid UTF-8 in a key or value makes systemd fail to load the
 *   file (and refuse to start the unit unless the file is optional);
 * - names that are not valid (including "export FOO": systemd has no `export`) are dropped.
 * v254 changed one thing: a comment ending in a backslash no longer swallows the next line.
 */
import type { UnitDiagnostic } from '../model/service.js';
import { isValidEnvName } from './env-names.js';

export interface EnvFile {
  readonly variables: Readonly<Record<string, string>>;
  readonly diagnostics: readonly UnitDiagnostic[];
  /** Set when systemd fails to load the file (then nothing from it is used). */
  readonly failure?: string;
}

export interface EnvFileOptions {
  /** true before systemd v254: "# text \" continues the comment onto the next line. */
  readonly commentBackslashContinues?: boolean;
}

const WHITESPACE = ' \t\n\r';
const NEWLINE = '\n\r';
/** SHELL_NEED_ESCAPE: the characters a backslash unescapes inside double quotes. */
const SHELL_NEED_ESCAPE = '"\\`$';
const utf8 = new TextDecoder('utf-8', { fatal: true });

type State = 'preKey' | 'key' | 'preValue' | 'value' | 'valueEscape' | 'single' | 'double' | 'doubleEscape' | 'comment' | 'commentEscape';

export function parseEnvFile(content: Uint8Array | string, path: string, options: EnvFileOptions = {}): EnvFile {
  const bytes = typeof content === 'string' ? Buffer.from(content, 'utf8') : Buffer.from(content.buffer, content.byteOffset, content.byteLength);
  const nul = bytes.indexOf(0);
  const text = (nul >= 0 ? bytes.subarray(0, nul) : bytes).toString('latin1');
  const commentBackslashContinues = options.commentBackslashContinues ?? true;

  const variables = new Map<string, string>();
  const diagnostics: UnitDiagnostic[] = [];
  let failure: string | undefined;
  let state: State = 'preKey';
  let key = '';
  let value: string | undefined;
  let keyTrailingBlank = -1;
  let valueTrailingBlank = -1;
  let line = 1;
  let keyLine = 1;

  const push = (): void => {
    if (failure) return;
    const k = keyTrailingBlank >= 0 ? key.slice(0, keyTrailingBlank) : key;
    let name: string;
    let decoded: string;
    try {
      name = utf8.decode(Buffer.from(k, 'latin1'));
      decoded = utf8.decode(Buffer.from(value ?? '', 'latin1'));
    } catch {
      failure = `${path}:${keyLine}: invalid UTF-8, systemd fails to load this file`;
      return;
    }
    if (!isValidEnvName(name)) {
      const hint = /^export\s/.test(name) ? ' (systemd does not understand "export")' : '';
      diagnostics.push({ severity: 'warning', file: path, line: keyLine, message: `${path}:${keyLine}: invalid variable name "${name}", systemd ignores this assignment${hint}` });
      return;
    }
    variables.set(name, decoded);
  };
  const resetAssignment = (): void => {
    key = '';
    value = undefined;
    keyTrailingBlank = -1;
    valueTrailingBlank = -1;
  };

  for (const c of text) {
    switch (state) {
      case 'preKey':
        if (c === '#' || c === ';') state = 'comment';
        else if (!WHITESPACE.includes(c)) {
          state = 'key';
          keyLine = line;
          key = c;
        }
        break;
      case 'key':
        if (NEWLINE.includes(c)) {
          state = 'preKey';
          resetAssignment();
        } else if (c === '=') {
          state = 'preValue';
          valueTrailingBlank = -1;
        } else {
          if (!WHITESPACE.includes(c)) keyTrailingBlank = -1;
          else if (keyTrailingBlank < 0) keyTrailingBlank = key.length;
          key += c;
        }
        break;
      case 'preValue':
        if (NEWLINE.includes(c)) {
          state = 'preKey';
          push();
          resetAssignment();
        } else if (c === "'") state = 'single';
        else if (c === '"') state = 'double';
        else if (c === '\\') state = 'valueEscape';
        else if (!WHITESPACE.includes(c)) {
          state = 'value';
          value = (value ?? '') + c;
        }
        break;
      case 'value':
        if (NEWLINE.includes(c)) {
          state = 'preKey';
          if (valueTrailingBlank >= 0) value = (value ?? '').slice(0, valueTrailingBlank);
          push();
          resetAssignment();
        } else if (c === '\\') {
          state = 'valueEscape';
          valueTrailingBlank = -1;
        } else {
          if (!WHITESPACE.includes(c)) valueTrailingBlank = -1;
          else if (valueTrailingBlank < 0) valueTrailingBlank = (value ?? '').length;
          value = (value ?? '') + c;
        }
        break;
      case 'valueEscape':
        state = 'value';
        // An escaped newline is dropped entirely.
        if (!NEWLINE.includes(c)) value = (value ?? '') + c;
        break;
      case 'single':
        if (c === "'") state = 'preValue';
        else value = (value ?? '') + c;
        break;
      case 'double':
        if (c === '"') state = 'preValue';
        else if (c === '\\') state = 'doubleEscape';
        else value = (value ?? '') + c;
        break;
      case 'doubleEscape':
        state = 'double';
        if (SHELL_NEED_ESCAPE.includes(c)) value = (value ?? '') + c;
        else if (c !== '\n') value = (value ?? '') + '\\' + c;
        break;
      case 'comment':
        if (c === '\\') state = 'commentEscape';
        else if (NEWLINE.includes(c)) state = 'preKey';
        break;
      case 'commentEscape':
        state = !commentBackslashContinues && NEWLINE.includes(c) ? 'preKey' : 'comment';
        break;
    }
    if (c === '\n') line++;
  }
  if (state === 'value' && valueTrailingBlank >= 0) value = (value ?? '').slice(0, valueTrailingBlank);
  if (['preValue', 'value', 'valueEscape', 'single', 'double', 'doubleEscape'].includes(state)) push();

  const result = { variables: Object.fromEntries(variables), diagnostics };
  return failure ? { ...result, variables: {}, failure } : result;
}
