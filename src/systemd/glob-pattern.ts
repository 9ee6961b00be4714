/**
 * glob(3) patterns as EnvironmentFile= accepts them (systemd passes the path to safe_glob): "*",
 * "?" and "[…]" within one path component; a leading "." is only matched explicitly (no
 * GLOB_PERIOD). Brace and tilde expansion are not used by systemd.
 */

export function hasGlobMagic(path: string): boolean {
  return /[*?[]/.test(path);
}

/** A matcher for one path component, or undefined if the component has no wildcard. */
export function componentMatcher(component: string): ((name: string) => boolean) | undefined {
  if (!hasGlobMagic(component)) return undefined;
  let source = '';
  for (let i = 0; i < component.length; i++) {
    const c = component[i]!;
    if (c === '*') source += '[^/]*';
    else if (c === '?') source += '[^/]';
    else if (c === '[') {
      const close = component.indexOf(']', i + 2);
      if (close < 0) {
        source += '\\[';
        continue;
      }
      let set = component.slice(i + 1, close);
      const negate = set.startsWith('!') || set.startsWith('^');
      if (negate) set = set.slice(1);
      source += `[${negate ? '^' : ''}${set.replace(/[\\\]^]/g, '\\$&')}]`;
      i = close;
    } else if (c === '\\' && i + 1 < component.length) {
      source += escapeRegExp(component[++i]!);
    } else {
      source += escapeRegExp(c);
    }
  }
  const regexp = new RegExp(`^${source}$`, 's');
  const explicitDot = component.startsWith('.');
  return (name) => (explicitDot || !name.startsWith('.')) && regexp.test(name);
}

function escapeRegExp(c: string): string {
  return c.replace(/[.*+?^${}()|[\]\\/]/g, '\\$&');
}
