/**
 * The runtime.Scheme kubelet decodes credential provider configs with
 * (kubernetes/kubernetes pkg/credentialprovider/plugin/plugin.go init()):
 *   install.Install(scheme)                         credentialprovider.kubelet.k8s.io (+ metav1.AddToGroupVersion)
 *   kubeletconfig.AddToScheme(scheme)               kubelet.config.k8s.io/__internal
 *   kubeletconfigv1alpha1/v1beta1/v1.AddToScheme    kubelet.config.k8s.io/v1alpha1, v1beta1, v1 (v1 from 1.26)
 * and the Go types of CredentialProviderConfig in each version (k8s.io/kubelet/config/*,
 * pkg/kubelet/apis/config types.go), which decide field names, strictness and type errors.
 */
import type { KubeletTraits } from '../kubelet/version.js';
import type { GoField, GoType } from './typed-decode.js';

export const KUBELET_CONFIG_GROUP = 'kubelet.config.k8s.io';
export const CREDENTIAL_PROVIDER_GROUP = 'credentialprovider.kubelet.k8s.io';
export const INTERNAL_VERSION = '__internal';
export const CREDENTIAL_PROVIDER_CONFIG_KIND = 'CredentialProviderConfig';

/**
 * runtime.NewScheme() names itself after its call site, "pkg/credentialprovider/plugin/plugin.go:<line>"
 * in a vendored (release) build. The line is known where a kubelet log of that minor shows it
 * (traits.schemeLine: 56 in 1.25); otherwise messages carry "…" for it. Either way the text is
 * marked inexact: a module-mode build names "pkg/runtime/scheme.go:<line>" instead (decode.ts). [U]
 */
export function kubeletSchemeName(traits: Pick<KubeletTraits, 'schemeLine'>): string {
  return `pkg/credentialprovider/plugin/plugin.go:${traits.schemeLine ?? '…'}`;
}

/** Kinds metav1.AddToGroupVersion registers as unversioned: decodable under any group/version. */
const UNVERSIONED_KINDS = ['Status', 'APIVersions', 'APIGroupList', 'APIGroup', 'APIResourceList'];

/** metav1.AddToGroupVersion adds these to each credentialprovider.kubelet.k8s.io version. [I for v1alpha1/v1beta1] */
const META_OPTION_KINDS = ['WatchEvent', 'ListOptions', 'GetOptions', 'DeleteOptions', 'CreateOptions', 'UpdateOptions', 'PatchOptions'];

/**
 * The kinds registered for group/version in this kubelet; undefined when the version is not.
 * kubelet.config.k8s.io/v1 and credentialprovider.kubelet.k8s.io/v1 exist from 1.26; the image
 * pull records (KEP-2535) from 1.33 in v1alpha1 and from 1.35 also in v1beta1 (kubernetes/kubelet
 * register.go at the tags; see the traits table).
 */
export function registeredKinds(group: string, version: string, traits: KubeletTraits): readonly string[] | undefined {
  const imagePullRecords = (v: string) => (traits.imagePullRecordVersions.includes(v) ? ['ImagePullIntent', 'ImagePulledRecord'] : []);
  if (group === KUBELET_CONFIG_GROUP) {
    if (version === INTERNAL_VERSION) {
      return ['KubeletConfiguration', 'SerializedNodeConfigSource', CREDENTIAL_PROVIDER_CONFIG_KIND, ...(traits.imagePullRecordVersions.length > 0 ? ['ImagePullIntent', 'ImagePulledRecord'] : [])];
    }
    if (!traits.configApiVersions.includes(version)) return undefined;
    const kubeletConfiguration = version === 'v1beta1' ? ['KubeletConfiguration', 'SerializedNodeConfigSource'] : [];
    return [...kubeletConfiguration, CREDENTIAL_PROVIDER_CONFIG_KIND, ...imagePullRecords(version)];
  }
  if (group === CREDENTIAL_PROVIDER_GROUP) {
    if (version === INTERNAL_VERSION) return ['CredentialProviderRequest', 'CredentialProviderResponse', 'WatchEvent'];
    if (!traits.execApiVersions.includes(`${CREDENTIAL_PROVIDER_GROUP}/${version}`)) return undefined;
    return ['CredentialProviderRequest', 'CredentialProviderResponse', ...META_OPTION_KINDS];
  }
  return undefined;
}

/** scheme.New(gvk) succeeds: a registered kind, or an unversioned one under any version. */
export function isRegistered(group: string, version: string, kind: string, traits: KubeletTraits): boolean {
  if (UNVERSIONED_KINDS.includes(kind)) return true;
  return registeredKinds(group, version, traits)?.includes(kind) ?? false;
}

export function isKnownGroup(group: string): boolean {
  return group === KUBELET_CONFIG_GROUP || group === CREDENTIAL_PROVIDER_GROUP;
}

/** The json names of CredentialProviderConfig's fields: tags in the versioned types, Go names in the internal one. */
export interface ConfigFieldNames {
  readonly providers: string;
  readonly name: string;
  readonly matchImages: string;
  readonly defaultCacheDuration: string;
  readonly apiVersion: string;
  readonly args: string;
  readonly env: string;
  readonly envName: string;
  readonly envValue: string;
  readonly tokenAttributes: string;
  readonly serviceAccountTokenAudience: string;
  readonly cacheType: string;
  readonly requireServiceAccount: string;
  readonly requiredServiceAccountAnnotationKeys: string;
  readonly optionalServiceAccountAnnotationKeys: string;
}

const VERSIONED_NAMES: ConfigFieldNames = {
  providers: 'providers',
  name: 'name',
  matchImages: 'matchImages',
  defaultCacheDuration: 'defaultCacheDuration',
  apiVersion: 'apiVersion',
  args: 'args',
  env: 'env',
  envName: 'name',
  envValue: 'value',
  tokenAttributes: 'tokenAttributes',
  serviceAccountTokenAudience: 'serviceAccountTokenAudience',
  cacheType: 'cacheType',
  requireServiceAccount: 'requireServiceAccount',
  requiredServiceAccountAnnotationKeys: 'requiredServiceAccountAnnotationKeys',
  optionalServiceAccountAnnotationKeys: 'optionalServiceAccountAnnotationKeys',
};

// The internal types have no json tags, so encoding/json matches the Go field names.
const INTERNAL_NAMES: ConfigFieldNames = {
  providers: 'Providers',
  name: 'Name',
  matchImages: 'MatchImages',
  defaultCacheDuration: 'DefaultCacheDuration',
  apiVersion: 'APIVersion',
  args: 'Args',
  env: 'Env',
  envName: 'Name',
  envValue: 'Value',
  tokenAttributes: 'TokenAttributes',
  serviceAccountTokenAudience: 'ServiceAccountTokenAudience',
  cacheType: 'CacheType',
  requireServiceAccount: 'RequireServiceAccount',
  requiredServiceAccountAnnotationKeys: 'RequiredServiceAccountAnnotationKeys',
  optionalServiceAccountAnnotationKeys: 'OptionalServiceAccountAnnotationKeys',
};

export function configFieldNames(version: string): ConfigFieldNames {
  return version === INTERNAL_VERSION ? INTERNAL_NAMES : VERSIONED_NAMES;
}

const STRING: GoType = { kind: 'string', name: 'string' };
const STRINGS: GoType = { kind: 'slice', elem: STRING };
const TYPE_META: readonly GoField[] = [
  { json: 'kind', type: STRING },
  { json: 'apiVersion', type: STRING },
];

/**
 * The Go type of CredentialProviderConfig that kubelet of this version decodes a file of this
 * version into. tokenAttributes exists only in kubelet.config.k8s.io/v1 (and the internal type)
 * from 1.33, cacheType from 1.34 (staging k8s.io/kubelet tags v0.33.0, v0.34.0).
 */
export function credentialProviderConfigType(version: string, traits: KubeletTraits): GoType {
  const internal = version === INTERNAL_VERSION;
  const pkg = internal ? 'config' : version;
  const n = configFieldNames(version);
  const struct = (name: string, fields: readonly GoField[]): GoType => ({ kind: 'struct', pkg, name, fields });
  const execEnvVar = struct('ExecEnvVar', [
    { json: n.envName, type: STRING },
    { json: n.envValue, type: STRING },
  ]);
  const providerFields: GoField[] = [
    { json: n.name, type: STRING },
    { json: n.matchImages, type: STRINGS },
    { json: n.defaultCacheDuration, type: { kind: 'ptr', elem: { kind: 'duration' } } },
    { json: n.apiVersion, type: STRING },
    { json: n.args, type: STRINGS },
    { json: n.env, type: { kind: 'slice', elem: execEnvVar } },
  ];
  if ((version === 'v1' || internal) && traits.tokenAttributes !== 'absent') {
    const tokenFields: GoField[] = [{ json: n.serviceAccountTokenAudience, type: STRING }];
    if (traits.tokenAttributes === 'with-cache-type') {
      tokenFields.push({ json: n.cacheType, type: { kind: 'string', name: `${pkg}.ServiceAccountTokenCacheType` } });
    }
    tokenFields.push(
      { json: n.requireServiceAccount, type: { kind: 'ptr', elem: { kind: 'bool' } } },
      { json: n.requiredServiceAccountAnnotationKeys, type: STRINGS },
      { json: n.optionalServiceAccountAnnotationKeys, type: STRINGS },
    );
    providerFields.push({ json: n.tokenAttributes, type: { kind: 'ptr', elem: struct('ServiceAccountTokenAttributes', tokenFields) } });
  }
  const provider = struct('CredentialProvider', providerFields);
  return struct(CREDENTIAL_PROVIDER_CONFIG_KIND, [...TYPE_META, { json: n.providers, type: { kind: 'slice', elem: provider } }]);
}

/**
 * Any other registered kind, modelled only as far as node-check needs: its TypeMeta. None of
 * them has a "providers" field; their other fields are not modelled.
 */
export function otherKindType(version: string, kind: string): GoType {
  return { kind: 'struct', pkg: version === INTERNAL_VERSION ? 'config' : version, name: kind, fields: TYPE_META };
}
