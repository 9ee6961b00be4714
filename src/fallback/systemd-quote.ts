/**
 * Writing command-line words back into an `ExecStart=` line so that systemd reads exactly those
 * words again (src/core/load-fragment.c `config_parse_exec`, same in v239 and v252): each word is
 * read with extract_first_word(EXTRACT_UNQUOTE|EXTRACT_CUNESCAPE), a lone unquoted ";" separates
 * commands, then unit specifiers ("%n") are resolved per word, and at exec time "$VAR"/"${VAR}"
 * are expanded and "$$" becomes "$" (src/basic/env-util.c replace_env).
 */
import { extractFirstWordAndWarn, WHITESPACE } from '../systemd/extract-word.js';

/** Characters that mean nothing to extract_first_word and are safe at the start of a continuation line. */
const BARE_WORD = /^[A-Za-z0-9_./=:,+@%${}-]+$/;

/**
 * The text extract_first_word(EXTRACT_UNQUOTE|EXTRACT_CUNESCAPE) turns back into `word`: bare when
 * nothing in it is special, otherwise double-quoted with C escapes. "#" and ";" are always quoted:
 * at the start of a continued line systemd ≥ 240 would take "#…" for a comment, and a lone ";"
 * separates commands. `%` and `$` pass through unchanged; see literalExecArgument.
 */
export function quoteSystemdWord(word: string): string {
  if (BARE_WORD.test(word)) return word;
  let out = '"';
  for (const c of word) {
    const code = c.codePointAt(0)!;
    if (c === '\\') out += '\\\\';
    else if (c === '"') out += '\\"';
    else if (c === '\n') out += '\\n';
    else if (c === '\t') out += '\\t';
    else if (c === '\r') out += '\\r';
    else if (code < 0x20 || code === 0x7f) out += `\\x${code.toString(16).padStart(2, '0')}`;
    else out += c;
  }
  return out + '"';
}

/**
 * A word that must reach kubelet's argv exactly as `value`: "%" doubled so specifier resolution
 * leaves it, and "$" doubled so environment expansion leaves it (unless the command has the ":"
 * prefix, which turns expansion off). Feed the result to quoteSystemdWord.
 */
export function literalExecArgument(value: string, environmentExpanded: boolean): string {
  const noSpecifiers = value.replace(/%/g, '%%');
  return environmentExpanded ? noSpecifiers.replace(/\$/g, '$$$$') : noSpecifiers;
}

/** An ExecStart= value split into words as written: unquoted and unescaped, specifiers not yet resolved. */
export interface WrittenExecCommand {
  /** "-", "@", ":", "+", "!", "!!" as written in front of the executable. */
  readonly prefixes: string;
  /** The executable word without its prefixes. */
  readonly pathWord: string;
  /** The words after the executable ("\;" already turned into ";"). */
  readonly argWords: readonly string[];
}

/**
 * Splits one ExecStart= value the way config_parse_exec does, but keeps specifiers as written so
 * that words copied back into a drop-in resolve exactly as they did in the original unit.
 * Undefined when the value holds more than one command or cannot be split.
 */
export function splitWrittenExec(raw: string, prefixes: string): WrittenExecCommand | undefined {
  const flags = { unquote: true, cunescape: true } as const;
  const first = extractFirstWordAndWarn(raw, 0, flags, raw);
  if (first.kind !== 'word' || first.word === ';' || !first.word.startsWith(prefixes)) return undefined;
  const argWords: string[] = [];
  let p = first.next;
  while (p !== undefined && p < raw.length) {
    if (raw[p] === ';' && isEndOrBlank(raw, p + 1)) return undefined;
    if (raw[p] === '\\' && raw[p + 1] === ';' && isEndOrBlank(raw, p + 2)) {
      argWords.push(';');
      p = skipBlanks(raw, p + 2);
      continue;
    }
    const word = extractFirstWordAndWarn(raw, p, flags, raw);
    if (word.kind === 'end') break;
    if (word.kind === 'invalid') return undefined;
    argWords.push(word.word);
    p = word.next;
  }
  return { prefixes, pathWord: first.word.slice(prefixes.length), argWords };
}

function isEndOrBlank(text: string, index: number): boolean {
  return index >= text.length || WHITESPACE.includes(text[index]!);
}

function skipBlanks(text: string, index: number): number | undefined {
  while (index < text.length && WHITESPACE.includes(text[index]!)) index++;
  return index < text.length ? index : undefined;
}
