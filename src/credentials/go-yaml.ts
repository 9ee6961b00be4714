/**
 * sigs.k8s.io/yaml's YAMLToJSON as kubelet runs it: go-yaml v2 (YAML 1.1) decodes the *first*
 * document into map[interface{}]interface{}, keys become strings, and encoding/json marshals the
 * result (object keys sorted byte-wise). The syntax is parsed by the `yaml` package; everything
 * go-yaml decides after parsing is re-implemented here from its source (gopkg.in/yaml.v2
 * decode.go, resolve.go, readerc.go, scannerc.go; kubernetes-sigs/yaml yaml.go):
 *
 * - YAML 1.1 scalars: yes/no/on/off/y/n are booleans, 0x/0o/0b/leading-0 octal ints, "_" in
 *   numbers, .inf/.nan; timestamps stay strings (go-yaml v2 keeps them as text in interface{}).
 * - explicit tags (!!str, !!int, ..., !!binary) and their "cannot decode" errors;
 * - duplicate keys: the last one wins; in strict mode each repeat is "line N: key … already set
 *   in map" (the line of the repeated *value*, as go-yaml reports it);
 * - merge keys ("<<"), applied in place as go-yaml v2 does (so explicit keys after a merge count
 *   as repeats in strict mode);
 * - aliases: unknown anchors, self-containing anchors and the alias-expansion ratio limit
 *   ("document contains excessive aliasing");
 * - the reader's byte checks (invalid UTF-8, control characters) and the scanner's refusal of a
 *   tab where a token may start in block context, which the `yaml` package (YAML 1.2) accepts.
 *
 * Syntax errors found by the `yaml` package are reported as go-yaml would word the common ones,
 * flagged inexact: libyaml's wording and line numbers are not reproduced in general. [U]
 */
import { isAlias, isMap, isPair, isScalar, isSeq, yamlPackage } from '../host/yaml-package.js';
import type { Alias, Document, Node as YamlNode, Pair, Scalar } from 'yaml';
import { goQuote } from '../go/quote.js';
import { compareGoStrings } from '../go/utf8.js';
import type { GoJson, GoJsonMember } from '../go/json.js';
import { MAX_PARSE_NESTING, YamlNestingBound } from '../limits/nesting.js';
import { parsePlainYaml, type PlainNode } from './go-yaml-plain.js';

export interface YamlToJsonSuccess {
  readonly ok: true;
  readonly value: GoJson;
  /** go-yaml's UnmarshalStrict complaints ("line 4: key \"name\" already set in map"), in order. */
  readonly strictDuplicateLines: readonly string[];
  /** The same repeats as JSON paths ("providers[0].name"), for warnings. */
  readonly duplicatePaths: readonly string[];
}

export interface YamlToJsonFailure {
  readonly ok: false;
  /** The error go-yaml / sigs.k8s.io/yaml returns, without sigs.k8s.io/yaml's wrapping. */
  readonly error: string;
  /** False when the text is node-check's best approximation of go-yaml's wording. */
  readonly exact: boolean;
  /** Set when node-check cannot tell what go-yaml does (the error is node-check's own sentence). */
  readonly unevaluable?: true;
}

export type YamlToJsonResult = YamlToJsonSuccess | YamlToJsonFailure;

/** go-yaml's own decode failures; `exact` is false where node-check only approximates the text. */
class GoYamlError extends Error {
  constructor(message: string, readonly exact = true, readonly unevaluable = false) {
    super(message);
  }
}

export interface YamlToJsonOptions {
  /** sigs.k8s.io/yaml v1.2.0/v1.3.0 (kubelet <=1.30) capitalise "Unsupported map key". */
  readonly capitalisedMapKeyError: boolean;
}

/**
 * Conversions already made, per input buffer and options: the same file is decoded once per
 * kubelet minor evaluated, and the result depends only on the bytes and the options. Results are
 * never mutated by their readers.
 */
const converted = new WeakMap<Uint8Array, Map<string, YamlToJsonResult>>();

export function yamlToGoJson(data: Uint8Array, options: YamlToJsonOptions): YamlToJsonResult {
  const key = JSON.stringify(options);
  const cached = converted.get(data);
  const known = cached?.get(key);
  if (known) return known;
  // The options only change the words of an error: a successful conversion holds for all of them.
  for (const result of cached?.values() ?? []) if (result.ok) return result;
  const result = convertSafely(data, options);
  if (!converted.has(data)) converted.set(data, new Map());
  converted.get(data)!.set(key, result);
  return result;
}

function convertSafely(data: Uint8Array, options: YamlToJsonOptions): YamlToJsonResult {
  // Plain YAML (most configs) is read directly, at a tenth of the cost; the rest fully.
  let plain: YamlToJsonResult | undefined;
  try {
    plain = plainYamlToGoJson(data, options);
  } catch {
    plain = undefined; // a fault of the fast path: the full path decides
  }
  return plain ?? fullYamlToGoJson(data, options);
}

/** The full path alone (exported for the tests that hold the fast path to it). */
export function fullYamlToGoJson(data: Uint8Array, options: YamlToJsonOptions): YamlToJsonResult {
  try {
    return convert(data, options);
  } catch (e) {
    return failureOf(e);
  }
}

/** The fast path alone: undefined when `data` is outside the plain subset (go-yaml-plain.ts). */
export function plainYamlToGoJson(data: Uint8Array, options: YamlToJsonOptions): YamlToJsonResult | undefined {
  const root = parsePlainYaml(data);
  const value = root && fromPlain(root, new Map(), new Map());
  if (!value) return undefined;
  try {
    return { ok: true, value: toJson(value, options), strictDuplicateLines: [], duplicatePaths: [] };
  } catch (e) {
    // sigs.k8s.io/yaml's and encoding/json's refusals (a null key, NaN), which the full path meets
    // at the same point: nothing fails before it for a document of the subset.
    if (e instanceof GoYamlError) return failureOf(e);
    throw e;
  }
}

function failureOf(e: unknown): YamlToJsonFailure {
  if (e instanceof GoYamlError) return { ok: false, error: e.message, exact: e.exact, ...(e.unevaluable ? { unevaluable: true as const } : {}) };
  // The `yaml` package, or this code, failed where go-yaml may not have: never throw, cannot tell.
  return { ok: false, error: `node-check could not evaluate this YAML: ${e instanceof Error ? e.message : String(e)}`, exact: false, unevaluable: true };
}

/**
 * The plain subset's tree as the Decoder below makes it from the `yaml` package's (the same
 * resolution, the same map-key identity); undefined on a repeated key, which the full path words.
 */
function fromPlain(node: PlainNode, plain: Map<string, YamlValue>, quoted: Map<string, YamlValue>): YamlValue | undefined {
  switch (node.t) {
    case 'scalar': {
      // Decoder.scalar without a tag: quoted scalars are strings, plain ones are resolved. Values
      // are never mutated: one per text serves every repeat (1,000 providers, the same keys).
      const known = (node.quoted ? quoted : plain).get(node.text);
      if (known) return known;
      const value: YamlValue = node.quoted ? { t: 'string', v: node.text } : resolve('', node.text);
      (node.quoted ? quoted : plain).set(node.text, value);
      return value;
    }
    case 'seq': {
      const items: YamlValue[] = [];
      for (const item of node.items) {
        const value = fromPlain(item, plain, quoted);
        if (!value) return undefined;
        items.push(value);
      }
      return { t: 'seq', items };
    }
    case 'map': {
      const entries = new Map<string, { key: YamlValue; value: YamlValue }>();
      for (const pair of node.pairs) {
        const key = fromPlain(pair.key, plain, quoted)!;
        const value = fromPlain(pair.value, plain, quoted);
        const identity = keyIdentity(key);
        if (!value || entries.has(identity)) return undefined;
        entries.set(identity, { key, value });
      }
      return { t: 'map', entries };
    }
  }
}

function convert(data: Uint8Array, options: YamlToJsonOptions): YamlToJsonResult {
  const reader = readInput(data.length === 0 ? Buffer.from('\n') : data);
  const text = reader.text;
  // The `yaml` package aborts the process (SIGABRT) on deep nesting: never let it see that (test/hostile/deep-nesting.test.ts).
  // One pass of the lexer for the nesting bound and go-yaml's tab rule (the parser lexes again).
  const bound = new YamlNestingBound();
  const tabs = new ForbiddenTabs();
  for (const token of new (yamlPackage().Lexer)().lex(text)) {
    bound.add(token);
    tabs.add(token);
  }
  const nesting = bound.value;
  if (nesting > 10000) throw new GoYamlError(withLine(0, 'exceeded max depth of 10000'), false); // [U: line]
  // go-yaml accepts this depth and node-check cannot follow it: "cannot tell", never a refusal in node-check's words (pinned by test/hostile/deep-nesting.test.ts).
  if (nesting > MAX_PARSE_NESTING) throw new GoYamlError(`node-check cannot evaluate YAML nested this deeply (more than ${MAX_PARSE_NESTING} levels; go-yaml allows up to 10000)`, false, true);
  const docs = yamlPackage().parseAllDocuments(text, { schema: 'failsafe', uniqueKeys: false, prettyErrors: false });
  const first = docs[0];
  const second = docs[1];
  const lines = lineStarts(text);
  const byteOffset = (charOffset: number) => Buffer.byteLength(text.slice(0, charOffset)) + reader.skippedBytes;

  // The first failure go-yaml meets while reading, scanning and parsing the first document wins.
  // The reader decodes input in 512-byte chunks, as far as the scanner needs to end the first
  // document (up to the next "---"): a bad byte is met when its chunk is read, and one beyond
  // the first document's chunks is never read. [I]
  const failures: { at: number; error: GoYamlError }[] = [];
  const limit = second ? second.range[0] : text.length;
  if (reader.error) {
    const cutoff = second ? Math.ceil((byteOffset(second.range[0]) + 4) / 512) * 512 : Infinity;
    if (reader.error.byteOffset < cutoff) failures.push({ at: Math.floor(reader.error.byteOffset / 512) * 512, error: new GoYamlError(`yaml: ${reader.error.problem}`) });
  }
  const tab = tabs.first !== undefined && tabs.first < limit ? tabs.first : undefined;
  if (tab !== undefined) failures.push({ at: byteOffset(tab), error: new GoYamlError(withLine(lineOf(lines, tab), 'found character that cannot start any token')) });
  const syntax = first?.errors[0];
  if (syntax) failures.push({ at: byteOffset(syntax.pos[0]), error: syntaxError(syntax.code, syntax.message, lineOf(lines, syntax.pos[0]), text) });
  const targets = first ? bindAliases(first) : new Map<Alias, YamlNode | undefined>();
  const unknownAlias = firstUnknownAlias(targets);
  if (unknownAlias) failures.push({ at: byteOffset(unknownAlias.range?.[0] ?? 0), error: new GoYamlError(`yaml: unknown anchor '${unknownAlias.source}' referenced`) });
  const firstFailure = failures.sort((a, b) => a.at - b.at)[0];
  if (firstFailure) throw firstFailure.error;

  if (!first || first.contents === null) return { ok: true, value: { kind: 'null' }, strictDuplicateLines: [], duplicatePaths: [] };
  const decoder = new Decoder(targets, lines, options);
  const value = decoder.document(first.contents);
  return { ok: true, value: toJson(value, options), strictDuplicateLines: decoder.strictErrors, duplicatePaths: decoder.duplicatePaths };
}

/**
 * Each alias's node, as go-yaml's parser binds it: to the latest anchor of that name seen before
 * the alias in document order, a collection's anchor counting from its start (so an alias inside
 * its own anchored collection refers to that collection). One pass, unlike Alias.resolve().
 */
function bindAliases(doc: Document): Map<Alias, YamlNode | undefined> {
  const anchors = new Map<string, YamlNode>();
  const targets = new Map<Alias, YamlNode | undefined>();
  yamlPackage().visit(doc, (_key, node) => {
    if (isAlias(node)) targets.set(node, anchors.get(node.source));
    else if ((isScalar(node) || isMap(node) || isSeq(node)) && node.anchor) anchors.set(node.anchor, node as YamlNode);
  });
  return targets;
}

/** go-yaml's parser fails at the first alias whose anchor is not defined before it. */
function firstUnknownAlias(targets: ReadonlyMap<Alias, YamlNode | undefined>): Alias | undefined {
  for (const [alias, target] of targets) if (target === undefined) return alias;
  return undefined;
}

// ---------------------------------------------------------------------------------------------
// Reader: encoding, BOM, and the byte checks of go-yaml's readerc.go.

interface ReaderResult {
  readonly text: string;
  readonly skippedBytes: number;
  readonly error?: { readonly problem: string; readonly byteOffset: number };
}

function readInput(data: Uint8Array): ReaderResult {
  if (data[0] === 0xff && data[1] === 0xfe) return readUtf16(data, true);
  if (data[0] === 0xfe && data[1] === 0xff) return readUtf16(data, false);
  const skipped = data[0] === 0xef && data[1] === 0xbb && data[2] === 0xbf ? 3 : 0;
  const bytes = data.subarray(skipped);
  let error: ReaderResult['error'];
  for (let i = 0; i < bytes.length && !error; ) {
    const octet = bytes[i]!;
    const width = (octet & 0x80) === 0 ? 1 : (octet & 0xe0) === 0xc0 ? 2 : (octet & 0xf0) === 0xe0 ? 3 : (octet & 0xf8) === 0xf0 ? 4 : 0;
    const at = i + skipped;
    if (width === 0) {
      error = { problem: 'invalid leading UTF-8 octet', byteOffset: at };
      break;
    }
    if (i + width > bytes.length) {
      error = { problem: 'incomplete UTF-8 octet sequence', byteOffset: at };
      break;
    }
    let value = width === 1 ? octet & 0x7f : width === 2 ? octet & 0x1f : width === 3 ? octet & 0x0f : octet & 0x07;
    for (let k = 1; k < width; k++) {
      const trailing = bytes[i + k]!;
      if ((trailing & 0xc0) !== 0x80) {
        error = { problem: 'invalid trailing UTF-8 octet', byteOffset: at + k };
        break;
      }
      value = (value << 6) + (trailing & 0x3f);
    }
    if (error) break;
    if ((width === 2 && value < 0x80) || (width === 3 && value < 0x800) || (width === 4 && value < 0x10000)) {
      error = { problem: 'invalid length of a UTF-8 sequence', byteOffset: at };
    } else if ((value >= 0xd800 && value <= 0xdfff) || value > 0x10ffff) {
      error = { problem: 'invalid Unicode character', byteOffset: at };
    } else if (!allowedCharacter(value)) {
      error = { problem: 'control characters are not allowed', byteOffset: at };
    }
    i += width;
  }
  return { text: Buffer.from(bytes).toString('utf8'), skippedBytes: skipped, ...(error ? { error } : {}) };
}

function readUtf16(data: Uint8Array, littleEndian: boolean): ReaderResult {
  let text = '';
  let error: ReaderResult['error'];
  const unit = (i: number) => (littleEndian ? data[i]! | (data[i + 1]! << 8) : (data[i]! << 8) | data[i + 1]!);
  for (let i = 2; i < data.length; ) {
    if (i + 1 >= data.length) {
      error = { problem: 'incomplete UTF-16 character', byteOffset: i };
      break;
    }
    let value = unit(i);
    let width = 2;
    if ((value & 0xfc00) === 0xdc00) {
      error = { problem: 'unexpected low surrogate area', byteOffset: i };
      break;
    }
    if ((value & 0xfc00) === 0xd800) {
      if (i + 3 >= data.length) {
        error = { problem: 'incomplete UTF-16 surrogate pair', byteOffset: i };
        break;
      }
      const low = unit(i + 2);
      if ((low & 0xfc00) !== 0xdc00) {
        error = { problem: 'expected low surrogate area', byteOffset: i + 2 };
        break;
      }
      value = 0x10000 + ((value & 0x3ff) << 10) + (low & 0x3ff);
      width = 4;
    }
    if (!allowedCharacter(value)) {
      error = { problem: 'control characters are not allowed', byteOffset: i };
      break;
    }
    text += String.fromCodePoint(value);
    i += width;
  }
  // Offsets of UTF-16 input are compared with UTF-8 lengths below; close enough for a cutoff. [U]
  return { text, skippedBytes: 2, ...(error ? { error } : {}) };
}

/** #x9 | #xA | #xD | [#x20-#x7E] | #x85 | [#xA0-#xD7FF] | [#xE000-#xFFFD] | [#x10000-#x10FFFF] */
function allowedCharacter(v: number): boolean {
  return v === 0x09 || v === 0x0a || v === 0x0d || (v >= 0x20 && v <= 0x7e) || v === 0x85 || (v >= 0xa0 && v <= 0xd7ff) || (v >= 0xe000 && v <= 0xfffd) || (v >= 0x10000 && v <= 0x10ffff);
}

// ---------------------------------------------------------------------------------------------
// Scanner differences and syntax-error wording.

/**
 * go-yaml's scanner eats tabs between tokens only in flow context or where a simple key is not
 * allowed: at the start of a line and after '-', '?' or ':' in block context a tab "cannot start
 * any token". YAML 1.2 (and the `yaml` package) allow it. Fed the lexer's tokens in order, `first`
 * is the offset of the first such tab (go-yaml meets it only if it is in the first document).
 */
class ForbiddenTabs {
  first: number | undefined;
  private pos = 0;
  private flowLevel = 0;
  private simpleKeyAllowed = true;
  private scalarSourceNext = false;

  add(token: string): void {
    if (this.first !== undefined) return;
    if (this.scalarSourceNext) {
      // The source of a plain or block scalar: any tabs inside it are content.
      this.scalarSourceNext = false;
      this.pos += token.length;
      this.simpleKeyAllowed = /\n$/.test(token) && this.flowLevel === 0;
      return;
    }
    switch (yamlPackage().CST.tokenType(token)) {
      case 'doc-mode':
      case 'flow-error-end':
        return; // markers only: not in the source
      case 'scalar':
        this.scalarSourceNext = true;
        return;
      case 'space':
        if (this.flowLevel === 0 && this.simpleKeyAllowed) {
          const tab = token.indexOf('\t');
          if (tab !== -1) {
            this.first = this.pos + tab;
            return;
          }
        }
        break;
      case 'newline':
        if (this.flowLevel === 0) this.simpleKeyAllowed = true;
        break;
      case 'seq-item-ind':
      case 'explicit-key-ind':
      case 'map-value-ind':
        this.simpleKeyAllowed = true;
        break;
      case 'flow-map-start':
      case 'flow-seq-start':
        this.flowLevel++;
        this.simpleKeyAllowed = true;
        break;
      case 'flow-map-end':
      case 'flow-seq-end':
        if (this.flowLevel > 0) this.flowLevel--;
        this.simpleKeyAllowed = false;
        break;
      case 'comma':
        this.simpleKeyAllowed = true;
        break;
      case 'comment':
      case 'byte-order-mark':
        break;
      default:
        this.simpleKeyAllowed = false;
    }
    this.pos += token.length;
  }
}

/**
 * go-yaml's parser.fail(): "line N: " only when the error's (0-based) line is not the first;
 * scanner errors print it 1-based, parser errors print the 0-based number (one less).
 */
function withLine(line: number, message: string, kind: 'scanner' | 'parser' = 'scanner'): string {
  if (line === 0) return `yaml: ${message}`;
  return `yaml: line ${kind === 'scanner' ? line + 1 : line}: ${message}`;
}

/** libyaml's words (and error kind) for what the `yaml` package reports. [U: wording and line approximate] */
function syntaxError(code: string, message: string, line: number, text: string): GoYamlError {
  if (code === 'RESOURCE_EXHAUSTION') {
    // The `yaml` package runs out of stack well below go-yaml's limit of 10000 levels. [U]
    if (maxNesting(text) <= 10000) return new GoYamlError('node-check cannot evaluate YAML nested this deeply (go-yaml allows up to 10000 levels)', false, true);
    return new GoYamlError(withLine(line, 'exceeded max depth of 10000'), false);
  }
  const [words, kind] = libyamlWords(code, message);
  return new GoYamlError(withLine(line, words, kind), false);
}

function libyamlWords(code: string, message: string): [string, 'scanner' | 'parser'] {
  switch (code) {
    case 'BAD_INDENT':
      if (message.startsWith('Flow sequence')) return ["did not find expected ',' or ']'", 'parser'];
      if (message.startsWith('Flow map')) return ["did not find expected ',' or '}'", 'parser'];
      return ['did not find expected key', 'parser'];
    case 'MISSING_CHAR':
      return message.includes('quote') ? ['found unexpected end of stream', 'scanner'] : ["could not find expected ':'", 'scanner'];
    case 'BLOCK_AS_IMPLICIT_KEY':
      return ['mapping values are not allowed in this context', 'scanner'];
    case 'MULTILINE_IMPLICIT_KEY':
    case 'KEY_OVER_1024_CHARS':
      return ["could not find expected ':'", 'scanner'];
    case 'BAD_SCALAR_START':
    case 'TAB_AS_INDENT':
      return ['found character that cannot start any token', 'scanner'];
    case 'BAD_DQ_ESCAPE':
      return ['found unknown escape character', 'scanner'];
    case 'BAD_ALIAS':
      return ['did not find expected alphabetic or numeric character', 'scanner'];
    case 'UNEXPECTED_TOKEN':
      // `a: - b`: libyaml's scanner refuses a block entry right after a simple key's ':'.
      if (message.startsWith('Unexpected block-seq-ind on same line')) return ['block sequence entries are not allowed in this context', 'scanner'];
      return message.includes('flow sequence') ? ['did not find expected node content', 'parser'] : ['did not find expected key', 'parser'];
    default:
      return [message.split('\n')[0]!.replace(/ at line \d+, column \d+:?$/, ''), 'scanner'];
  }
}

/** A cheap upper bound of flow and block nesting, for the "exceeded max depth" decision. */
function maxNesting(text: string): number {
  let depth = 0;
  let max = 0;
  let quote: string | undefined;
  for (let i = 0; i < text.length; i++) {
    const c = text[i]!;
    if (quote) {
      if (c === quote) quote = undefined;
      continue;
    }
    if (c === '"' || c === "'") quote = c;
    else if (c === '[' || c === '{') max = Math.max(max, ++depth);
    else if (c === ']' || c === '}') depth = Math.max(0, depth - 1);
  }
  let indentMax = 0;
  for (const line of text.split('\n')) {
    const m = /^([ -]*)/.exec(line);
    if (m) indentMax = Math.max(indentMax, m[1]!.length);
  }
  return Math.max(max, indentMax);
}

function lineStarts(text: string): number[] {
  const starts = [0];
  for (let i = 0; i < text.length; i++) {
    const c = text[i];
    if (c === '\n' || (c === '\r' && text[i + 1] !== '\n')) starts.push(i + 1);
  }
  return starts;
}

/** 0-based line of an offset. */
function lineOf(starts: readonly number[], offset: number): number {
  let lo = 0;
  let hi = starts.length - 1;
  while (lo < hi) {
    const mid = (lo + hi + 1) >> 1;
    if (starts[mid]! <= offset) lo = mid;
    else hi = mid - 1;
  }
  return lo;
}

// ---------------------------------------------------------------------------------------------
// go-yaml's decoder into interface{}: the values it produces.

type YamlValue =
  | { readonly t: 'null' }
  | { readonly t: 'bool'; readonly v: boolean }
  | { readonly t: 'int'; readonly v: bigint } // Go int (64-bit)
  | { readonly t: 'uint'; readonly v: bigint } // uint64 above MaxInt64
  | { readonly t: 'float'; readonly v: number }
  | { readonly t: 'string'; readonly v: string }
  | { readonly t: 'seq'; readonly items: YamlValue[] }
  | { readonly t: 'map'; readonly entries: Map<string, { key: YamlValue; value: YamlValue }> };

const TAG = 'tag:yaml.org,2002:';
const STR = `${TAG}str`;
const INT = `${TAG}int`;
const FLOAT = `${TAG}float`;
const BOOL = `${TAG}bool`;
const NULL = `${TAG}null`;
const TIMESTAMP = `${TAG}timestamp`;
const BINARY = `${TAG}binary`;
const MERGE = `${TAG}merge`;

// resolve.go's resolveMap (YAML 1.1).
const RESOLVE_MAP = new Map<string, { tag: string; value: YamlValue }>();
const resolveAs = (tag: string, value: YamlValue, spellings: readonly string[]) => spellings.forEach((s) => RESOLVE_MAP.set(s, { tag, value }));
resolveAs(BOOL, { t: 'bool', v: true }, ['y', 'Y', 'yes', 'Yes', 'YES', 'true', 'True', 'TRUE', 'on', 'On', 'ON']);
resolveAs(BOOL, { t: 'bool', v: false }, ['n', 'N', 'no', 'No', 'NO', 'false', 'False', 'FALSE', 'off', 'Off', 'OFF']);
resolveAs(NULL, { t: 'null' }, ['', '~', 'null', 'Null', 'NULL']);
resolveAs(FLOAT, { t: 'float', v: NaN }, ['.nan', '.NaN', '.NAN']);
resolveAs(FLOAT, { t: 'float', v: Infinity }, ['.inf', '.Inf', '.INF', '+.inf', '+.Inf', '+.INF']);
resolveAs(FLOAT, { t: 'float', v: -Infinity }, ['-.inf', '-.Inf', '-.INF']);

const YAML_STYLE_FLOAT = /^[-+]?(\.[0-9]+|[0-9]+(\.[0-9]*)?)([eE][-+]?[0-9]+)?$/;
const MAX_INT64 = (1n << 63n) - 1n;
const MAX_UINT64 = (1n << 64n) - 1n;

// decode.go's alias-expansion limits.
const ALIAS_RATIO_RANGE_LOW = 400000;
const ALIAS_RATIO_RANGE_HIGH = 4000000;

function allowedAliasRatio(decodeCount: number): number {
  if (decodeCount <= ALIAS_RATIO_RANGE_LOW) return 0.99;
  if (decodeCount >= ALIAS_RATIO_RANGE_HIGH) return 0.1;
  return 0.99 - (0.89 * (decodeCount - ALIAS_RATIO_RANGE_LOW)) / (ALIAS_RATIO_RANGE_HIGH - ALIAS_RATIO_RANGE_LOW);
}

class Decoder {
  private decodeCount = 0;
  private aliasCount = 0;
  private aliasDepth = 0;
  private readonly expanding = new Set<Alias>();
  readonly strictErrors: string[] = [];
  readonly duplicatePaths: string[] = [];

  constructor(
    private readonly targets: ReadonlyMap<Alias, YamlNode | undefined>,
    private readonly lines: readonly number[],
    private readonly options: YamlToJsonOptions,
  ) {}

  document(contents: YamlNode): YamlValue {
    this.count(); // the document node itself
    return this.unmarshal(contents, '');
  }

  private count(): void {
    this.decodeCount++;
    if (this.aliasDepth > 0) this.aliasCount++;
    if (this.aliasCount > 100 && this.decodeCount > 1000 && this.aliasCount / this.decodeCount > allowedAliasRatio(this.decodeCount)) {
      throw new GoYamlError('yaml: document contains excessive aliasing');
    }
  }

  private unmarshal(node: YamlNode | null, path: string): YamlValue {
    this.count();
    if (node === null) return { t: 'null' };
    if (isAlias(node)) return this.alias(node, (target) => this.unmarshal(target, path));
    if (isScalar(node)) return this.scalar(node);
    if (isMap(node)) {
      const entries = new Map<string, { key: YamlValue; value: YamlValue }>();
      this.mapping(node.items as Pair[], entries, path);
      return { t: 'map', entries };
    }
    if (isSeq(node)) return { t: 'seq', items: node.items.map((item, i) => this.unmarshal(item as YamlNode | null, `${path}[${i}]`)) };
    return { t: 'null' };
  }

  /** d.alias: expands the anchored node; an alias met again while expanding is a cycle. */
  private alias<T>(node: Alias, expand: (target: YamlNode) => T): T {
    const target = this.targets.get(node);
    if (!target) throw new GoYamlError(`yaml: unknown anchor '${node.source}' referenced`);
    if (this.expanding.has(node)) throw new GoYamlError(`yaml: anchor '${node.source}' value contains itself`);
    this.expanding.add(node);
    this.aliasDepth++;
    try {
      return expand(target);
    } finally {
      this.aliasDepth--;
      this.expanding.delete(node);
    }
  }

  /** d.mapping into map[interface{}]interface{}, merges applied in place. */
  private mapping(pairs: readonly Pair[], out: Map<string, { key: YamlValue; value: YamlValue }>, path: string): void {
    for (const pair of pairs) {
      if (!isPair(pair)) continue;
      const keyNode = pair.key as YamlNode | null;
      if (keyNode && isScalar(keyNode) && scalarText(keyNode) === '<<' && ((keyNode.type === 'PLAIN' && (!keyNode.tag || keyNode.tag === '!')) || keyNode.tag === MERGE)) {
        this.merge(pair.value as YamlNode | null, out, path);
        continue;
      }
      const key = this.unmarshal(keyNode, path);
      if (key.t === 'map' || key.t === 'seq') throw new GoYamlError(`yaml: invalid map key: ${goSyntax(key)}`, false);
      const valuePath = `${path === '' ? '' : `${path}.`}${keyDisplay(key)}`;
      const value = this.unmarshal(pair.value as YamlNode | null, valuePath);
      const identity = keyIdentity(key);
      if (out.has(identity)) {
        // UnmarshalStrict keeps the first value; the non-strict pass (the data kubelet decodes) the last.
        this.strictErrors.push(`line ${this.valueLine(pair) + 1}: key ${goSyntax(key)} already set in map`);
        this.duplicatePaths.push(valuePath);
      }
      out.set(identity, { key, value });
    }
  }

  private merge(node: YamlNode | null, out: Map<string, { key: YamlValue; value: YamlValue }>, path: string): void {
    const wantMap = () => new GoYamlError('yaml: map merge requires map or sequence of maps as the value');
    const mergeMapping = (n: YamlNode) => {
      this.count();
      if (!isMap(n)) throw wantMap();
      this.mapping(n.items as Pair[], out, path);
    };
    if (node && isMap(node)) return mergeMapping(node);
    if (node && isAlias(node)) {
      this.count(); // the alias node
      return this.alias(node, (target) => {
        if (!isMap(target)) throw wantMap();
        mergeMapping(target);
      });
    }
    if (node && isSeq(node)) {
      // Earlier maps take precedence, so they are applied last.
      for (const item of [...node.items].reverse() as (YamlNode | null)[]) {
        if (item && isAlias(item)) {
          this.count();
          this.alias(item, (target) => {
            if (!isMap(target)) throw wantMap();
            mergeMapping(target);
          });
        } else if (item && isMap(item)) mergeMapping(item);
        else throw wantMap();
      }
      return;
    }
    throw wantMap();
  }

  /** The line go-yaml gives a repeated key: its value node's start (the ':' line when empty). */
  private valueLine(pair: Pair): number {
    const value = pair.value as YamlNode | null;
    const key = pair.key as YamlNode | null;
    const range = value?.range ?? key?.range;
    if (!range) return 0;
    if (value && isScalar(value) && scalarText(value) === '' && value.type === 'PLAIN' && key?.range) return lineOf(this.lines, key.range[0]);
    return lineOf(this.lines, range[0]);
  }

  /** d.scalar into interface{}. */
  private scalar(node: Scalar): YamlValue {
    const text = scalarText(node);
    const tag = node.tag ?? '';
    if (tag === '' && node.type !== 'PLAIN') return { t: 'string', v: text };
    if (tag === BINARY) {
      const decoded = decodeBase64(text);
      if (decoded === undefined) throw new GoYamlError('yaml: !!binary value contains invalid base64 data');
      return { t: 'string', v: decoded };
    }
    return resolve(tag, text);
  }
}

function scalarText(node: Scalar): string {
  if (typeof node.value === 'string') return node.value;
  return node.source ?? String(node.value ?? '');
}

/** resolve.go resolve(): the YAML 1.1 implicit types, and the check of an explicit tag. */
function resolve(tag: string, text: string): YamlValue {
  const resolvable = tag === '' || tag === STR || tag === BOOL || tag === INT || tag === FLOAT || tag === NULL || tag === TIMESTAMP;
  if (!resolvable) return { t: 'string', v: text };
  let rtag = STR;
  let out: YamlValue = { t: 'string', v: text };
  const hint = text === '' ? 'N' : hintFor(text.charCodeAt(0));
  if (hint !== '' && tag !== STR) {
    const known = RESOLVE_MAP.get(text);
    if (known) {
      rtag = known.tag;
      out = known.value;
    } else if (hint === '.') {
      const f = goParseFloat(text);
      if (f !== undefined) {
        rtag = FLOAT;
        out = { t: 'float', v: f };
      }
    } else if (hint === 'D' || hint === 'S') {
      const timestamp = (tag === '' || tag === TIMESTAMP) && isTimestamp(text);
      if (timestamp) {
        rtag = TIMESTAMP; // go-yaml v2 hands interface{} the original text for a timestamp
      } else {
        const plain = text.replaceAll('_', '');
        const i = goParseInt(plain, true);
        const u = i === undefined ? goParseInt(plain, false) : undefined;
        if (i !== undefined) {
          rtag = INT;
          out = { t: 'int', v: i };
        } else if (u !== undefined) {
          rtag = INT;
          out = { t: 'uint', v: u };
        } else if (YAML_STYLE_FLOAT.test(plain)) {
          const f = goParseFloat(plain);
          if (f !== undefined) {
            rtag = FLOAT;
            out = { t: 'float', v: f };
          }
        }
      }
    }
  }
  if (tag === '' || tag === rtag || tag === STR) return out;
  if (tag === FLOAT && rtag === INT) return { t: 'float', v: Number(out.t === 'int' || out.t === 'uint' ? out.v : 0) };
  throw new GoYamlError(`yaml: cannot decode ${shortTag(rtag)} \`${text}\` as a ${shortTag(tag)}`);
}

function hintFor(c: number): string {
  if (c === 0x2b || c === 0x2d) return 'S';
  if (c >= 0x30 && c <= 0x39) return 'D';
  if ('yYnNtTfFoO~'.includes(String.fromCharCode(c))) return 'M';
  if (c === 0x2e) return '.';
  return '';
}

function shortTag(tag: string): string {
  return tag.startsWith(TAG) ? `!!${tag.slice(TAG.length)}` : tag;
}

/** strconv.ParseInt(s, 0, 64) (signed) or ParseUint(s, 0, 64): base prefixes 0x, 0o, 0b and 0. */
function goParseInt(s: string, signed: boolean): bigint | undefined {
  let rest = s;
  let neg = false;
  if (signed && (rest[0] === '+' || rest[0] === '-')) {
    neg = rest[0] === '-';
    rest = rest.slice(1);
  }
  let digits: string;
  let re: RegExp;
  let prefix = '';
  if (/^0[xX]/.test(rest)) [prefix, digits, re] = ['0x', rest.slice(2), /^[0-9a-fA-F]+$/];
  else if (/^0[oO]/.test(rest)) [prefix, digits, re] = ['0o', rest.slice(2), /^[0-7]+$/];
  else if (/^0[bB]/.test(rest)) [prefix, digits, re] = ['0b', rest.slice(2), /^[01]+$/];
  else if (rest.length > 1 && rest[0] === '0') [prefix, digits, re] = ['0o', rest.slice(1), /^[0-7]+$/];
  else [digits, re] = [rest, /^[0-9]+$/];
  if (!re.test(digits)) return undefined;
  const magnitude = BigInt(prefix === '' ? digits : `${prefix}${digits}`);
  if (!signed) return magnitude <= MAX_UINT64 ? magnitude : undefined;
  if (neg) return magnitude <= MAX_INT64 + 1n ? -magnitude : undefined;
  return magnitude <= MAX_INT64 ? magnitude : undefined;
}

/** strconv.ParseFloat(s, 64) for the decimal forms plus inf/infinity/nan; hex floats are rare here. [U] */
function goParseFloat(s: string): number | undefined {
  const special = /^([+-]?)(inf|infinity|nan)$/i.exec(s);
  if (special) return special[2]!.toLowerCase() === 'nan' ? NaN : special[1] === '-' ? -Infinity : Infinity;
  if (!/^[+-]?(\d+\.?\d*|\.\d+)([eE][+-]?\d+)?$/.test(s)) return undefined;
  // ParseFloat fails (ErrRange) on overflow, where JavaScript gives Infinity.
  const f = Number(s);
  return Number.isFinite(f) ? f : undefined;
}

/** resolve.go parseTimestamp: YYYY-... in one of the four layouts go-yaml v2 accepts. [U: day ranges per month not checked] */
function isTimestamp(s: string): boolean {
  if (!/^\d{4}-/.test(s)) return false;
  const date = '(\\d{4})-(\\d{1,2})-(\\d{1,2})';
  const time = '(\\d{1,2}):(\\d{1,2}):(\\d{1,2})(\\.\\d+)?';
  const zone = '(Z|[+-]\\d{2}:\\d{2})';
  const layouts = [new RegExp(`^${date}$`), new RegExp(`^${date}[Tt]${time}${zone}$`), new RegExp(`^${date} ${time}$`)];
  return layouts.some((re) => {
    const m = re.exec(s);
    if (!m) return false;
    const month = Number(m[2]);
    const day = Number(m[3]);
    if (month < 1 || month > 12 || day < 1 || day > 31) return false;
    if (m[4] !== undefined && (Number(m[4]) > 23 || Number(m[5]) > 59 || Number(m[6]) > 59)) return false;
    return true;
  });
}

/** base64.StdEncoding.DecodeString (padding required, CR and LF ignored), as a Go string. */
function decodeBase64(text: string): string | undefined {
  const clean = text.replace(/[\r\n]/g, '');
  if (!/^[A-Za-z0-9+/]*={0,2}$/.test(clean) || clean.length % 4 !== 0) return undefined;
  return Buffer.from(clean, 'base64').toString('utf8');
}

/** Map-key identity in a Go map[interface{}]interface{}: the dynamic type and the value. */
function keyIdentity(key: YamlValue): string {
  switch (key.t) {
    case 'null': return 'nil';
    case 'bool': return `bool:${key.v}`;
    case 'int': return `int:${key.v}`;
    case 'uint': return `uint64:${key.v}`;
    case 'float': return Number.isNaN(key.v) ? `float64:NaN:${Math.random()}` : `float64:${key.v}`; // NaN never equals itself
    case 'string': return `string:${key.v}`;
    default: return 'invalid';
  }
}

function keyDisplay(key: YamlValue): string {
  return key.t === 'string' ? key.v : jsonKeyFor(key) ?? goSyntax(key);
}

/** fmt's %#v for the values go-yaml puts in messages. [U for floats and collections] */
function goSyntax(v: YamlValue): string {
  switch (v.t) {
    case 'null': return '<nil>';
    case 'bool': return String(v.v);
    case 'int': return v.v.toString();
    case 'uint': return `0x${v.v.toString(16)}`;
    case 'float': return formatGoFloat(v.v, 64);
    case 'string': return goQuote(v.v);
    case 'seq': return `[]interface {}{${v.items.map(goSyntax).join(', ')}}`;
    case 'map': return `map[interface {}]interface {}{${[...v.entries.values()].map((e) => `${goSyntax(e.key)}:${goSyntax(e.value)}`).join(', ')}}`;
  }
}

// ---------------------------------------------------------------------------------------------
// sigs.k8s.io/yaml convertToJSONableObject, then encoding/json.Marshal (keys sorted byte-wise).

function toJson(value: YamlValue, options: YamlToJsonOptions): GoJson {
  const converted = convertKeys(value, options);
  return marshal(converted);
}

type Jsonable =
  | { readonly t: 'scalar'; readonly v: YamlValue }
  | { readonly t: 'seq'; readonly items: readonly Jsonable[] }
  | { readonly t: 'map'; readonly entries: ReadonlyMap<string, Jsonable> };

function convertKeys(value: YamlValue, options: YamlToJsonOptions): Jsonable {
  if (value.t === 'seq') return { t: 'seq', items: value.items.map((item) => convertKeys(item, options)) };
  if (value.t !== 'map') return { t: 'scalar', v: value };
  const entries = new Map<string, Jsonable>();
  for (const { key, value: v } of value.entries.values()) {
    const name = jsonKeyFor(key);
    if (name === undefined) {
      const word = options.capitalisedMapKeyError ? 'Unsupported' : 'unsupported';
      const type = key.t === 'null' ? '%!s(<nil>)' : key.t === 'uint' ? 'uint64' : 'time.Time';
      throw new GoYamlError(`${word} map key of type: ${type}, key: ${goSyntax(key)}, value: ${goSyntax(v)}`, false);
    }
    // Two YAML keys with one JSON spelling (1 and "1"): Go's map order decides. [U]
    entries.set(name, convertKeys(v, options));
  }
  return { t: 'map', entries };
}

/** The JSON key sigs.k8s.io/yaml makes of a go-yaml key; undefined when it refuses the key. */
function jsonKeyFor(key: YamlValue): string | undefined {
  switch (key.t) {
    case 'string': return key.v;
    case 'int': return key.v.toString();
    case 'bool': return key.v ? 'true' : 'false';
    case 'float': {
      const s = formatGoFloat(key.v, 32);
      return s === '+Inf' ? '.inf' : s === '-Inf' ? '-.inf' : s === 'NaN' ? '.nan' : s;
    }
    default: return undefined; // nil and uint64 keys
  }
}

function marshal(value: Jsonable): GoJson {
  switch (value.t) {
    case 'seq': return { kind: 'array', items: value.items.map(marshal) };
    case 'map': {
      const keys = [...value.entries.keys()].sort(compareGoStrings);
      const members: GoJsonMember[] = keys.map((key) => ({ key, value: marshal(value.entries.get(key)!) }));
      return { kind: 'object', members };
    }
    case 'scalar': {
      const v = value.v;
      switch (v.t) {
        case 'null': return { kind: 'null' };
        case 'bool': return { kind: 'bool', value: v.v };
        case 'int':
        case 'uint': return { kind: 'number', text: v.v.toString() };
        case 'float':
          if (!Number.isFinite(v.v)) throw new GoYamlError(`json: unsupported value: ${Number.isNaN(v.v) ? 'NaN' : v.v > 0 ? '+Inf' : '-Inf'}`);
          return { kind: 'number', text: String(v.v) };
        case 'string': return { kind: 'string', value: v.v };
        default: return { kind: 'null' };
      }
    }
  }
}

/** strconv.FormatFloat(f, 'g', -1, bits): shortest digits; %e form when the exponent is < -4 or >= 6. */
function formatGoFloat(f: number, bits: 32 | 64): string {
  if (Number.isNaN(f)) return 'NaN';
  if (f === Infinity) return '+Inf';
  if (f === -Infinity) return '-Inf';
  const x = bits === 32 ? Math.fround(f) : f;
  const same = (s: string) => (bits === 32 ? Math.fround(Number(s)) : Number(s)) === x;
  let precision = 1;
  while (precision < 17 && !same(x.toPrecision(precision))) precision++;
  const [mantissa, expText] = x.toExponential(precision - 1).split('e') as [string, string];
  const exp = Number(expText);
  if (exp < -4 || exp >= 6) {
    const digits = Math.abs(exp) < 10 ? `0${Math.abs(exp)}` : `${Math.abs(exp)}`;
    return `${mantissa}e${exp < 0 ? '-' : '+'}${digits}`;
  }
  return String(Number(x.toPrecision(precision)));
}
