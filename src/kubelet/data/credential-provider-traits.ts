/**
 * What kubelet of each minor version 1.24-1.37 does while registering image credential providers,
 * as data: one row per minor. `traitsFor()` in ../version.ts reads this table and nothing else;
 * a minor without a row is not modelled (undefined, never a neighbour's row).
 *
 * PROVENANCE (how each column was pinned; [V] read at the tag / in a dated source, [I] inferred):
 * - pluginBinaryCheck: os.Stat <=1.29, exec.LookPath 1.30+ (PR #120291, CHANGELOG-1.30 v1.30.0-alpha.1) [V changelog].
 * - strictDecoding: PR #128062, CHANGELOG-1.32 v1.32.0-alpha.2 [V changelog].
 * - configMayBeDirectory: PR #131658, CHANGELOG-1.34 v1.34.0-alpha.1 [V changelog].
 * - duplicateProviderNames / tokenAttributes / requiredErrorsHaveDetail /
 *   supportedValuesSorted: kubernetes/kubernetes pkg/credentialprovider/plugin/config.go and
 *   pkg/features/kube_features.go at the tags of scripts/generate/kubernetes-source.lock.json
 *   (e.g. the tokenAttributes rules from v1.33.13, duplicate names found across files from v1.34.12).
 * - fieldValueStyle 'json' and the short negative-duration detail from 1.34: apimachinery tag
 *   v0.34.0 pkg/util/validation/field/errors.go ErrorBody json.Marshal's non-simple values
 *   ("Nicer value rendering in API errors", kubernetes PR #132314, in v0.33.0..v0.34.0) [V tag];
 *   kubelet's config.go passes `provider.DefaultCacheDuration` (a *metav1.Duration, so "-1m0s")
 *   with "must be greater than or equal to 0" in the version that also has the config hash
 *   (config.go at v1.34.12-v1.37.2; no hash at v1.33.13); the hash is PR #133016 [V tag].
 * - qualifiedNameWording: apimachinery v0.35.0 `IsQualifiedName = content.IsLabelKey` ("a valid
 *   label key", MaxLenError "bytes"); v0.34.0 still "a qualified name", "characters" [V tag].
 * - sigsYamlVersion: kubernetes/kubelet go.mod at v0.25.0 .. v0.36.0 (v0.24.0 lists none; its
 *   apimachinery v0.24.0 requires v1.2.0) [V tag]. No release of sigs.k8s.io/yaml wraps
 *   YAMLToJSON's errors (commit 3f79f32 "Revert error message changes" precedes tag v1.4.0;
 *   err_test.go pins "yaml: line 1: " and "yaml: unmarshal errors:") [V tag].
 * - configApiVersions / execApiVersions: kubernetes/kubelet tags: config/v1 and
 *   pkg/apis/credentialprovider/v1 first exist at v0.26.0; v0.25.0 has v1alpha1 and v1beta1 only
 *   (install.go registers v1alpha1, v1beta1) [V tag]. A 1.25 kubelet log with exactly that error:
 *   kubernetes-sigs/cluster-api-provider-azure#4110 (2023-11-15) [V].
 * - imagePullRecordVersions: kubernetes/kubelet config/v1alpha1/register.go has ImagePullIntent and
 *   ImagePulledRecord from v0.33.0, config/v1beta1/register.go from v0.35.0 [V tag].
 * - schemeLine: runtime.NewScheme() names the scheme after its call site; "plugin.go:56" in the
 *   1.25 log above [V for one 1.25 patch release]; other minors unknown.
 * - credentialProvidersGate (KubeletCredentialProviders): beta, on by default in 1.24-1.25
 *   (pkg/features/kube_features.go at v1.24.17, v1.25.16); GA and locked 1.26-1.27 ("remove in 1.28",
 *   at v1.26.15, v1.27.16); gone at v1.28.15 (PR #116901). With the gate off,
 *   pkg/kubelet/kuberuntime/kuberuntime_manager.go (v1.24.17, v1.25.16) logs "Flags … were set but
 *   the feature gate was disabled, these flags will be ignored" and registers nothing [V tag].
 * - inTreeProviderNames: names registered by init() in kubelet's global registry before any plugin,
 *   unconditionally (DisableKubeletCloudCredentialProviders only switches Enabled()/Provide() off;
 *   it does not stop registration): ".dockercfg" (pkg/credentialprovider/provider.go);
 *   "amazon-ecr" (pkg/credentialprovider/aws/aws_credentials.go, present at v1.24.17-v1.26.15,
 *   removed by PR #116329); "azure" (pkg/credentialprovider/azure/azure_credentials.go,
 *   v1.24.17-v1.29.15, removed by PR #122857); "google-dockercfg", "google-dockercfg-url",
 *   "google-container-registry" (pkg/credentialprovider/gcp/metadata.go, v1.24.17-v1.30.14,
 *   removed by PR #124519). Linked through cmd/kubelet/app/plugins_providers.go (`!providerless`
 *   builds, which official builds are; the file exists at v1.24.17-v1.30.14) [V tag]. From 1.33 plugins
 *   have their own registry (pkg/credentialprovider/plugin/plugins.go), so nothing clashes.
 */
import type { KubeletTraits } from '../version.js';

const GCP = ['google-container-registry', 'google-dockercfg', 'google-dockercfg-url'];
const EXEC_V1 = 'credentialprovider.kubelet.k8s.io/v1';
const EXEC_V1ALPHA1 = 'credentialprovider.kubelet.k8s.io/v1alpha1';
const EXEC_V1BETA1 = 'credentialprovider.kubelet.k8s.io/v1beta1';

/** Columns shared by a generation, overridden per row below. */
const G1: Omit<KubeletTraits, 'minor'> = {
  pluginBinaryCheck: 'stat',
  strictDecoding: false,
  configMayBeDirectory: false,
  duplicateProviderNames: 'fatal-at-registration',
  tokenAttributes: 'absent',
  requiredErrorsHaveDetail: true,
  supportedValuesSorted: false,
  fieldValueStyle: 'go',
  negativeDurationDetail: 'defaultCacheDuration must be greater than or equal to 0',
  qualifiedNameWording: 'qualified-name',
  configDir: 'absent',
  configApiVersions: ['v1', 'v1alpha1', 'v1beta1'],
  execApiVersions: [EXEC_V1, EXEC_V1ALPHA1, EXEC_V1BETA1],
  imagePullRecordVersions: [],
  inTreeProviderNames: ['.dockercfg', 'azure', ...GCP],
  credentialProvidersGate: 'removed',
  sigsYamlVersion: '1.3.0',
  inferred: [],
};

const G4: Omit<KubeletTraits, 'minor'> = {
  ...G1,
  pluginBinaryCheck: 'lookpath',
  strictDecoding: true,
  duplicateProviderNames: 'validation',
  tokenAttributes: 'without-cache-type',
  supportedValuesSorted: true,
  configDir: 'supported',
  imagePullRecordVersions: ['v1alpha1'],
  inTreeProviderNames: [],
  sigsYamlVersion: '1.4.0',
};

const G5: Omit<KubeletTraits, 'minor'> = {
  ...G4,
  configMayBeDirectory: true,
  duplicateProviderNames: 'merge',
  tokenAttributes: 'with-cache-type',
  requiredErrorsHaveDetail: false,
  fieldValueStyle: 'json',
  negativeDurationDetail: 'must be greater than or equal to 0',
  sigsYamlVersion: '1.6.0',
};

const ROWS: readonly KubeletTraits[] = [
  {
    ...G1,
    minor: 24,
    configApiVersions: ['v1alpha1', 'v1beta1'],
    execApiVersions: [EXEC_V1ALPHA1, EXEC_V1BETA1],
    inTreeProviderNames: ['.dockercfg', 'amazon-ecr', 'azure', ...GCP],
    credentialProvidersGate: 'beta',
    sigsYamlVersion: '1.2.0',
    // config.go/plugin.go of 1.24 were not read: validation, messages and the scheme's versions
    // are taken from 1.25 and the v0.24.0 staging types; sigs.k8s.io/yaml from apimachinery v0.24.0.
    inferred: ['requiredErrorsHaveDetail', 'negativeDurationDetail', 'credentialProvidersGate', 'configApiVersions', 'execApiVersions', 'sigsYamlVersion'],
  },
  {
    ...G1,
    minor: 25,
    configApiVersions: ['v1alpha1', 'v1beta1'],
    execApiVersions: [EXEC_V1ALPHA1, EXEC_V1BETA1],
    inTreeProviderNames: ['.dockercfg', 'amazon-ecr', 'azure', ...GCP],
    credentialProvidersGate: 'beta',
    sigsYamlVersion: '1.2.0',
    schemeLine: 56,
  },
  { ...G1, minor: 26, inTreeProviderNames: ['.dockercfg', 'amazon-ecr', 'azure', ...GCP], credentialProvidersGate: 'ga-locked' },
  { ...G1, minor: 27, credentialProvidersGate: 'ga-locked' },
  { ...G1, minor: 28, configDir: 'alpha-env' },
  { ...G1, minor: 29, configDir: 'alpha-env' },
  { ...G1, minor: 30, pluginBinaryCheck: 'lookpath', configDir: 'supported', inTreeProviderNames: ['.dockercfg', ...GCP] },
  { ...G1, minor: 31, pluginBinaryCheck: 'lookpath', configDir: 'supported', inTreeProviderNames: ['.dockercfg'], sigsYamlVersion: '1.4.0' },
  { ...G1, minor: 32, pluginBinaryCheck: 'lookpath', strictDecoding: true, configDir: 'supported', inTreeProviderNames: ['.dockercfg'], sigsYamlVersion: '1.4.0' },
  { ...G4, minor: 33 },
  { ...G5, minor: 34 },
  { ...G5, minor: 35, qualifiedNameWording: 'label-key', imagePullRecordVersions: ['v1alpha1', 'v1beta1'] },
  // 1.36: the "Changelog since v1.35.0" has no credential-provider entry; kubernetes/kubelet
  // config/v1*, config/v1beta1/register.go and pkg/apis/credentialprovider are unchanged
  // v0.35.0 -> v0.36.0, and apimachinery's IsLabelKey, json serializer and the ErrorBody cases
  // kubelet uses are unchanged v0.35.0 -> v0.36.0 (git diff of the tags).
  { ...G5, minor: 36, qualifiedNameWording: 'label-key', imagePullRecordVersions: ['v1alpha1', 'v1beta1'] },
  // 1.37: pkg/credentialprovider/plugin/{plugin,config,plugins}.go are identical v1.36.5 -> v1.37.2;
  // k8s.io/kubelet config/ and pkg/apis/credentialprovider v0.36.5 -> v0.37.2 change only the
  // TypeMeta tag (`json:",inline"` -> `json:""`, inlined alike) and add defaultPodSysctls to
  // KubeletConfiguration; sigs.k8s.io/yaml stays v1.6.0 (go.mod); apimachinery's
  // pkg/util/validation/field changes only the short-circuit marks (diff of the tags).
  { ...G5, minor: 37, qualifiedNameWording: 'label-key', imagePullRecordVersions: ['v1alpha1', 'v1beta1'] },
];

export const CREDENTIAL_PROVIDER_TRAITS: ReadonlyMap<number, KubeletTraits> = new Map(ROWS.map((row) => [row.minor, row]));
