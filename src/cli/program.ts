/**
 * The command line: parses flags with yargs, loads settings once (defaults, config file, flags),
 * dispatches to a command and returns its exit code. Usage errors exit 64 (DESIGN §4.2).
 */
import { closeSync, constants, fstatSync, openSync, readFileSync } from 'node:fs';
import type { Argv } from 'yargs';
import type { CliIo } from './io.js';
import { DEFAULT_CONFIG_FILE, mergeSettings, parseConfigFile, SettingsError, validate, type Settings } from '../settings.js';
import { ExitCode } from '../model/report.js';
import { parseKubeletVersion } from '../kubelet/version.js';
import { prepareCheckArgs, runCheck } from './commands/check.js';
import { runExplain } from './commands/explain.js';
import { runPreflight } from './commands/preflight.js';
import { FALLBACK_ACTIONS } from './commands/fallback-actions.js';
import { VERSION } from '../version.js';
import { preflightFastPath } from './preflight-fast-path.js';

class UsageError extends Error {}

// Loaded when run: preflight and check never initialise the HTTP server and cluster client (issue 12).
const runServe: Command = async (settings, io, args) => (await import('./commands/serve.js')).runServe(settings, io, args);
const runFallback: Command = async (settings, io, args) => (await import('./commands/fallback.js')).runFallback(settings, io, args);

type Command = (settings: Settings, io: CliIo, args: Record<string, unknown>) => Promise<number>;

export async function runCli(argv: readonly string[], io: CliIo): Promise<number> {
  const parsed = await parseCli(argv, io);
  return 'exitCode' in parsed ? parsed.exitCode : parsed.command(parsed.settings, io, parsed.args);
}

/**
 * The command, its settings and arguments, or the exit code when the command line was handled
 * (help, version) or refused. preflight's plain command lines skip yargs (issue 12: kubelet's
 * start path); `fastPath: false` is for the test that both read them alike.
 */
export async function parseCli(argv: readonly string[], io: CliIo, { fastPath = true } = {}): Promise<{ command: Command; settings: Settings; args: Record<string, unknown> } | { exitCode: number }> {
  // `--version` needs nothing loaded (issue 12); yargs prints the same line.
  if (fastPath && argv.length === 1 && argv[0] === '--version') {
    io.stdout(`${VERSION}\n`);
    return { exitCode: 0 };
  }
  const fast = fastPath ? preflightFastPath(argv) : undefined;
  if (fast) return withSettings(runPreflight, fast, io);
  const { default: yargs } = await import('yargs');
  let chosen: { command: Command; args: Record<string, unknown> } | undefined;
  const pick = (command: Command) => (args: Record<string, unknown>) => {
    chosen = { command, args };
  };

  const parser = yargs([...argv])
    .scriptName('node-check')
    .usage('$0 [command] [options]')
    .epilogue('Predicts whether kubelet will refuse to start because of its image credential provider setup.\nExit codes: 0 kubelet will start, 1 it will not, 2 cannot tell, 64 usage error, 70 internal error (a bug), 143/130 stopped by SIGTERM/SIGINT.')
    .command(['check', '$0'], 'inspect the node and report (default)', (y) =>
      y
        .option('machine-config', { type: 'string', requiresArg: true, describe: 'answer for the node after applying this MachineConfig or Ignition config (file, "-" = stdin); repeatable, applied in order' })
        .option('overlay', { type: 'string', requiresArg: true, describe: 'answer for the node after laying this directory tree over it; repeatable, combines with --machine-config in command-line order' })
        .option('openshift-version', { type: 'string', requiresArg: true, describe: 'target OpenShift 4.N: evaluate its kubelet minor (instead of --kubelet-version)' })
        .check((args) => {
        const extra = args._.filter((word) => word !== 'check');
        if (extra.length > 0) throw new Error(`unknown command "${String(extra[0])}"`);
        return true;
      }), pick(runCheck))
    .command('preflight', "kubelet's ExecStartPre: check, then fallback (when enabled), journal and metrics", (y) =>
      y
        .option('textfile-dir', { requiresArg: true, type: 'string', describe: 'node_exporter textfile directory [default: /var/lib/node_exporter/textfile_collector]' })
        .option('journal', { type: 'boolean', describe: 'write journal entries (--no-journal: do not)' })
        .option('metrics', { type: 'boolean', describe: 'write node-check.prom (--no-metrics: do not)' })
        .option('timeout', { requiresArg: true, type: 'number', describe: 'hard budget for the whole run, in seconds [default: 10]' })
        .option('fallback', { type: 'boolean', describe: 'start kubelet without failing credential providers (see docs/fallback.md)' }), pick(runPreflight))
    .command('serve', 'serve /metrics and /healthz, re-check periodically and on change', (y) =>
      y
        .option('listen', { requiresArg: true, type: 'string', describe: 'HOST:PORT [default: 127.0.0.1:9847]' })
        .option('interval', { requiresArg: true, type: 'number', describe: 'seconds between re-checks [default: 60]' })
        .option('timeout', { requiresArg: true, type: 'number', describe: 'budget for one check, in seconds [default: 10]' })
        .option('journal', { type: 'boolean', describe: 'journal entries on state changes (--no-journal: do not)' })
        .option('auto-restore', { type: 'boolean', describe: 'revert the fallback and restart kubelet when the plugin is back' })
        .option('machine-config', { type: 'string', requiresArg: true, describe: 'a pending MachineConfig/Ignition file, or a directory of them: export nodecheck_pending_config_kubelet_start_ok{config} (repeatable)' })
        .option('in-cluster', { type: 'boolean', describe: "evaluate the node's pool's target rendered MachineConfig, read from the API with the pod's service account" })
        .option('node-name', { type: 'string', requiresArg: true, describe: 'this node: in a pod, its kubelet version is read from the Node object; also for --in-cluster [default: $NODE_NAME]' }), pick(runServe))
    .command('fallback <action>', 'show, apply or revert the fallback by hand', (y) =>
      y.positional('action', { choices: FALLBACK_ACTIONS, describe: 'status | apply | revert' }), pick(runFallback))
    .command('explain <finding-id>', 'what a finding means, why kubelet cares, how to fix it', (y) =>
      y.positional('finding-id', { type: 'string', describe: 'a finding id, e.g. plugin-binary-missing' }), pick(runExplain))
    .option('root', { requiresArg: true, type: 'string', describe: 'read the node from this directory (nothing under it is executed)' })
    .option('unit', { requiresArg: true, type: 'string', describe: 'kubelet unit name [default: kubelet.service]' })
    .option('kubelet-version', { requiresArg: true, type: 'string', describe: 'kubelet version X.Y.Z (otherwise `kubelet --version` is asked on the live root only)' })
    .option('kubelet-flavor', { requiresArg: true, choices: ['upstream', 'openshift'] as const, describe: "whose kubelet runs (OpenShift's only warns about unknown feature gates) [default: from the node's evidence]" })
    .option('output', { requiresArg: true, alias: 'o', choices: ['text', 'json'] as const, describe: 'report format [default: text]' })
    .option('color', { type: 'boolean', describe: 'colour the text report (--no-color turns it off)' })
    .option('config-file', { requiresArg: true, type: 'string', describe: `node-check settings file [default: $NODE_CHECK_CONFIG or ${DEFAULT_CONFIG_FILE}]` })
    // As pflag (kubelet's and the RHCOS wrapper's convention): a repeated flag takes its last value.
    .parserConfiguration({ 'duplicate-arguments-array': false })
    .strictCommands()
    .strictOptions()
    .version(VERSION)
    .help()
    .alias('help', 'h')
    .wrap(Math.min(100, process.stdout.columns || 100))
    .exitProcess(false)
    .fail((message, error) => {
      throw new UsageError(message || error?.message || 'invalid usage');
    });

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
    io.stderr(`node-check: ${(error as Error).message}\nRun \`node-check --help\` for usage.\n`);
    return { exitCode: ExitCode.usage };
  }
  if (helpOrVersionShown || !chosen) return { exitCode: 0 };
  if (chosen.command === runCheck) {
    const prepared = prepareCheckArgs(argv, parsed);
    if ('usage' in prepared) {
      io.stderr(`node-check: ${prepared.usage}\nRun \`node-check --help\` for usage.\n`);
      return { exitCode: ExitCode.usage };
    }
    parsed = prepared.args;
    chosen.args = prepared.args;
  }
  return withSettings(chosen.command, parsed, io);
}

function withSettings(command: Command, parsed: Record<string, unknown>, io: CliIo): { command: Command; settings: Settings; args: Record<string, unknown> } | { exitCode: number } {
  let settings: Settings;
  try {
    settings = loadSettings(parsed, io);
  } catch (error) {
    if (error instanceof SettingsError || error instanceof UsageError) {
      io.stderr(`node-check: ${error.message}\n`);
      return { exitCode: ExitCode.usage };
    }
    throw error;
  }
  return { command, settings, args: parsed };
}

/** At most 64 KiB of a regular file; never blocks on a FIFO (issue 10: the hostile-node suite). */
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
  const colorWanted = parsed['color'] as boolean | undefined;
  const color = colorWanted ?? (io.stdoutIsTTY && io.env['NO_COLOR'] === undefined && io.env['TERM'] !== 'dumb');
  return mergeSettings(fromFile, fromFlags, { color });
}
