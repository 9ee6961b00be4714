/**
 * The command lines of preflight and check without yargs (start-path cost): kubelet's ExecStartPre runs
 * `node-check preflight` with a few plain flags at every kubelet start, and loading, building and
 * running yargs was a tenth of that run (and of check's). This reads the command's options from
 * the same table yargs is built from (options.ts), in their plain forms only (--name value,
 * --name=value, --flag, --no-flag); any other word (an option the command does not take, a
 * repeatable one, a short alias, --help, a quoted or dash-led value, `--`) returns undefined and
 * yargs reads the whole command line as before. It must give what yargs gives for every command
 * line it accepts (test/cli/fast-path.test.ts).
 */
import { COMMANDS, optionFor, optionsOf, type CommandSpec, type OptionSpec } from './options.js';

const FAST_COMMANDS: ReadonlyMap<string, { readonly spec: CommandSpec; readonly known: ReadonlyMap<string, OptionSpec> }> = new Map(
  COMMANDS.filter((spec) => spec.name === 'preflight' || spec.name === 'check').map((spec) => [
    spec.name,
    { spec, known: new Map(optionsOf(spec).map((name) => [name, optionFor(spec, name)])) },
  ]),
);

/** A plain decimal: what yargs and Number() surely read alike. */
const PLAIN_NUMBER = /^[0-9]{1,9}(\.[0-9]{1,9})?$/;

/** The command and the arguments yargs would give it (its options' long names), or undefined: ask yargs. */
export function fastPath(argv: readonly string[]): { readonly spec: CommandSpec; readonly args: Record<string, unknown> } | undefined {
  const command = FAST_COMMANDS.get(argv[0] ?? '');
  if (command === undefined) return undefined;
  const known = command.known;
  const args: Record<string, unknown> = {};
  for (let i = 1; i < argv.length; i++) {
    const match = /^--([a-z][a-z-]*[a-z])(?:=(.*))?$/s.exec(argv[i]!);
    if (!match) return undefined;
    const name = match[1]!;
    const inline = match[2];
    const option = known.get(name);
    const negated = name.startsWith('no-') ? known.get(name.slice(3)) : undefined;
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
    // yargs sets an option's alias too (-o for --output).
    if (option.alias !== undefined) args[option.alias] = args[name];
  }
  return { spec: command.spec, args };
}
