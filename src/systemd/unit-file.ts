/**
 * Unit-file syntax as systemd reads it (src/shared/conf-parser.c `config_parse` / `parse_line`),
 * producing the assignments in file order with the 1-based line where each one starts.
 *
 * Checked against systemd v252 (RHEL 9 tree) and v239 (RHEL 8 tree); the two differ, see
 * UnitFileDialect. Lines end at "\n", "\r" or a "\r\n"/"\n\r" pair (read_line). A line ending in an
 * unescaped backslash continues: the backslash becomes a space and the next line is appended.
 */
import type { SourceLocation, UnitDiagnostic } from '../model/service.js';

export interface UnitAssignment {
  readonly section: string;
  readonly key: string;
  readonly value: string;
  /** The first physical line of the (possibly continued) assignment. */
  readonly source: SourceLocation;
}

export interface ParsedUnitFile {
  readonly file: string;
  readonly assignments: readonly UnitAssignment[];
  readonly diagnostics: readonly UnitDiagnostic[];
  /**
   * systemd stopped reading the file here (config_parse returned an error): a fragment then fails
   * to load; for a drop-in the rest of the file is ignored. The caller decides which.
   */
  readonly stopped?: { readonly line: number; readonly reason: string; readonly errno: 'EBADMSG' | 'EINVAL' };
}

export interface UnitFileDialect {
  /**
   * 'skip' (systemd ≥ 240, PR #10651): a line whose first non-blank character is "#" or ";" is
   * dropped before continuation handling, even inside a continued value. 'join' (≤ 239): it is
   * appended to the continued value, and a comment ending in "\" swallows the next line.
   */
  readonly commentsInsideContinuation: 'skip' | 'join';
  /** A line without "=": 'ignore' (v252, a warning) or 'stop' (≤ 239, -EINVAL ends parsing). */
  readonly missingEquals: 'ignore' | 'stop';
}

export const MODERN_UNIT_FILE_DIALECT: UnitFileDialect = { commentsInsideContinuation: 'skip', missingEquals: 'ignore' };
export const LEGACY_UNIT_FILE_DIALECT: UnitFileDialect = { commentsInsideContinuation: 'join', missingEquals: 'stop' };

/** LONG_LINE_MAX: read_line refuses a line of this many bytes or more; so does a continuation. */
export const LONG_LINE_MAX = 1024 * 1024;
const KNOWN_SECTIONS = new Set(['Unit', 'Service', 'Install']);
const UTF8_BOM = '\xef\xbb\xbf';
const WHITESPACE = ' \t\n\r';
const utf8 = new TextDecoder('utf-8', { fatal: true });
const ASCII = /^[\x00-\x7f]*$/;
const LINE_END = /\r\n|\n\r|\n|\r/;

export function parseUnitFile(content: Uint8Array | string, file: string, dialect: UnitFileDialect = MODERN_UNIT_FILE_DIALECT): ParsedUnitFile {
  const bytes = typeof content === 'string' ? Buffer.from(content, 'utf8') : Buffer.from(content.buffer, content.byteOffset, content.byteLength);
  const nul = bytes.indexOf(0);
  if (nul >= 0) {
    const line = bytes.subarray(0, nul).toString('latin1').split(/\r\n|\n\r|\n|\r/).length;
    return fatal(file, line, `${file} contains a NUL byte (line ${line}): not a unit file node-check can read`);
  }
  // Bytes as latin1 so that limits count bytes and invalid UTF-8 is found per logical line.
  const lines = splitLines(bytes.toString('latin1'));
  const assignments: UnitAssignment[] = [];
  const diagnostics: UnitDiagnostic[] = [];
  let section: string | undefined;
  let sectionIgnored = false;
  let continuation: string | undefined;
  let continuationLine = 0;
  let bomSeen = false;

  const parseLogicalLine = (raw: string, line: number): ParsedUnitFile['stopped'] | 'fatal' | undefined => {
    let l = strip(raw);
    if (l === '') return undefined;
    if (dialect.commentsInsideContinuation === 'join' && (l[0] === '#' || l[0] === ';')) return undefined;
    let text: string;
    try {
      // Bytes as latin1: a line of ASCII bytes is its own UTF-8 decoding.
      text = ASCII.test(l) ? l : utf8.decode(Buffer.from(l, 'latin1'));
    } catch {
      diagnostics.push({ severity: 'fatal', file, line, message: `${file}:${line}: not valid UTF-8; systemd refuses such a line` });
      return 'fatal';
    }
    l = text;
    if (dialect.commentsInsideContinuation === 'join' && /^\.include(\s|$)/.test(l)) {
      diagnostics.push({ severity: 'fatal', file, line, message: `${file}:${line}: ".include" is not supported by node-check` });
      return 'fatal';
    }
    if (l[0] === '[') {
      if (l[l.length - 1] !== ']') return { line, reason: `Invalid section header '${l}'`, errno: 'EBADMSG' };
      const name = l.slice(1, -1);
      if (/[\x00-\x1f\x7f\\"']/.test(name)) return { line, reason: `Bad characters in section header '${l}'`, errno: 'EBADMSG' };
      if (KNOWN_SECTIONS.has(name)) {
        section = name;
        sectionIgnored = false;
      } else {
        if (!name.startsWith('X-')) diagnostics.push({ severity: 'warning', file, line, message: `${file}:${line}: Unknown section '${name}'. Ignoring.` });
        section = undefined;
        sectionIgnored = true;
      }
      return undefined;
    }
    if (section === undefined) {
      if (!sectionIgnored) diagnostics.push({ severity: 'warning', file, line, message: `${file}:${line}: Assignment outside of section. Ignoring.` });
      return undefined;
    }
    const eq = l.indexOf('=');
    if (eq < 0) {
      diagnostics.push({ severity: 'warning', file, line, message: `${file}:${line}: Missing '=', ignoring line.` });
      return dialect.missingEquals === 'stop' ? { line, reason: "Missing '='.", errno: 'EINVAL' } : undefined;
    }
    if (eq === 0) {
      diagnostics.push({ severity: 'warning', file, line, message: `${file}:${line}: Missing key name before '=', ignoring line.` });
      return undefined;
    }
    assignments.push({ section, key: strip(l.slice(0, eq)), value: strip(l.slice(eq + 1)), source: { file, line } });
    return undefined;
  };

  const finish = (outcome: ParsedUnitFile['stopped'] | 'fatal' | undefined): ParsedUnitFile | undefined => {
    if (outcome === undefined) return undefined;
    if (outcome === 'fatal') return { file, assignments: [], diagnostics };
    return { file, assignments, diagnostics, stopped: outcome };
  };

  for (let index = 0; index < lines.length; index++) {
    const lineNumber = index + 1;
    let l = lines[index]!;
    if (l.length >= LONG_LINE_MAX) return fatal(file, lineNumber, `${file}:${lineNumber}: line longer than systemd's limit of 1 MiB`);
    if (dialect.commentsInsideContinuation === 'skip') {
      const first = l.replace(/^[ \t\n\r]+/, '')[0];
      if (first === '#' || first === ';') continue;
    }
    if (!bomSeen && l.startsWith(UTF8_BOM)) {
      l = l.slice(UTF8_BOM.length);
      bomSeen = true;
    }
    let p: string;
    if (continuation !== undefined) {
      if (continuation.length + l.length > LONG_LINE_MAX) {
        return fatal(file, lineNumber, `${file}:${lineNumber}: continued line longer than systemd's limit of 1 MiB`);
      }
      p = continuation + l;
    } else {
      p = l;
      continuationLine = lineNumber;
    }
    if (endsInEscape(p)) {
      continuation = p.slice(0, -1) + ' ';
      continue;
    }
    continuation = undefined;
    const done = finish(parseLogicalLine(p, continuationLine));
    if (done) return done;
  }
  if (continuation !== undefined) {
    // A backslash on the last line still ends the value there (systemd ≥ v239, PR #8941).
    const done = finish(parseLogicalLine(continuation, continuationLine));
    if (done) return done;
  }
  return { file, assignments, diagnostics };
}

function fatal(file: string, line: number, message: string): ParsedUnitFile {
  return { file, assignments: [], diagnostics: [{ severity: 'fatal', file, line, message }] };
}

/** read_line's line ends: "\n", "\r", "\r\n" or "\n\r" (one of each kind per end). */
export function splitLines(text: string): string[] {
  // Native split (a character loop was a third of a unit file's parse); no line after the last end.
  const lines = text.split(LINE_END);
  if (lines[lines.length - 1] === '') lines.pop();
  return lines;
}

/**
 * The escape scan of config_parse: does the line end in a backslash that is not itself escaped?
 * That is an odd run of backslashes at the end (whatever precedes the run ends unescaped).
 */
function endsInEscape(line: string): boolean {
  let run = 0;
  while (run < line.length && line[line.length - 1 - run] === '\\') run++;
  return run % 2 === 1;
}

function strip(s: string): string {
  let a = 0;
  let b = s.length;
  while (a < b && WHITESPACE.includes(s[a]!)) a++;
  while (b > a && WHITESPACE.includes(s[b - 1]!)) b--;
  return s.slice(a, b);
}
