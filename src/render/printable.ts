/**
 * Escapes what a terminal or a line-based format would act on, so untrusted text (provider names,
 * paths, messages from config files) shows as exactly the characters it holds: control
 * characters as `\xNN`, characters that move or reorder text as `\u{NNNN}`, a lone surrogate half
 * as U+FFFD (what it becomes in UTF-8 anyway). The result has no line break and no NUL.
 */

// C0 controls (includes \n, \r, \t, NUL), DEL and C1 controls (includes NEL, U+0085).
const CONTROL = /[\u0000-\u001f\u007f-\u009f]/g;
// Line/paragraph separators, bidi marks, embeddings, overrides and isolates ("Trojan Source",
// CVE-2021-42574).
const LAYOUT = /[\u2028\u2029\u200e\u200f\u202a-\u202e\u2066-\u2069]/g;
const LONE_SURROGATE = /[\ud800-\udbff](?![\udc00-\udfff])|(?<![\ud800-\udbff])[\udc00-\udfff]/g;

export function escapeUnprintable(value: string): string {
  return value
    .replace(LONE_SURROGATE, '\ufffd')
    .replace(CONTROL, (c) => `\\x${c.charCodeAt(0).toString(16).padStart(2, '0')}`)
    .replace(LAYOUT, (c) => `\\u{${c.charCodeAt(0).toString(16).padStart(4, '0')}}`);
}
