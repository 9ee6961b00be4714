/**
 * Decoding a KubeletConfiguration file as kubelet's DecodeKubeletConfiguration does
 * (kubernetes/kubernetes pkg/kubelet/kubeletconfig/util/codec/codec.go, all of 1.24-1.37):
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
 * Fields are decoded with the Go types of config/v1beta1/types.go of the minor (go-types.ts, the
 * typed decoder of src/credentials/typed-decode.ts); types of other packages (logging, tracing,
 * taints, resource lists) are checked for their JSON kind only: a type error inside them is not
 * detected. [U]
 */
import { interpret, isJsonBuffer } from '../../credentials/decode.js';
import { yamlToGoJson } from '../../credentials/go-yaml.js';
import { formatGoDuration } from '../../go/duration.js';
import { decodeInto, type GoValue } from '../../credentials/typed-decode.js';
import { kubeletConfigurationType } from './go-types.js';
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

/** DecodeKubeletConfiguration's result for this data, or undefined for a minor not modelled. */
export function decodeKubeletConfig(minor: number, data: Uint8Array): KubeletConfigDecodeResult | undefined {
  if (!KUBELET_CONFIG_FIELDS[minor]) return undefined;
  const fail = (error: string, inexact = false): KubeletConfigDecodeResult => ({ ok: false, error, ...(inexact ? { inexact: true as const } : {}) });
  const decodeFail = (error: string, inexact = false) => fail(`failed to decode: ${error}`, inexact);

  const parsed = parseConfigData(minor, data);
  if (!parsed.ok) return decodeFail(parsed.error, parsed.inexact === true);
  const { json, gvk } = parsed;
  const yamlStrict = parsed.yamlStrict;
  const duplicates = parsed.duplicates;
  if (gvk.kind === '') return decodeFail(`Object 'Kind' is missing in '${goBytesToString(data)}'`);
  if (gvk.version === '') return decodeFail(`Object 'apiVersion' is missing in '${goBytesToString(data)}'`);
  if (gvk.group !== KUBELET_CONFIG_GROUP || gvk.version !== KUBELET_CONFIG_VERSION || gvk.kind !== KUBELET_CONFIG_KIND) {
    const wrong = wrongKindError(minor, gvk.group, gvk.version, gvk.kind);
    return fail(wrong.error, wrong.inexact);
  }

  const typed = decodeInto(json, kubeletConfigurationType(minor)!, true);
  if (typed.error !== undefined) return decodeFail(typed.error);
  const strictErrors = [...(yamlStrict.length > 0 ? [`yaml: unmarshal errors:\n  ${yamlStrict.join('\n  ')}`] : []), ...typed.strictErrors];
  return {
    ok: true,
    config: goValueToConfig(typed.value),
    droppedFields: [...typed.unknownFields],
    duplicateFields: [...duplicates, ...typed.duplicateFields],
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
 * JSON parses already made, per input buffer: `check` decodes the same file once per kubelet minor
 * (13 times), and the result depends only on the bytes. As with yamlToGoJson's, readers never
 * mutate it.
 */
const parsedJson = new WeakMap<Uint8Array, { readonly json: GoJson } | { readonly syntax: string }>();

function parseJsonOnce(data: Uint8Array): { readonly json: GoJson } | { readonly syntax: string } {
  let parsed = parsedJson.get(data);
  if (parsed === undefined) {
    const syntax = goJsonCheckValid(data);
    parsed = syntax !== undefined ? { syntax } : { json: parseGoJson(data) };
    parsedJson.set(data, parsed);
  }
  return parsed;
}

/**
 * The serializer's first steps: JSON (IsJSONBuffer) or YAML via sigs.k8s.io/yaml, then
 * SimpleMetaFactory.Interpret. Errors are returned without the caller's "failed to decode: ".
 */
export function parseConfigData(minor: number, data: Uint8Array): ParsedConfigData {
  let json: GoJson;
  let yamlStrict: string[] = [];
  let duplicates: string[] = [];
  if (isJsonBuffer(data)) {
    const parsed = parseJsonOnce(data);
    if ('syntax' in parsed) return { ok: false, error: `couldn't get version/kind; json parse error: ${parsed.syntax}` };
    json = parsed.json;
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
 * CredentialProviderConfig in 1.24-1.37, ImagePullIntent and ImagePulledRecord from 1.35)
 * converts to another internal type and fails the cast in DecodeKubeletConfiguration:
 * `failed to cast object to KubeletConfiguration, unexpected type: <gvk>` (gvk printed by
 * GroupVersionKind.String()). Any other kind gives runtime's `no kind "X" is registered for
 * version "g/v" in scheme "pkg/kubelet/apis/config/scheme/scheme.go:<line>"`: the line of
 * runtime.NewScheme() in scheme.go (32 at v1.24.17-v1.25.16, 33 at v1.26.15-v1.37.2) is not
 * modelled per minor, so that text is inexact.
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

/** The decoded Go value as plain config data: durations as Go strings (time.Duration.String). */
export function goValueToConfig(value: GoValue): KubeletConfigObject {
  const plain = (v: GoValue): unknown => {
    if (Array.isArray(v)) return v.map(plain);
    if (typeof v === 'object' && v !== null) {
      if (typeof (v as { duration?: unknown }).duration === 'bigint') return formatGoDuration((v as { duration: bigint }).duration);
      const out: Record<string, unknown> = {};
      for (const [k, x] of Object.entries(v as Record<string, GoValue>)) out[k] = plain(x);
      return out;
    }
    return v;
  };
  const out = plain(value);
  return typeof out === 'object' && out !== null && !Array.isArray(out) ? (out as KubeletConfigObject) : {};
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
