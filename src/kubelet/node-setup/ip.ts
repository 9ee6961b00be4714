/**
 * netutils.ParseIPSloppy (k8s.io/utils/net, a fork of Go 1.16's net.ParseIP that keeps accepting
 * leading zeros; internal/third_party/forked/golang/net/ip.go at the fetched utils HEAD), and the
 * net.IP predicates kubelet's --node-ip checks use.
 */

const BIG = 0xffffff;

/** 16-byte form (IPv4 as ::ffff:a.b.c.d), or undefined. */
export type Ip16 = readonly number[];

function dtoi(s: string): { n: number; i: number; ok: boolean } {
  let n = 0;
  let i = 0;
  for (; i < s.length && s[i]! >= '0' && s[i]! <= '9'; i++) {
    n = n * 10 + (s.charCodeAt(i) - 48);
    if (n >= BIG) return { n: BIG, i, ok: false };
  }
  return i === 0 ? { n: 0, i: 0, ok: false } : { n, i, ok: true };
}

function xtoi(s: string): { n: number; i: number; ok: boolean } {
  let n = 0;
  let i = 0;
  for (; i < s.length; i++) {
    const c = s[i]!;
    if (c >= '0' && c <= '9') n = n * 16 + (s.charCodeAt(i) - 48);
    else if (c >= 'a' && c <= 'f') n = n * 16 + (s.charCodeAt(i) - 97 + 10);
    else if (c >= 'A' && c <= 'F') n = n * 16 + (s.charCodeAt(i) - 65 + 10);
    else break;
    if (n >= BIG) return { n: 0, i, ok: false };
  }
  return i === 0 ? { n: 0, i, ok: false } : { n, i, ok: true };
}

function v4in16(a: number, b: number, c: number, d: number): number[] {
  return [0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0xff, 0xff, a, b, c, d];
}

function parseIPv4(s: string): number[] | undefined {
  const p: number[] = [];
  for (let i = 0; i < 4; i++) {
    if (s.length === 0) return undefined;
    if (i > 0) {
      if (s[0] !== '.') return undefined;
      s = s.slice(1);
    }
    const { n, i: c, ok } = dtoi(s);
    if (!ok || n > 0xff) return undefined;
    s = s.slice(c);
    p.push(n);
  }
  if (s.length !== 0) return undefined;
  return v4in16(p[0]!, p[1]!, p[2]!, p[3]!);
}

function parseIPv6(s: string): number[] | undefined {
  const ip = new Array<number>(16).fill(0);
  let ellipsis = -1;
  if (s.length >= 2 && s[0] === ':' && s[1] === ':') {
    ellipsis = 0;
    s = s.slice(2);
    if (s.length === 0) return ip;
  }
  let i = 0;
  while (i < 16) {
    const { n, i: c, ok } = xtoi(s);
    if (!ok || n > 0xffff) return undefined;
    if (c < s.length && s[c] === '.') {
      if (ellipsis < 0 && i !== 12) return undefined;
      if (i + 4 > 16) return undefined;
      const ip4 = parseIPv4(s);
      if (!ip4) return undefined;
      ip[i] = ip4[12]!;
      ip[i + 1] = ip4[13]!;
      ip[i + 2] = ip4[14]!;
      ip[i + 3] = ip4[15]!;
      s = '';
      i += 4;
      break;
    }
    ip[i] = (n >> 8) & 0xff;
    ip[i + 1] = n & 0xff;
    i += 2;
    s = s.slice(c);
    if (s.length === 0) break;
    if (s[0] !== ':' || s.length === 1) return undefined;
    s = s.slice(1);
    if (s[0] === ':') {
      if (ellipsis >= 0) return undefined;
      ellipsis = i;
      s = s.slice(1);
      if (s.length === 0) break;
    }
  }
  if (s.length !== 0) return undefined;
  if (i < 16) {
    if (ellipsis < 0) return undefined;
    const n = 16 - i;
    for (let j = i - 1; j >= ellipsis; j--) ip[j + n] = ip[j]!;
    for (let j = ellipsis + n - 1; j >= ellipsis; j--) ip[j] = 0;
  } else if (ellipsis >= 0) {
    return undefined;
  }
  return ip;
}

/** netutils.ParseIPSloppy: the first '.' or ':' decides the family; anything else is nil. */
export function parseIPSloppy(s: string): Ip16 | undefined {
  for (const ch of s) {
    if (ch === '.') return parseIPv4(s);
    if (ch === ':') return parseIPv6(s);
  }
  return undefined;
}

/** net.IP.To4() != nil: IPv4, including IPv4-mapped IPv6 (::ffff:a.b.c.d). */
export function isIPv4(ip: Ip16): boolean {
  for (let i = 0; i < 10; i++) if (ip[i] !== 0) return false;
  return ip[10] === 0xff && ip[11] === 0xff;
}

/** netutils.IsIPv6: a parsed IP whose To4() is nil. */
export function isIPv6(ip: Ip16): boolean {
  return !isIPv4(ip);
}

/** net.IP.IsUnspecified: 0.0.0.0 (any 4-in-16 form) or ::. */
export function isUnspecified(ip: Ip16): boolean {
  if (isIPv4(ip)) return ip[12] === 0 && ip[13] === 0 && ip[14] === 0 && ip[15] === 0;
  return ip.every((b) => b === 0);
}
