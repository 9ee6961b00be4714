/**
 * Makes an untrusted string safe as the value of one journal field sent through
 * `logger --journald` (provider names, paths and messages come from config files).
 *
 * util-linux logger (misc-utils/logger.c, journald_entry) reads its input with getline(): every
 * "\n" ends a field, the first empty line ends the entry, a NUL cuts the line short (it measures
 * with strlen), trailing whitespace is trimmed (2.38; older versions keep it and reject an empty
 * line), and a second "MESSAGE=" line is appended to the first MESSAGE. journald splits each line
 * at its first "=", so "=" inside a value is harmless. So a value must carry no line break and no
 * NUL; everything else unprintable is escaped too, so that what the journal stores (and a terminal
 * shows) is exactly the text node-check meant, and nothing can pose as another line or field.
 */
import { escapeUnprintable } from '../render/printable.js';

/** Longest value node-check sends, in UTF-16 code units; MESSAGE may be longer than the others. */
export const MAX_VALUE_LENGTH = 2048;
export const MAX_MESSAGE_LENGTH = 4096;

const TRUNCATION_MARK = '…[truncated]';

/**
 * The value as it will be stored: control characters as `\xNN`, layout characters as `\u{NNNN}`,
 * no trailing spaces (logger would trim them), at most `maxLength` code units (cut on a code point
 * boundary, marked "…[truncated]"). Idempotent, so values may be sanitized at every layer.
 */
export function sanitizeJournalValue(value: string, maxLength = MAX_VALUE_LENGTH): string {
  const escaped = escapeUnprintable(value).replace(/ +$/, '');
  if (escaped.length <= maxLength) return escaped;
  let cut = maxLength - TRUNCATION_MARK.length;
  // Do not split a surrogate pair.
  if (/[\ud800-\udbff]/.test(escaped.charAt(cut - 1))) cut -= 1;
  return escaped.slice(0, cut).replace(/ +$/, '') + TRUNCATION_MARK;
}
