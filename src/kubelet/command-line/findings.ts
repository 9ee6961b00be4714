/**
 * Kubelet start steps 1/1b (flag parsing, stray words) and 3 (ValidateKubeletFlags) as node-check
 * findings (kinds in src/catalog/kinds/flags.ts). Pure. cmd/kubelet/app/server.go, 1.24..1.37: both
 * exit with status 1; step 2 (feature gates from flags) runs between them and is not modelled here.
 */
import { parseKubeletCommandLine, withKubeletParsePrefix, type CommandLineParse } from './parse-command-line.js';
import { validateKubeletFlags, withKubeletValidatePrefix } from './validate-flags.js';
import type { KubeletFlavor } from '../flavor.js';
import type { FindingId } from '../../catalog/findings.js';

export interface CommandLineFinding {
  readonly findingId: FindingId;
  readonly kubeletError: string;
  readonly message: string;
  readonly remediation: string;
  readonly exitStatus: number;
  readonly inexact?: boolean;
  /** The flag concerned (normalized name), when there is one. */
  readonly flag?: string;
}

export type CommandLineVerdict<T> = { readonly ok: true; readonly value: T } | CommandLineFinding | { readonly undecidable: string };

const FINDING_BY_KIND = {
  'unknown-flag': 'kubelet-flag-unknown',
  'bad-value': 'kubelet-flag-bad-value',
  'missing-value': 'kubelet-flag-missing-value',
  'stray-word': 'kubelet-stray-argument',
  'bad-syntax': 'kubelet-stray-argument',
} as const;

/** Step 1/1b: parse kubelet's arguments (after the binary) as kubelet 1.<minor> does. */
export function commandLineFinding(args: readonly string[], minor: number, flavor: KubeletFlavor = 'upstream'): CommandLineVerdict<CommandLineParse & { ok: true }> {
  const parsed = parseKubeletCommandLine(args, minor, { flavor });
  if ('undecidable' in parsed) return { undecidable: parsed.undecidable };
  if (parsed.ok) return { ok: true, value: parsed };
  const kubeletError = withKubeletParsePrefix(parsed);
  // node-check's hint, outside kubelet's text: the registered names closest to the unknown one.
  const hint = parsed.closeFlags ? `Did you mean ${parsed.closeFlags.map((f) => `--${f}`).join(' or ')}? ` : '';
  const remediation = {
    'unknown-flag': `${hint}Correct or remove ${parsed.flag?.startsWith('-') ? parsed.flag : `--${parsed.flag}`} on kubelet's command line (unit, drop-ins, env files such as kubeadm-flags.env or KUBELET_EXTRA_ARGS); if it sets a KubeletConfiguration field, set that in the --config file instead.`,
    'bad-value': `Give --${parsed.flag} a value of its type, or remove it (an empty or unset variable in the unit is the usual cause).`,
    'missing-value': `Write --${parsed.flag}=<value>, or remove it.`,
    'stray-word': 'Remove the word, or join it to its flag with "=" (boolean flags never take the next word).',
    'bad-syntax': 'Fix the flag syntax (two dashes, then the name).',
  }[parsed.kind];
  return {
    findingId: FINDING_BY_KIND[parsed.kind],
    kubeletError,
    message: `kubelet 1.${minor} will exit at start with: ${kubeletError}`,
    remediation,
    exitStatus: 1,
    ...(parsed.inexact ? { inexact: true } : {}),
    ...(parsed.flag !== undefined ? { flag: parsed.flag } : {}),
  };
}

/** Step 3: ValidateKubeletFlags on an already parsed command line. */
export function flagValidationFinding(parsed: CommandLineParse & { ok: true }, minor: number, flavor: KubeletFlavor): CommandLineVerdict<null> {
  const v = validateKubeletFlags(parsed, minor, flavor);
  if ('undecidable' in v) return { undecidable: v.undecidable };
  if (v.ok) return { ok: true, value: null };
  const kubeletError = withKubeletValidatePrefix(v.error);
  return {
    findingId: 'kubelet-flag-validation',
    kubeletError,
    message: `kubelet 1.${minor} will exit at start with: ${kubeletError}`,
    remediation:
      v.rule === 'node-labels-unknown'
        ? 'Remove the restricted kubernetes.io / k8s.io labels from --node-labels and set them on the Node object instead (kubectl label node), or use labels under node.kubernetes.io, kubelet.kubernetes.io or your own domain.'
        : 'Fix the label keys and values in --node-labels (key: [prefix/]name of letters, digits, "-", "_", "."; value: at most 63 such characters).',
    exitStatus: 1,
    flag: 'node-labels',
    ...(v.inexact ? { inexact: true } : {}),
  };
}
