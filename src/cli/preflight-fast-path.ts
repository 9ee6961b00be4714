/**
 * preflight's command line without yargs (issue 12): kubelet's ExecStartPre runs `node-check
 * preflight` with a few plain flags at every kubelet start, and loading, building and running
 * yargs was a tenth of that run. This reads preflight's options from the same table yargs is
 * built from (options.ts), in their plain forms only (--name value, --name=value, --flag,
 * --no-flag); any other word (an option preflight does not take, a repeatable one, a short alias,
 * --help, a quoted or dash-led value, `--`) returns undefined and yargs reads the whole command
 * line as before. It must give what yargs gives for every command line it accepts
 * (test/cli/preflight-fast-path.test.ts).
 */
import { COMMANDS, optionFor, optionsOf, type OptionSpec } from './options.js';

const PREFLIGHT = COMMANDS.find((command) => command.name === 'preflight');
const KNOWN: ReadonlyMap<string, OptionSpec> = new Map(PREFLIGHT ? optionsOf(PREFLIGHT).map((name) => [name, optionFor(PREFLIGHT, name)]) : []);

/** A plain decimal: what yargs and Number() surely read alike. */
const PLAIN_NUMBER = /^[0-9]{1,9}(\.[0-9]{1,9})?$/;

/** The arguments yargs would give preflight (its options' long names), or undefined: ask yargs. */
export function preflightFastPath(argv: readonly string[]): Record<string, unknown> | undefined {
  if (argv[0] !== 'preflight') return undefined;
  const args: Record<string, unknown> = {};
  for (let i = 1; i < argv.length; i++) {
    const match = /^--([a-z][a-z-]*[a-z])(?:=(.*))?$/s.exec(argv[i]!);
    if (!match) return undefined;
    const name = match[1]!;
    const inline = match[2];
    const option = KNOWN.get(name);
    const negated = name.startsWith('no-') ? KNOWN.get(name.slice(3)) : undefined;
    if (option?.type === 'boolean' && inline === undefined) {
      args[name] = true;
      continue;
    }
    if (negated?.type === 'boolean' && inline === undefined) {
      args[name.slice(3)] = false;
      continue;
    }
    if (!option || option.type === 'boolean' || option.repeatable) return undefined;
    const value = inline ?? argv[++i];
    // yargs reads a dash-led word as the next flag, strips quotes and says more about odd values.
    if (value === undefined || value === '' || /^[-"']/.test(value) || /["']$/.test(value)) return undefined;
    if (option.choices && !option.choices.includes(value)) return undefined;
    if (option.type === 'number') {
      if (!PLAIN_NUMBER.test(value)) return undefined;
      args[name] = Number(value);
    } else {
      args[name] = value;
    }
  }
  return args;
}
