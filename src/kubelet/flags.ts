/**
 * Kubelet's command line, parsed the way kubelet parses it: spf13/pflag with
 * cliflag.WordSepNormalizeFunc (cmd/kubelet/app/server.go), so "_" equals "-" in flag names,
 * `--a=b` and `--a b` are the same, a non-boolean flag takes the next argument whatever it looks
 * like, a boolean flag never does, and the last occurrence wins.
 */
import { KUBELET_BOOLEAN_FLAGS } from './data/kubelet-flags.generated.js';

/**
 * Flags that never take the next argument (pflag NoOptDefVal: bool flags and --version) in any
 * modelled minor, from the per-minor flag table (src/kubelet/data/). Only needed to know that
 * `--flag next` does not consume `next`; a flag missing here that is followed by another flag is
 * still treated as boolean.
 */
const BOOLEAN_FLAGS: ReadonlySet<string> = new Set(KUBELET_BOOLEAN_FLAGS);

/** Single-letter shorthands kubelet accepts: -h (help) and -v (klog verbosity, takes a value). */
const SHORTHANDS: Record<string, string> = { h: 'help', v: 'v' };

export interface KubeletFlags {
  /** Every occurrence of every flag, by normalized name ("image-credential-provider-config"). */
  readonly occurrences: ReadonlyMap<string, readonly string[]>;
  /** Arguments that are not flags. Kubelet refuses them ("unknown command"). */
  readonly positional: readonly string[];
  /** A flag at the end that needs a value and has none ("flag needs an argument"). */
  readonly missingValue: readonly string[];
}

export function normalizeFlagName(name: string): string {
  return name.replace(/_/g, '-');
}

/**
 * One flag occurrence or positional argument as pflag consumes it: `start` is its index in the
 * argument list and `length` how many arguments it took (2 for `--a b`). Lets a caller edit the
 * command line at exactly the arguments kubelet would read (the fallback drops credential flags).
 */
export type KubeletArgToken =
  | { readonly kind: 'flag'; readonly name: string; readonly value: string; readonly start: number; readonly length: 1 | 2 }
  | { readonly kind: 'positional'; readonly value: string; readonly start: number; readonly length: 1 }
  | { readonly kind: 'missing-value'; readonly name: string; readonly start: number; readonly length: 1 };

export function parseKubeletFlags(args: readonly string[]): KubeletFlags {
  const occurrences = new Map<string, string[]>();
  const positional: string[] = [];
  const missingValue: string[] = [];
  for (const token of scanKubeletArgs(args)) {
    if (token.kind === 'positional') {
      positional.push(token.value);
    } else if (token.kind === 'missing-value') {
      missingValue.push(token.name);
    } else {
      const list = occurrences.get(token.name) ?? [];
      list.push(token.value);
      occurrences.set(token.name, list);
    }
  }
  return { occurrences, positional, missingValue };
}

export function scanKubeletArgs(args: readonly string[]): KubeletArgToken[] {
  const tokens: KubeletArgToken[] = [];
  for (let i = 0; i < args.length; i++) {
    const arg = args[i]!;
    if (arg === '--') {
      for (let j = i + 1; j < args.length; j++) tokens.push({ kind: 'positional', value: args[j]!, start: j, length: 1 });
      break;
    }
    let name: string;
    let inlineValue: string | undefined;
    if (arg.startsWith('--') && arg.length > 2) {
      const eq = arg.indexOf('=');
      name = normalizeFlagName(eq === -1 ? arg.slice(2) : arg.slice(2, eq));
      inlineValue = eq === -1 ? undefined : arg.slice(eq + 1);
    } else if (arg.startsWith('-') && arg.length > 1 && arg !== '-') {
      // pflag shorthand: "-v=2", "-v 2", "-h". Longer clusters are not used with kubelet.
      const letter = arg[1]!;
      name = SHORTHANDS[letter] ?? letter;
      inlineValue = arg.length > 2 ? arg.slice(arg[2] === '=' ? 3 : 2) : undefined;
    } else {
      tokens.push({ kind: 'positional', value: arg, start: i, length: 1 });
      continue;
    }

    if (inlineValue !== undefined) {
      tokens.push({ kind: 'flag', name, value: inlineValue, start: i, length: 1 });
    } else if (BOOLEAN_FLAGS.has(name)) {
      tokens.push({ kind: 'flag', name, value: 'true', start: i, length: 1 });
    } else if (i + 1 < args.length) {
      const next = args[i + 1]!;
      // A flag unknown to us followed by another flag is most likely boolean; a known value flag
      // (every flag node-check reads) takes the next argument even when it starts with "-".
      if (next.startsWith('--') && !VALUE_FLAGS_NODE_CHECK_READS.has(name)) {
        tokens.push({ kind: 'flag', name, value: 'true', start: i, length: 1 });
      } else {
        tokens.push({ kind: 'flag', name, value: next, start: i, length: 2 });
        i++;
      }
    } else {
      tokens.push({ kind: 'missing-value', name, start: i, length: 1 });
    }
  }
  return tokens;
}

/** The flags node-check evaluates; all take a value. */
export const CredentialFlag = {
  config: 'image-credential-provider-config',
  binDir: 'image-credential-provider-bin-dir',
} as const;

const VALUE_FLAGS_NODE_CHECK_READS = new Set<string>([
  CredentialFlag.config,
  CredentialFlag.binDir,
  'config',
  'config-dir',
  'feature-gates',
]);

/** The value kubelet uses: the last occurrence (pflag overwrites), or undefined when never given. */
export function lastValue(flags: KubeletFlags, name: string): string | undefined {
  const values = flags.occurrences.get(name);
  return values && values.length > 0 ? values[values.length - 1] : undefined;
}

/** Every value of a repeatable flag such as --feature-gates (cliflag.MapStringBool merges them). */
export function allValues(flags: KubeletFlags, name: string): readonly string[] {
  return flags.occurrences.get(name) ?? [];
}

/** Where kubelet starts in an ExecStart argv that may have wrappers in front (kubenswrapper, hyperkube). */
export interface KubeletInvocation {
  readonly wrapper: readonly string[];
  readonly kubeletPath: string;
  readonly args: readonly string[];
}

export function locateKubelet(argv: readonly string[]): KubeletInvocation | undefined {
  for (let i = 0; i < argv.length; i++) {
    const word = argv[i]!;
    const base = word.slice(word.lastIndexOf('/') + 1);
    if (base === 'kubelet') {
      // `hyperkube kubelet ...`: the subcommand is a word, not the binary.
      return { wrapper: argv.slice(0, i), kubeletPath: i > 0 && isHyperkube(argv[i - 1]!) ? argv[i - 1]! : word, args: argv.slice(i + 1) };
    }
  }
  return undefined;
}

function isHyperkube(word: string): boolean {
  return word.slice(word.lastIndexOf('/') + 1) === 'hyperkube';
}
