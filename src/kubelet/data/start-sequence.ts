/**
 * Kubelet's start sequence per minor (1.24-1.37): the order of the fatal steps, the format string
 * each step wraps its error in, and the shape of the journal line the error ends up in.
 *
 * PROVENANCE (what was read, and how each version was identified):
 * - component-base cli/run.go, tags v0.24.0..v0.37.0-beta.0 on disk (git show): the cli.Run that
 *   prints `Error: %v` before logging is set up and `klog.ErrorS(err, "command failed")` after it.
 *   kubelet's cobra command has no PersistentPreRun, so cli.Run injects one that sets
 *   logsInitialized before RunE runs: every RunE error (flag errors included) is logged as
 *   `"command failed" err="…"`. klog.ErrorS call is on run.go line 74 in v0.25-v0.30, line 72 in v0.31+.
 * - cmd/kubelet/kubelet.go: the 1.24 main used its own run() around command.Execute() (comment
 *   "Therefore it does not use cli.Run"), and the 1.24 command set neither SilenceErrors nor
 *   SilenceUsage, so cobra printed `Error: <err>` followed by the usage text (kubernetes/website
 *   #33640 with kubelet v1.24.0, kubespray #8924/#8998 with v1.24.1, website #34755 with v1.24.2). PR #110691
 *   ("remove run function", CHANGELOG/CHANGELOG-1.25.md at v1.25.16) moved kubelet to
 *   cli.Run in 1.25 (cmd/kubelet/kubelet.go at v1.25.16); PR #110917 (a 1.24 patch release) made
 *   the 1.24 run() print `Error: %v` itself (kubelet.go at v1.24.17). Logs: 1.26
 *   (kubernetes/cloud-provider-gcp #398, Nov 2022) and 1.27 (voxpupuli/puppet-k8s #64, sealos #2933)
 *   show `run.go:74] "command failed" err="…"`.
 * - cmd/kubelet/app/server.go at v1.30.14: RunE order, run(), RunKubelet, parseResourceList,
 *   getReservedCPUs; at v1.36.5: run() has no cloud-provider step (none from v1.32.13),
 *   RunKubelet/parseResourceList as 1.30.
 * - server.go at v1.24.17: RunE errors, no SilenceUsage (set from v1.25.16), the
 *   DynamicKubeletConfig locked-to-false check (still at v1.25.16, gone at v1.26.15),
 *   --container-runtime still a flag. Order there: validate config, DynamicKubeletConfig check,
 *   then logging.
 * - server.go at v1.24.17-v1.27.16: the pre-1.28 order load config -> precedence -> gates, and the
 *   pre-1.28 load format `failed to load kubelet config file, error: %w, path: %s`.
 * - kubernetes/kubernetes PR #119390 (1.28, drop-in directory; server.go at v1.28.15): changed that
 *   format to `failed to load kubelet config file, path: %s, error: %w` and added the
 *   KUBELET_CONFIG_DROPIN_DIR_ALPHA check on --config-dir (v1.28.15-v1.29.15, gone at v1.30.14).
 *   server.go there reads `flag %s specified but environment variable KUBELET_CONFIG_DROPIN_DIR_ALPHA
 *   not set, cannot start kubelet`; the model's text is not yet that one (docs/unverified.md).
 * - `failed to validate kubelet configuration, error: %w, path: %s` with the internal
 *   *KubeletConfiguration as the %s argument (server.go at every tag): it renders the embedded
 *   TypeMeta, which is empty, so journal lines read `path: &TypeMeta{Kind:,APIVersion:,}`.
 * - apimachinery pkg/util/errors aggregate.Error() (tag v0.36.0): one error -> its text, several ->
 *   "[a, b]" (duplicates dropped).
 */
import { goQuote } from '../../go/quote.js';
import { isModelledMinor } from './minors.js';

/** Fatal steps of kubelet's RunE, in kubelet's order. `run:*` happen inside Run() -> run(). */
export type StartStepId =
  | 'parse-flags'
  | 'stray-argument'
  | 'gates-from-flags'
  | 'validate-flags'
  | 'load-config'
  | 'dropin-env-check'
  | 'merge-dropins'
  | 'flag-precedence'
  | 'gates-from-config'
  | 'init-logging'
  | 'validate-config'
  | 'dynamic-config-gate'
  | 'construct-dependencies'
  | 'run:set-gates'
  | 'run:validate-server'
  | 'run:lock-file'
  | 'run:cloud-init'
  | 'run:client-config'
  | 'run:auth'
  | 'run:cri'
  | 'run:cgroup-driver-from-cri'
  | 'run:cadvisor'
  | 'run:machine-info'
  | 'run:reserved-cpus'
  | 'run:kube-reserved'
  | 'run:system-reserved'
  | 'run:eviction-hard'
  | 'run:qos-reserved'
  | 'run:container-manager'
  | 'run:node-ip'
  | 'run:create-kubelet';

export interface StepFormat {
  /** Go format string of the wrapping, e.g. "failed to parse kubelet flag: %w". */
  readonly format: string;
  /**
   * Set when the step does not return its error to cobra but logs it itself and exits 1:
   * klog.ErrorS(err, klogMessage); os.Exit(1) (1.24's logging setup).
   */
  readonly klogMessage?: string;
  /** false = the exact text was not read in any source (code must not print it as kubelet's). */
  readonly verified: boolean;
  readonly note?: string;
}

/** How the RunE error reaches the journal. */
export type FatalLineShape =
  /** cobra / kubelet.go prints "Error: <err>" on stderr, no klog header (1.24). */
  | 'plain-error'
  /** component-base cli.Run: klog.ErrorS(err, "command failed") → `E… run.go:NN] "command failed" err="<%q of err>"`. */
  | 'klog-command-failed';

export interface StartSequence {
  readonly minor: number;
  readonly fatalLine: FatalLineShape;
  /** Source line of the klog call (appears in the header, not in the stable part). */
  readonly klogCaller?: string;
  readonly steps: readonly StartStepId[];
  readonly formats: Readonly<Partial<Record<StartStepId, StepFormat>>>;
}

const V = (format: string, note?: string): StepFormat => (note ? { format, verified: true, note } : { format, verified: true });
const U = (format: string, note: string): StepFormat => ({ format, verified: false, note });

/** Every error from Run() is wrapped once more by RunE's Run(): "failed to run Kubelet: %w". */
export const RUN_WRAP = 'failed to run Kubelet: %w';
/** RunKubelet wraps NewMainKubelet errors: "failed to create kubelet: %w" (inside RUN_WRAP). */
export const CREATE_WRAP = 'failed to create kubelet: %w';
/** %s of the internal *KubeletConfiguration in the validate-config message (TypeMeta is empty). */
export const CONFIG_OBJECT_RENDERING = '&TypeMeta{Kind:,APIVersion:,}';

function formatsFor(minor: number): Partial<Record<StartStepId, StepFormat>> {
  const f: Partial<Record<StartStepId, StepFormat>> = {
    'parse-flags': V('failed to parse kubelet flag: %w'),
    'stray-argument': V('unknown command %+s', 'first leftover non-flag argument; %+s of a string is the string'),
    'gates-from-flags': V('failed to set feature gates from initial flags-based config: %w'),
    'validate-flags': V('failed to validate kubelet flags: %w'),
    'load-config':
      minor >= 28
        ? V('failed to load kubelet config file, path: %s, error: %w', 'PR #119390 (1.28)')
        : V('failed to load kubelet config file, error: %w, path: %s', 'before PR #119390 (1.28)'),
    'flag-precedence': V('failed to precedence kubeletConfigFlag: %w'),
    'gates-from-config': V('failed to set feature gates from initial flags-based config: %w', 'same text as gates-from-flags'),
    'init-logging':
      minor >= 25
        ? V('initialize logging: %v')
        : {
            format: '%v',
            klogMessage: 'Failed to initialize logging',
            verified: true,
            note: '1.24: logs.Options.ValidateAndApply failure is klog.ErrorS(err, "Failed to initialize logging") + os.Exit(1), after config validation',
          },
    'validate-config': V('failed to validate kubelet configuration, error: %w, path: %s', `path renders as ${CONFIG_OBJECT_RENDERING}`),
    'construct-dependencies': V('failed to construct kubelet dependencies: %w'),
    'run:set-gates': V('%w', 'returned unwrapped inside run(); same gates as before, so it cannot newly fail'),
    'run:validate-server': V('%w', 'ValidateKubeletServer repeats config and flag validation, unwrapped'),
    'run:lock-file': V('unable to acquire file lock on %q: %w'),
    'run:reserved-cpus': V('%w', 'getReservedCPUs: "unable to parse reserved-cpus list: %s" / "reserved-cpus: %s is not a subset of online-cpus: %s"'),
    // 1.24-1.26 return parseResourceList's and ParseQOSReserved's errors as they are (cmd/kubelet/app/server.go
    // at v1.26.15; the real kubelet 1.24.17 wrote "failed to run Kubelet: quantities must match …").
    'run:kube-reserved': minor >= 27 ? V('--kube-reserved value failed to parse: %w') : V('%w', 'returned unwrapped by run() before 1.27'),
    'run:system-reserved': minor >= 27 ? V('--system-reserved value failed to parse: %w') : V('%w', 'returned unwrapped by run() before 1.27'),
    'run:qos-reserved': minor >= 27 ? V('--qos-reserved value failed to parse: %w') : V('%w', 'returned unwrapped by run() before 1.27'),
    'run:node-ip': minor >= 27 ? V('bad --node-ip %q: %v', 'nodeutil.ParseNodeIPArgument') : V('%w', 'inline checks, each message names --node-ip itself'),
    'run:create-kubelet': V(CREATE_WRAP),
  };
  // Steps whose errors run() returns unwrapped (only RUN_WRAP is added).
  for (const step of [
    'run:cloud-init',
    'run:client-config',
    'run:auth',
    'run:cri',
    'run:cgroup-driver-from-cri',
    'run:cadvisor',
    'run:machine-info',
    'run:eviction-hard',
    'run:container-manager',
  ] as const) {
    f[step] = V('%w', 'returned unwrapped by run()');
  }
  if (minor >= 28) f['merge-dropins'] = V('failed to merge kubelet configs: %w');
  if (minor === 28 || minor === 29) {
    f['dropin-env-check'] = V(
      'flag %s specified but environment variable KUBELET_CONFIG_DROPIN_DIR_ALPHA not set, cannot start kubelet',
      'RunE os.LookupEnv, returned unwrapped (server.go v1.28.15, v1.29.15); %s is the --config-dir value',
    );
  }
  if (minor <= 25) {
    f['dynamic-config-gate'] = V(
      'cannot set feature gate DynamicKubeletConfig to true, feature is locked to false',
      'in the 1.24 and 1.25 copies of server.go; its absence from 1.26 (gate removed) is inferred',
    );
  }
  return f;
}

function stepsFor(minor: number): StartStepId[] {
  const steps: StartStepId[] = ['parse-flags', 'stray-argument', 'gates-from-flags', 'validate-flags', 'load-config'];
  if (minor === 28 || minor === 29) steps.push('dropin-env-check');
  if (minor >= 28) steps.push('merge-dropins');
  // <=1.27 only with --config; 1.28+ with --config or --config-dir.
  steps.push('flag-precedence', 'gates-from-config');
  if (minor === 24) {
    // 1.24: validation first, logging set up afterwards (and not through RunE's error).
    steps.push('validate-config', 'dynamic-config-gate', 'init-logging');
  } else {
    steps.push('init-logging', 'validate-config');
    if (minor === 25) steps.push('dynamic-config-gate');
  }
  steps.push('construct-dependencies', 'run:set-gates', 'run:validate-server', 'run:lock-file');
  // In-tree cloud init in run(): read in 1.25-1.30 copies; cloud-provider v0.32 dropped the helpers
  // run() called, so 1.32+ has no cloud init there, but run() still refuses a built-in provider at
  // that place, before the client config, up to 1.33 (cmd/kubelet/app/server.go at v1.32.13 and
  // v1.33.13: ErrorForDisabledProvider; gone at v1.34.12). 1.31 is not pinned (see cloud-provider.ts).
  if (minor <= 33) steps.push('run:cloud-init'); // 1.31: not pinned
  steps.push('run:client-config', 'run:auth', 'run:cri');
  if (minor >= 28) steps.push('run:cgroup-driver-from-cri');
  steps.push(
    'run:cadvisor',
    'run:machine-info',
    'run:reserved-cpus',
    'run:kube-reserved',
    'run:system-reserved',
    'run:eviction-hard',
    'run:qos-reserved',
    'run:container-manager',
    'run:node-ip',
    'run:create-kubelet',
  );
  return steps;
}

function sequenceFor(minor: number): StartSequence {
  return {
    minor,
    fatalLine: minor === 24 ? 'plain-error' : 'klog-command-failed',
    ...(minor === 24 ? {} : { klogCaller: minor <= 30 ? 'run.go:74' : 'run.go:72' }),
    steps: stepsFor(minor),
    formats: formatsFor(minor),
  };
}

// Built per minor when first asked for: preflight needs one of the thirteen (start-path cost).
const sequences = new Map<number, StartSequence>();

/** The start sequence of one minor; undefined for a minor ./minors.ts does not model (never the neighbour's). */
export function startSequence(minor: number): StartSequence | undefined {
  if (!isModelledMinor(minor)) return undefined;
  let sequence = sequences.get(minor);
  if (sequence === undefined) {
    sequence = sequenceFor(minor);
    sequences.set(minor, sequence);
  }
  return sequence;
}

/** Ordered step ids; undefined outside the modelled minors. */
export function startSteps(minor: number): readonly StartStepId[] | undefined {
  return startSequence(minor)?.steps;
}

/** Position of a step in kubelet's order (for sorting findings); undefined if the minor lacks it. */
export function stepIndex(minor: number, step: StartStepId): number | undefined {
  const i = startSteps(minor)?.indexOf(step) ?? -1;
  return i < 0 ? undefined : i;
}

/**
 * Go fmt for the verbs these formats use: %w %v %s %+s print the argument, %q Go-quotes it.
 * Arguments are strings (errors already rendered).
 */
export function goSprintf(format: string, ...args: readonly string[]): string {
  let i = 0;
  return format.replace(/%(\+?)([wvsq%])/g, (_m, _plus: string, verb: string) => {
    if (verb === '%') return '%';
    const arg = args[i++] ?? '%!' + verb + '(MISSING)';
    return verb === 'q' ? goQuote(arg) : arg;
  });
}

/**
 * Wraps an inner error text the way kubelet of `minor` does for `step`:
 * `run:*` steps get "failed to run Kubelet: …", `run:create-kubelet` also "failed to create kubelet: …".
 * Extra arguments fill the format's other verbs (the config path of load-config, in Go's argument
 * order). Returns undefined for an unknown minor, a step this minor does not have, or a format that
 * is not verified.
 */
export function wrapStepError(minor: number, step: StartStepId, inner: string, ...extra: readonly string[]): string | undefined {
  const seq = startSequence(minor);
  const fmt = seq?.formats[step];
  if (!seq || !fmt || !fmt.verified || !seq.steps.includes(step)) return undefined;
  let text: string;
  if (step === 'load-config') {
    // 1.28+: path first; before: error first.
    const path = extra[0] ?? '';
    text = minor >= 28 ? goSprintf(fmt.format, path, inner) : goSprintf(fmt.format, inner, path);
  } else if (step === 'validate-config') {
    text = goSprintf(fmt.format, inner, CONFIG_OBJECT_RENDERING);
  } else if (step === 'run:lock-file' || step === 'run:node-ip') {
    text = fmt.format === '%w' ? inner : goSprintf(fmt.format, extra[0] ?? '', inner);
  } else {
    text = goSprintf(fmt.format, inner, ...extra);
  }
  return step.startsWith('run:') ? goSprintf(RUN_WRAP, text) : text;
}


export interface FatalLine {
  /** The part of the journal line after the klog header (or the whole line for 1.24). */
  readonly text: string;
  /** true when the line is not pinned for this minor and step (1.24 outside flag parsing). */
  readonly inexact: boolean;
}

/**
 * A key's value as klog's text format writes it (k8s.io/klog/v2 internal/serialize/keyvalues.go
 * writeStringValue, the same v2.70.1 … v2.140.0, kubelet 1.25-1.37): a quoted Go string, or a
 * multi-line one as "=<", each line after a tab, and " >" on a line of its own.
 */
export function klogValue(v: string): string {
  if (!v.includes('\n')) return `=${goQuote(v)}`;
  const lines = v.split('\n');
  const last = lines.pop()!;
  return `=<\n${lines.map((l) => `\t${l}\n`).join('')}${last === '' ? ' >' : `\t${last}\n >`}`;
}

/**
 * The stable part of the journal line kubelet of `minor` writes for an error returned from its
 * cobra RunE, e.g. `"command failed" err="failed to parse kubelet flag: unknown flag: --x"` (1.25+)
 * or `Error: failed to parse kubelet flag: unknown flag: --x` (1.24). Undefined outside 1.24..1.37.
 */
export function formatFatalLine(minor: number, err: string): string | undefined {
  return fatalLine(minor, err)?.text;
}

/**
 * As formatFatalLine, with certainty. 1.24's `Error: <err>` is verified in logs for flag-parse
 * errors only; kubernetes #110690 reports that 1.24 errors from Run() were not printed at all until
 * PR #110917 (a 1.24 patch release), so for later steps the 1.24 line is marked inexact.
 */
export function fatalLine(minor: number, err: string, step?: StartStepId): FatalLine | undefined {
  const seq = startSequence(minor);
  if (!seq) return undefined;
  const direct = step ? seq.formats[step]?.klogMessage : undefined;
  if (direct) return { text: `${goQuote(direct)} err${klogValue(err)}`, inexact: false };
  if (seq.fatalLine === 'plain-error') {
    const pinned = step === undefined || step === 'parse-flags' || step === 'stray-argument';
    return { text: `Error: ${err}`, inexact: !pinned };
  }
  return { text: `"command failed" err${klogValue(err)}`, inexact: false };
}
