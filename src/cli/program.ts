/**
 * The command line: parses flags with yargs, loads settings once (defaults, config file, flags),
 * dispatches to a command and returns its exit code. Usage errors exit 64 (docs/operations.md "Exit codes").
 */
import { closeSync, constants, fstatSync, openSync, readFileSync, statSync } from 'node:fs';
import type { Argv } from 'yargs';
import type { CliIo } from './io.js';
import { DEFAULT_CONFIG_FILE, DEFAULT_SETTINGS, metricsSettingsOf, mergeSettings, parseConfigFile, SettingsError, validate, type Settings } from '../settings.js';
import { ExitCode } from '../model/report.js';
import { parseKubeletVersion } from '../kubelet/version.js';
import { prepareCheckArgs, runCheck, type OverlayArg } from './commands/check.js';
import { runExplain } from './commands/explain.js';
import { runPreflight, writeUndecidedMetrics } from './commands/preflight.js';
import { runCompletion } from './commands/completion.js';
import { VERSION } from '../version.js';
import { COMMANDS, OPTIONS, optionFor, optionsOf, type CommandSpec, type OptionSpec } from './options.js';
import { didYouMean, unknownIgnoreIds } from '../lib/suggest.js';
import { readIgnoreList } from '../evaluate/ignore.js';
import { allFindingKinds } from '../catalog/findings.js';
import { fastPath as plainCommandLine } from './fast-path.js';

class UsageError extends Error {}

type Command = (settings: Settings, io: CliIo, args: Record<string, unknown>) => Promise<number>;

// Loaded when run: preflight and check never initialise the HTTP server and cluster client (start-path cost).
const runServe: Command = async (settings, io, args) => (await import('./commands/serve.js')).runServe(settings, io, args);
const runFallback: Command = async (settings, io, args) => (await import('./commands/fallback.js')).runFallback(settings, io, args);

const RUN: Record<string, Command> = {
  check: runCheck,
  preflight: runPreflight,
  serve: runServe,
  fallback: runFallback,
  explain: runExplain,
  completion: runCompletion,
};

/** Help is laid out at this width (or a narrower terminal's), words never split (paths are copied from it). */
const HELP_WIDTH = 100;

export async function runCli(argv: readonly string[], io: CliIo): Promise<number> {
  let parsed: Awaited<ReturnType<typeof parseCli>>;
  try {
    parsed = await parseCli(argv, io);
  } catch (error) {
    undecidedPreflight(argv, io);
    throw error;
  }
  if ('exitCode' in parsed) {
    if (parsed.exitCode === ExitCode.usage) undecidedPreflight(argv, io);
    return parsed.exitCode;
  }
  return parsed.command(parsed.settings, io, parsed.args);
}

/**
 * A preflight refused before its settings were loaded (usage error, bad settings file, a bug):
 * its metrics say "cannot tell" (runPreflight does so for what fails later). The textfile
 * directory is --textfile-dir, else the settings file's (read leniently: it may be what is
 * wrong), else the default; nothing is written when --no-metrics or the file turns metrics off.
 */
function undecidedPreflight(argv: readonly string[], io: CliIo): void {
  if (argv[0] !== 'preflight') return;
  const metricsFlag = argv.includes('--no-metrics') || argv.includes('--metrics=false') ? false : argv.includes('--metrics') || argv.includes('--metrics=true') ? true : undefined;
  if (metricsFlag === false) return;
  // A dash-led word after the flag is the next flag (yargs reads it so), not a directory to create.
  const flagValue = (name: string) => valuesInOrder(argv, name).filter((v) => v !== '' && !v.startsWith('-')).pop();
  const file = flagValue('config-file') ?? io.env['NODE_CHECK_CONFIG'] ?? DEFAULT_CONFIG_FILE;
  let fromFile: { textfileDir?: string; metrics?: boolean } = {};
  try {
    fromFile = metricsSettingsOf(readSettingsText(file));
  } catch {
    // no file, or not one node-check can read: the defaults
  }
  if (metricsFlag === undefined && fromFile.metrics === false) return;
  if (valuesInOrder(argv, 'textfile-dir').length > 0 && flagValue('textfile-dir') === undefined) return; // --textfile-dir without a value: nowhere known
  const dir = flagValue('textfile-dir') ?? fromFile.textfileDir ?? DEFAULT_SETTINGS.textfileDir;
  writeUndecidedMetrics(dir, io);
}

/**
 * The command, its settings and arguments, or the exit code when the command line was handled
 * (help, version) or refused. preflight's and check's plain command lines skip yargs (start-path cost: kubelet's
 * start path); `fastPath: false` is for the test that both read them alike.
 */
export async function parseCli(argv: readonly string[], io: CliIo, { fastPath = true } = {}): Promise<{ command: Command; settings: Settings; args: Record<string, unknown> } | { exitCode: number }> {
  // `--version` needs nothing loaded (start-path cost); yargs prints the same line.
  if (fastPath && argv.length === 1 && argv[0] === '--version') {
    io.stdout(`${VERSION}\n`);
    return { exitCode: 0 };
  }
  const fast = fastPath ? plainCommandLine(argv) : undefined;
  if (fast) return afterParsing(argv, fast.args, fast.spec, io);
  const { default: yargs } = await import('yargs');
  let chosen: { spec: CommandSpec; args: Record<string, unknown> } | undefined;
  const width = Math.max(60, Math.min(HELP_WIDTH, io.columns ?? HELP_WIDTH));

  let parser = yargs([...argv])
    .scriptName('node-check')
    .usage('$0 [command] [options]')
    .epilogue(wrapWords('Predicts whether kubelet will start, and if not, why, in its own words. Exit codes: 0 kubelet will start, 1 it will not, 2 cannot tell, 64 usage error, 70 internal error (a bug), 143/130 stopped by SIGTERM/SIGINT. More: man node-check, docs/operations.md.', width));
  for (const spec of COMMANDS) {
    parser = parser.command(spec.isDefault ? [spec.command, '$0'] : spec.command, wrapWords(spec.describe, width - 36), (y) => defineCommand(y, spec, width), (args) => {
      chosen = { spec, args };
    });
  }
  parser = parser
    // As pflag (kubelet's and the RHCOS wrapper's convention): a repeated flag takes its last value.
    .parserConfiguration({ 'duplicate-arguments-array': false })
    .strictCommands()
    .strictOptions()
    .version(VERSION)
    .help()
    .alias('help', 'h')
    // cliui's own wrapping splits words; descriptions come wrapped at word boundaries (wrapWords).
    .wrap(null)
    .exitProcess(false)
    .fail((message, error) => {
      throw new UsageError(message || error?.message || 'invalid usage');
    });
  (parser as unknown as { usageConfiguration(c: Record<string, boolean>): unknown }).usageConfiguration({ 'hide-types': true });

  let parsed: Record<string, unknown>;
  let helpOrVersionShown = false;
  try {
    parsed = await (parser as Argv).parseAsync([...argv], {}, (error, _argv, output) => {
      if (error) return;
      if (output) {
        helpOrVersionShown = true;
        io.stdout(output.endsWith('\n') ? output : output + '\n');
      }
    });
  } catch (error) {
    io.stderr(`node-check: ${withSuggestion((error as Error).message, chosen?.spec)}\nRun \`node-check --help\` for usage.\n`);
    return { exitCode: ExitCode.usage };
  }
  if (helpOrVersionShown || !chosen) return { exitCode: 0 };
  return afterParsing(argv, parsed, chosen.spec, io);
}

/** What follows yargs (or the fast path): values yargs leaves unchecked, check's own arguments, the settings. */
function afterParsing(argv: readonly string[], parsed: Record<string, unknown>, spec: CommandSpec, io: CliIo): { command: Command; settings: Settings; args: Record<string, unknown> } | { exitCode: number } {
  try {
    parsed = checkValues(argv, parsed, spec);
  } catch (error) {
    if (!(error instanceof UsageError)) throw error;
    io.stderr(`node-check: ${error.message}\nRun \`node-check ${spec.name} --help\` for usage.\n`);
    return { exitCode: ExitCode.usage };
  }
  if (spec.name === 'check') {
    const prepared = prepareCheckArgs(argv, parsed);
    if ('usage' in prepared) {
      io.stderr(`node-check: ${prepared.usage}\nRun \`node-check --help\` for usage.\n`);
      return { exitCode: ExitCode.usage };
    }
    parsed = prepared.args;
  }

  let settings: Settings;
  try {
    // explain and completion read no node: a broken settings file must not stop them.
    settings = spec.readsSettings === false ? mergeSettings({ output: parsed['output'] as Settings['output'] | undefined }) : loadSettings(parsed, io);
  } catch (error) {
    if (error instanceof SettingsError || error instanceof UsageError) {
      io.stderr(`node-check: ${error.message}\n`);
      return { exitCode: ExitCode.usage };
    }
    throw error;
  }
  const missing = spec.readsSettings === false ? undefined : missingInput(settings, (parsed['overlays'] as readonly OverlayArg[] | undefined) ?? []);
  if (missing) {
    io.stderr(`node-check: ${missing}\n`);
    return { exitCode: ExitCode.noInput };
  }
  return { command: RUN[spec.name]!, settings, args: parsed };
}

/**
 * A path named on the command line that is not there: a typo, told apart from "cannot tell" by
 * its own exit code. What exists but cannot be read or understood stays a finding.
 */
function missingInput(settings: Settings, overlays: readonly OverlayArg[]): string | undefined {
  const absent = (path: string, wanted: 'directory' | 'file'): string | undefined => {
    try {
      const isDirectory = statSync(path).isDirectory();
      if (wanted === 'directory' && !isDirectory) return 'not a directory';
      return undefined;
    } catch (error) {
      const code = (error as NodeJS.ErrnoException).code;
      return code === 'ENOENT' || code === 'ENOTDIR' ? `no such ${wanted} (${code})` : undefined;
    }
  };
  const root = absent(settings.root, 'directory');
  if (root) return `--root ${settings.root}: ${root}`;
  for (const { kind, value } of overlays) {
    if (kind === 'machine-config' && value === '-') continue;
    const problem = absent(value, kind === 'overlay' ? 'directory' : 'file');
    if (problem) return `--${kind} ${value}: ${problem}`;
  }
  return undefined;
}

/** One command's positional, options (grouped, value required), examples and strictness. */
function defineCommand(y: Argv, spec: CommandSpec, width: number): Argv {
  let command = y;
  if (spec.positional) command = command.positional(spec.positional.name, { type: 'string', describe: spec.positional.describe });
  const names = optionsOf(spec);
  const left = Math.max(...names.map((name) => optionLabel(name, optionFor(spec, name)).length), 12) + 4;
  for (const name of names) {
    const option = optionFor(spec, name);
    command = command.option(name, {
      type: option.type,
      describe: wrapWords(describeOption(option), width - left - 2),
      ...(option.type !== 'boolean' ? { requiresArg: true } : {}),
      ...(option.alias ? { alias: option.alias } : {}),
    });
  }
  for (const name of spec.hidden ?? []) {
    command = command.option(name, { type: OPTIONS[name].type, hidden: true, ...(OPTIONS[name].type !== 'boolean' ? { requiresArg: true } : {}) });
  }
  for (const group of spec.groups) command = command.group([...group.options], group.title);
  command = command.group(['help', 'version'], 'Other:');
  const exampleWidth = Math.max(...spec.examples.map(([example]) => example.replace('$0', 'node-check').length));
  for (const [example, meaning] of spec.examples) command = command.example(example, wrapWords(meaning, width - exampleWidth - 6));
  if (spec.isDefault) {
    command = command.check((args) => {
      const extra = args._.filter((word) => word !== 'check');
      if (extra.length > 0) throw new UsageError(`unknown command "${String(extra[0])}".${didYouMean(String(extra[0]), COMMANDS.map((c) => c.name))}`);
      return true;
    });
  }
  return command;
}

function optionLabel(name: string, option: OptionSpec): string {
  return `${option.alias ? `-${option.alias}, ` : '    '}--${name}${option.value ? ` ${option.value}` : ''}`;
}

function describeOption(option: OptionSpec): string {
  const choices = option.choices ? ` (${option.choices.join('|')})` : '';
  return `${option.describe}${choices}${option.default ? ` [default: ${option.default}]` : ''}`;
}

/**
 * Greedy word wrap: a word longer than the width stays whole on its own line, and "[default: X]"
 * stays on one line with its value.
 */
export function wrapWords(text: string, width: number): string {
  const lines: string[] = [];
  let line = '';
  for (const word of text.replace(/\[default: /g, '[default:\u0000').split(/ +/)) {
    if (line && line.length + 1 + word.length > width) {
      lines.push(line);
      line = word;
    } else {
      line = line ? `${line} ${word}` : word;
    }
  }
  if (line) lines.push(line);
  return lines.join('\n').replace(/\u0000/g, ' ');
}

/** yargs' "Unknown argument: --rot" gets the closest options of the command. */
function withSuggestion(message: string, spec: CommandSpec | undefined): string {
  const unknown = /^Unknown arguments?: (.*)$/.exec(message);
  if (!unknown) return message;
  // yargs names an unknown option without its dashes ("rot" for --rot).
  const first = unknown[1]!.split(', ')[0]!.replace(/^-+/, '').replace(/=.*$/, '');
  const options = [...new Set(spec ? optionsOf(spec) : COMMANDS.flatMap(optionsOf))];
  const close = didYouMean(first, options).replace(/([ ,])([a-z][a-z-]*)(?=[,?]| or)/g, '$1--$2');
  return `${message}.${close}`;
}

/**
 * What yargs leaves to the caller: choices, positionals' choices, and repeatable options, which
 * accumulate in command-line order (every other option keeps its last value, as in pflag).
 */
function checkValues(argv: readonly string[], parsed: Record<string, unknown>, spec: CommandSpec): Record<string, unknown> {
  const args: Record<string, unknown> = { ...parsed };
  for (const name of optionsOf(spec)) {
    const option = optionFor(spec, name);
    const value = args[name];
    // "--name=" gives yargs an empty string (or NaN for a number): a missing value, never a default.
    const empty = option.type !== 'boolean' && (value === '' || (typeof value === 'number' && Number.isNaN(value)) || (option.repeatable && valuesInOrder(argv, name).includes('')));
    if (empty) throw new UsageError(`--${name} needs a non-empty value`);
    if (option.choices && value !== undefined && !option.choices.includes(String(value))) {
      throw new UsageError(`--${name}: "${String(value)}" is not one of ${option.choices.join(', ')}`);
    }
    if (option.repeatable && value !== undefined) args[name] = valuesInOrder(argv, name);
  }
  const positional = spec.positional;
  if (positional?.choices && !positional.choices.includes(String(args[positional.name]))) {
    const given = String(args[positional.name]);
    throw new UsageError(`${spec.name} needs one of ${positional.choices.join(', ')} (got "${given}").${didYouMean(given, positional.choices)}`);
  }
  return args;
}

/** Every value of a repeatable option, in command-line order ("--name V" and "--name=V"). */
export function valuesInOrder(argv: readonly string[], name: string): string[] {
  const values: string[] = [];
  for (let i = 0; i < argv.length; i++) {
    const word = argv[i]!;
    if (word === '--') break;
    if (word === `--${name}`) {
      if (i + 1 < argv.length) values.push(argv[++i]!);
    } else if (word.startsWith(`--${name}=`)) {
      values.push(word.slice(name.length + 3));
    }
  }
  return values;
}

/** At most 64 KiB of a regular file; never blocks on a FIFO (test/hostile/hostile-node.test.ts). */
function readSettingsText(file: string): string {
  const fd = openSync(file, constants.O_RDONLY | constants.O_NONBLOCK);
  try {
    const st = fstatSync(fd);
    if (st.isDirectory()) throw Object.assign(new Error('is a directory'), { code: 'EISDIR' });
    if (!st.isFile()) throw Object.assign(new Error('not a regular file'), { code: 'not a regular file' });
    if (st.size > 64 * 1024) throw Object.assign(new Error('too large'), { code: 'larger than 64 KiB' });
    return readFileSync(fd, 'utf8');
  } finally {
    closeSync(fd);
  }
}

function loadSettings(parsed: Record<string, unknown>, io: CliIo): Settings {
  const explicitFile = (parsed['config-file'] as string | undefined) ?? io.env['NODE_CHECK_CONFIG'];
  const file = explicitFile ?? DEFAULT_CONFIG_FILE;
  let fromFile: Partial<Settings> = {};
  let text: string | undefined;
  try {
    text = readSettingsText(file);
  } catch (error) {
    const code = (error as NodeJS.ErrnoException).code;
    if (explicitFile || code !== 'ENOENT') throw new SettingsError(`cannot read settings file ${file}: ${code ?? (error as Error).message}`);
  }
  if (text !== undefined) fromFile = parseConfigFile(text, file);

  for (const flag of ['root', 'unit', 'textfile-dir', 'config-file', 'listen']) {
    if (parsed[flag] === '') throw new UsageError(`--${flag} needs a non-empty value`);
  }
  const kubeletVersion = parsed['kubelet-version'] as string | undefined;
  if (kubeletVersion !== undefined && !parseKubeletVersion(kubeletVersion)) {
    throw new UsageError(`--kubelet-version: "${kubeletVersion}" is not a kubelet version like 1.28.7`);
  }
  const fromFlags: Partial<Settings> = validate(
    {
      root: parsed['root'] as string | undefined,
      unit: parsed['unit'] as string | undefined,
      kubeletVersion,
      kubeletFlavor: parsed['kubelet-flavor'] as Settings['kubeletFlavor'],
      output: parsed['output'] as Settings['output'] | undefined,
      textfileDir: parsed['textfile-dir'] as string | undefined,
      journal: parsed['journal'] as boolean | undefined,
      metrics: parsed['metrics'] as boolean | undefined,
      timeoutSeconds: parsed['timeout'] as number | undefined,
      fallback: parsed['fallback'] as boolean | undefined,
      listen: parsed['listen'] as string | undefined,
      intervalSeconds: parsed['interval'] as number | undefined,
      autoRestore: parsed['auto-restore'] as boolean | undefined,
    },
    'command line',
  );
  // The ids of the settings file and of the flags together; each must be a known finding id.
  const knownIds = allFindingKinds().map((kind) => kind.id);
  const ignore: string[] = [];
  for (const [words, origin] of [[fromFile.ignore ?? [], file], [(parsed['ignore'] as string[] | undefined) ?? [], '--ignore']] as const) {
    const list = readIgnoreList(words, knownIds);
    const unknown = unknownIgnoreIds(list.unknown, knownIds);
    if (unknown.length > 0) {
      throw new UsageError(`${origin}: unknown finding id${unknown.length > 1 ? 's' : ''} ${unknown.map(({ id, close }) => `"${id}"${close.length > 0 ? ` (did you mean ${close.join(', ')}?)` : ''}`).join(', ')}; \`node-check explain <id>\` and docs/findings.md list them`);
    }
    if (list.problem) throw new UsageError(`${origin}: ${list.problem}`);
    for (const id of list.ids) if (!ignore.includes(id)) ignore.push(id);
  }
  const colorWanted = parsed['color'] as boolean | undefined;
  const color = colorWanted ?? (io.stdoutIsTTY && io.env['NO_COLOR'] === undefined && io.env['TERM'] !== 'dumb');
  return mergeSettings(fromFile, fromFlags, { color, ignore, verbose: parsed['verbose'] === true });
}
