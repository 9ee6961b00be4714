/**
 * encoding/pem Decode, in both forms Go has shipped (src/encoding/pem/pem.go):
 * - 'begin-first' (Go 1.18-1.23, 1.24.0-1.24.9, 1.25.0-1.25.3): find "-----BEGIN " at the start
 *   or after a newline, then its END;
 * - 'end-first' (1.24.10+, 1.25.4+, 1.26): find the first "\n-----END ", then the last
 *   "-----BEGIN " before it that starts a line.
 * Everything is compared as bytes, as Go does.
 */
import { decodeGoStdBase64 } from './base64.js';

export type PemDecoder = 'begin-first' | 'end-first';

export interface PemBlock {
  readonly type: Uint8Array;
  /** Whether Go's Headers map is non-empty. */
  readonly hasHeaders: boolean;
  readonly bytes: Uint8Array;
}

const bytesOf = (s: string) => Uint8Array.from(s, (c) => c.charCodeAt(0));
const PEM_START = bytesOf('\n-----BEGIN ');
const PEM_END = bytesOf('\n-----END ');
const DASHES = bytesOf('-----');

const view = (b: Uint8Array) => Buffer.from(b.buffer, b.byteOffset, b.byteLength);
const indexOf = (haystack: Uint8Array, needle: Uint8Array) => view(haystack).indexOf(needle);
const lastIndexOf = (haystack: Uint8Array, needle: Uint8Array) => (haystack.length < needle.length ? -1 : view(haystack).lastIndexOf(needle));
const hasPrefix = (s: Uint8Array, p: Uint8Array) => s.length >= p.length && view(s.subarray(0, p.length)).equals(p);
const hasSuffix = (s: Uint8Array, p: Uint8Array) => s.length >= p.length && hasPrefix(s.subarray(s.length - p.length), p);
const isSpaceOrTab = (b: number) => b === 0x20 || b === 0x09;
/** getLine: up to '\n' (a '\r' before it dropped), trailing spaces and tabs trimmed. */
function getLine(data: Uint8Array): { line: Uint8Array; rest: Uint8Array; consumed: number } {
  let i = data.indexOf(0x0a);
  let j: number;
  if (i < 0) {
    i = data.length;
    j = i;
  } else {
    j = i + 1;
    if (i > 0 && data[i - 1] === 0x0d) i--;
  }
  let end = i;
  while (end > 0 && isSpaceOrTab(data[end - 1]!)) end--;
  return { line: data.subarray(0, end), rest: data.subarray(j), consumed: j };
}

function removeSpacesAndTabs(data: Uint8Array): Uint8Array {
  // Most bodies have neither (native searches); a filter callback per byte is ~1 M instructions
  // per certificate under the launcher's --no-opt (start-path cost).
  const bytes = view(data);
  if (bytes.indexOf(0x20) < 0 && bytes.indexOf(0x09) < 0) return data;
  const out = new Uint8Array(data.length);
  let n = 0;
  for (let i = 0; i < data.length; i++) {
    const b = data[i]!;
    if (!isSpaceOrTab(b)) out[n++] = b;
  }
  return out.subarray(0, n);
}

/**
 * Skips "Key: Value" lines (any line holding a ':'). Go keeps them in a map; ParseCertsPEM only asks
 * whether it is empty, so only whether there was a header line is kept.
 */
function skipHeaders(rest: Uint8Array): { rest: Uint8Array; consumed: number } | undefined {
  let consumed = 0;
  for (;;) {
    if (rest.length === 0) return undefined;
    const { line, rest: next, consumed: n } = getLine(rest);
    if (line.indexOf(0x3a) < 0) return { rest, consumed };
    rest = next;
    consumed += n;
  }
}

function decodeBody(rest: Uint8Array, endIndex: number): Uint8Array | undefined {
  return decodeGoStdBase64(removeSpacesAndTabs(rest.subarray(0, endIndex)));
}

/** One pem.Decode call: the block and the rest, or undefined (Go: nil, data). */
export function decodePem(data: Uint8Array, decoder: PemDecoder): { block: PemBlock; rest: Uint8Array } | undefined {
  return decoder === 'end-first' ? decodeEndFirst(data) : decodeBeginFirst(data);
}

function decodeBeginFirst(data: Uint8Array): { block: PemBlock; rest: Uint8Array } | undefined {
  let rest = data;
  for (;;) {
    if (hasPrefix(rest, PEM_START.subarray(1))) rest = rest.subarray(PEM_START.length - 1);
    else {
      const at = indexOf(rest, PEM_START);
      if (at < 0) return undefined;
      rest = rest.subarray(at + PEM_START.length);
    }
    const typeLineRead = getLine(rest);
    let typeLine = typeLineRead.line;
    rest = typeLineRead.rest;
    if (!hasSuffix(typeLine, DASHES)) continue;
    typeLine = typeLine.subarray(0, typeLine.length - DASHES.length);
    const read = skipHeaders(rest);
    if (!read) return undefined;
    rest = read.rest;
    const hasHeaders = read.consumed > 0;
    let endIndex: number;
    let endTrailerIndex: number;
    if (!hasHeaders && hasPrefix(rest, PEM_END.subarray(1))) {
      endIndex = 0;
      endTrailerIndex = PEM_END.length - 1;
    } else {
      endIndex = indexOf(rest, PEM_END);
      endTrailerIndex = endIndex + PEM_END.length;
    }
    if (endIndex < 0) continue;
    const block = finish(rest, typeLine, hasHeaders, endIndex, endTrailerIndex);
    if (block) return block;
  }
}

function decodeEndFirst(data: Uint8Array): { block: PemBlock; rest: Uint8Array } | undefined {
  let rest = data;
  let endTrailerIndex = 0;
  for (;;) {
    if (endTrailerIndex < 0 || endTrailerIndex > rest.length) return undefined;
    rest = rest.subarray(endTrailerIndex);
    let endIndex = indexOf(rest, PEM_END);
    if (endIndex < 0) return undefined;
    endTrailerIndex = endIndex + PEM_END.length;
    const beginIndex = lastIndexOf(rest.subarray(0, endIndex), PEM_START.subarray(1));
    if (beginIndex < 0 || (beginIndex > 0 && rest[beginIndex - 1] !== 0x0a)) continue;
    const skip = beginIndex + PEM_START.length - 1;
    rest = rest.subarray(skip);
    endIndex -= skip;
    endTrailerIndex -= skip;
    const typeLineRead = getLine(rest);
    let typeLine = typeLineRead.line;
    rest = typeLineRead.rest;
    endIndex -= typeLineRead.consumed;
    endTrailerIndex -= typeLineRead.consumed;
    if (!hasSuffix(typeLine, DASHES)) continue;
    typeLine = typeLine.subarray(0, typeLine.length - DASHES.length);
    const read = skipHeaders(rest);
    if (!read) return undefined;
    rest = read.rest;
    endIndex -= read.consumed;
    endTrailerIndex -= read.consumed;
    const hasHeaders = read.consumed > 0;
    // Headers must end before the END line; without them endTrailerIndex stays >= 0.
    if (hasHeaders && endIndex < 0) continue;
    const block = finish(rest, typeLine, hasHeaders, endIndex, endTrailerIndex, true);
    if (block) return block;
  }
}

/** The END line check, the base64 body, and the rest after the END line (shared tail of both). */
function finish(rest: Uint8Array, typeLine: Uint8Array, hasHeaders: boolean, endIndex: number, endTrailerIndex: number, emptyBodyAllowed = false): { block: PemBlock; rest: Uint8Array } | undefined {
  let endTrailer = rest.subarray(endTrailerIndex);
  const endTrailerLen = typeLine.length + DASHES.length;
  if (endTrailer.length < endTrailerLen) return undefined;
  const restOfEndLine = endTrailer.subarray(endTrailerLen);
  endTrailer = endTrailer.subarray(0, endTrailerLen);
  if (!hasPrefix(endTrailer, typeLine) || !hasSuffix(endTrailer, DASHES)) return undefined;
  if (getLine(restOfEndLine).line.length !== 0) return undefined;
  let bytes: Uint8Array | undefined;
  if (emptyBodyAllowed && endIndex <= 0) bytes = new Uint8Array(0);
  else bytes = decodeBody(rest, endIndex);
  if (!bytes) return undefined;
  const after = getLine(rest.subarray(endIndex + PEM_END.length - 1)).rest;
  return { block: { type: typeLine, hasHeaders, bytes }, rest: after };
}
