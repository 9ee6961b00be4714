/**
 * Every command and option of node-check as plain data: program.ts builds yargs from it, and the
 * man page (scripts/gen-man.mjs), the shell completion (completion.ts) and any fast argv path read
 * the same table, so help, man page and completion cannot disagree. No imports: it is cheap to load.
 */

export type OptionType = 'string' | 'number' | 'boolean';

export interface OptionSpec {
  readonly type: OptionType;
  readonly describe: string;
  /** The value's placeholder in the man page and help ("DIR"); string and number options only. */
  readonly value?: string;
  /** Shown as "[default: …]": the effective default, in words when it is not a constant. */
  readonly default?: string;
  readonly choices?: readonly string[];
  readonly alias?: string;
  /** May be given more than once (the values accumulate); otherwise the last one wins, as in pflag. */
  readonly repeatable?: boolean;
  /** A boolean that also reads as --no-NAME. */
  readonly negatable?: boolean;
}

/** The options shared by several commands; a command may override the description (CommandSpec.local). */
export const OPTIONS = {
  root: { type: 'string', value: 'DIR', default: '/', describe: 'read the node from this directory (nothing under it is executed)' },
  unit: { type: 'string', value: 'NAME', default: 'kubelet.service', describe: 'kubelet unit name (NAME without a suffix means NAME.service, as in systemctl)' },
  'kubelet-version': { type: 'string', value: 'X.Y.Z', describe: 'kubelet version (otherwise `kubelet --version` is asked, on the live root only)' },
  'kubelet-flavor': { type: 'string', value: 'FLAVOR', choices: ['upstream', 'openshift'], default: "from the node's evidence", describe: "whose kubelet runs (OpenShift's only warns about unknown feature gates)" },
  output: { type: 'string', value: 'FORMAT', alias: 'o', choices: ['text', 'json'], default: 'text', describe: 'report format (json: see docs/json.md)' },
  color: { type: 'boolean', negatable: true, describe: 'colour the text report (default: only on a terminal)' },
  verbose: { type: 'boolean', describe: 'also list the files read, which file set each setting, and where the kubelet version came from' },
  ignore: { type: 'string', value: 'ID', repeatable: true, describe: 'demote this finding (as kubeadm --ignore-preflight-errors): reported as ignored, no longer sets the exit code; repeatable, comma-separated, any case; "all" for every finding' },
  'config-file': { type: 'string', value: 'FILE', default: '$NODE_CHECK_CONFIG or /etc/node-check/config.yaml', describe: 'node-check settings file' },
  'machine-config': { type: 'string', value: 'FILE', repeatable: true, describe: 'answer for the node after applying this MachineConfig or Ignition config (a file, "-" = stdin); repeatable, applied in order' },
  overlay: { type: 'string', value: 'DIR', repeatable: true, describe: 'answer for the node after laying this directory tree over it; repeatable, combines with --machine-config in command-line order' },
  'openshift-version': { type: 'string', value: '4.N', describe: 'target OpenShift version: evaluate its kubelet minor (instead of --kubelet-version)' },
  'textfile-dir': { type: 'string', value: 'DIR', default: '/var/lib/node_exporter/textfile_collector', describe: 'node_exporter textfile directory' },
  journal: { type: 'boolean', negatable: true, describe: 'write journal entries (--no-journal: do not)' },
  metrics: { type: 'boolean', negatable: true, describe: 'write node-check.prom (--no-metrics: do not)' },
  timeout: { type: 'number', value: 'SECONDS', default: '10', describe: 'hard budget for the whole run' },
  fallback: { type: 'boolean', negatable: true, describe: 'start kubelet without failing credential providers (see docs/fallback.md)' },
  listen: { type: 'string', value: 'HOST:PORT', default: '127.0.0.1:9847', describe: 'address of /metrics and /healthz' },
  interval: { type: 'number', value: 'SECONDS', default: '60', describe: 'seconds between re-checks' },
  'auto-restore': { type: 'boolean', describe: 'revert the fallback and restart kubelet when the plugin is back' },
  'in-cluster': { type: 'boolean', describe: "evaluate the node's pool's target rendered MachineConfig, read from the API with the pod's service account" },
  'node-name': { type: 'string', value: 'NAME', default: '$NODE_NAME', describe: 'this node: in a pod, its kubelet version is read from the Node object; also for --in-cluster' },
  'dry-run': { type: 'boolean', describe: 'print the plan (files to write, with their content, and to remove) and change nothing' },
} as const satisfies Record<string, OptionSpec>;

export type OptionName = keyof typeof OPTIONS;

export interface PositionalSpec {
  readonly name: string;
  readonly describe: string;
  readonly choices?: readonly string[];
  /** Completion offers the finding ids of the catalog. */
  readonly findingId?: true;
}

export interface CommandSpec {
  readonly name: string;
  /** yargs' command string ("fallback <action>"). */
  readonly command: string;
  readonly isDefault?: true;
  readonly describe: string;
  readonly positional?: PositionalSpec;
  /** Option groups, in the order help shows them. */
  readonly groups: readonly { readonly title: string; readonly options: readonly OptionName[] }[];
  /**
   * Accepted but unused and left out of help, man page and completion: the RHCOS wrapper
   * (packaging/openshift/node-check.sh) appends the node options to every command it runs.
   */
  readonly hidden?: readonly OptionName[];
  /** False: the command needs no settings file (and a broken one does not stop it). */
  readonly readsSettings?: false;
  /** Per-command descriptions or defaults of shared options. */
  readonly local?: Partial<Record<OptionName, Partial<OptionSpec>>>;
  readonly examples: readonly (readonly [command: string, meaning: string])[];
}

const NODE: readonly OptionName[] = ['root', 'unit', 'kubelet-version', 'kubelet-flavor'];
/** What the RHCOS wrapper appends to every command. */
const WRAPPER_OPTIONS: readonly OptionName[] = ['root', 'config-file', 'kubelet-version'];

export const FALLBACK_ACTIONS = ['status', 'apply', 'revert'] as const;

export const COMMANDS: readonly CommandSpec[] = [
  {
    name: 'check',
    command: 'check',
    isDefault: true,
    describe: 'inspect the node and report (default)',
    groups: [
      { title: 'Node:', options: NODE },
      { title: 'Before an upgrade:', options: ['machine-config', 'overlay', 'openshift-version'] },
      { title: 'Output:', options: ['output', 'color', 'verbose', 'ignore'] },
      { title: 'Settings:', options: ['config-file'] },
    ],
    examples: [
      ['$0 check', 'will kubelet start on this node?'],
      ['$0 check --root /mnt/node -o json', 'a copy of a node, as JSON'],
      ['$0 check --machine-config mc.yaml --openshift-version 4.16', 'after this MachineConfig?'],
      ['$0 check --verbose', 'and which file set what'],
      ['$0 check --ignore plugin-binary-missing', 'exit code without it'],
    ],
  },
  {
    name: 'preflight',
    command: 'preflight',
    describe: "kubelet's ExecStartPre: check, fallback (if enabled), journal, metrics",
    groups: [
      { title: 'Node:', options: NODE },
      { title: 'Preflight:', options: ['timeout', 'fallback', 'journal', 'metrics', 'textfile-dir'] },
      { title: 'Output:', options: ['output', 'verbose', 'ignore'] },
      { title: 'Settings:', options: ['config-file'] },
    ],
    local: { output: { describe: 'text: one summary line; json: the report, as check prints it' } },
    examples: [
      ['ExecStartPre=-/usr/bin/$0 preflight', "in kubelet's unit (the shipped drop-in)"],
      ['$0 preflight --no-journal --no-metrics', 'by hand, writing nothing'],
      ['$0 preflight --fallback --timeout 5', 'without failing credential providers'],
    ],
  },
  {
    name: 'serve',
    command: 'serve',
    describe: 'serve /metrics and /healthz, re-check periodically and on change',
    groups: [
      { title: 'Node:', options: [...NODE, 'node-name'] },
      { title: 'Serve:', options: ['listen', 'interval', 'timeout', 'journal', 'auto-restore'] },
      { title: 'Pending configuration:', options: ['machine-config', 'in-cluster'] },
      { title: 'Settings:', options: ['config-file'] },
    ],
    local: {
      timeout: { describe: 'budget for one check' },
      journal: { describe: 'journal entries on state changes (--no-journal: do not)' },
      'machine-config': { value: 'PATH', describe: 'a pending MachineConfig/Ignition file, or a directory of them: exports nodecheck_pending_config_kubelet_start_ok{config}; repeatable' },
    },
    examples: [
      ['$0 serve', 'metrics on 127.0.0.1:9847'],
      ['$0 serve --listen 0.0.0.0:9847 --interval 30', 'on every address, every 30 s'],
      ['$0 serve --in-cluster --node-name worker-0', "DaemonSet: also the pool's pending config"],
    ],
  },
  {
    name: 'fallback',
    command: 'fallback <action>',
    describe: 'show, apply or revert the fallback by hand',
    positional: { name: 'action', describe: 'status | apply | revert', choices: FALLBACK_ACTIONS },
    groups: [
      { title: 'Node:', options: ['root', 'unit', 'kubelet-version'] },
      { title: 'Fallback:', options: ['dry-run'] },
      { title: 'Output:', options: ['output'] },
      { title: 'Settings:', options: ['config-file'] },
    ],
    local: { 'dry-run': { describe: 'apply, revert: print the plan (files to write, with their content, and to remove) and change nothing' } },
    examples: [
      ['$0 fallback status', 'is kubelet running without some providers?'],
      ['$0 fallback apply --dry-run', 'what apply would write, without writing it'],
      ['$0 fallback revert', 'give kubelet its full configuration back'],
    ],
  },
  {
    name: 'explain',
    command: 'explain <finding-id>',
    describe: 'what a finding means, why kubelet cares, how to fix it',
    positional: { name: 'finding-id', describe: 'a finding id, e.g. plugin-binary-missing', findingId: true },
    groups: [{ title: 'Output:', options: ['output'] }],
    hidden: WRAPPER_OPTIONS,
    readsSettings: false,
    local: { output: { describe: 'json: the catalog entry as one object' } },
    examples: [
      ['$0 explain plugin-binary-missing', 'what it means and how to fix it'],
      ['$0 explain plugin-binary-missing -o json', 'the catalog entry as JSON'],
    ],
  },
  {
    name: 'completion',
    command: 'completion <shell>',
    describe: 'print a shell completion script (bash or zsh)',
    positional: { name: 'shell', describe: 'bash | zsh', choices: ['bash', 'zsh'] },
    groups: [],
    hidden: WRAPPER_OPTIONS,
    readsSettings: false,
    examples: [
      ['$0 completion bash > /etc/bash_completion.d/node-check', 'bash, for every user'],
      ['$0 completion zsh > "${fpath[1]}/_node-check"', 'zsh'],
    ],
  },
];

/** The option as a command shows it: the shared definition with the command's overrides. */
export function optionFor(command: CommandSpec, name: OptionName): OptionSpec {
  return { ...OPTIONS[name], ...(command.local?.[name] ?? {}) } as OptionSpec;
}

/** The option names a command accepts, in help order. */
export function optionsOf(command: CommandSpec): OptionName[] {
  return command.groups.flatMap((group) => group.options);
}
