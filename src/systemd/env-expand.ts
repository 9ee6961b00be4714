/**
 * Environment expansion of a command line when systemd executes it (src/basic/env-util.c
 * `replace_env_argv` with `replace_env(…, 0)`, identical in v239 and v252):
 * - a word starting with "$" but not "${" or "$$" is a variable reference as a whole: the rest of
 *   the word is the name ("$FOO/bar" looks up "FOO/bar"); its value is split at whitespace, with
 *   quotes removed and a backslash taking the next character literally, into zero or more words;
 *   an unset variable (or an empty value) leaves no word at all;
 * - elsewhere "${NAME}" is replaced verbatim (unset: empty, the word stays), "$$" is "$", and a bare
 *   "$NAME" inside a word, "${NAME:-x}" and an unclosed "${" are kept as written.
 */
import { splitWords } from './extract-word.js';

export interface ExpandedArgv {
  readonly argv: readonly string[];
  /** Names referenced but not set, in order of first use. */
  readonly unset: readonly string[];
}

export function expandArgv(words: readonly string[], env: ReadonlyMap<string, string>): ExpandedArgv {
  const argv: string[] = [];
  const unset: string[] = [];
  const lookup = (name: string): string | undefined => {
    const value = name === '' ? undefined : env.get(name);
    if (value === undefined && name !== '' && !unset.includes(name)) unset.push(name);
    return value;
  };
  for (const word of words) {
    if (word[0] === '$' && word[1] !== '{' && word[1] !== '$') {
      const value = lookup(word.slice(1));
      // RELAX: unbalanced quotes or a trailing backslash never fail here.
      if (value !== undefined) argv.push(...(splitWords(value, { unquote: true, relax: true }) ?? []));
      continue;
    }
    argv.push(replaceEnv(word, lookup));
  }
  return { argv, unset };
}

/** replace_env with flags 0: "${NAME}" and "$$" only. */
export function replaceEnv(word: string, lookup: (name: string) => string | undefined): string {
  let state: 'word' | 'dollar' | 'variable' = 'word';
  let out = '';
  let from = 0;
  for (let i = 0; i < word.length; i++) {
    const c = word[i];
    switch (state) {
      case 'word':
        if (c === '$') state = 'dollar';
        break;
      case 'dollar':
        if (c === '{') {
          out += word.slice(from, i - 1);
          from = i - 1;
          state = 'variable';
        } else if (c === '$') {
          out += word.slice(from, i);
          from = i + 1;
          state = 'word';
        } else {
          state = 'word';
        }
        break;
      case 'variable':
        if (c === '}') {
          out += lookup(word.slice(from + 2, i)) ?? '';
          from = i + 1;
          state = 'word';
        } else if (c === ':') {
          // "${NAME:-default}" is not supported here: kept as written.
          state = 'word';
        }
        break;
    }
  }
  return out + word.slice(from);
}
