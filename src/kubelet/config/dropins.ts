/**
 * --config-dir drop-ins (KEP-3983), cmd/kubelet/app/server.go mergeKubeletConfigurations.
 *
 * 1.24-1.27: no --config-dir flag (flag parsing fails first: not decided here).
 * 1.28-1.29: kubelet refuses --config-dir unless the environment variable
 *   KUBELET_CONFIG_DROPIN_DIR_ALPHA is set (any value): RunE's os.LookupEnv, returning
 *   ENV_MISSING_TEXT unwrapped (cmd/kubelet/app/server.go at v1.28.15 and v1.29.15).
 * Every version walks the directory with filepath.WalkDir: each non-directory whose
 * filepath.Ext is ".conf", recursively, in lexical order (the caller gives the ordered list); a
 * load error is `failed to load kubelet dropin file, path: F, error: <err>`, and errors from the
 * walk are wrapped `failed to walk through kubelet dropin directory %q: %w` (server.go then adds
 * `failed to merge kubelet configs: `).
 * Two merge generations were read:
 *  - "internal" (mergeKubeletConfigurations in cmd/kubelet/app/server.go at v1.29.15-v1.31.14): the base is
 *    json.Marshal of the internal config (no json tags: Go field names), the drop-in is decoded
 *    into unstructured (only `kind` required), jsonpatch.MergePatch, then json.Unmarshal into the
 *    internal type (case-insensitive). Net effect: drop-in values override field by field,
 *    objects merge, arrays replace, null changes nothing; a type error names the Go field
 *    (`KubeletConfiguration.MaxPods`). [I: derived from the code]
 *  - "versioned" (server.go at v1.32.13-v1.37.2): the base is converted to v1beta1 (JSON names), the drop-in must be
 *    kubelet.config.k8s.io/v1beta1 KubeletConfiguration (`…, no apiVersion/kind`,
 *    `…, unknown apiVersion/kind: <gvk>`), a null removes the field (defaults then re-apply),
 *    json.Unmarshal into v1beta1 (type errors name `KubeletConfiguration.maxPods`), defaults.
 * The tags settle the generation per minor (internal to v1.31.14, versioned from v1.32.13), but
 * the model still treats 1.30-1.32 as not pinned: inputs on which the two differ are undecidable
 * there. 1.28.15's implementation (a mergeKubeletConfig per file) is not modelled: undecidable
 * when drop-ins exist (docs/unverified.md).
 */
import { goErrnoText } from '../../host/root-fs.js';
import { goQuote } from '../../go/quote.js';
import { goBytesToString } from '../../go/utf8.js';
import { KUBELET_CONFIG_FIELDS } from '../data/kubelet-config-fields.js';
import { DROPIN_INTERNAL_UNTIL, DROPIN_VERSIONED_FROM } from '../data/kubelet-config-validation.js';
import { decodeInto } from '../../credentials/typed-decode.js';
import { goValueToConfig, parseConfigData, KUBELET_CONFIG_GROUP, KUBELET_CONFIG_KIND, KUBELET_CONFIG_VERSION, type KubeletConfigObject } from './decode.js';
import { kubeletConfigurationType } from './go-types.js';
import { isModelledMinor, MODELLED_RANGE } from '../data/minors.js';

export const DROPIN_ENV = 'KUBELET_CONFIG_DROPIN_DIR_ALPHA';

export interface DropIn {
  readonly path: string;
  readonly content: Buffer | { readonly errno: string };
}

export type MergeResult =
  | {
      readonly ok: true;
      readonly config: KubeletConfigObject;
      /** Drop-in fields that are not v1beta1 fields, as "<file>: <field>" (json.Unmarshal ignores them). */
      readonly ignoredFields: string[];
    }
  | {
      readonly ok: false;
      readonly reason: 'env-missing' | 'dropin-invalid' | 'merge';
      /** The error kubelet wraps as `failed to merge kubelet configs: <this>` (env-missing: the whole error). */
      readonly error: string;
      /** The drop-in file at fault. */
      readonly path?: string;
      readonly inexact?: true;
    }
  | { readonly undecidable: string };

/** cmd/kubelet/app/server.go v1.28.15/v1.29.15 RunE: `fmt.Errorf("flag %s specified but environment variable KUBELET_CONFIG_DROPIN_DIR_ALPHA not set, cannot start kubelet", kubeletFlags.KubeletDropinConfigDirectory)`. */
export const ENV_MISSING_TEXT = (dir: string) => `flag ${dir} specified but environment variable ${DROPIN_ENV} not set, cannot start kubelet`;

/**
 * Merges the ordered drop-ins onto `base` (the loaded --config, or the defaults when there is
 * none) for kubelet 1.<minor>. `env` is kubelet's environment; `dir` the --config-dir value.
 */
export function mergeConfigDropIns(
  minor: number,
  base: KubeletConfigObject,
  dropIns: readonly DropIn[],
  env: Readonly<Record<string, string>>,
  dir = '',
): MergeResult {
  const fields = KUBELET_CONFIG_FIELDS[minor];
  if (!fields || !isModelledMinor(minor)) return { undecidable: `kubelet 1.${minor} is outside the modelled minors ${MODELLED_RANGE}` };
  if (minor < 28) return { undecidable: `kubelet 1.${minor} has no --config-dir flag (flag parsing fails before drop-ins)` };
  if (minor <= 29 && !(DROPIN_ENV in env)) {
    return { ok: false, reason: 'env-missing', error: ENV_MISSING_TEXT(dir) };
  }
  if (minor === 28 && dropIns.length > 0) return { undecidable: 'kubelet 1.28 merged drop-ins with its first implementation, which node-check does not model' };

  const walk = (inner: string) => `failed to walk through kubelet dropin directory ${goQuote(dir)}: ${inner}`;
  const fileError = (path: string, inner: string, inexact = false): MergeResult => ({
    ok: false,
    reason: 'dropin-invalid',
    path,
    error: walk(`failed to load kubelet dropin file, path: ${path}, error: ${inner}`),
    ...(inexact ? { inexact: true as const } : {}),
  });

  let merged: Record<string, unknown> = { ...base };
  const ignoredFields: string[] = [];
  for (const dropIn of dropIns) {
    const { path, content } = dropIn;
    if (!Buffer.isBuffer(content)) {
      return fileError(path, `failed to read drop-in kubelet config file ${goQuote(path)}, error: open ${path}: ${goErrnoText(content.errno)}`, true);
    }
    if (content.length === 0) return fileError(path, `kubelet config file ${goQuote(path)} was empty`, true);
    const parsed = parseConfigData(minor, content);
    if (!parsed.ok) return fileError(path, parsed.error, true);
    const { gvk, json } = parsed;
    // A drop-in with a key twice: the real 1.34.12 refuses it (DecodeKubeletConfigurationIntoJSON's
    // strict YAML: `strict decoding error: yaml: unmarshal errors: … key "maxPods" already set in map`,
    // config-validation probe, test/probe/config-validation/1.34.json dropin/duplicate-field); the
    // minors that do, and the exact text, are not pinned: cannot tell (docs/unverified.md).
    if (parsed.duplicates.length > 0 || parsed.yamlStrict.length > 0) {
      return { undecidable: `${path} sets ${[...parsed.duplicates, ...parsed.yamlStrict].slice(0, 3).join(', ')} more than once or not strictly; kubelet 1.34 refuses such a drop-in, and the minors that do are not pinned` };
    }
    if (gvk.kind === '') return fileError(path, `Object 'Kind' is missing in '${goBytesToString(content)}'`, true);
    const rightGvk = gvk.group === KUBELET_CONFIG_GROUP && gvk.version === KUBELET_CONFIG_VERSION && gvk.kind === KUBELET_CONFIG_KIND;
    const generation = minor <= DROPIN_INTERNAL_UNTIL ? 'internal' : minor >= DROPIN_VERSIONED_FROM ? 'versioned' : undefined;
    if (!rightGvk && generation === undefined) {
      return { undecidable: `${path} is not a kubelet.config.k8s.io/v1beta1 KubeletConfiguration; whether kubelet 1.${minor} checks drop-in apiVersion/kind is not pinned` };
    }
    if (!rightGvk && generation === 'versioned') {
      // GroupVersionKind.String(): "group/version, Kind=kind" (an empty group leaves the "/").
      return {
        ok: false,
        reason: 'dropin-invalid',
        path,
        error: walk(`failed to load kubelet dropin file, path: ${path}, unknown apiVersion/kind: ${gvk.group}/${gvk.version}, Kind=${gvk.kind}`),
        ...(gvk.version === '' ? { inexact: true as const } : {}),
      };
    }
    if (json.kind !== 'object') continue;
    // The final json.Unmarshal (non-strict): into the internal type (Go field names, 1.29) or
    // into v1beta1 (JSON names). Unknown fields are ignored.
    const typed = decodeInto(json, kubeletConfigurationType(minor)!, false);
    if (typed.error !== undefined) {
      const text = generation === 'versioned' ? typed.error : typed.error.replace(/(Go struct field \w+\.)(\w)/, (_m, pre: string, c: string) => `${pre}${c.toUpperCase()}`);
      return { ok: false, reason: 'merge', path, error: `failed to unmarshal merged JSON into kubelet configuration: ${text}`, ...(generation === 'versioned' ? {} : { inexact: true as const }) };
    }
    ignoredFields.push(...typed.unknownFields.map((f) => `${path}: ${f}`));
    const values = goValueToConfig(typed.value);
    for (const { key, value } of json.members) {
      if (key === 'kind' || key === 'apiVersion' || !(key in fields)) continue;
      if (value.kind === 'null') {
        // internal: the patch deletes a key the base (Go names) does not have; versioned: the field is reset.
        if (generation === undefined && key in merged) return { undecidable: `${path} sets ${key} to null; whether that resets it on kubelet 1.${minor} is not pinned` };
        if (generation === 'versioned') delete merged[key];
        continue;
      }
      merged[key] = mergeValue(merged[key], values[key]);
    }
  }
  return { ok: true, config: merged, ignoredFields };
}

/** Objects merge key by key (structs and maps); everything else replaces. */
function mergeValue(base: unknown, patch: unknown): unknown {
  if (isObject(base) && isObject(patch)) {
    const out: Record<string, unknown> = { ...base };
    for (const [k, v] of Object.entries(patch)) {
      if (v === null) continue;
      out[k] = mergeValue(out[k], v);
    }
    return out;
  }
  return patch;
}

function isObject(v: unknown): v is Record<string, unknown> {
  return typeof v === 'object' && v !== null && !Array.isArray(v);
}
