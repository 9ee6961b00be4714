/**
 * preflight's and check's command lines read without yargs must give what yargs gives:
 * for every command line the fast path accepts, the same command, settings and arguments, or the
 * same usage error. Command lines are drawn from each command's own flags with awkward values, and
 * words it does not know, which it must leave to yargs.
 */
import t from 'tap';
import fc from 'fast-check';
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { fastPath } from '../../src/cli/fast-path.js';
import { COMMANDS, optionFor, optionsOf } from '../../src/cli/options.js';
import { parseCli } from '../../src/cli/program.js';
import type { CliIo } from '../../src/cli/io.js';

const RUNS = Number(process.env.NODE_CHECK_PROPERTY_RUNS ?? 300);

function ioFor(configFile: string): CliIo & { readonly errors: string[] } {
  const errors: string[] = [];
  return { errors, stdout: () => undefined, stderr: (text) => void errors.push(text), env: { NODE_CHECK_CONFIG: configFile }, stdoutIsTTY: false, shutdownSignal: new Promise(() => undefined) };
}

/** What parseCli decided, as plain data: the command's name, its settings and the arguments loadSettings reads. */
async function outcome(argv: readonly string[], configFile: string, fastPath: boolean) {
  const io = ioFor(configFile);
  const parsed = await parseCli(argv, io, { fastPath });
  if ('exitCode' in parsed) return { exitCode: parsed.exitCode, errors: io.errors };
  const args = Object.fromEntries(Object.entries(parsed.args).filter(([key]) => /^[a-z]+(-[a-z]+)*$/.test(key)));
  return { command: parsed.command.name, settings: parsed.settings, args, errors: io.errors };
}

const values = fc.constantFrom('', '/', '/tmp/x', 'a b', '1.28.7', 'v1.30.0', '1.28', 'upstream', 'openshift', 'json', 'text', 'yes', '0', '5', '2.5', '010', '1e3', '-1', '--root', '"q"', "'q'", 'x=y', '\u00e9', 'kubelet.service', 'true', 'false');
/** Each command's own option names, with --no- for its booleans, from the table yargs is built from. */
function knownNames(command: string): string[] {
  const spec = COMMANDS.find((c) => c.name === command)!;
  return optionsOf(spec).flatMap((name) => (optionFor(spec, name).type === 'boolean' ? [name, `no-${name}`] : [name]));
}
const unknown = fc.constantFrom('listen', 'interval', 'ignore', 'color', 'no-color', 'textfileDir', 'Root', 'no-root', 'journals', 'textfile-dir', 'overlay');
function commandLineOf(command: string) {
  const names = fc.oneof({ arbitrary: fc.constantFrom(...knownNames(command)), weight: 9 }, { arbitrary: unknown, weight: 1 });
  const word = fc.oneof(
    { arbitrary: fc.tuple(names, values).map(([name, value]) => [`--${name}`, value]), weight: 4 },
    { arbitrary: fc.tuple(names, values).map(([name, value]) => [`--${name}=${value}`]), weight: 4 },
    { arbitrary: names.map((name) => [`--${name}`]), weight: 4 },
    { arbitrary: fc.constantFrom(['-o', 'json'], ['--help'], ['--version'], ['--'], ['check'], ['-h'], ['x']), weight: 1 },
  );
  return fc.array(word, { maxLength: 4 }).map((words) => [command, ...words.flat()]);
}
const commandLine = fc.oneof(commandLineOf('preflight'), commandLineOf('check'));

t.test('the fast path and yargs agree on every command line the fast path accepts', async (t) => {
  const configFile = join(t.testdir(), 'config.yaml');
  writeFileSync(configFile, 'journal: false\n');
  let accepted = 0;
  await fc.assert(
    fc.asyncProperty(commandLine, async (argv) => {
      if (fastPath(argv) === undefined) return;
      accepted++;
      t.strictSame(await outcome(argv, configFile, true), await outcome(argv, configFile, false), argv.join(' '));
    }),
    { numRuns: RUNS },
  );
  t.ok(accepted > RUNS / 10, `the generator reaches the fast path (${accepted} of ${RUNS})`);
});

t.test('the forms kubelet\'s drop-ins and the bench use take the fast path; anything else is left to yargs', async (t) => {
  for (const argv of [
    ['preflight'],
    ['preflight', '--no-fallback'],
    ['preflight', '--no-metrics'],
    ['preflight', '--root', '/r', '--kubelet-version', '1.28.7', '--textfile-dir', '/d', '--no-journal'],
    ['preflight', '--timeout=5', '--output', 'json', '--kubelet-flavor=openshift'],
      ['check', '--root', '/r', '--output', 'json'],
    ['check', '--kubelet-version=1.30.2', '--no-verbose'],
  ]) t.ok(fastPath(argv), argv.join(' '));
  t.strictSame(fastPath(['preflight', '--root', '/a', '--root=/b', '--journal', '--no-journal', '--timeout', '3'])?.args, { root: '/b', journal: false, timeout: 3 });
  for (const argv of [
    ['serve'],
    ['--root', '/r'],
    ['check', '--textfile-dir', '/d'],
    ['check', '--overlay', '/o'],
    ['preflight', '--help'],
    ['preflight', '-o', 'json'],
    ['preflight', '--ignore', 'x'],
    ['preflight', '--color'],
    ['preflight', '--root'],
    ['preflight', '--root', '--no-journal'],
    ['preflight', '--root='],
    ['preflight', '--timeout', '1e3'],
    ['preflight', '--output', 'yaml'],
    ['preflight', '--journal=false'],
    ['preflight', '--', 'x'],
    ['preflight', 'extra'],
  ]) t.equal(fastPath(argv), undefined, argv.join(' '));
});

t.test('--version alone is answered without yargs, with the line yargs prints', async (t) => {
  const fast: string[] = [];
  const slow: string[] = [];
  const io = (out: string[]): CliIo => ({ stdout: (text) => void out.push(text), stderr: () => undefined, env: {}, stdoutIsTTY: false, shutdownSignal: new Promise(() => undefined) });
  t.strictSame(await parseCli(['--version'], io(fast)), { exitCode: 0 });
  t.strictSame(await parseCli(['--version'], io(slow), { fastPath: false }), { exitCode: 0 });
  t.strictSame(fast, slow);
  t.match(fast.join(''), /^\S+\n$/);
});
