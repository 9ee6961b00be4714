/**
 * Version boundaries for kubelet's config loading, drop-in merging and ValidateKubeletConfiguration,
 * with the copies of kubelet's source they come from. Code in src/kubelet/config/* reads these.
 *
 * A minor is identified by content: fields and rules present or absent compared with the tagged
 * kubernetes/kubelet staging types (config/v1beta1/types.go at v0.<minor>.0).
 */
export const PROVENANCE = {
  validation: [
    { copy: 'pohly/kubernetes@8009c7380f67904b29d750cc7a19622167e1e07a pkg/kubelet/apis/config/validation/validation.go', minor: '~1.24/1.25 (no featureGate parameter, kc.Logging.ValidateAsField, TopologyManager gate checks, no maxParallelImagePulls rule)' },
    { copy: 'kubernetes/kubernetes v1.30.14 pkg/kubelet/apis/config/validation/validation.go', minor: '1.30 (podLogsDir, containerLogMaxWorkers, NoSwap; no failCgroupV1 rule in this file)' },
    { copy: 'kubernetes/kubernetes v1.29.15 and v1.30.14 pkg/kubelet/apis/config/validation/validation_test.go', minor: '1.29/1.30: expected messages, metav1.Duration printed as {200ms}' },
    { copy: 'openshift/kubernetes@4efe65b53215e070d53226d6d469541d7a9664ba validation.go', minor: 'OpenShift ~1.30/1.31 (podLogsDir, KubeletTracing gate check, no crashLoopBackOff rule) with the -compressible carry' },
    { copy: 'kubernetes/kubernetes@001332b0422071acf4860769f18e34b5e9b7c1bc validation.go', minor: '1.37-dev (runOnce, draManagerReconcilePeriod, memoryReservationPolicy rules)' },
    { copy: 'kubernetes/kubernetes v1.31.14..v1.37.2 pkg/kubelet/apis/config/validation/validation_linux.go', minor: '1.31-1.34 and 1.35+ failCgroupV1 texts' },
    { copy: 'kubernetes/kubernetes v1.34.12 pkg/kubelet/apis/config/validation/validation.go', minor: '1.34 crashLoopBackOff / imagePullCredentialsVerificationPolicy gate texts' },
  ],
  loading: [
    { copy: 'kubernetes/kubernetes v1.24.17..v1.37.2 pkg/kubelet/kubeletconfig/configfiles/configfiles.go, pkg/kubelet/kubeletconfig/util/codec/codec.go', minor: 'all: fsLoader.Load and DecodeKubeletConfiguration texts' },
    { copy: 'kubernetes/kubernetes v1.27.16 and v1.28.15 cmd/kubelet/app/server.go (PR #119390)', minor: '1.28: wrapper changed to "failed to load kubelet config file, path: P, error: E"' },
  ],
  dropIns: [
    { copy: 'kubernetes/kubernetes v1.29.15..v1.31.14 cmd/kubelet/app/server.go', minor: '1.29-1.31: merge over the internal type' },
    { copy: 'openshift/kubernetes@02a40c20328dabc523ff3598a434a216e4d26085 cmd/kubelet/app/server.go', minor: '>=1.33 (MergeDefaultEvictionSettings, watchdog): versioned merge with GVK checks' },
    { copy: 'kubernetes/kubernetes@001332b0422071acf4860769f18e34b5e9b7c1bc cmd/kubelet/app/server.go', minor: '1.37-dev: same as above, plus skipped-file logging' },
  ],
} as const;

/** The minor whose validation.go was read in full. */
export const VALIDATION_VERIFIED_MINOR = 30;

/**
 * First upstream minor that validates the -compressible enforceNodeAllocatable values: the
 * `for _, val := range kc.EnforceNodeAllocatable` block of pkg/kubelet/apis/config/validation/
 * validation.go is the same at v1.32.13 and v1.36.5 and differs at v1.31.14; the real 1.34.12 binary
 * prints its "or \"system-reserved-compressible\" included in" text (config-validation probe).
 */
export const UPSTREAM_COMPRESSIBLE_FIRST_MINOR = 32;
/** First OpenShift minor taken to carry them (the fork copy is ~1.30/1.31: 1.30 stays undecidable). */
export const OPENSHIFT_COMPRESSIBLE_FIRST_MINOR = 31;

/** Drop-in merge generations: internal up to here, versioned from VERSIONED_FROM; between: unknown. */
export const DROPIN_INTERNAL_UNTIL = 29;
export const DROPIN_VERSIONED_FROM = 33;
