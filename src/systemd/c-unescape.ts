/**
 * One C escape sequence as systemd decodes it (src/basic/escape.c `cunescape_one`, same in v239 and
 * v252): \a \b \f \n \r \t \v \\ \" \' \s, \xNN, \uNNNN, \UNNNNNNNN and three-digit octal \NNN.
 * NUL is refused in every form. \xNN and \NNN stand for one raw byte in systemd; a JS string cannot
 * hold a raw byte, so values above 0x7f become the code point U+00NN (documented deviation).
 */

export interface UnescapedChar {
  readonly value: string;
  /** Characters consumed after the backslash. */
  readonly length: number;
}

const SIMPLE: Readonly<Record<string, string>> = {
  a: '\x07',
  b: '\b',
  f: '\f',
  n: '\n',
  r: '\r',
  t: '\t',
  v: '\v',
  '\\': '\\',
  '"': '"',
  "'": "'",
  s: ' ',
};

/** Decodes the escape whose first character (after the backslash) is at `text[index]`. */
export function cunescapeOne(text: string, index: number): UnescapedChar | undefined {
  const c = text[index];
  if (c === undefined) return undefined;
  const simple = SIMPLE[c];
  if (simple !== undefined) return { value: simple, length: 1 };
  if (c === 'x') {
    const code = hexDigits(text, index + 1, 2);
    if (code === undefined || code === 0) return undefined;
    return { value: String.fromCharCode(code), length: 3 };
  }
  if (c === 'u') {
    const code = hexDigits(text, index + 1, 4);
    if (code === undefined || code === 0) return undefined;
    return { value: String.fromCharCode(code), length: 5 };
  }
  if (c === 'U') {
    const code = hexDigits(text, index + 1, 8);
    if (code === undefined || code === 0 || !unicharIsValid(code)) return undefined;
    return { value: String.fromCodePoint(code), length: 9 };
  }
  if (c >= '0' && c <= '7') {
    const code = octalDigits(text, index, 3);
    if (code === undefined || code === 0 || code > 255) return undefined;
    return { value: String.fromCharCode(code), length: 3 };
  }
  return undefined;
}

function hexDigits(text: string, start: number, count: number): number | undefined {
  const digits = text.slice(start, start + count);
  return digits.length === count && /^[0-9a-fA-F]+$/.test(digits) ? Number.parseInt(digits, 16) : undefined;
}

function octalDigits(text: string, start: number, count: number): number | undefined {
  const digits = text.slice(start, start + count);
  return digits.length === count && /^[0-7]+$/.test(digits) ? Number.parseInt(digits, 8) : undefined;
}

/** systemd's unichar_is_valid (src/basic/utf8.c). */
function unicharIsValid(ch: number): boolean {
  if (ch >= 0x110000) return false;
  if ((ch & 0xfffff800) === 0xd800) return false;
  if (ch >= 0xfdd0 && ch <= 0xfdef) return false;
  if ((ch & 0xfffe) === 0xfffe) return false;
  return true;
}
