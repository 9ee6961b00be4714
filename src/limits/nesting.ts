/**
 * How deeply a YAML (or JSON) text may nest before a parser sees it. The `yaml` package composes
 * documents recursively: past about 800 levels it overflows the stack, catches the RangeError and
 * then, with almost no stack left, compiles a regexp, which V8 (Node 20) treats as a fatal OOM:
 * the process dies with SIGABRT ("RegExpCompiler Allocation failed"). How deep it gets before
 * that depends on the stack already in use, so the limit here is far below it.
 *
 * `yamlNestingBound` is an upper bound of the nesting depth, computed without recursion from the
 * `yaml` package's own lexer (a state machine): flow collections are counted exactly as that
 * parser will see them (quotes and comments included), block collections are bounded by the
 * width of each line's indentation and indicators ("- ", "? ", ": "). A block collection nests
 * only by indenting further or by an indicator, at most two levels (a mapping value's sequence
 * may share its key's column) per column.
 */
import { yamlPackage } from '../host/yaml-package.js';

/**
 * Nesting node-check parses. go-yaml allows 10000 levels, JSON (encoding/json) 10000; real
 * configs use fewer than 20. Between this and go-yaml's limit node-check cannot tell.
 */
export const MAX_PARSE_NESTING = 400;

export function yamlNestingBound(text: string): number {
  const bound = new YamlNestingBound();
  for (const token of new (yamlPackage().Lexer)().lex(text)) bound.add(token);
  return bound.value;
}

/**
 * The same bound, fed one lexer token at a time: a caller that lexes the text for other reasons
 * too lexes it once (start-path cost: each pass of the lexer is a tenth of a large config's decoding).
 */
export class YamlNestingBound {
  private flow = 0;
  private prefix = 0;
  private atLineStart = true;
  private max = 0;

  get value(): number {
    return this.max;
  }

  add(token: string): void {
    switch (yamlPackage().CST.tokenType(token)) {
      case 'flow-map-start':
      case 'flow-seq-start':
        this.flow++;
        this.content(0);
        this.atLineStart = false;
        break;
      case 'flow-map-end':
      case 'flow-seq-end':
        if (this.flow > 0) this.flow--;
        break;
      case 'newline':
        this.atLineStart = true;
        this.prefix = 0;
        break;
      case 'space':
      case 'seq-item-ind':
      case 'explicit-key-ind':
      case 'map-value-ind':
      case 'anchor':
      case 'tag':
        if (this.atLineStart) this.prefix += token.length;
        this.content(1);
        break;
      case 'doc-mode':
      case 'flow-error-end':
      case 'byte-order-mark':
      case 'comment':
      case 'comma':
        break;
      default:
        this.content(1);
        this.atLineStart = false;
    }
  }

  private content(width: number): void {
    const bound = this.flow + 2 * this.prefix + width;
    if (bound > this.max) this.max = bound;
  }
}

/** Undefined when `text` may be parsed; otherwise why not (one sentence, no path). */
export function nestingProblem(text: string, limit = MAX_PARSE_NESTING): string | undefined {
  const bound = yamlNestingBound(text);
  return bound > limit ? `nested more deeply than node-check parses (${limit} levels)` : undefined;
}
