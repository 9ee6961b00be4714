/**
 * net.SplitHostPort (golang/go src/net/ipsock.go). Kubelet's image matching splits the parsed
 * URL host with it and treats any error as "no port".
 */

export type SplitHostPortResult =
  | { readonly ok: true; readonly host: string; readonly port: string }
  | { readonly ok: false; readonly error: string };

export function goSplitHostPort(hostport: string): SplitHostPortResult {
  const fail = (why: string): SplitHostPortResult => ({ ok: false, error: `address ${hostport}: ${why}` });
  const i = hostport.lastIndexOf(':');
  if (i < 0) return fail('missing port in address');
  let host: string;
  let j = 0;
  let k = 0;
  if (hostport[0] === '[') {
    const end = hostport.indexOf(']');
    if (end < 0) return fail("missing ']' in address");
    if (end + 1 === hostport.length) return fail('missing port in address');
    if (end + 1 !== i) return fail(hostport[end + 1] === ':' ? 'too many colons in address' : 'missing port in address');
    host = hostport.slice(1, end);
    j = 1;
    k = end + 1;
  } else {
    host = hostport.slice(0, i);
    if (host.includes(':')) return fail('too many colons in address');
  }
  if (hostport.slice(j).includes('[')) return fail("unexpected '[' in address");
  if (hostport.slice(k).includes(']')) return fail("unexpected ']' in address");
  return { ok: true, host, port: hostport.slice(i + 1) };
}
