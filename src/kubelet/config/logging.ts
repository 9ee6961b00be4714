/**
 * The `logging` field (and --logging-format, bound to logging.format) as kubelet checks it:
 * component-base logs/api/v1 options.go Validate (tags v0.25-v0.36; logs/validate.go
 * ValidateLoggingConfiguration in v0.24). From 1.25 cmd/kubelet/app/server.go calls
 * logsapi.ValidateAndApplyAsField before ValidateKubeletConfiguration and returns
 * "initialize logging: %v"; in 1.24 the same rules run inside ValidateKubeletConfiguration
 * (pkg/kubelet/apis/config/validation/validation.go), whose aggregate carries them.
 *
 * Modelled exactly: the format ("text" always; "json", registered by cmd/kubelet/kubelet.go through
 * logs/json/register, behind LoggingBetaOptions from 1.25), vmodule with a non-text format, and
 * the options' defaults. Anything else that Validate reads (a vmodule list, non-default
 * options.*, klog's own flags next to a non-text format on 1.24-1.25) is undecided.
 */
import { parseGoDuration } from '../../go/duration.js';
import { goQuote } from '../../go/quote.js';
import type { KubeletConfigObject } from './decode.js';

export type LoggingCheck =
  | { readonly ok: true }
  /** field.ErrorList entries, as each field.Error prints itself. */
  | { readonly ok: false; readonly errors: readonly string[]; readonly inexact: boolean }
  | { readonly undecidable: string };

/** klog flags kubelet 1.24-1.25 still registers; with a non-text format each non-default one is an error. */
const KLOG_FLAGS = ['log-dir', 'log-file', 'log-file-max-size', 'logtostderr', 'alsologtostderr', 'one-output', 'skip-headers', 'skip-log-headers', 'add-dir-header', 'stderrthreshold', 'log-backtrace-at'];

/** Keys Validate reads whose defaults node-check models; another key is undecided. */
const LOGGING_KEYS = new Set(['format', 'flushFrequency', 'verbosity', 'vmodule', 'options']);

const isObject = (v: unknown): v is Record<string, unknown> => typeof v === 'object' && v !== null && !Array.isArray(v);

/** An options.text / options.json block left at its defaults (infoBufferSize 0, splitStream false). */
function defaultStreamOptions(v: unknown): boolean {
  if (v === undefined || v === null) return true;
  if (!isObject(v)) return false;
  return Object.entries(v).every(([key, value]) =>
    key === 'infoBufferSize' ? value === 0 || value === '0' || value === null : key === 'splitStream' ? value === false || value === null : false,
  );
}

/**
 * Validate(c, featureGate, field.NewPath("logging")) for kubelet 1.<minor>. `flagNames` are the
 * flags on kubelet's command line (for the klog flags of 1.24-1.25).
 */
export function checkLogging(minor: number, config: KubeletConfigObject, gateEnabled: (gate: string) => boolean, flagNames: ReadonlySet<string>): LoggingCheck {
  const logging = config['logging'];
  if (logging === undefined || logging === null) return { ok: true };
  if (!isObject(logging)) return { undecidable: 'logging is not an object' };
  const extra = Object.keys(logging).filter((k) => !LOGGING_KEYS.has(k));
  if (extra.length > 0) return { undecidable: `logging.${extra[0]} is not modelled` };
  const rawFormat = logging['format'];
  if (rawFormat !== undefined && rawFormat !== null && typeof rawFormat !== 'string') return { undecidable: 'logging.format is not a string' };
  // SetRecommendedLoggingConfiguration: an empty format is "text".
  const format = typeof rawFormat === 'string' && rawFormat !== '' ? rawFormat : 'text';
  const verbosity = logging['verbosity'];
  if (verbosity !== undefined && verbosity !== null && !(typeof verbosity === 'number' && Number.isInteger(verbosity) && verbosity >= 0 && verbosity <= 0x7fffffff)) {
    return { undecidable: `logging.verbosity ${String(verbosity)} is not modelled` };
  }
  // flushFrequency is a TimeOrMetaDuration (component-base logs/api/v1 types.go): "x" fails the
  // config file's decoding and "-1s" stops the real 1.34.12 without an error line (the
  // config-validation probe's cases value/logging.flushFrequency/*); only a duration or nanosecond count not below zero is modelled.
  const flush = logging['flushFrequency'];
  if (flush !== undefined && flush !== null) {
    // kubeadm writes `flushFrequency: 0` (nanoseconds as a number): the default then applies.
    const parsed = typeof flush === 'string' ? parseGoDuration(flush) : typeof flush === 'number' && Number.isSafeInteger(flush) ? BigInt(flush) : undefined;
    if (typeof parsed !== 'bigint' || parsed < 0n) return { undecidable: `logging.flushFrequency ${JSON.stringify(flush)} is not modelled` };
  }
  const vmodule = logging['vmodule'];
  const hasVmodule = Array.isArray(vmodule) && vmodule.length > 0;
  if (vmodule !== undefined && vmodule !== null && !Array.isArray(vmodule)) return { undecidable: 'logging.vmodule is not a list' };
  if (hasVmodule && format === 'text') return { undecidable: 'logging.vmodule entries are not modelled' };
  const options = logging['options'];
  if (options !== undefined && options !== null) {
    if (!isObject(options)) return { undecidable: 'logging.options is not an object' };
    for (const [key, value] of Object.entries(options)) {
      if ((key !== 'text' && key !== 'json') || !defaultStreamOptions(value)) return { undecidable: `logging.options.${key} with non-default values is not modelled` };
    }
  }

  const errors: string[] = [];
  if (format !== 'text' && minor <= 25) {
    const klog = KLOG_FLAGS.find((flag) => flagNames.has(flag));
    if (klog !== undefined) return { undecidable: `logging.format ${format} next to --${klog}: kubelet 1.${minor} then also refuses the flag, in an order node-check does not model` };
  }
  if (format === 'json') {
    if (minor >= 25 && !gateEnabled('LoggingBetaOptions')) errors.push(`logging.format: Forbidden: Log format json is disabled, see LoggingBetaOptions feature`);
  } else if (format !== 'text') {
    errors.push(`logging.format: Invalid value: ${goQuote(format)}: Unsupported log format`);
  }
  if (hasVmodule) errors.push('logging.vmodule: Forbidden: Only supported for text log format');
  // vmodule items are checked too (empty or "=,"-bearing patterns): the verdict holds, the list may be longer.
  return errors.length === 0 ? { ok: true } : { ok: false, errors, inexact: hasVmodule };
}
