/**
 * preflight's command line without yargs (issue 12): kubelet's ExecStartPre runs `node-check
 * preflight` with a few plain flags at every kubelet start, and loading, building and running
 * yargs was a tenth of that run. This reads exactly those plain forms and nothing else; any other
 * word (an option it does not know, a short alias, --help, a quoted or dash-led value, `--`)
 * returns undefined and yargs reads the whole command line as before. It must give the same
 * arguments yargs gives for every command line it accepts (test/cli/preflight-fast-path.test.ts).
 */

const STRINGS = new Set(['root', 'unit', 'kubelet-version', 'textfile-dir', 'config-file']);
const CHOICES: Readonly<Record<string, readonly string[]>> = { 'kubelet-flavor': ['upstream', 'openshift'], output: ['text', 'json'] };
const NUMBERS = new Set(['timeout']);
const BOOLEANS = new Set(['journal', 'metrics', 'fallback', 'color']);

/** A plain decimal: what yargs and Number() surely read alike. */
const PLAIN_NUMBER = /^[0-9]{1,9}(\.[0-9]{1,9})?$/;

/** The arguments yargs would give preflight (the keys loadSettings reads), or undefined: ask yargs. */
export function preflightFastPath(argv: readonly string[]): Record<string, unknown> | undefined {
  if (argv[0] !== 'preflight') return undefined;
  const args: Record<string, unknown> = {};
  for (let i = 1; i < argv.length; i++) {
    const word = argv[i]!;
    const match = /^--([a-z][a-z-]*[a-z])(?:=(.*))?$/s.exec(word);
    if (!match) return undefined;
    const name = match[1]!;
    const inline = match[2];
    if (BOOLEANS.has(name) && inline === undefined) {
      args[name] = true;
      continue;
    }
    if (name.startsWith('no-') && BOOLEANS.has(name.slice(3)) && inline === undefined) {
      args[name.slice(3)] = false;
      continue;
    }
    if (!STRINGS.has(name) && !NUMBERS.has(name) && CHOICES[name] === undefined) return undefined;
    const value = inline ?? argv[++i];
    // yargs reads a dash-led word as the next flag, strips quotes and says more about odd values.
    if (value === undefined || value === '' || /^[-"']/.test(value) || /["']$/.test(value)) return undefined;
    if (NUMBERS.has(name)) {
      if (!PLAIN_NUMBER.test(value)) return undefined;
      args[name] = Number(value);
    } else {
      if (CHOICES[name] !== undefined && !CHOICES[name].includes(value)) return undefined;
      args[name] = value;
    }
  }
  return args;
}
