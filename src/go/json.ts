/**
 * The parts of Go's encoding/json that show in kubelet's errors: the syntax checker (its
 * SyntaxError texts), string decoding, key folding and string encoding (json.Marshal), plus a
 * JSON value tree that keeps duplicate keys in order, as Go's decoder sees them.
 * Source: golang/go src/encoding/json/scanner.go, decode.go, encode.go, fold.go.
 */
import { isUtf8 } from 'node:buffer';
import { goQuoteRune } from './quote.js';
import { decodeRune, RUNE_ERROR } from './utf8.js';

/** A decoded JSON value. Objects keep every member in order, duplicates included. */
export type GoJson =
  | { readonly kind: 'null' }
  | { readonly kind: 'bool'; readonly value: boolean }
  | { readonly kind: 'number'; readonly text: string }
  | { readonly kind: 'string'; readonly value: string }
  | { readonly kind: 'array'; readonly items: readonly GoJson[] }
  | { readonly kind: 'object'; readonly members: readonly GoJsonMember[] };

export interface GoJsonMember {
  readonly key: string;
  readonly value: GoJson;
}

const ASCII_ONLY = /^[\x00-\x7f]*$/;

/** encoding/json's maxNestingDepth (scanner.go). */
const MAX_NESTING_DEPTH = 10000;

/** checkValid: undefined when data is one valid JSON value, else Go's SyntaxError text. */
export function goJsonCheckValid(data: Uint8Array): string | undefined {
  return surelyValid(data) ? undefined : scanJsonSyntax(data);
}

/** checkValid by encoding/json's scanner alone (goJsonCheckValid skips it for what JSON.parse accepts). */
export function scanJsonSyntax(data: Uint8Array): string | undefined {
  const s = new Scanner();
  for (const c of data) {
    if (s.step(c) === ScanError) return s.err;
  }
  return s.eof() === ScanError ? s.err : undefined;
}

/**
 * JSON.parse accepts exactly RFC 8259's grammar, as encoding/json's scanner does, and is native:
 * ~1 ms less per kubelet config on kubelet's start path. What it accepts, Go accepts,
 * except nesting deeper than Go's limit (ruled out by counting openers); invalid UTF-8 inside a
 * string is accepted by both, and outside one by neither. Anything else takes the scanner, for
 * Go's exact error.
 */
function surelyValid(data: Uint8Array): boolean {
  let openers = 0;
  for (let i = 0; i < data.length; i++) if (data[i] === 0x5b || data[i] === 0x7b) openers++;
  if (openers > MAX_NESTING_DEPTH) return false;
  try {
    JSON.parse(Buffer.from(data.buffer, data.byteOffset, data.byteLength).toString('utf8'));
    return true;
  } catch {
    return false;
  }
}

const ScanContinue = 0;
const ScanSkipSpace = 9;
const ScanEnd = 10;
const ScanError = 11;
const ParseObjectKey = 0;
const ParseObjectValue = 1;
const ParseArrayValue = 2;

const isSpace = (c: number) => c === 0x20 || c === 0x09 || c === 0x0d || c === 0x0a;
const isHexDigit = (c: number) => (c >= 0x30 && c <= 0x39) || (c >= 0x61 && c <= 0x66) || (c >= 0x41 && c <= 0x46);

/** encoding/json's scanner state machine, ported for its exact error texts. */
class Scanner {
  private stepFn: (c: number) => number = (c) => this.beginValue(c);
  private parseState: number[] = [];
  private endTop = false;
  err: string | undefined;

  step(c: number): number {
    return this.stepFn(c);
  }

  eof(): number {
    if (this.err !== undefined) return ScanError;
    if (this.endTop) return ScanEnd;
    this.step(0x20);
    if (this.endTop) return ScanEnd;
    this.err ??= 'unexpected end of JSON input';
    return ScanError;
  }

  private error(c: number, context: string): number {
    this.stepFn = () => ScanError;
    this.err = `invalid character ${quoteChar(c)} ${context}`;
    return ScanError;
  }

  private push(c: number, state: number, success: number): number {
    this.parseState.push(state);
    return this.parseState.length <= MAX_NESTING_DEPTH ? success : this.error(c, 'exceeded max depth');
  }

  private pop(): void {
    this.parseState.pop();
    if (this.parseState.length === 0) {
      this.stepFn = (c) => this.endTopState(c);
      this.endTop = true;
    } else {
      this.stepFn = (c) => this.endValue(c);
    }
  }

  private beginValueOrEmpty(c: number): number {
    if (isSpace(c)) return ScanSkipSpace;
    if (c === 0x5d) return this.endValue(c);
    return this.beginValue(c);
  }

  private beginValue(c: number): number {
    if (isSpace(c)) return ScanSkipSpace;
    switch (c) {
      case 0x7b:
        this.stepFn = (x) => this.beginStringOrEmpty(x);
        return this.push(c, ParseObjectKey, 2);
      case 0x5b:
        this.stepFn = (x) => this.beginValueOrEmpty(x);
        return this.push(c, ParseArrayValue, 6);
      case 0x22:
        this.stepFn = (x) => this.inString(x);
        return 1;
      case 0x2d:
        this.stepFn = (x) => this.neg(x);
        return 1;
      case 0x30:
        this.stepFn = (x) => this.zero(x);
        return 1;
      case 0x74:
        this.stepFn = this.literal('true', 1);
        return 1;
      case 0x66:
        this.stepFn = this.literal('false', 1);
        return 1;
      case 0x6e:
        this.stepFn = this.literal('null', 1);
        return 1;
    }
    if (c >= 0x31 && c <= 0x39) {
      this.stepFn = (x) => this.one(x);
      return 1;
    }
    return this.error(c, 'looking for beginning of value');
  }

  private beginStringOrEmpty(c: number): number {
    if (isSpace(c)) return ScanSkipSpace;
    if (c === 0x7d) {
      this.parseState[this.parseState.length - 1] = ParseObjectValue;
      return this.endValue(c);
    }
    return this.beginString(c);
  }

  private beginString(c: number): number {
    if (isSpace(c)) return ScanSkipSpace;
    if (c === 0x22) {
      this.stepFn = (x) => this.inString(x);
      return 1;
    }
    return this.error(c, 'looking for beginning of object key string');
  }

  private endValue(c: number): number {
    const n = this.parseState.length;
    if (n === 0) {
      this.stepFn = (x) => this.endTopState(x);
      this.endTop = true;
      return this.endTopState(c);
    }
    if (isSpace(c)) {
      this.stepFn = (x) => this.endValue(x);
      return ScanSkipSpace;
    }
    switch (this.parseState[n - 1]) {
      case ParseObjectKey:
        if (c === 0x3a) {
          this.parseState[n - 1] = ParseObjectValue;
          this.stepFn = (x) => this.beginValue(x);
          return 3;
        }
        return this.error(c, 'after object key');
      case ParseObjectValue:
        if (c === 0x2c) {
          this.parseState[n - 1] = ParseObjectKey;
          this.stepFn = (x) => this.beginString(x);
          return 4;
        }
        if (c === 0x7d) {
          this.pop();
          return 5;
        }
        return this.error(c, 'after object key:value pair');
      default:
        if (c === 0x2c) {
          this.stepFn = (x) => this.beginValue(x);
          return 7;
        }
        if (c === 0x5d) {
          this.pop();
          return 8;
        }
        return this.error(c, 'after array element');
    }
  }

  private endTopState(c: number): number {
    if (!isSpace(c)) this.error(c, 'after top-level value');
    return ScanEnd;
  }

  private inString(c: number): number {
    if (c === 0x22) {
      this.stepFn = (x) => this.endValue(x);
      return ScanContinue;
    }
    if (c === 0x5c) {
      this.stepFn = (x) => this.inStringEsc(x);
      return ScanContinue;
    }
    if (c < 0x20) return this.error(c, 'in string literal');
    return ScanContinue;
  }

  private inStringEsc(c: number): number {
    if ('bfnrt\\/"'.includes(String.fromCharCode(c))) {
      this.stepFn = (x) => this.inString(x);
      return ScanContinue;
    }
    if (c === 0x75) {
      this.stepFn = this.hexDigits(4);
      return ScanContinue;
    }
    return this.error(c, 'in string escape code');
  }

  private hexDigits(remaining: number): (c: number) => number {
    return (c) => {
      if (!isHexDigit(c)) return this.error(c, 'in \\u hexadecimal character escape');
      this.stepFn = remaining === 1 ? (x) => this.inString(x) : this.hexDigits(remaining - 1);
      return ScanContinue;
    };
  }

  private neg(c: number): number {
    if (c === 0x30) {
      this.stepFn = (x) => this.zero(x);
      return ScanContinue;
    }
    if (c >= 0x31 && c <= 0x39) {
      this.stepFn = (x) => this.one(x);
      return ScanContinue;
    }
    return this.error(c, 'in numeric literal');
  }

  private one(c: number): number {
    if (c >= 0x30 && c <= 0x39) return ScanContinue;
    return this.zero(c);
  }

  private zero(c: number): number {
    if (c === 0x2e) {
      this.stepFn = (x) => this.dot(x);
      return ScanContinue;
    }
    if (c === 0x65 || c === 0x45) {
      this.stepFn = (x) => this.e(x);
      return ScanContinue;
    }
    return this.endValue(c);
  }

  private dot(c: number): number {
    if (c >= 0x30 && c <= 0x39) {
      this.stepFn = (x) => this.dot0(x);
      return ScanContinue;
    }
    return this.error(c, 'after decimal point in numeric literal');
  }

  private dot0(c: number): number {
    if (c >= 0x30 && c <= 0x39) return ScanContinue;
    if (c === 0x65 || c === 0x45) {
      this.stepFn = (x) => this.e(x);
      return ScanContinue;
    }
    return this.endValue(c);
  }

  private e(c: number): number {
    if (c === 0x2b || c === 0x2d) {
      this.stepFn = (x) => this.eSign(x);
      return ScanContinue;
    }
    return this.eSign(c);
  }

  private eSign(c: number): number {
    if (c >= 0x30 && c <= 0x39) {
      this.stepFn = (x) => this.e0(x);
      return ScanContinue;
    }
    return this.error(c, 'in exponent of numeric literal');
  }

  private e0(c: number): number {
    if (c >= 0x30 && c <= 0x39) return ScanContinue;
    return this.endValue(c);
  }

  /** true/false/null: each following byte must be the next letter of the word. */
  private literal(word: string, next: number): (c: number) => number {
    return (c) => {
      const expected = word.charCodeAt(next);
      if (c !== expected) return this.error(c, `in literal ${word} (expecting '${word[next]!}')`);
      this.stepFn = next + 1 === word.length ? (x) => this.endValue(x) : this.literal(word, next + 1);
      return ScanContinue;
    };
  }
}

/** encoding/json quoteChar: a byte shown as a quoted rune, e.g. '}' or '\x01' or 'Â'. */
function quoteChar(c: number): string {
  if (c === 0x27) return `'\\''`;
  if (c === 0x22) return `'"'`;
  return `'${goQuoteRune(c)}'`;
}

/** Parses data that goJsonCheckValid accepted. Iterative, so 10000 levels of nesting are fine. */
export function parseGoJson(data: Uint8Array): GoJson {
  let i = 0;
  const skipSpace = () => {
    while (i < data.length && isSpace(data[i]!)) i++;
  };
  type Frame = { kind: 'array'; items: GoJson[] } | { kind: 'object'; members: GoJsonMember[]; key?: string };
  const stack: Frame[] = [];
  let result: GoJson | undefined;
  const emit = (value: GoJson) => {
    const top = stack[stack.length - 1];
    if (!top) result = value;
    else if (top.kind === 'array') top.items.push(value);
    else {
      top.members.push({ key: top.key!, value });
      top.key = undefined;
    }
  };
  for (;;) {
    skipSpace();
    const top = stack[stack.length - 1];
    const c = data[i];
    if (c === undefined) break;
    if (top?.kind === 'object' && top.key === undefined && c === 0x22) {
      const s = readString(data, i);
      top.key = s.value;
      i = s.end;
      skipSpace();
      i++; // ':'
      continue;
    }
    if (c === 0x2c) {
      i++;
      continue;
    }
    if (c === 0x5d || c === 0x7d) {
      i++;
      const done = stack.pop()!;
      emit(done.kind === 'array' ? { kind: 'array', items: done.items } : { kind: 'object', members: done.members });
      if (stack.length === 0) break;
      continue;
    }
    if (c === 0x5b) {
      stack.push({ kind: 'array', items: [] });
      i++;
      continue;
    }
    if (c === 0x7b) {
      stack.push({ kind: 'object', members: [] });
      i++;
      continue;
    }
    if (c === 0x22) {
      const s = readString(data, i);
      i = s.end;
      emit({ kind: 'string', value: s.value });
    } else if (c === 0x74) {
      i += 4;
      emit({ kind: 'bool', value: true });
    } else if (c === 0x66) {
      i += 5;
      emit({ kind: 'bool', value: false });
    } else if (c === 0x6e) {
      i += 4;
      emit({ kind: 'null' });
    } else {
      const start = i;
      while (i < data.length && '0123456789.eE+-'.includes(String.fromCharCode(data[i]!))) i++;
      emit({ kind: 'number', text: Buffer.from(data.subarray(start, i)).toString('latin1') });
    }
    if (stack.length === 0) break;
  }
  return result ?? { kind: 'null' };
}

/** Go's unquote: escapes decoded; invalid UTF-8 and lone surrogates become U+FFFD. */
function readString(data: Uint8Array, start: number): { value: string; end: number } {
  // Without a backslash, up to the next quote is the whole string; valid UTF-8 there decodes the
  // same in Node as in Go (both refuse surrogates and overlong forms). Native, where the rune loop
  // below costs hundreds of instructions a byte under the launcher's --no-opt (start-path cost).
  const bytes = Buffer.from(data.buffer, data.byteOffset, data.byteLength);
  const close = bytes.indexOf(0x22, start + 1);
  if (close > start) {
    const body = bytes.subarray(start + 1, close);
    if (body.indexOf(0x5c) < 0 && isUtf8(body)) return { value: body.toString('utf8'), end: close + 1 };
  }
  let out = '';
  let i = start + 1;
  for (;;) {
    const c = data[i]!;
    if (c === 0x22) return { value: out, end: i + 1 };
    if (c === 0x5c) {
      const e = data[i + 1]!;
      i += 2;
      switch (e) {
        case 0x62: out += '\b'; break;
        case 0x66: out += '\f'; break;
        case 0x6e: out += '\n'; break;
        case 0x72: out += '\r'; break;
        case 0x74: out += '\t'; break;
        case 0x75: {
          let r = parseInt(Buffer.from(data.subarray(i, i + 4)).toString('latin1'), 16);
          i += 4;
          if (r >= 0xd800 && r < 0xdc00) {
            // A high surrogate must be followed by \u and a low surrogate to pair up.
            if (data[i] === 0x5c && data[i + 1] === 0x75) {
              const r2 = parseInt(Buffer.from(data.subarray(i + 2, i + 6)).toString('latin1'), 16);
              if (r2 >= 0xdc00 && r2 < 0xe000) {
                out += String.fromCodePoint(((r - 0xd800) << 10) + (r2 - 0xdc00) + 0x10000);
                i += 6;
                break;
              }
            }
            r = RUNE_ERROR;
          } else if (r >= 0xdc00 && r < 0xe000) {
            r = RUNE_ERROR;
          }
          out += String.fromCodePoint(r);
          break;
        }
        default: out += String.fromCharCode(e); // \" \\ \/
      }
      continue;
    }
    const { rune, size } = decodeRune(data, i);
    out += String.fromCodePoint(rune);
    i += size;
  }
}

/**
 * encoding/json's key folding (fold.go): ASCII letters case-insensitively, plus the two
 * non-ASCII runes that fold onto ASCII (U+212A Kelvin sign to K, U+017F long s to S).
 */
export function goJsonFoldKey(key: string): string {
  // ASCII (every key node-check has seen): toUpperCase maps exactly a-z there.
  if (ASCII_ONLY.test(key)) return key.toUpperCase();
  let out = '';
  for (const ch of key) {
    if (ch === '\u212a') out += 'K';
    else if (ch === '\u017f') out += 'S';
    else if (ch.charCodeAt(0) < 0x80) out += ch.toUpperCase();
    else out += ch;
  }
  return out;
}

/**
 * json.Marshal of a Go string (escapeHTML on): '<', '>', '&', U+2028 and U+2029 escaped,
 * control characters as \n, \r, \t, \b, \f or \u00XX, invalid UTF-8 as \ufffd.
 */
export function goJsonMarshalString(s: string | Uint8Array): string {
  const bytes = typeof s === 'string' ? Buffer.from(s, 'utf8') : s;
  let out = '"';
  for (let i = 0; i < bytes.length; ) {
    const { rune, size } = decodeRune(bytes, i);
    i += size;
    if (rune === RUNE_ERROR && size === 1) {
      out += '\\ufffd';
      continue;
    }
    switch (rune) {
      case 0x22: out += '\\"'; continue;
      case 0x5c: out += '\\\\'; continue;
      case 0x0a: out += '\\n'; continue;
      case 0x0d: out += '\\r'; continue;
      case 0x09: out += '\\t'; continue;
      case 0x08: out += '\\b'; continue;
      case 0x0c: out += '\\f'; continue;
    }
    if (rune < 0x20 || rune === 0x3c || rune === 0x3e || rune === 0x26 || rune === 0x2028 || rune === 0x2029) {
      out += `\\u${rune.toString(16).padStart(4, '0')}`;
      continue;
    }
    out += String.fromCodePoint(rune);
  }
  return out + '"';
}
