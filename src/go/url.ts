/**
 * net/url.Parse (golang/go src/net/url/url.go), byte for byte, with Go's error texts.
 *
 * Kubelet validates each matchImages entry with url.Parse("https://" + pattern) and matches
 * images by the parsed host and path, so both the errors and the parsed parts matter.
 * [U] Go releases from early 2026 (CVE-2026-25679) also reject an IPv6 literal that is not at the
 * start of the host; kubelet builds made with such a Go may reject hosts like "a[b].io" that this
 * (pre-2026) parser accepts.
 */
import { goQuote } from './quote.js';
import { goBytesToString, utf8Bytes } from './utf8.js';

export interface GoUrl {
  readonly scheme: string;
  readonly opaque: string;
  readonly user?: { readonly username: string; readonly password?: string };
  /** Unescaped host[:port] ("host or host:port"). */
  readonly host: string;
  /** Unescaped path. */
  readonly path: string;
  readonly rawQuery: string;
  readonly forceQuery: boolean;
  readonly fragment: string;
}

export type GoUrlParseResult = { readonly ok: true; readonly url: GoUrl } | { readonly ok: false; readonly error: string };

type Mode = 'path' | 'host' | 'zone' | 'userPassword' | 'fragment';

class UrlError extends Error {}

const HASH = 0x23;
const isAlpha = (c: number) => (c >= 0x61 && c <= 0x7a) || (c >= 0x41 && c <= 0x5a);
const isDigit = (c: number) => c >= 0x30 && c <= 0x39;
const isHex = (c: number | undefined) => c !== undefined && (isDigit(c) || (c >= 0x61 && c <= 0x66) || (c >= 0x41 && c <= 0x46));
const unhex = (c: number) => (isDigit(c) ? c - 0x30 : (c | 0x20) - 0x61 + 10);

/** url.Parse: the parsed URL, or the *url.Error text ("parse \"…\": …"). */
export function parseGoUrl(raw: string): GoUrlParseResult {
  const bytes = utf8Bytes(raw);
  const hash = bytes.indexOf(HASH);
  const u = hash === -1 ? bytes : bytes.subarray(0, hash);
  let url: Omit<GoUrl, 'fragment'>;
  try {
    url = parse(u);
  } catch (e) {
    if (e instanceof UrlError) return { ok: false, error: `parse ${goQuote(u)}: ${e.message}` };
    throw e;
  }
  if (hash === -1) return { ok: true, url: { ...url, fragment: '' } };
  try {
    const fragment = str(unescape(bytes.subarray(hash + 1), 'fragment'));
    return { ok: true, url: { ...url, fragment } };
  } catch (e) {
    if (e instanceof UrlError) return { ok: false, error: `parse ${goQuote(bytes)}: ${e.message}` };
    throw e;
  }
}

function parse(raw: Uint8Array): Omit<GoUrl, 'fragment'> {
  if (raw.some((b) => b < 0x20 || b === 0x7f)) throw new UrlError('net/url: invalid control character in URL');
  if (raw.length === 1 && raw[0] === 0x2a) return { scheme: '', opaque: '', host: '', path: '*', rawQuery: '', forceQuery: false };

  // getScheme: [a-zA-Z][a-zA-Z0-9+-.]* followed by ':'.
  let scheme = '';
  let rest = raw;
  for (let i = 0; i < raw.length; i++) {
    const c = raw[i]!;
    if (isAlpha(c)) continue;
    if (isDigit(c) || c === 0x2b || c === 0x2d || c === 0x2e) {
      if (i === 0) break;
      continue;
    }
    if (c === 0x3a) {
      if (i === 0) throw new UrlError('missing protocol scheme');
      scheme = Buffer.from(raw.subarray(0, i)).toString('latin1').toLowerCase();
      rest = raw.subarray(i + 1);
    }
    break;
  }

  let forceQuery = false;
  let rawQuery = '';
  const question = rest.indexOf(0x3f);
  if (question !== -1 && question === rest.length - 1) {
    forceQuery = true;
    rest = rest.subarray(0, rest.length - 1);
  } else if (question !== -1) {
    rawQuery = str(rest.subarray(question + 1));
    rest = rest.subarray(0, question);
  }

  if (rest[0] !== 0x2f) {
    if (scheme !== '') return { scheme, opaque: str(rest), host: '', path: '', rawQuery, forceQuery };
    const slash = rest.indexOf(0x2f);
    const segment = slash === -1 ? rest : rest.subarray(0, slash);
    if (segment.includes(0x3a)) throw new UrlError('first path segment in URL cannot contain colon');
  }

  let host = '';
  let user: GoUrl['user'];
  if ((scheme !== '' || !(rest[0] === 0x2f && rest[1] === 0x2f && rest[2] === 0x2f)) && rest[0] === 0x2f && rest[1] === 0x2f) {
    let authority = rest.subarray(2);
    rest = new Uint8Array(0);
    const slash = authority.indexOf(0x2f);
    if (slash !== -1) {
      rest = authority.subarray(slash);
      authority = authority.subarray(0, slash);
    }
    ({ user, host } = parseAuthority(authority));
  }
  const path = str(unescape(rest, 'path'));
  return { scheme, opaque: '', ...(user ? { user } : {}), host, path, rawQuery, forceQuery };
}

function parseAuthority(authority: Uint8Array): { user?: GoUrl['user']; host: string } {
  const at = authority.lastIndexOf(0x40);
  const host = str(parseHost(at === -1 ? authority : authority.subarray(at + 1)));
  if (at === -1) return { host };
  const userinfo = authority.subarray(0, at);
  if (!validUserinfo(userinfo)) throw new UrlError('net/url: invalid userinfo');
  const colon = userinfo.indexOf(0x3a);
  if (colon === -1) return { user: { username: str(unescape(userinfo, 'userPassword')) }, host };
  const username = str(unescape(userinfo.subarray(0, colon), 'userPassword'));
  const password = str(unescape(userinfo.subarray(colon + 1), 'userPassword'));
  return { user: { username, password }, host };
}

function parseHost(host: Uint8Array): Uint8Array {
  if (host[0] === 0x5b) {
    // An IP-literal (RFC 3986, RFC 6874): "[fe80::1]", "[fe80::1%25en0]:80".
    const close = host.lastIndexOf(0x5d);
    if (close === -1) throw new UrlError("missing ']' in host");
    const colonPort = host.subarray(close + 1);
    if (!validOptionalPort(colonPort)) throw new UrlError(`invalid port ${goQuote(colonPort)} after host`);
    const zone = indexOf(host.subarray(0, close), utf8Bytes('%25'));
    if (zone !== -1) {
      const host1 = unescape(host.subarray(0, zone), 'host');
      const host2 = unescape(host.subarray(zone, close), 'zone');
      const host3 = unescape(host.subarray(close), 'host');
      return concat(host1, host2, host3);
    }
  } else {
    const colon = host.lastIndexOf(0x3a);
    if (colon !== -1) {
      const colonPort = host.subarray(colon);
      if (!validOptionalPort(colonPort)) throw new UrlError(`invalid port ${goQuote(colonPort)} after host`);
    }
  }
  return unescape(host, 'host');
}

function validOptionalPort(port: Uint8Array): boolean {
  if (port.length === 0) return true;
  if (port[0] !== 0x3a) return false;
  return port.subarray(1).every(isDigit);
}

function validUserinfo(s: Uint8Array): boolean {
  // Iterates runes in Go; any non-ASCII rune is invalid, so bytes >= 0x80 are invalid too.
  return s.every((c) => isAlpha(c) || isDigit(c) || "-._:~!$&'()*+,;=%@".includes(String.fromCharCode(c)) && c < 0x80);
}

function shouldEscape(c: number, mode: Mode): boolean {
  if (isAlpha(c) || isDigit(c)) return false;
  if ((mode === 'host' || mode === 'zone') && "!$&'()*+,;=:[]<>\"".includes(String.fromCharCode(c)) && c < 0x80) return false;
  switch (c) {
    case 0x2d: case 0x5f: case 0x2e: case 0x7e: // - _ . ~
      return false;
    case 0x24: case 0x26: case 0x2b: case 0x2c: case 0x2f: case 0x3a: case 0x3b: case 0x3d: case 0x3f: case 0x40: // $ & + , / : ; = ? @
      switch (mode) {
        case 'path': return c === 0x3f;
        case 'userPassword': return c === 0x40 || c === 0x2f || c === 0x3f || c === 0x3a;
        case 'fragment': return false;
        default: break;
      }
  }
  if (mode === 'fragment' && (c === 0x21 || c === 0x28 || c === 0x29 || c === 0x2a)) return false;
  return true;
}

function unescape(s: Uint8Array, mode: Mode): Uint8Array {
  const out: number[] = [];
  for (let i = 0; i < s.length; ) {
    const c = s[i]!;
    if (c === 0x25) {
      if (i + 2 >= s.length || !isHex(s[i + 1]) || !isHex(s[i + 2])) {
        throw new UrlError(`invalid URL escape ${goQuote(s.subarray(i, Math.min(i + 3, s.length)))}`);
      }
      const v = (unhex(s[i + 1]!) << 4) | unhex(s[i + 2]!);
      const isPercent25 = s[i + 1] === 0x32 && s[i + 2] === 0x35;
      // In a host, %-encoding may only produce non-ASCII bytes (and %25 for zones).
      if (mode === 'host' && unhex(s[i + 1]!) < 8 && !isPercent25) throw new UrlError(`invalid URL escape ${goQuote(s.subarray(i, i + 3))}`);
      if (mode === 'zone' && !isPercent25 && v !== 0x20 && shouldEscape(v, 'host')) throw new UrlError(`invalid URL escape ${goQuote(s.subarray(i, i + 3))}`);
      out.push(v);
      i += 3;
      continue;
    }
    if ((mode === 'host' || mode === 'zone') && c < 0x80 && shouldEscape(c, mode)) {
      throw new UrlError(`invalid character ${goQuote(s.subarray(i, i + 1))} in host name`);
    }
    out.push(c);
    i++;
  }
  return Uint8Array.from(out);
}

function str(bytes: Uint8Array): string {
  return goBytesToString(bytes);
}

function indexOf(haystack: Uint8Array, needle: Uint8Array): number {
  return Buffer.from(haystack).indexOf(Buffer.from(needle));
}

function concat(...parts: Uint8Array[]): Uint8Array {
  return Uint8Array.from(parts.flatMap((p) => [...p]));
}
