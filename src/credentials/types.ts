/**
 * Kubelet's internal CredentialProviderConfig (pkg/kubelet/apis/config/types.go) after decoding,
 * whatever the file's apiVersion was. Plain data.
 */

export interface ExecEnvVar {
  readonly name: string;
  readonly value: string;
}

export interface ServiceAccountTokenAttributes {
  readonly serviceAccountTokenAudience: string;
  /** undefined when absent (validation: Required). */
  readonly requireServiceAccount?: boolean;
  readonly requiredServiceAccountAnnotationKeys: readonly string[];
  readonly optionalServiceAccountAnnotationKeys: readonly string[];
  /** "" when absent; only decoded by kubelet 1.34+. */
  readonly cacheType: string;
}

export interface CredentialProvider {
  readonly name: string;
  readonly matchImages: readonly string[];
  /** Go time.Duration in nanoseconds; undefined when absent (validation: Required). */
  readonly defaultCacheDuration?: bigint;
  /** The exec API version, e.g. "credentialprovider.kubelet.k8s.io/v1". */
  readonly apiVersion: string;
  readonly args: readonly string[];
  readonly env: readonly ExecEnvVar[];
  /** Only decoded by kubelet 1.33+ from kubelet.config.k8s.io/v1 files. */
  readonly tokenAttributes?: ServiceAccountTokenAttributes;
}

export interface CredentialProviderConfig {
  readonly providers: readonly CredentialProvider[];
}

/** One apimachinery field.Error. */
export interface FieldError {
  readonly type: 'Required' | 'Invalid' | 'NotSupported' | 'Duplicate' | 'Forbidden';
  /** Unindexed, as kubelet reports it: "providers.name". */
  readonly field: string;
  /** The rendered bad value, already in the version's style (see formatValidationErrors). */
  readonly value?: string;
  readonly detail: string;
}
