/**
 * Decoding one credential provider config file exactly as kubelet's decode() does
 * (kubernetes/kubernetes pkg/credentialprovider/plugin/config.go):
 *
 *   codecs.UniversalDecoder().Decode(data, nil, nil)        apimachinery recognizer + versioning codec
 *     JSON serializer if the data starts with '{' (after Unicode spaces), otherwise YAML:
 *       YAML: sigs.k8s.io/yaml YAMLToJSON (go-yaml v2, first document)            → go-yaml.ts
 *       Interpret: encoding/json into {apiVersion, kind} (case-insensitive keys)  → interpret()
 *       "Object 'Kind' is missing in '…'", "Object 'apiVersion' is missing in '…'"
 *       scheme.New(gvk): `no kind "X" is registered for version "g/v" in scheme "…"`
 *       sigs.k8s.io/json into the versioned type (case-sensitive; strict from 1.32)  → typed-decode.ts
 *       strict: "strict decoding error: " + YAML duplicate-key error + unknown/duplicate fields
 *   gvk.Kind != "CredentialProviderConfig" → `failed to decode "X" (wrong Kind)`
 *
 * Sources: apimachinery pkg/runtime/serializer/json/json.go, meta.go, recognizer/recognizer.go,
 * pkg/runtime/error.go, pkg/util/yaml/decoder.go (IsJSONBuffer), at the staging tags of
 * scripts/generate/kubernetes-source.lock.json (v0.34.12 read for this comment).
 * The caller wraps the error: `error decoding config <path>: <error>`.
 */
import type { KubeletTraits } from '../kubelet/version.js';
import { goJsonCheckValid, goJsonFoldKey, parseGoJson, type GoJson } from '../go/json.js';
import { goQuote } from '../go/quote.js';
import { decodeRune, goBytesToString } from '../go/utf8.js';
import { yamlToGoJson } from './go-yaml.js';
import {
  CREDENTIAL_PROVIDER_CONFIG_KIND,
  configFieldNames,
  credentialProviderConfigType,
  INTERNAL_VERSION,
  isKnownGroup,
  isRegistered,
  KUBELET_CONFIG_GROUP,
  kubeletSchemeName,
  otherKindType,
  registeredKinds,
  type ConfigFieldNames,
} from './kubelet-scheme.js';
import { decodeInto, type GoValue } from './typed-decode.js';
import type { CredentialProvider, CredentialProviderConfig, ServiceAccountTokenAttributes } from './types.js';


/**
 * 'unevaluable': node-check cannot reproduce what kubelet does with this file (its own parser gave
 * up where go-yaml would not, or an internal failure); the error is node-check's sentence, not
 * kubelet's, and the verdict is unknown.
 */
export type DecodeFailureReason = 'syntax' | 'strict' | 'type' | 'kind' | 'group' | 'version' | 'empty' | 'unevaluable';

export type DecodeResult =
  | {
      readonly ok: true;
      readonly config: CredentialProviderConfig;
      /** Fields this (non-strict) kubelet silently dropped, as strict decoding would name them. */
      readonly droppedFields: string[];
      /** Keys given twice (the last one won); strict decoding (1.32+) rejects them. */
      readonly duplicateFields: string[];
    }
  | {
      readonly ok: false;
      /** The Go error text decode() returns. */
      readonly error: string;
      readonly reason: DecodeFailureReason;
      /** Set when the text is node-check's best approximation rather than kubelet's exact words. */
      readonly inexact?: true;
    };

export type Failure = Extract<DecodeResult, { ok: false }>;

const fail = (error: string, reason: DecodeFailureReason, inexact = false): Failure => ({ ok: false, error, reason, ...(inexact ? { inexact: true as const } : {}) });

export function decodeCredentialProviderConfig(data: Buffer | string, traits: KubeletTraits): DecodeResult {
  try {
    return decode(typeof data === 'string' ? Buffer.from(data, 'utf8') : data, traits);
  } catch (e) {
    // Never throw to the caller; an internal failure means node-check cannot tell.
    return fail(`node-check could not evaluate this file: ${e instanceof Error ? e.message : String(e)}`, 'unevaluable', true);
  }
}

function decode(bytes: Buffer, traits: KubeletTraits): DecodeResult {
  // apimachinery's json serializer returns yaml.YAMLToJSON's and YAMLToJSONStrict's errors
  // unwrapped, and no sigs.k8s.io/yaml release wraps them ("error converting YAML to JSON:" is
  // only in its Unmarshal): tags v1.2.0-v1.6.0; err_test.go pins "yaml: line 1: " and
  // "yaml: unmarshal errors:" for YAMLToJSON/YAMLToJSONStrict.

  // recognizer: the protobuf serializer claims data starting with its magic number. What it then
  // says (and whether it fails) is not modelled: node-check cannot tell. [U]
  if (bytes.subarray(0, 4).equals(Buffer.from('k8s\x00', 'latin1'))) {
    return fail('node-check cannot evaluate a file in Kubernetes protobuf encoding', 'unevaluable', true);
  }

  let json: GoJson;
  let yamlStrictError: string | undefined;
  let yamlDuplicates: readonly string[] = [];
  if (isJsonBuffer(bytes)) {
    const syntax = goJsonCheckValid(bytes);
    if (syntax !== undefined) return fail(`couldn't get version/kind; json parse error: ${syntax}`, 'syntax');
    json = parseGoJson(bytes);
  } else {
    const converted = yamlToGoJson(bytes, { capitalisedMapKeyError: traits.sigsYamlVersion < '1.4.0' });
    if (!converted.ok) return fail(converted.error, converted.unevaluable ? 'unevaluable' : 'syntax', !converted.exact);
    json = converted.value;
    yamlDuplicates = converted.duplicatePaths;
    if (converted.strictDuplicateLines.length > 0) {
      yamlStrictError = `yaml: unmarshal errors:\n  ${converted.strictDuplicateLines.join('\n  ')}`;
    }
  }

  const gvk = interpret(json);
  if ('error' in gvk) return gvk.error;
  const { group, version, kind } = gvk;
  // Go prints the raw bytes; invalid UTF-8 shows as U+FFFD here.
  if (kind === '') return fail(`Object 'Kind' is missing in '${goBytesToString(bytes)}'`, json.kind === 'null' ? 'empty' : 'kind');
  if (version === '') return fail(`Object 'apiVersion' is missing in '${goBytesToString(bytes)}'`, 'version');

  if (!isRegistered(group, version, kind, traits)) {
    const gv = group === '' ? version : `${group}/${version}`;
    const where = version === INTERNAL_VERSION ? `for the internal version of group ${goQuote(group)}` : `for version ${goQuote(gv)}`;
    const reason: DecodeFailureReason = !isKnownGroup(group) ? 'group' : registeredKinds(group, version, traits) ? 'kind' : 'version';
    // Never exact: the scheme's name is its call site as the binary's own file paths give it
    // (k8s.io/apimachinery pkg/util/naming/from_stack.go GetNameFromCallsite at v0.25.16 skips
    // frames whose path contains "k8s.io/apimachinery/pkg/runtime/scheme.go", pkg/runtime/scheme.go
    // internalPackages). A vendored build, as releases are, skips NewScheme's frame and names
    // plugin.go's line (56 in a 1.25 release log); a module-mode build's path has
    // "k8s.io/apimachinery@v0.25.16/", so it names "pkg/runtime/scheme.go:100" (the real kubelet
    // 1.25.16 built by scripts/oracle/build-kubelet.mjs). node-check does not know the build.
    return fail(`no kind ${goQuote(kind)} is registered ${where} in scheme ${goQuote(kubeletSchemeName(traits))}`, reason, true);
  }

  const isConfig = kind === CREDENTIAL_PROVIDER_CONFIG_KIND && group === KUBELET_CONFIG_GROUP;
  const type = isConfig ? credentialProviderConfigType(version, traits) : otherKindType(version, kind);
  const decoded = decodeInto(json, type, traits.strictDecoding);
  // For other kinds only TypeMeta is modelled: their own fields could hold type or strict errors. [U]
  const unmodelled = !isConfig && decoded.unknownFields.some((f) => f !== 'providers');
  if (decoded.error !== undefined) return fail(decoded.error, 'type');
  if (traits.strictDecoding) {
    const strictErrors = [...(yamlStrictError !== undefined ? [yamlStrictError] : []), ...decoded.strictErrors.filter((e) => isConfig || e === 'unknown field "providers"' || e.startsWith('duplicate field'))];
    if (strictErrors.length > 0) return fail(`strict decoding error: ${strictErrors.join(', ')}`, 'strict', unmodelled);
  }
  if (!isConfig) return fail(`failed to decode ${goQuote(kind)} (wrong Kind)`, 'kind', unmodelled);

  return {
    ok: true,
    config: toConfig(decoded.value, configFieldNames(version)),
    droppedFields: [...decoded.unknownFields],
    duplicateFields: [...yamlDuplicates, ...decoded.duplicateFields],
  };
}

/**
 * utilyaml.IsJSONBuffer: the first rune that is not unicode.IsSpace is '{'. Such data goes to
 * the JSON serializer only, with no YAML fallback.
 */
export function isJsonBuffer(bytes: Uint8Array): boolean {
  for (let i = 0; i < bytes.length; ) {
    const { rune, size } = decodeRune(bytes, i);
    if (!isGoSpace(rune) || size === 0) return rune === 0x7b;
    i += size;
  }
  return false;
}

/** unicode.IsSpace. */
function isGoSpace(r: number): boolean {
  if (r <= 0xff) return r === 0x09 || r === 0x0a || r === 0x0b || r === 0x0c || r === 0x0d || r === 0x20 || r === 0x85 || r === 0xa0;
  return r === 0x1680 || (r >= 0x2000 && r <= 0x200a) || r === 0x2028 || r === 0x2029 || r === 0x202f || r === 0x205f || r === 0x3000;
}

const FIND_KIND_TYPE = 'struct { APIVersion string "json:\\"apiVersion,omitempty\\""; Kind string "json:\\"kind,omitempty\\"" }';

/**
 * SimpleMetaFactory.Interpret: encoding/json into struct{APIVersion; Kind} (keys matched
 * case-insensitively, the last one winning; the first type error reported), then
 * schema.ParseGroupVersion.
 */
export function interpret(json: GoJson): { group: string; version: string; kind: string } | { error: Failure } {
  const typeError = (word: string, field?: string) => ({
    error: fail(
      `couldn't get version/kind; json parse error: json: cannot unmarshal ${word} into ${field === undefined ? `Go value of type ${FIND_KIND_TYPE}` : `Go struct field .${field} of type string`}`,
      'type',
    ),
  });
  let apiVersion = '';
  let kind = '';
  if (json.kind === 'object') {
    let firstError: { error: Failure } | undefined;
    for (const { key, value } of json.members) {
      const folded = goJsonFoldKey(key);
      const field = folded === 'APIVERSION' ? 'apiVersion' : folded === 'KIND' ? 'kind' : undefined;
      if (!field || value.kind === 'null') continue;
      if (value.kind !== 'string') {
        firstError ??= typeError(value.kind, field);
        continue;
      }
      if (field === 'kind') kind = value.value;
      else apiVersion = value.value;
    }
    if (firstError) return firstError;
  } else if (json.kind !== 'null') {
    return typeError(json.kind);
  }
  // schema.ParseGroupVersion
  if (apiVersion === '' || apiVersion === '/') return { group: '', version: '', kind };
  const slashes = apiVersion.split('/').length - 1;
  if (slashes === 0) return { group: '', version: apiVersion, kind };
  if (slashes > 1) return { error: fail(`unexpected GroupVersion string: ${apiVersion}`, 'version') };
  const [group, version] = apiVersion.split('/') as [string, string];
  return { group, version, kind };
}

/** The internal CredentialProviderConfig the conversion produces, in node-check's plain-data form. */
function toConfig(value: GoValue, n: ConfigFieldNames): CredentialProviderConfig {
  const root = asStruct(value);
  const providers = asList(root[n.providers]).map((p): CredentialProvider => {
    const provider = asStruct(p);
    const duration = provider[n.defaultCacheDuration];
    const token = provider[n.tokenAttributes];
    const tokenAttributes: ServiceAccountTokenAttributes | undefined =
      token === undefined || token === null
        ? undefined
        : (() => {
            const t = asStruct(token);
            const require = t[n.requireServiceAccount];
            return {
              serviceAccountTokenAudience: asString(t[n.serviceAccountTokenAudience]),
              ...(typeof require === 'boolean' ? { requireServiceAccount: require } : {}),
              requiredServiceAccountAnnotationKeys: asList(t[n.requiredServiceAccountAnnotationKeys]).map(asString),
              optionalServiceAccountAnnotationKeys: asList(t[n.optionalServiceAccountAnnotationKeys]).map(asString),
              cacheType: asString(t[n.cacheType]),
            };
          })();
    return {
      name: asString(provider[n.name]),
      matchImages: asList(provider[n.matchImages]).map(asString),
      ...(isDuration(duration) ? { defaultCacheDuration: duration.duration } : {}),
      apiVersion: asString(provider[n.apiVersion]),
      args: asList(provider[n.args]).map(asString),
      env: asList(provider[n.env]).map((e) => {
        const env = asStruct(e);
        return { name: asString(env[n.envName]), value: asString(env[n.envValue]) };
      }),
      ...(tokenAttributes ? { tokenAttributes } : {}),
    };
  });
  return { providers };
}

function asStruct(v: GoValue | undefined): { [field: string]: GoValue } {
  return typeof v === 'object' && v !== null && !Array.isArray(v) && !isDuration(v) ? v : {};
}

function asList(v: GoValue | undefined): GoValue[] {
  return Array.isArray(v) ? v : [];
}

function asString(v: GoValue | undefined): string {
  return typeof v === 'string' ? v : '';
}

function isDuration(v: GoValue | undefined): v is { readonly duration: bigint } {
  return typeof v === 'object' && v !== null && !Array.isArray(v) && typeof (v as { duration?: unknown }).duration === 'bigint';
}
