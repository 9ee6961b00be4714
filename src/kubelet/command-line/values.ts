/**
 * flag.Value.Set for every value type kubelet registers, as far as the exact behaviour is known.
 * Sources: spf13/pflag v1.0.5 (bool.go, int32.go, int.go, int64.go, uint64.go, duration.go,
 * string_slice.go; the same texts in v1.0.6+), component-base cli/flag (map_string_string.go,
 * map_string_bool.go, langle_separated_map_string_string.go, colon_separated_multimap_string_string.go,
 * configuration_map.go) and logs/api/v1/pflags.go (config/types.go in v0.24), read on disk for tags
 * v0.24.0..v0.36.0; Go's flag package (goBool/goInt/goDuration: errParse "parse error").
 * Kubelet 1.24..1.37.
 */
import { parseGoDuration } from '../../go/duration.js';
import { goQuote } from '../../go/quote.js';
import type { FlagSpec } from './flag-table.js';
import { goParseBool, goParseInt, goParseUint, goTrimSpace } from '../../go/strconv.js';
import { lazyBuiltin } from '../../host/builtins.js';

export type ValueCheck =
  | { readonly ok: true }
  | { readonly ok: false; readonly error: string }
  | { readonly undecidable: string };

const OK: ValueCheck = { ok: true };
const fail = (error: string): ValueCheck => ({ ok: false, error });
const unsure = (why: string): ValueCheck => ({ undecidable: why });

/** The inner error of Value.Set(value), or ok, or "cannot tell". */
export function checkFlagValue(spec: FlagSpec, value: string): ValueCheck {
  switch (spec.type) {
    case 'string':
    case 'goString':
    case 'configurationMap': // ConfigurationMap.Set never fails
      return OK;
    case 'bool': {
      const r = goParseBool(value);
      return r.ok ? OK : fail(r.error);
    }
    case 'goBool':
      return goParseBool(value).ok ? OK : fail('parse error');
    case 'int32':
      return num(goParseInt(value, 0, 32));
    case 'int':
    case 'int64':
      return num(goParseInt(value, 0, 64));
    case 'uint64':
      return num(goParseUint(value, 0, 64));
    case 'goInt': {
      const r = goParseInt(value, 0, 64);
      return r.ok ? OK : fail(r.range ? 'value out of range' : 'parse error');
    }
    case 'goUint64': {
      const r = goParseUint(value, 0, 64);
      return r.ok ? OK : fail(r.range ? 'value out of range' : 'parse error');
    }
    case 'duration': {
      const r = parseGoDuration(value);
      return typeof r === 'string' ? fail(r) : OK;
    }
    case 'goDuration':
      return typeof parseGoDuration(value) === 'string' ? fail('parse error') : OK;
    case 'float64':
      return unsure('float values are not modelled');
    case 'stringSlice':
      // readAsCSV: only quotes and line breaks can make encoding/csv fail.
      return /["\r\n]/.test(value) ? unsure('a comma-separated value with quotes or line breaks (encoding/csv) is not modelled') : OK;
    case 'mapStringString':
      return pairs(value, '=', 'malformed pair, expect string=string');
    case 'langleMapStringString':
      return pairs(value, '<', 'malformed pair, expect string<string');
    case 'colonMultimapStringString':
      return pairs(value, ':', 'malformed pair, expect string:string');
    case 'mapStringStringNoSplit':
      return value.includes('=') ? OK : fail('malformed pair, expect string=string');
    case 'mapStringBool': {
      for (const s of value.split(',')) {
        if (s.length === 0) continue;
        const eq = s.indexOf('=');
        if (eq === -1) return fail('malformed pair, expect string=bool');
        const k = goTrimSpace(s.slice(0, eq));
        const v = goTrimSpace(s.slice(eq + 1));
        const b = goParseBool(v);
        if (!b.ok) return fail(`invalid value of ${k}: ${v}, err: ${b.error}`);
      }
      return OK;
    }
    case 'verbosity': {
      const r = goParseUint(value, 10, 31);
      return r.ok ? OK : fail(r.error);
    }
    case 'vmodule': {
      for (const pat of value.split(',')) {
        if (pat.length === 0) continue;
        const parts = pat.split('=');
        if (parts.length !== 2 || parts[0]!.length === 0 || parts[1]!.length === 0) return fail(`${goQuote(pat)} does not have the pattern=N format`);
        const r = goParseUint(parts[1]!, 10, 31);
        if (!r.ok) return fail(`parsing verbosity in ${goQuote(pat)}: ${r.error}`);
      }
      return OK;
    }
    case 'quantity':
      // resource.ParseQuantity; only plain forms are known to be accepted.
      return /^[0-9]+(Ki|Mi|Gi|Ti|Pi|Ei|k|M|G|T|P|E)?$/.test(value) ? OK : unsure('resource quantity parsing is not modelled');
    case 'ip':
      // pkg/util/flag IPVar: empty clears it; netutils.ParseIPSloppy decides the rest.
      if (value === '' || (!value.includes('%') && isIp(value))) return OK;
      return unsure('IPVar parsing of this value is not modelled');
    case 'taints':
      return taints(value);
    case 'version': {
      // verflag: "raw", a bool, or (newer minors) a "v"-prefixed version to emulate.
      if (value === 'raw' || goParseBool(value).ok) return OK;
      if (value.startsWith('v')) return unsure('--version=v<semver> is not modelled');
      const r = goParseBool(value);
      return r.ok ? OK : fail(r.error);
    }
    case 'reservedMemory':
    case 'goOpaque':
      return unsure(`values of --${spec.name} are not modelled`);
  }
}

function num(r: ReturnType<typeof goParseInt>): ValueCheck {
  return r.ok ? OK : fail(r.error);
}

function pairs(value: string, sep: string, message: string): ValueCheck {
  for (const s of value.split(',')) {
    if (s.length === 0) continue;
    if (!s.includes(sep)) return fail(message);
  }
  return OK;
}

const QUALIFIED_NAME = /^([a-z0-9]([-a-z0-9]*[a-z0-9])?(\.[a-z0-9]([-a-z0-9]*[a-z0-9])?)*\/)?[A-Za-z0-9]([-A-Za-z0-9_.]*[A-Za-z0-9])?$/;
const LABEL_VALUE = /^([A-Za-z0-9]([-A-Za-z0-9_.]*[A-Za-z0-9])?)?$/;

/**
 * A taint utiltaints.CheckTaintValidation accepts (pkg/util/taints/taints.go): a qualified-name
 * key, a label value, an effect of NoSchedule, PreferNoSchedule, NoExecute or none. Keys longer
 * than 316 characters are not decided here (the prefix and name limits are not ported).
 */
export function isValidTaint(key: string, value: string, effect: string): boolean {
  return QUALIFIED_NAME.test(key) && key.length <= 316 && LABEL_VALUE.test(value) && value.length <= 63 && ['', 'NoSchedule', 'PreferNoSchedule', 'NoExecute'].includes(effect);
}

function taints(value: string): ValueCheck {
  // RegisterWithTaintsVar: blank clears; each comma part is utiltaints.ParseTaint ("key[=value]:Effect").
  if (goTrimSpace(value) === '') return OK;
  for (const part of value.split(',')) {
    const m = /^([^=:]+)(=([^:]*))?:(NoSchedule|PreferNoSchedule|NoExecute)$/.exec(part);
    if (!m || !isValidTaint(m[1]!, m[3] ?? '', m[4]!)) {
      return unsure('taint parsing of this value is not modelled');
    }
  }
  return OK;
}

/** pflag's name in errors: "-v, --v" when the flag has a shorthand, else "--name". */
export function pflagDisplayName(spec: FlagSpec): string {
  return spec.shorthand ? `-${spec.shorthand}, --${spec.name}` : `--${spec.name}`;
}

/** pflag FlagSet.Set's wrapping: invalid argument "<value>" for "<name>" flag: <err>. */
export function invalidArgument(spec: FlagSpec, value: string, inner: string): string {
  return `invalid argument ${goQuote(value)} for ${goQuote(pflagDisplayName(spec))} flag: ${inner}`;
}

/** Dotted-quad IPv4 as node:net's isIP accepts it (no leading zeros), decided without loading node:net. */
const IPV4 = /^(?:(?:25[0-5]|2[0-4]\d|1\d\d|[1-9]\d|\d)\.){3}(?:25[0-5]|2[0-4]\d|1\d\d|[1-9]\d|\d)$/;

/** node:net's isIP; node:net (~1.4 ms to load after the launcher's flags) only for what is not plain IPv4. */
function isIp(value: string): boolean {
  return IPV4.test(value) || lazyBuiltin('node:net').isIP(value) !== 0;
}
