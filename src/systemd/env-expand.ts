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
import { MAX_ARG_STRLEN_ANY_PAGE, MAX_ARGV_BYTES } from '../limits/bounds.js';

export interface ExpandedArgv {
  readonly argv: readonly string[];
  /** For each word of argv, the variables its text came from (none for a word written as is). */
  readonly variables: readonly (readonly string[])[];
  /** Names referenced but not set, in order of first use. */
  readonly unset: readonly string[];
  /**
   * Set when the expansion exceeds what execve(2) accepts on any Linux (E2BIG): one string over
   * MAX_ARG_STRLEN_ANY_PAGE or all over MAX_ARGV_BYTES. Expansion stops there (pinned by test/hostile/argv-amplification.test.ts:
   * 3 MB values repeated 3,000 times exhausted the heap); `argv` is then incomplete.
   */
  readonly tooLarge?: string;
}

class ArgvTooLarge extends Error {}

export function expandArgv(words: readonly string[], env: ReadonlyMap<string, string>): ExpandedArgv {
  const argv: string[] = [];
  const variables: (readonly string[])[] = [];
  const unset: string[] = [];
  const seen = new Set<string>();
  let bytes = 0;
  let used: string[] = [];
  const add = (arg: string) => {
    const size = Buffer.byteLength(arg) + 1;
    if (size > MAX_ARG_STRLEN_ANY_PAGE) throw new ArgvTooLarge(`an argument of ${size} bytes (Linux allows at most ${MAX_ARG_STRLEN_ANY_PAGE})`);
    bytes += size;
    if (bytes > MAX_ARGV_BYTES) throw new ArgvTooLarge(`more than ${MAX_ARGV_BYTES} bytes of arguments (Linux allows at most ${MAX_ARGV_BYTES})`);
    argv.push(arg);
    variables.push(used);
  };
  const lookup = (name: string): string | undefined => {
    if (name !== '') used.push(name);
    const value = name === '' ? undefined : env.get(name);
    if (value === undefined && name !== '' && !seen.has(name)) {
      seen.add(name);
      unset.push(name);
    }
    return value;
  };
  try {
    for (const word of words) {
      used = [];
      if (word[0] === '$' && word[1] !== '{' && word[1] !== '$') {
        const value = lookup(word.slice(1));
        // RELAX: unbalanced quotes or a trailing backslash never fail here.
        if (value !== undefined) for (const split of splitWords(value, { unquote: true, relax: true }) ?? []) add(split);
        continue;
      }
      add(replaceEnv(word, lookup, MAX_ARG_STRLEN_ANY_PAGE));
    }
  } catch (error) {
    if (!(error instanceof ArgvTooLarge)) throw error;
    return { argv, variables, unset, tooLarge: error.message };
  }
  return { argv, variables, unset };
}

/** replace_env with flags 0: "${NAME}" and "$$" only. */
export function replaceEnv(word: string, lookup: (name: string) => string | undefined, maxLength = Infinity): string {
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
          // UTF-16 length <= UTF-8 length: past this, the argument is certainly too long.
          if (out.length >= maxLength) throw new ArgvTooLarge(`an argument of more than ${maxLength} bytes (Linux allows at most ${MAX_ARG_STRLEN_ANY_PAGE})`);
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
