/**
 * A fast path for the plain YAML that configuration files are written in (start-path cost: the `yaml`
 * package's lexer and parser were most of a 1,000-provider config's decoding). It reads a small
 * subset directly into the tree the `yaml` package would compose, and gives up (undefined) on
 * anything else, which go-yaml.ts then reads the full way. The subset:
 *
 * - printable ASCII and "\n" only: no tabs, CRs, BOM, control or non-ASCII characters, so go-yaml's
 *   reader and tab checks have nothing to say;
 * - block mappings and block sequences by indentation ("key: value", "key:" and a nested block,
 *   "- value", "- key: value", a sequence at its key's column), one document;
 * - scalars on one line: plain ones that start with a letter, a digit or one of `_./~$(=+<^;\` (or
 *   "-" and not a space), without ": " or a trailing ":" (" #" starts a comment); single-quoted
 *   ones; double-quoted ones without a backslash;
 * - one-line flow sequences of such scalars ("[a, 'b', "c"]"), and "{}";
 * - a "---" line before the document;
 * - comments and blank lines.
 *
 * Anything else is left to the full path: anchors, aliases, tags, "<<", "? ", other flow mappings,
 * block and multi-line scalars, empty keys, other document markers, directives, odd indentation,
 * nesting deeper than MAX_DEPTH. What the values mean (YAML 1.1 resolution, keys, duplicates, JSON)
 * is decided by go-yaml.ts, as for the full path. test/credentials/go-yaml-plain.test.ts checks
 * that both paths agree.
 */

export interface PlainScalar {
  readonly t: 'scalar';
  readonly text: string;
  /** Quoted scalars are strings; plain ones are resolved (YAML 1.1). */
  readonly quoted: boolean;
}

export interface PlainPair {
  readonly key: PlainScalar;
  readonly value: PlainNode;
}

export type PlainNode = PlainScalar | { readonly t: 'seq'; readonly items: readonly PlainNode[] } | { readonly t: 'map'; readonly pairs: readonly PlainPair[] };

/** Real configs nest less than 10 levels. */
const MAX_DEPTH = 32;
/** Content starts within this column, so the nesting bound (go-yaml.ts) stays far below its limit. */
const MAX_COLUMN = 100;
/** go-yaml refuses a simple key longer than 1024 characters. */
const MAX_KEY = 256;

/** Thrown to leave the subset; never escapes parsePlainYaml. */
const OUTSIDE = Symbol('outside the plain subset');

const EMPTY: PlainScalar = { t: 'scalar', text: '', quoted: false };
/** Characters that may begin a plain scalar here (never an indicator), and "-" when a non-space follows. */
const PLAIN_FIRST = new Uint8Array(128);
for (const c of 'ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789_./~$(=+<^;\\') PLAIN_FIRST[c.charCodeAt(0)] = 1;
/** A plain scalar inside a flow sequence: no flow indicators, no ':' or '#', no quotes. */
const FLOW_PLAIN = /(?:[A-Za-z0-9_./~$(=+<^;\\]|-[A-Za-z0-9.-])[^,[\]{}#:'"]*/y;
const OUTSIDE_CHARACTERS = /[^\n\x20-\x7e]/;
const START_OF_DOCUMENT = /^--- *$/;

/** The document's tree, or undefined when the text is outside the plain subset. */
export function parsePlainYaml(data: Uint8Array): PlainNode | undefined {
  const text = Buffer.from(data.buffer, data.byteOffset, data.byteLength).toString('latin1');
  if (OUTSIDE_CHARACTERS.test(text)) return undefined;
  let started = false;
  const lines: string[] = [];
  const indents: number[] = [];
  for (const line of text.split('\n')) {
    let indent = 0;
    while (line.charCodeAt(indent) === 0x20) indent++;
    if (indent === line.length || line.charCodeAt(indent) === 0x23 /* # */) continue; // blank or comment
    if (line.startsWith('---') || line.startsWith('...')) {
      // A "---" line before the first node starts the first document, the one go-yaml reads;
      // any other marker is for the full path.
      if (lines.length === 0 && START_OF_DOCUMENT.test(line) && !started) {
        started = true;
        continue;
      }
      return undefined;
    }
    if (indent > MAX_COLUMN) return undefined;
    lines.push(line);
    indents.push(indent);
  }
  if (lines.length === 0) return undefined;
  try {
    const parser = new PlainParser(lines, indents);
    const root = parser.block(indents[0]!, 1);
    return parser.done ? root : undefined;
  } catch (e) {
    if (e === OUTSIDE) return undefined;
    throw e;
  }
}

function outside(): never {
  throw OUTSIDE;
}

/**
 * Reads the significant lines (no blank or comment lines) top-down. `indents[row]` is where the
 * row's content starts; for "- key: value" it is moved to the key once the "- " is read.
 */
class PlainParser {
  private row = 0;

  constructor(
    private readonly lines: readonly string[],
    private readonly indents: number[],
  ) {}

  get done(): boolean {
    return this.row === this.lines.length;
  }

  /** The mapping or sequence whose first row (the current one) starts at `indent`. */
  block(indent: number, depth: number): PlainNode {
    return this.isEntry(this.row) ? this.sequence(indent, depth) : this.mapping(indent, depth);
  }

  private isEntry(row: number): boolean {
    const line = this.lines[row]!;
    const at = this.indents[row]!;
    return line.charCodeAt(at) === 0x2d /* - */ && (at + 1 === line.length || line.charCodeAt(at + 1) === 0x20);
  }

  /** Whether the next row continues at `indent`: deeper rows belong to nothing here (a multi-line scalar, bad indentation). */
  private next(indent: number): boolean {
    if (this.row === this.lines.length) return false;
    const at = this.indents[this.row]!;
    if (at > indent) outside();
    return at === indent;
  }

  /** `first`: the first row's key, when the caller has read it. */
  private mapping(indent: number, depth: number, first?: Key): PlainNode {
    if (depth > MAX_DEPTH) outside();
    const pairs: PlainPair[] = [];
    let key = first;
    do {
      const line = this.lines[this.row]!;
      if (!key) {
        if (this.isEntry(this.row)) outside(); // "- " at a mapping's column, not after a key
        key = keyAt(line, indent);
        if (!key) outside();
      }
      const at = skipSpaces(line, key.end + 1);
      this.row++;
      let value: PlainNode;
      if (at < line.length && line.charCodeAt(at) !== 0x23 /* # */) value = inlineValue(line, at, depth + 1);
      else if (this.row < this.lines.length && this.indents[this.row]! > indent) value = this.block(this.indents[this.row]!, depth + 1);
      else if (this.row < this.lines.length && this.indents[this.row] === indent && this.isEntry(this.row)) value = this.sequence(indent, depth + 1);
      else value = EMPTY;
      pairs.push({ key: key.scalar, value });
      key = undefined;
    } while (this.next(indent) && !this.isEntry(this.row));
    return { t: 'map', pairs };
  }

  private sequence(indent: number, depth: number): PlainNode {
    if (depth > MAX_DEPTH) outside();
    const items: PlainNode[] = [];
    let key: Key | undefined;
    do {
      const line = this.lines[this.row]!;
      const at = skipSpaces(line, indent + 1);
      if (at === line.length || line.charCodeAt(at) === 0x23 /* # */) {
        this.row++;
        items.push(this.row < this.lines.length && this.indents[this.row]! > indent ? this.block(this.indents[this.row]!, depth + 1) : EMPTY);
      } else if (at > MAX_COLUMN || (line.charCodeAt(at) === 0x2d /* - */ && (at + 1 === line.length || line.charCodeAt(at + 1) === 0x20))) {
        outside(); // "- - x"
      } else if ((key = keyAt(line, at))) {
        this.indents[this.row] = at; // "- key: value": a mapping whose keys are at this column
        items.push(this.mapping(at, depth + 1, key));
      } else {
        items.push(inlineValue(line, at, depth + 1));
        this.row++;
      }
    } while (this.next(indent) && this.isEntry(this.row));
    return { t: 'seq', items };
  }
}

function plainStart(line: string, at: number): boolean {
  const c = line.charCodeAt(at);
  if (c === 0x2d /* - */) return at + 1 < line.length && line.charCodeAt(at + 1) !== 0x20;
  return PLAIN_FIRST[c] === 1;
}

function skipSpaces(line: string, at: number): number {
  while (line.charCodeAt(at) === 0x20) at++;
  return at;
}

interface Key {
  readonly scalar: PlainScalar;
  /** The offset of its ':'. */
  readonly end: number;
}

/**
 * The key of "key: value" or "key:" at `at`; undefined when the text there is not a key (a
 * scalar, or anything outside the subset: the caller decides).
 */
function keyAt(line: string, at: number): Key | undefined {
  const c = line.charCodeAt(at);
  let scalar: PlainScalar;
  let end: number;
  if (c === 0x22 /* " */ || c === 0x27 /* ' */) {
    const quoted = quotedAt(line, at);
    scalar = quoted.scalar;
    end = quoted.end;
    if (line.charCodeAt(end) !== 0x3a /* : */ || (end + 1 < line.length && line.charCodeAt(end + 1) !== 0x20)) return undefined;
  } else {
    end = line.indexOf(': ', at);
    if (end === -1 && line.endsWith(':')) end = line.length - 1;
    if (end === -1) return undefined;
    const comment = line.indexOf(' #', at);
    if (comment !== -1 && comment < end) return undefined;
    if (!plainStart(line, at) || line.charCodeAt(end - 1) === 0x20) outside();
    scalar = { t: 'scalar', text: line.slice(at, end), quoted: false };
  }
  if (scalar.text.length > MAX_KEY || scalar.text === '' || scalar.text === '<<') outside();
  return { scalar, end };
}

/** A scalar or a flow sequence that ends the line (a comment may follow). */
function inlineValue(line: string, at: number, depth: number): PlainNode {
  const c = line.charCodeAt(at);
  if (c === 0x22 /* " */ || c === 0x27 /* ' */) {
    const quoted = quotedAt(line, at);
    endOfLine(line, quoted.end);
    return quoted.scalar;
  }
  if (c === 0x5b /* [ */) {
    if (depth > MAX_DEPTH) outside();
    return flowSequence(line, at);
  }
  if (c === 0x7b /* { */) {
    // Only the empty flow mapping ("memorySwap: {}" in kubeadm's kubelet configs).
    const close = skipSpaces(line, at + 1);
    if (line.charCodeAt(close) !== 0x7d /* } */) outside();
    endOfLine(line, close + 1);
    return { t: 'map', pairs: [] };
  }
  if (!plainStart(line, at)) outside();
  const comment = line.indexOf(' #', at);
  const text = line.slice(at, comment === -1 ? line.length : comment).trimEnd();
  if (text.includes(': ') || text.endsWith(':')) outside();
  return { t: 'scalar', text, quoted: false };
}

/** A quoted scalar on one line: '' in single quotes is a quote; a backslash leaves the subset. */
function quotedAt(line: string, at: number): { scalar: PlainScalar; end: number } {
  const quote = line[at]!;
  let close = line.indexOf(quote, at + 1);
  if (quote === "'") while (close !== -1 && line[close + 1] === "'") close = line.indexOf("'", close + 2);
  if (close === -1) outside(); // continues on the next line
  let text = line.slice(at + 1, close);
  if (quote === '"' && text.includes('\\')) outside();
  if (quote === "'") text = text.replaceAll("''", "'");
  return { scalar: { t: 'scalar', text, quoted: true }, end: close + 1 };
}

/** "[a, 'b', "c"]" on one line; "[]" is empty. A trailing comma leaves the subset. */
function flowSequence(line: string, at: number): PlainNode {
  const items: PlainScalar[] = [];
  let i = skipSpaces(line, at + 1);
  if (line.charCodeAt(i) === 0x5d /* ] */) {
    endOfLine(line, i + 1);
    return { t: 'seq', items };
  }
  for (;;) {
    const c = line.charCodeAt(i);
    if (c === 0x22 || c === 0x27) {
      const quoted = quotedAt(line, i);
      items.push(quoted.scalar);
      i = quoted.end;
    } else {
      FLOW_PLAIN.lastIndex = i;
      const match = FLOW_PLAIN.exec(line);
      if (!match) outside();
      items.push({ t: 'scalar', text: match[0].trimEnd(), quoted: false });
      i += match[0].length;
    }
    i = skipSpaces(line, i);
    const separator = line.charCodeAt(i);
    if (separator === 0x5d /* ] */) break;
    if (separator !== 0x2c /* , */) outside();
    i = skipSpaces(line, i + 1);
  }
  endOfLine(line, i + 1);
  return { t: 'seq', items };
}

/** Nothing may follow a closed scalar or sequence but spaces and a comment. */
function endOfLine(line: string, at: number): void {
  const i = skipSpaces(line, at);
  if (i < line.length && (line.charCodeAt(i) !== 0x23 /* # */ || i === at)) outside();
}
