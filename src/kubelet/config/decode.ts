/**
 * Decoding a KubeletConfiguration file as kubelet's DecodeKubeletConfiguration does
 * (kubernetes/kubernetes pkg/kubelet/kubeletconfig/util/codec/codec.go, all of 1.24-1.36):
 *
 *   strict UniversalDecoder().Decode(data)                    (scheme: internal + v1beta1)
 *     error that is not a strict-decoding error -> "failed to decode: <error>"
 *     strict error -> lenient decoder; if that fails too -> "failed lenient decoding: <strict error>"
 *                     otherwise a warning, unknown fields dropped
 *   not *KubeletConfiguration -> "failed to cast object to KubeletConfiguration, unexpected type: <gvk>"
 *
 * The JSON/YAML recognizer, go-yaml conversion and version/kind interpretation are shared with
 * the credential-provider decoder (src/credentials/decode.ts, go-yaml.ts). sigs.k8s.io/yaml
 * errors are not prefixed (audit: v1.4.0 reverted "error converting YAML to JSON:").
 * Top-level fields are decoded with their Go types from config/v1beta1/types.go of the minor
 * (src/kubelet/data/kubelet-config-fields.ts); nested struct types are not modelled (only their
 * JSON kind is checked), so a type error inside e.g. authentication.* is not detected. [U]
 */
import { interpret, isJsonBuffer } from '../../credentials/decode.js';
import { yamlToGoJson } from '../../credentials/go-yaml.js';
import { formatGoDuration, parseGoDuration } from '../../go/duration.js';
import { goJsonCheckValid, parseGoJson, type GoJson } from '../../go/json.js';
import { goQuote } from '../../go/quote.js';
import { goBytesToString } from '../../go/utf8.js';
import { KUBELET_CONFIG_FIELDS } from '../data/kubelet-config-fields.js';

export const KUBELET_CONFIG_GROUP = 'kubelet.config.k8s.io';
export const KUBELET_CONFIG_VERSION = 'v1beta1';
export const KUBELET_CONFIG_KIND = 'KubeletConfiguration';

/** A decoded config: JSON field names, durations as Go strings, numbers as JS numbers. */
export type KubeletConfigObject = Record<string, unknown>;

export type KubeletConfigDecodeResult =
  | {
      readonly ok: true;
      readonly config: KubeletConfigObject;
      /** Unknown (or wrongly cased) fields the lenient decoder dropped. */
      readonly droppedFields: string[];
      /** Keys given twice: strict decoding failed on them, the last value won. */
      readonly duplicateFields: string[];
      /** The strict decoding error kubelet logs with "Using lenient decoding as strict decoding failed". */
      readonly lenientWarning?: string;
    }
  | { readonly ok: false; readonly error: string; readonly inexact?: true };

/** DecodeKubeletConfiguration's result for this data, or undefined outside 1.24..1.36. */
export function decodeKubeletConfig(minor: number, data: Uint8Array): KubeletConfigDecodeResult | undefined {
  const fields = KUBELET_CONFIG_FIELDS[minor];
  if (!fields) return undefined;
  const fail = (error: string, inexact = false): KubeletConfigDecodeResult => ({ ok: false, error, ...(inexact ? { inexact: true as const } : {}) });
  const decodeFail = (error: string, inexact = false) => fail(`failed to decode: ${error}`, inexact);

  const parsed = parseConfigData(minor, data);
  if (!parsed.ok) return decodeFail(parsed.error, parsed.inexact === true);
  const { json, gvk } = parsed;
  const yamlStrict = parsed.yamlStrict;
  const duplicates = parsed.duplicates;
  const original = goBytesToString(data);
  if (gvk.kind === '') return decodeFail(`Object 'Kind' is missing in '${original}'`);
  if (gvk.version === '') return decodeFail(`Object 'apiVersion' is missing in '${original}'`);
  if (gvk.group !== KUBELET_CONFIG_GROUP || gvk.version !== KUBELET_CONFIG_VERSION || gvk.kind !== KUBELET_CONFIG_KIND) {
    const wrong = wrongKindError(minor, gvk.group, gvk.version, gvk.kind);
    return fail(wrong.error, wrong.inexact);
  }

  const typed = decodeTopLevel(json, fields);
  if (typed.error !== undefined) return decodeFail(typed.error);
  const strictErrors = [
    ...(yamlStrict.length > 0 ? [`yaml: unmarshal errors:\n  ${yamlStrict.join('\n  ')}`] : []),
    ...typed.duplicates.map((f) => `duplicate field ${goQuote(f)}`),
    ...typed.unknown.map((f) => `unknown field ${goQuote(f)}`),
  ];
  return {
    ok: true,
    config: typed.config,
    droppedFields: typed.unknown,
    duplicateFields: [...duplicates, ...typed.duplicates],
    ...(strictErrors.length > 0 ? { lenientWarning: `strict decoding error: ${strictErrors.join(', ')}` } : {}),
  };
}

export type ParsedConfigData =
  | {
      readonly ok: true;
      readonly json: GoJson;
      readonly gvk: { group: string; version: string; kind: string };
      readonly yamlStrict: string[];
      readonly duplicates: string[];
    }
  | { readonly ok: false; readonly error: string; readonly inexact?: boolean };

/**
 * The serializer's first steps: JSON (IsJSONBuffer) or YAML via sigs.k8s.io/yaml, then
 * SimpleMetaFactory.Interpret. Errors are returned without the caller's "failed to decode: ".
 */
export function parseConfigData(minor: number, data: Uint8Array): ParsedConfigData {
  let json: GoJson;
  let yamlStrict: string[] = [];
  let duplicates: string[] = [];
  if (isJsonBuffer(data)) {
    const syntax = goJsonCheckValid(data);
    if (syntax !== undefined) return { ok: false, error: `couldn't get version/kind; json parse error: ${syntax}` };
    json = parseGoJson(data);
  } else {
    // sigs.k8s.io/yaml v1.3.0 (<=1.30) capitalises "Unsupported map key" (see go-yaml.ts).
    const converted = yamlToGoJson(data, { capitalisedMapKeyError: minor <= 30 });
    if (!converted.ok) return { ok: false, error: converted.error, inexact: !converted.exact };
    json = converted.value;
    yamlStrict = [...converted.strictDuplicateLines];
    duplicates = [...converted.duplicatePaths];
  }
  const gvk = interpret(json);
  if ('error' in gvk) return { ok: false, error: gvk.error.error };
  return { ok: true, json, gvk, yamlStrict, duplicates };
}

/**
 * Any other group/version/kind fails (verdict certain). A kind registered in v1beta1
 * (kubernetes/kubelet config/v1beta1/register.go per tag: SerializedNodeConfigSource and
 * CredentialProviderConfig in 1.24-1.36, ImagePullIntent and ImagePulledRecord from 1.35)
 * converts to another internal type and fails the cast in DecodeKubeletConfiguration:
 * `failed to cast object to KubeletConfiguration, unexpected type: <gvk>` (gvk printed by
 * GroupVersionKind.String()). Any other kind gives runtime's `no kind "X" is registered for
 * version "g/v" in scheme "pkg/kubelet/apis/config/scheme/scheme.go:<line>"`: the line of
 * runtime.NewScheme() in scheme.go (32 in the copy with only internal + v1beta1, index id
 * 442778376) is not pinned per minor, so that text is inexact.
 */
function wrongKindError(minor: number, group: string, version: string, kind: string): { error: string; inexact: boolean } {
  const gv = group === '' ? version : `${group}/${version}`;
  if (group === KUBELET_CONFIG_GROUP && version === KUBELET_CONFIG_VERSION) {
    const castKinds = ['SerializedNodeConfigSource', 'CredentialProviderConfig'];
    const newer = minor >= 35 ? ['ImagePullIntent', 'ImagePulledRecord'] : [];
    if (castKinds.includes(kind) || newer.includes(kind)) {
      // The internal types of ImagePullIntent/ImagePulledRecord were not checked. [I]
      return { error: `failed to cast object to KubeletConfiguration, unexpected type: ${gv}, Kind=${kind}`, inexact: newer.includes(kind) };
    }
  }
  return { error: `failed to decode: no kind ${goQuote(kind)} is registered for version ${goQuote(gv)} in scheme "pkg/kubelet/apis/config/scheme/scheme.go:…"`, inexact: true };
}

interface TopLevel {
  config: KubeletConfigObject;
  error?: string;
  unknown: string[];
  duplicates: string[];
}

/**
 * sigs.k8s.io/json into v1beta1.KubeletConfiguration, top level only: keys match json tags
 * case-sensitively; the first type error is kept and decoding goes on (UnmarshalTypeError), a
 * failing metav1.Duration.UnmarshalJSON stops at once.
 */
function decodeTopLevel(json: GoJson, fields: Readonly<Record<string, string>>): TopLevel {
  const out: TopLevel = { config: {}, unknown: [], duplicates: [] };
  if (json.kind === 'null') return out;
  if (json.kind !== 'object') {
    out.error = `json: cannot unmarshal ${json.kind} into Go value of type v1beta1.KubeletConfiguration`;
    return out;
  }
  const seen = new Set<string>();
  for (const { key, value } of json.members) {
    const goType = key === 'kind' || key === 'apiVersion' ? 'string' : fields[key];
    if (goType === undefined) {
      if (!out.unknown.includes(key)) out.unknown.push(key);
      continue;
    }
    if (seen.has(key)) out.duplicates.push(key);
    seen.add(key);
    const r = decodeValue(value, goType, key);
    if (r.abort !== undefined) {
      out.error = r.abort;
      return out;
    }
    if (r.error !== undefined) out.error ??= r.error;
    else if (r.value !== undefined) out.config[key] = r.value;
    else delete out.config[key];
  }
  return out;
}

interface ValueResult {
  value?: unknown;
  error?: string;
  abort?: string;
}

const INT_BITS: Record<string, bigint> = { int32: 31n, int64: 63n };

function typeError(word: string, field: string, goType: string): string {
  return `json: cannot unmarshal ${word} into Go struct field KubeletConfiguration.${field} of type ${goType}`;
}

/** One top-level field. null leaves the Go zero value (pointer/slice/map nil). */
export function decodeValue(json: GoJson, goType: string, field: string): ValueResult {
  const pointer = goType.startsWith('*');
  const base = pointer ? goType.slice(1) : goType;
  if (json.kind === 'null') return { value: undefined };
  if (base === 'metav1.Duration') {
    if (json.kind !== 'string') return { abort: typeError(json.kind, field, 'string') };
    const ns = parseGoDuration(json.value);
    if (typeof ns === 'string') return { abort: ns };
    return { value: formatGoDuration(ns) };
  }
  if (base === 'string' || /^[A-Z]\w*$/.test(base) && STRING_TYPES.has(base)) {
    if (json.kind !== 'string') return { error: typeError(json.kind, field, base === 'string' ? 'string' : `v1beta1.${base}`) };
    return { value: json.value };
  }
  if (base === 'bool') {
    if (json.kind !== 'bool') return { error: typeError(json.kind, field, 'bool') };
    return { value: json.value };
  }
  if (base in INT_BITS) {
    if (json.kind !== 'number') return { error: typeError(json.kind, field, base) };
    return intValue(json.text, base, field);
  }
  if (base === 'float64') {
    if (json.kind !== 'number') return { error: typeError(json.kind, field, 'float64') };
    return { value: Number(json.text) };
  }
  if (base === '[]string' || base === '[]int32') {
    const elem = base.slice(2);
    if (json.kind !== 'array') return { error: typeError(json.kind, field, base) };
    const items: unknown[] = [];
    let error: string | undefined;
    for (const item of json.items) {
      if (item.kind === 'null') {
        items.push(elem === 'string' ? '' : 0);
        continue;
      }
      if (elem === 'string') {
        if (item.kind !== 'string') error ??= typeError(item.kind, field, 'string');
        else items.push(item.value);
      } else if (item.kind !== 'number') error ??= typeError(item.kind, field, 'int32');
      else {
        const r = intValue(item.text, 'int32', field);
        if (r.error) error ??= r.error;
        else items.push(r.value);
      }
    }
    return error !== undefined ? { error } : { value: items };
  }
  if (base === 'map[string]bool' || base === 'map[string]string' || base === 'map[string][]string') {
    if (json.kind !== 'object') return { error: typeError(json.kind, field, base) };
    const elem = base.slice('map[string]'.length);
    const out: Record<string, unknown> = {};
    let error: string | undefined;
    for (const { key, value } of json.members) {
      if (value.kind === 'null') {
        out[key] = elem === 'bool' ? false : elem === 'string' ? '' : null;
        continue;
      }
      if (elem === 'bool' && value.kind !== 'bool') error ??= typeError(value.kind, field, 'bool');
      else if (elem === 'string' && value.kind !== 'string') error ??= typeError(value.kind, field, 'string');
      else if (elem === '[]string' && value.kind !== 'array') error ??= typeError(value.kind, field, '[]string');
      else out[key] = toPlain(value);
    }
    return error !== undefined ? { error } : { value: out };
  }
  if (base.startsWith('[]')) {
    // Slices of structs (taints, reserved memory, shutdown priorities): only the JSON kind is checked.
    const elem = base.slice(2);
    if (json.kind !== 'array') return { error: typeError(json.kind, field, `[]${elem.includes('.') ? elem : `v1beta1.${elem}`}`) };
    return { value: toPlain(json) };
  }
  // Struct types (authentication, logging, tracing, ...): only the JSON kind is checked. [U for nested errors]
  if (json.kind !== 'object') return { error: typeError(json.kind, field, structTypeName(base)) };
  return { value: toPlain(json) };
}

/** Named string types in v1beta1 (json decodes them as strings). */
const STRING_TYPES = new Set(['ImagePullCredentialsVerificationPolicy', 'MemoryReservationPolicy', 'ResourceChangeDetectionStrategy']);

function structTypeName(base: string): string {
  if (base.includes('.')) return base.replace(/^componentbaseconfigv1alpha1\./, 'v1alpha1.').replace(/^logsapi\./, 'v1.').replace(/^tracingapi\./, 'v1.');
  return `v1beta1.${base}`;
}

/** encoding/json into an int kind: ParseInt of the literal, then an overflow check. */
function intValue(text: string, goType: string, field: string): ValueResult {
  const bits = INT_BITS[goType]!;
  if (!/^-?\d+$/.test(text)) return { error: typeError(`number ${text}`, field, goType) };
  const n = BigInt(text);
  if (n >= 1n << bits || n < -(1n << bits)) return { error: typeError(`number ${text}`, field, goType) };
  return { value: Number(n) };
}

/** A GoJson value as plain JS (last duplicate key wins, as Go's map decoding does). */
export function toPlain(json: GoJson): unknown {
  switch (json.kind) {
    case 'null': return null;
    case 'bool': return json.value;
    case 'number': return Number(json.text);
    case 'string': return json.value;
    case 'array': return json.items.map(toPlain);
    case 'object': {
      const out: Record<string, unknown> = {};
      for (const { key, value } of json.members) out[key] = toPlain(value);
      return out;
    }
  }
}
