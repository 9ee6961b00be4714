/**
 * path/filepath on Unix: Clean, Join and Match (golang/go src/path/filepath/path.go, match.go).
 * Kubelet joins the bin dir and provider name with filepath.Join and matches image host labels
 * with filepath.Match.
 */
import { decodeRune, utf8Bytes } from './utf8.js';

const SLASH = 0x2f;

/**
 * Whether a rooted path is clean already: Clean (and path.resolve) would give it back unchanged.
 * Most are (every credential plugin's path, looked up several times each), and this one
 * test costs less than a pass over the path.
 */
export function isCleanRootedPath(path: string): boolean {
  return path.length > 1 && path.charCodeAt(0) === SLASH && !NOT_CLEAN.test(path);
}

/** An empty, "." or ".." element, or a trailing "/". */
const NOT_CLEAN = /\/\.{0,2}(?:\/|$)/;

/** filepath.Clean: shortest equivalent path by lexical processing ("" becomes "."). */
export function goClean(path: string): string {
  if (isCleanRootedPath(path)) return path;
  if (path === '') return '.';
  const rooted = path[0] === '/';
  const n = path.length;
  let out = rooted ? '/' : '';
  let r = rooted ? 1 : 0;
  let dotdot = rooted ? 1 : 0; // index in out where .. must stop backtracking
  while (r < n) {
    if (path[r] === '/') {
      r++;
    } else if (path[r] === '.' && (r + 1 === n || path[r + 1] === '/')) {
      r++;
    } else if (path[r] === '.' && path[r + 1] === '.' && (r + 2 === n || path[r + 2] === '/')) {
      r += 2;
      if (out.length > dotdot) {
        let w = out.length - 1;
        while (w > dotdot && out[w] !== '/') w--;
        out = out.slice(0, w);
      } else if (!rooted) {
        if (out.length > 0) out += '/';
        out += '..';
        dotdot = out.length;
      }
    } else {
      if ((rooted && out.length !== 1) || (!rooted && out.length !== 0)) out += '/';
      // The element whole, not a character at a time (a string per character).
      const start = r;
      while (r < n && path[r] !== '/') r++;
      out += path.slice(start, r);
    }
  }
  return out === '' ? '.' : out;
}

/** filepath.Join: the non-empty elements joined by "/" and cleaned; "" when all are empty. */
export function goJoin(...elements: string[]): string {
  const first = elements.findIndex((e) => e !== '');
  return first === -1 ? '' : goClean(elements.slice(first).join('/'));
}

export const ERR_BAD_PATTERN = 'syntax error in pattern';

export type GoMatchResult = { readonly matched: boolean; readonly error?: undefined } | { readonly matched: false; readonly error: string };

/**
 * filepath.Match: '*' (any run without '/'), '?', '[...]' classes with ranges and '^', '\'
 * escapes. A malformed pattern is an error (ErrBadPattern), which kubelet treats as no match.
 */
export function goMatch(pattern: string, name: string): GoMatchResult {
  try {
    return { matched: match(utf8Bytes(pattern), utf8Bytes(name)) };
  } catch (e) {
    if (e instanceof BadPattern) return { matched: false, error: ERR_BAD_PATTERN };
    throw e;
  }
}

class BadPattern extends Error {}

function match(patternIn: Uint8Array, nameIn: Uint8Array): boolean {
  let pattern = patternIn;
  let name = nameIn;
  outer: while (pattern.length > 0) {
    const scanned = scanChunk(pattern);
    const { star, chunk } = scanned;
    pattern = scanned.rest;
    if (star && chunk.length === 0) return !name.includes(SLASH); // trailing * matches the rest without '/'
    // Look for a match at the current position.
    const here = matchChunk(chunk, name);
    if (here.ok && (here.rest.length === 0 || pattern.length > 0)) {
      name = here.rest;
      continue;
    }
    if (star) {
      // Look for a match skipping i+1 bytes; a '*' cannot skip '/'.
      for (let i = 0; i < name.length && name[i] !== SLASH; i++) {
        const later = matchChunk(chunk, name.subarray(i + 1));
        if (later.ok) {
          if (pattern.length === 0 && later.rest.length > 0) continue;
          name = later.rest;
          continue outer;
        }
      }
    }
    // Before answering "no", check that the rest of the pattern is well-formed.
    while (pattern.length > 0) {
      const next = scanChunk(pattern);
      pattern = next.rest;
      matchChunk(next.chunk, new Uint8Array(0));
    }
    return false;
  }
  return name.length === 0;
}

function scanChunk(pattern: Uint8Array): { star: boolean; chunk: Uint8Array; rest: Uint8Array } {
  let star = false;
  let p = pattern;
  while (p.length > 0 && p[0] === 0x2a) {
    p = p.subarray(1);
    star = true;
  }
  let inRange = false;
  let i = 0;
  scan: for (; i < p.length; i++) {
    switch (p[i]) {
      case 0x5c: // '\\': skip the escaped byte; matchChunk reports a dangling one
        if (i + 1 < p.length) i++;
        break;
      case 0x5b:
        inRange = true;
        break;
      case 0x5d:
        inRange = false;
        break;
      case 0x2a:
        if (!inRange) break scan;
        break;
    }
  }
  return { star, chunk: p.subarray(0, i), rest: p.subarray(i) };
}

/** Matches chunk at the start of s; returns the rest of s. Throws BadPattern as Go returns it. */
function matchChunk(chunkIn: Uint8Array, sIn: Uint8Array): { ok: boolean; rest: Uint8Array } {
  let chunk = chunkIn;
  let s = sIn;
  // After a failure the loop keeps going to check that the pattern is well-formed.
  let failed = false;
  while (chunk.length > 0) {
    if (!failed && s.length === 0) failed = true;
    const c = chunk[0];
    if (c === 0x5b) {
      let r = 0;
      if (!failed) {
        const d = decodeRune(s, 0);
        r = d.rune;
        s = s.subarray(d.size);
      }
      chunk = chunk.subarray(1);
      let negated = false;
      if (chunk.length > 0 && chunk[0] === 0x5e) {
        negated = true;
        chunk = chunk.subarray(1);
      }
      let matched = false;
      let nrange = 0;
      for (;;) {
        if (chunk.length > 0 && chunk[0] === 0x5d && nrange > 0) {
          chunk = chunk.subarray(1);
          break;
        }
        const lo = getEsc(chunk);
        chunk = lo.rest;
        let hi = lo.rune;
        if (chunk[0] === 0x2d) {
          const h = getEsc(chunk.subarray(1));
          hi = h.rune;
          chunk = h.rest;
        }
        if (lo.rune <= r && r <= hi) matched = true;
        nrange++;
      }
      if (matched === negated) failed = true;
    } else if (c === 0x3f) {
      if (!failed) {
        if (s[0] === SLASH) failed = true;
        s = s.subarray(decodeRune(s, 0).size);
      }
      chunk = chunk.subarray(1);
    } else {
      if (c === 0x5c) {
        chunk = chunk.subarray(1);
        if (chunk.length === 0) throw new BadPattern();
      }
      if (!failed) {
        if (chunk[0] !== s[0]) failed = true;
        s = s.subarray(1);
      }
      chunk = chunk.subarray(1);
    }
  }
  return failed ? { ok: false, rest: s } : { ok: true, rest: s };
}

function getEsc(chunkIn: Uint8Array): { rune: number; rest: Uint8Array } {
  let chunk = chunkIn;
  if (chunk.length === 0 || chunk[0] === 0x2d || chunk[0] === 0x5d) throw new BadPattern();
  if (chunk[0] === 0x5c) {
    chunk = chunk.subarray(1);
    if (chunk.length === 0) throw new BadPattern();
  }
  const { rune, size } = decodeRune(chunk, 0);
  if (rune === 0xfffd && size === 1) throw new BadPattern();
  const rest = chunk.subarray(size);
  if (rest.length === 0) throw new BadPattern();
  return { rune, rest };
}
