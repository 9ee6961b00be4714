/**
 * Kubelet's argv, parsed exactly as each modelled kubelet minor parses it (pure). cmd/kubelet/app/server.go:
 * a pflag FlagSet with ContinueOnError and cliflag.WordSepNormalizeFunc, interspersed (pflag's default),
 * `cleanFlagSet.Parse(args)` → `failed to parse kubelet flag: %w`; then `cleanFlagSet.Args()` non-empty →
 * `unknown command %+s` with the first word; then --help / --version short-circuit (exit 0, no start).
 * pflag parseArgs, parseLongArg, parseSingleShortArg, FlagSet.Set: kubelet 1.24..1.33 use pflag v1.0.5,
 * 1.34 v1.0.6, 1.35..1.36 v1.0.9 (component-base go.mod per tag); the error texts are identical in all
 * three (read in the spf13/pflag tags: v1.0.9 builds them in errors.go with the same formats; 1.37's
 * v1.0.10 too). Each minor's flag table is complete (generated from the tagged source), so a name it
 * lacks is pflag's `unknown flag: --<name as typed>`.
 * Errors are returned WITHOUT kubelet's outer prefix (see withKubeletParsePrefix).
 */
import { goQuote } from '../../go/quote.js';
import { closeMatches } from '../../lib/suggest.js';
import {
  flavorFlagTable,
  normalizeKubeletFlagName,
  shorthandFlag,
  type FlagSpec,
} from './flag-table.js';
import { checkFlagValue, invalidArgument } from './values.js';
import type { KubeletFlavor } from '../flavor.js';
import { MODELLED_RANGE } from '../data/minors.js';

export type CommandLineErrorKind = 'unknown-flag' | 'bad-value' | 'missing-value' | 'stray-word' | 'bad-syntax';

export type CommandLineParse =
  | {
      readonly ok: true;
      /** Every occurrence of every flag by normalized name, values as given (bool flags without a value: "true"). */
      readonly occurrences: Map<string, string[]>;
      /** Deprecated flags that were set: kubelet prints "Flag --x has been deprecated, …" and goes on. */
      readonly deprecated: readonly string[];
      /** --help / --version: kubelet prints and exits 0 without starting. */
      readonly exitsEarly?: 'help' | 'version';
    }
  | {
      readonly ok: false;
      /** The Go error as pflag/kubelet produce it, without kubelet's outer prefix. */
      readonly error: string;
      readonly kind: CommandLineErrorKind;
      /** Normalized flag name (or the stray word's flag context) when the error concerns one flag. */
      readonly flag?: string;
      /** Kubelet certainly fails, but an earlier argument might fail first with another text. */
      readonly inexact?: boolean;
      /** unknown-flag: the registered names closest to the unknown one (node-check's hint, not kubelet's text). */
      readonly closeFlags?: readonly string[];
    }
  | { readonly ok?: undefined; readonly undecidable: string; readonly flag?: string };

export interface ParseOptions {
  /** Test hook: use this table instead of the generated one. */
  readonly table?: ReadonlyMap<string, FlagSpec>;
  /** Whose kubelet (OpenShift's registers one more flag); upstream when not given. */
  readonly flavor?: KubeletFlavor;
}

/** Go's %q of one byte (strconv.QuoteRune for ASCII): 'x'. */
function quoteByte(c: string): string {
  if (c === "'") return "'\\''";
  if (c === '\\') return "'\\\\'";
  return `'${c}'`;
}

export function parseKubeletCommandLine(args: readonly string[], minor: number, options: ParseOptions = {}): CommandLineParse {
  const flavored = flavorFlagTable(minor, options.flavor ?? 'upstream');
  const table = options.table ?? flavored?.table;
  if (!table) return { undecidable: `kubelet 1.${minor} is not modelled (${MODELLED_RANGE})` };
  const unknownStatus = options.table ? [] : flavored?.unknownStatus ?? [];

  const occurrences = new Map<string, string[]>();
  const deprecated: string[] = [];
  const positional: string[] = [];
  // A known flag whose value node-check cannot judge: kubelet may fail there. Keep going; a later
  // certain failure still makes the verdict certain (with an inexact text).
  let pending: { why: string; flag: string } | undefined;

  const failure = (error: string, kind: CommandLineErrorKind, flag?: string): CommandLineParse => ({
    ok: false, error, kind, ...(flag !== undefined ? { flag } : {}), ...(pending ? { inexact: true } : {}),
  });
  const unknown = (name: string, display: string): CommandLineParse => {
    if (unknownStatus.includes(name)) return { undecidable: `whether ${options.flavor ?? 'upstream'} kubelet 1.${minor} registers --${name} was not read`, flag: name };
    const close = closeMatches(name, [...table.keys()]);
    return { ...failure(display, 'unknown-flag', name), ...(close.length > 0 ? { closeFlags: close } : {}) } as CommandLineParse;
  };
  const set = (spec: FlagSpec, value: string): CommandLineParse | undefined => {
    const check = checkFlagValue(spec, value);
    if ('undecidable' in check) {
      pending ??= { why: `--${spec.name}=${value}: ${check.undecidable}`, flag: spec.name };
    } else if (!check.ok) {
      return failure(invalidArgument(spec, value, check.error), 'bad-value', spec.name);
    }
    const list = occurrences.get(spec.name) ?? [];
    list.push(value);
    occurrences.set(spec.name, list);
    if (spec.deprecated !== undefined && !deprecated.includes(spec.name)) deprecated.push(spec.name);
    return undefined;
  };

  let i = 0;
  while (i < args.length) {
    const s = args[i]!;
    i++;
    if (s.length === 0 || s[0] !== '-' || s.length === 1) {
      positional.push(s); // interspersed
      continue;
    }
    if (s[1] === '-') {
      if (s.length === 2) {
        positional.push(...args.slice(i)); // "--" terminates the flags
        break;
      }
      const body = s.slice(2);
      if (body[0] === '-' || body[0] === '=') return failure(`bad flag syntax: ${s}`, 'bad-syntax');
      const eq = body.indexOf('=');
      const rawName = eq === -1 ? body : body.slice(0, eq);
      const name = normalizeKubeletFlagName(rawName);
      const spec = table.get(name);
      if (!spec) return unknown(name, `unknown flag: --${rawName}`);
      let value: string;
      if (eq !== -1) value = body.slice(eq + 1);
      else if (spec.noOptDefVal !== undefined) value = spec.noOptDefVal;
      else if (i < args.length) value = args[i++]!;
      else return failure(`flag needs an argument: ${s}`, 'missing-value', name);
      const r = set(spec, value);
      if (r) return r;
      continue;
    }
    // Shorthands: "-v=2", "-v2", "-v 2", "-h"; several letters may be combined ("-hv3").
    let shorthands = s.slice(1);
    let consumed = 0;
    while (shorthands.length > 0) {
      if (shorthands.startsWith('test.')) break; // pflag silently ignores -test.* (go test flags)
      const c = shorthands[0]!;
      if (c.charCodeAt(0) >= 0x80 || c.charCodeAt(0) < 0x20) return { undecidable: `the shorthand argument ${goQuote(s)} has a non-ASCII or control letter` };
      const spec = shorthandFlag(table, c);
      if (!spec) {
        // The only shorthands are -h (help) and -v (the logging verbosity); a single dash before a
        // long name ("-node-labels") is read as shorthands, so its first letter is pflag's
        // "unknown shorthand flag" (spf13/pflag flag.go parseSingleShortArg).
        const longName = normalizeKubeletFlagName(s.slice(1).split('=')[0]!);
        const close = table.has(longName) ? [longName] : closeMatches(longName, [...table.keys()]);
        return { ...failure(`unknown shorthand flag: ${quoteByte(c)} in -${shorthands}`, 'unknown-flag', `-${c}`), ...(close.length > 0 ? { closeFlags: close } : {}) } as CommandLineParse;
      }
      let value: string;
      let rest: string;
      if (shorthands.length > 2 && shorthands[1] === '=') { value = shorthands.slice(2); rest = ''; }
      else if (spec.noOptDefVal !== undefined) { value = spec.noOptDefVal; rest = shorthands.slice(1); }
      else if (shorthands.length > 1) { value = shorthands.slice(1); rest = ''; }
      else if (i < args.length) { value = args[i]!; consumed = 1; rest = ''; }
      else return failure(`flag needs an argument: ${quoteByte(c)} in -${shorthands}`, 'missing-value', spec.name);
      const r = set(spec, value);
      if (r) return r;
      shorthands = rest;
    }
    i += consumed;
  }

  if (positional.length > 0) return failure(`unknown command ${positional[0]}`, 'stray-word');
  if (pending) return { undecidable: pending.why, flag: pending.flag };

  const last = (name: string): string | undefined => occurrences.get(name)?.at(-1);
  const help = last('help');
  if (help !== undefined && help !== '' && ['1', 't', 'T', 'TRUE', 'true', 'True'].includes(help)) return { ok: true, occurrences, deprecated, exitsEarly: 'help' };
  const version = last('version');
  if (version !== undefined && (version === 'raw' || ['1', 't', 'T', 'TRUE', 'true', 'True'].includes(version))) return { ok: true, occurrences, deprecated, exitsEarly: 'version' };
  return { ok: true, occurrences, deprecated };
}

/**
 * The prefix kubelet puts before a parse error (cmd/kubelet/app/server.go `failed to parse kubelet
 * flag: %w`, 1.24+). A stray word has no prefix (`unknown command <word>`). How the whole line is
 * logged differs by minor (cmd/kubelet/kubelet.go: cobra's Execute at v1.24.17, component-base
 * cli.Run's `"command failed" err=` from v1.25.16); that belongs to the caller.
 */
export function withKubeletParsePrefix(result: CommandLineParse & { ok: false }): string {
  return result.kind === 'stray-word' ? result.error : `failed to parse kubelet flag: ${result.error}`;
}
