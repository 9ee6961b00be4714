/**
 * Kubelet's image matching for matchImages (kubernetes/kubernetes pkg/credentialprovider
 * keyring.go URLsMatchStr / URLsMatch, at v1.24.17-v1.37.2): both strings parsed as "https://" + s,
 * then ports equal as strings, the same number of host labels, the pattern's path a plain
 * prefix of the image's path, and each host label matched with filepath.Match.
 */
import { goMatch } from '../go/filepath.js';
import { goSplitHostPort } from '../go/net.js';
import { parseGoUrl, type GoUrl } from '../go/url.js';

/** True when kubelet would ask this provider for an image; any parse or glob error is "no". */
export function matchImage(pattern: string, image: string): boolean {
  const glob = parseGoUrl(`https://${pattern}`);
  const target = parseGoUrl(`https://${image}`);
  if (!glob.ok || !target.ok) return false;
  return urlsMatch(glob.url, target.url) === true;
}

/** URLsMatch: true, false, or an error text (a malformed glob), which kubelet treats as no match. */
function urlsMatch(glob: GoUrl, target: GoUrl): boolean | string {
  const [globParts, globPort] = splitUrl(glob);
  const [targetParts, targetPort] = splitUrl(target);
  if (globPort !== targetPort) return false;
  if (globParts.length !== targetParts.length) return false;
  if (!target.path.startsWith(glob.path)) return false;
  for (const [i, part] of globParts.entries()) {
    const matched = goMatch(part, targetParts[i]!);
    if (matched.error !== undefined) return matched.error;
    if (!matched.matched) return false;
  }
  return true;
}

/** splitURL: net.SplitHostPort, falling back to the whole host and no port on any error. */
function splitUrl(url: GoUrl): [string[], string] {
  const split = goSplitHostPort(url.host);
  const host = split.ok ? split.host : url.host;
  return [host.split('.'), split.ok ? split.port : ''];
}

/**
 * Why a pattern that passes kubelet's validation can never match an image, or undefined.
 * (A pattern kubelet rejects is reported by validation, not here.)
 */
export function matchImagePatternProblem(pattern: string): string | undefined {
  const parsed = parseGoUrl(`https://${pattern}`);
  if (!parsed.ok) return undefined;
  if (pattern === '') return 'it is empty, so its host is empty and no image has an empty registry host';
  if (/^[A-Za-z][A-Za-z0-9+.-]*:\/\//.test(pattern)) {
    return `it starts with a URL scheme ("${pattern.slice(0, pattern.indexOf('://') + 3)}"); kubelet adds "https://" itself, so the scheme becomes the host`;
  }
  const authority = pattern.split('/')[0]!;
  if (authority.includes('?')) return `its '?' starts the URL query, so the host is cut to "${parsed.url.host}" (globs may use '*' and '[…]' but not '?')`;
  const { url } = parsed;
  const [labels] = splitUrl(url);
  if (labels.length === 1 && labels[0] === '') return 'its host is empty, and every image has a registry host';
  if (/[*?[]/.test(url.path)) {
    return `its path "${url.path}" contains a glob character; globs work only in host labels and the path is compared as a plain prefix`;
  }
  for (const label of labels) {
    const check = goMatch(label, 'x');
    if (check.error !== undefined) return `its host label "${label}" is not a valid glob (${check.error})`;
  }
  return undefined;
}
