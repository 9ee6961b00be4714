/**
 * systemd's word splitter (src/basic/extract-word.c `extract_first_word`, identical in behaviour in
 * v239 and v252): leading separators are skipped, quotes may open anywhere inside a word and are
 * removed, a backslash escapes the next character (C escapes with `cunescape`), and a word ends at
 * the first unquoted separator.
 */
import { cunescapeOne } from './c-unescape.js';

/** systemd's WHITESPACE. */
export const WHITESPACE = ' \t\n\r';

export interface ExtractFlags {
  /** EXTRACT_UNQUOTE (v239: EXTRACT_QUOTES): '…' and "…" group and are removed. */
  readonly unquote?: boolean;
  /** EXTRACT_CUNESCAPE: backslash sequences are C escapes. */
  readonly cunescape?: boolean;
  /** EXTRACT_CUNESCAPE_RELAX: an unknown escape is kept verbatim (backslash included). */
  readonly cunescapeRelax?: boolean;
  /** EXTRACT_RELAX: unbalanced quotes and a trailing backslash end the word instead of failing. */
  readonly relax?: boolean;
}

export type ExtractResult =
  /** `next` is where the following word may start, or undefined at the end of the text. */
  | { readonly kind: 'word'; readonly word: string; readonly next: number | undefined }
  | { readonly kind: 'end' }
  /** -EINVAL: unbalanced quote, trailing backslash or a bad escape. */
  | { readonly kind: 'invalid' };

export function extractFirstWord(
  text: string,
  start: number | undefined,
  flags: ExtractFlags,
  separators: string = WHITESPACE,
): ExtractResult {
  if (start === undefined) return { kind: 'end' };
  let i = start;
  while (i < text.length && separators.includes(text[i]!)) i++;
  if (i >= text.length) return { kind: 'end' };

  let word = '';
  let quote = '';
  let backslash = false;
  for (; ; i++) {
    const c = text[i];
    if (backslash) {
      backslash = false;
      if (c === undefined) {
        if (flags.cunescapeRelax && (!quote || flags.relax)) return { kind: 'word', word: word + '\\', next: undefined };
        if (flags.relax) return { kind: 'word', word, next: undefined };
        return { kind: 'invalid' };
      }
      if (flags.cunescape) {
        const unescaped = cunescapeOne(text, i);
        if (unescaped) {
          word += unescaped.value;
          i += unescaped.length - 1;
        } else if (flags.cunescapeRelax) {
          word += '\\' + c;
        } else {
          return { kind: 'invalid' };
        }
      } else {
        word += c;
      }
      continue;
    }
    if (quote) {
      for (; ; i++) {
        const q = text[i];
        if (q === undefined) return flags.relax ? { kind: 'word', word, next: undefined } : { kind: 'invalid' };
        if (q === quote) {
          quote = '';
          break;
        }
        if (q === '\\') {
          backslash = true;
          break;
        }
        word += q;
      }
      continue;
    }
    for (; ; i++) {
      const u = text[i];
      if (u === undefined) return { kind: 'word', word, next: undefined };
      if ((u === "'" || u === '"') && flags.unquote) {
        quote = u;
        break;
      }
      if (u === '\\') {
        backslash = true;
        break;
      }
      if (separators.includes(u)) {
        while (i < text.length && separators.includes(text[i]!)) i++;
        return { kind: 'word', word, next: i < text.length ? i : undefined };
      }
      word += u;
    }
  }
}

export type WarnedExtractResult =
  | { readonly kind: 'word'; readonly word: string; readonly next: number | undefined; readonly warning?: string }
  | { readonly kind: 'end' }
  | { readonly kind: 'invalid'; readonly warning: string };

/**
 * `extract_first_word_and_warn`: on failure retry keeping unknown escapes verbatim (a warning);
 * if that fails too, the quoting is unbalanced (an error the caller reports).
 */
export function extractFirstWordAndWarn(
  text: string,
  start: number | undefined,
  flags: ExtractFlags,
  rvalue: string,
): WarnedExtractResult {
  const first = extractFirstWord(text, start, flags);
  if (first.kind !== 'invalid') return first;
  if (!flags.cunescapeRelax) {
    const relaxed = extractFirstWord(text, start, { ...flags, cunescapeRelax: true });
    if (relaxed.kind === 'word') return { ...relaxed, warning: `Ignoring unknown escape sequences: "${relaxed.word}"` };
  }
  return { kind: 'invalid', warning: `Unbalanced quoting, ignoring: "${rvalue}"` };
}

/** `strv_split_full(WHITESPACE, flags)`: every word, or undefined when the text is invalid. */
export function splitWords(text: string, flags: ExtractFlags): string[] | undefined {
  const words: string[] = [];
  let next: number | undefined = 0;
  for (;;) {
    const r = extractFirstWord(text, next, flags);
    if (r.kind === 'end') return words;
    if (r.kind === 'invalid') return undefined;
    words.push(r.word);
    next = r.next;
  }
}
