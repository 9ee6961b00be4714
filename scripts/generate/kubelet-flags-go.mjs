// A small reader of Go source text for scripts/generate/kubelet-flags.mjs: tokens, function bodies,
// statements, call arguments and constant strings. It understands only what the flag registration code
// of kubelet and its dependencies uses; anything else makes the caller stop (it never guesses).

export class GoSourceError extends Error {}

const PUNCT = ['<<=', '>>=', '&^=', '...', '&&', '||', '<-', '++', '--', '==', '!=', '<=', '>=', ':=', '+=', '-=', '*=', '/=', '%=', '&=', '|=', '^=', '<<', '>>', '&^'];

function decodeInterpreted(body, where) {
  let out = '';
  for (let i = 0; i < body.length; i++) {
    const c = body[i];
    if (c !== '\\') {
      out += c;
      continue;
    }
    const e = body[++i];
    const simple = { n: '\n', t: '\t', r: '\r', '"': '"', "'": "'", '\\': '\\', a: '\x07', b: '\b', f: '\f', v: '\v' };
    if (e in simple) out += simple[e];
    else if (e === 'x') {
      out += String.fromCharCode(parseInt(body.slice(i + 1, i + 3), 16));
      i += 2;
    } else if (e === 'u' || e === 'U') {
      const n = e === 'u' ? 4 : 8;
      out += String.fromCodePoint(parseInt(body.slice(i + 1, i + 1 + n), 16));
      i += n;
    } else if (/[0-7]/.test(e)) {
      out += String.fromCharCode(parseInt(body.slice(i, i + 3), 8));
      i += 2;
    } else throw new GoSourceError(`${where}: unknown escape \\${e}`);
  }
  return out;
}

/** Go tokens: { k: 'id' | 'str' | 'num' | 'char' | 'op' | 'nl', v, line }. Comments are dropped. */
export function tokenize(src, where = 'source') {
  const tokens = [];
  let line = 1;
  let i = 0;
  while (i < src.length) {
    const c = src[i];
    if (c === '\n') {
      tokens.push({ k: 'nl', v: '\n', line });
      line++;
      i++;
    } else if (c === ' ' || c === '\t' || c === '\r') i++;
    else if (src.startsWith('//', i)) {
      while (i < src.length && src[i] !== '\n') i++;
    } else if (src.startsWith('/*', i)) {
      const end = src.indexOf('*/', i + 2);
      if (end === -1) throw new GoSourceError(`${where}:${line}: unterminated comment`);
      for (const ch of src.slice(i, end)) if (ch === '\n') line++;
      i = end + 2;
    } else if (c === '"') {
      let j = i + 1;
      while (j < src.length && src[j] !== '"') j += src[j] === '\\' ? 2 : 1;
      tokens.push({ k: 'str', v: decodeInterpreted(src.slice(i + 1, j), `${where}:${line}`), line });
      i = j + 1;
    } else if (c === '`') {
      const end = src.indexOf('`', i + 1);
      const raw = src.slice(i + 1, end).replace(/\r/g, '');
      tokens.push({ k: 'str', v: raw, line });
      for (const ch of raw) if (ch === '\n') line++;
      i = end + 1;
    } else if (c === "'") {
      let j = i + 1;
      while (src[j] !== "'") j += src[j] === '\\' ? 2 : 1;
      tokens.push({ k: 'char', v: src.slice(i, j + 1), line });
      i = j + 1;
    } else if (/[A-Za-z_]/.test(c)) {
      const m = /^[A-Za-z_0-9]+/.exec(src.slice(i, i + 200));
      tokens.push({ k: 'id', v: m[0], line });
      i += m[0].length;
    } else if (/[0-9]/.test(c) || (c === '.' && /[0-9]/.test(src[i + 1] ?? ''))) {
      const m = /^(0[xX][0-9a-fA-F_]+|[0-9_]*\.?[0-9_]*([eE][+-]?[0-9]+)?i?)/.exec(src.slice(i, i + 100));
      tokens.push({ k: 'num', v: m[0], line });
      i += m[0].length;
    } else {
      const op = PUNCT.find((p) => src.startsWith(p, i)) ?? c;
      tokens.push({ k: 'op', v: op, line });
      i += op.length;
    }
  }
  return tokens;
}

const OPEN = { '(': ')', '[': ']', '{': '}' };

/** Index of the token closing the bracket opened at tokens[open]. */
export function closing(tokens, open) {
  const stack = [];
  for (let i = open; i < tokens.length; i++) {
    const t = tokens[i];
    if (t.k !== 'op') continue;
    if (OPEN[t.v]) stack.push(OPEN[t.v]);
    else if (t.v === ')' || t.v === ']' || t.v === '}') {
      if (stack.pop() !== t.v) throw new GoSourceError(`unbalanced ${t.v} at line ${t.line}`);
      if (stack.length === 0) return i;
    }
  }
  throw new GoSourceError(`unclosed bracket at line ${tokens[open].line}`);
}

/**
 * The body (tokens between the braces) and parameter names of `func name(` or `func (r *Type) name(`;
 * undefined when the file has no such function.
 */
export function findFunc(tokens, name, receiverType) {
  for (let i = 0; i < tokens.length; i++) {
    if (tokens[i].k !== 'id' || tokens[i].v !== 'func') continue;
    let j = i + 1;
    let receiver;
    if (tokens[j]?.v === '(') {
      const end = closing(tokens, j);
      receiver = tokens.slice(j + 1, end).filter((t) => t.k === 'id').map((t) => t.v);
      j = end + 1;
    }
    if (tokens[j]?.v !== name || tokens[j + 1]?.v !== '(') continue;
    if ((receiverType === undefined) !== (receiver === undefined)) continue;
    if (receiverType !== undefined && receiver.at(-1) !== receiverType) continue;
    const paramsEnd = closing(tokens, j + 1);
    const params = splitTopLevel(tokens.slice(j + 2, paramsEnd), ',').map((p) => p.find((t) => t.k === 'id')?.v);
    let b = paramsEnd + 1;
    while (tokens[b] && !(tokens[b].k === 'op' && tokens[b].v === '{')) b++;
    const end = closing(tokens, b);
    return { body: tokens.slice(b + 1, end), params, receiver: receiver?.[0], line: tokens[i].line };
  }
  return undefined;
}

/** Split a token list at `sep` tokens that are not inside brackets. */
export function splitTopLevel(tokens, sep) {
  const parts = [[]];
  let depth = 0;
  for (const t of tokens) {
    if (t.k === 'op' && OPEN[t.v]) depth++;
    else if (t.k === 'op' && (t.v === ')' || t.v === ']' || t.v === '}')) depth--;
    // `if x := f(); cond {`: that ";" belongs to the statement header.
    const header = sep === 'nl' && ['if', 'for', 'switch'].includes(parts.at(-1)[0]?.v) && !parts.at(-1).some((p) => p.v === '{');
    if (depth === 0 && ((sep === 'nl' && (t.k === 'nl' || (t.k === 'op' && t.v === ';' && !header))) || (t.k === 'op' && t.v === sep))) {
      parts.push([]);
      continue;
    }
    // Newlines inside brackets stay: a function literal's body is split into statements later.
    if (t.k === 'nl' && depth === 0) continue;
    parts.at(-1).push(t);
  }
  return parts.filter((p) => p.length > 0);
}

/** The statements of a block body (newline- or semicolon-separated at the top level). */
export function statements(body) {
  return splitTopLevel(body, 'nl');
}

/** Call arguments of `callee(args)` where tokens[open] is the "(". */
export function callArgs(tokens, open) {
  const end = closing(tokens, open);
  return { args: splitTopLevel(tokens.slice(open + 1, end), ','), end };
}

export const text = (tokens) => tokens.filter((t) => t.k !== 'nl').map((t) => (t.k === 'str' ? JSON.stringify(t.v) : t.v)).join(' ');

/**
 * The value of a constant string expression: literals joined by "+", and names found in `consts`.
 * undefined when the expression is anything else (fmt.Sprintf, strings.Join, ...).
 */
export function constString(tokens, consts = new Map()) {
  const parts = splitTopLevel(tokens, '+');
  let out = '';
  for (const p of parts) {
    if (p.length === 1 && p[0].k === 'str') out += p[0].v;
    else if (p.length === 1 && p[0].k === 'id' && consts.has(p[0].v)) out += consts.get(p[0].v);
    else if (p.length === 3 && p[0].k === 'id' && p[1].v === '.' && consts.has(`${p[0].v}.${p[2].v}`)) out += consts.get(`${p[0].v}.${p[2].v}`);
    else return undefined;
  }
  return out;
}

/** `const name = "..."` / `name = "..."` inside const blocks, and `name := "..."` / `var name = "..."`: every constant string of a file. */
export function stringConstants(tokens) {
  const consts = new Map();
  for (const stmt of statements(tokens)) {
    const flat = stmt[0]?.v === 'const' || stmt[0]?.v === 'var' ? stmt.slice(1) : stmt;
    if (flat[0]?.v === '(') {
      for (const inner of statements(flat.slice(1, closing(flat, 0)))) addConst(inner, consts);
    } else addConst(flat, consts);
  }
  return consts;
}

function addConst(stmt, consts) {
  const eq = stmt.findIndex((t) => t.k === 'op' && (t.v === '=' || t.v === ':='));
  if (eq < 1 || stmt[0].k !== 'id') return;
  const value = constString(stmt.slice(eq + 1), consts);
  if (value !== undefined) consts.set(stmt[0].v, value);
}
