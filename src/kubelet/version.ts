/**
 * Kubelet versions and the credential-provider behaviour each one has.
 *
 * Everything node-check predicts is keyed by the kubelet minor version. The table below is the
 * one place that says which behaviour starts where; its sources are in
 * shared/research/kubelet-credential-provider.md (§0 generations G1-G6, §2, §3).
 */

export interface KubeletVersion {
  readonly major: number;
  readonly minor: number;
  readonly patch: number;
  /** As given, e.g. "v1.28.7+5f5f6b3". */
  readonly raw: string;
}

/**
 * Oldest and newest minor whose rules node-check models: every released minor from 1.24 to 1.36
 * (the kubernetes/kubelet and component-base tags read stop at v0.37.0-beta.0, so 1.37 is not
 * released as far as node-check's sources know). A version outside this range gets no answer
 * (null, exit 2), never a neighbour's rules.
 */
export const OLDEST_MODELLED_MINOR = 24;
export const NEWEST_MODELLED_MINOR = 36;
export const MODELLED_MINORS: readonly number[] = Array.from(
  { length: NEWEST_MODELLED_MINOR - OLDEST_MODELLED_MINOR + 1 },
  (_, i) => OLDEST_MODELLED_MINOR + i,
);

/** Parses "1.28.7", "v1.28.7", "v1.28.7+abc", "v1.30.0-rc.1" and "Kubernetes v1.28.7". */
export function parseKubeletVersion(text: string): KubeletVersion | undefined {
  const match = /(?:^|\s)v?(\d+)\.(\d+)(?:\.(\d+))?([-+][0-9A-Za-z.+-]*)?\s*$/.exec(text.trim());
  if (!match) return undefined;
  const [, major, minor, patch] = match;
  if (Number(major) !== 1) return undefined;
  return { major: 1, minor: Number(minor), patch: Number(patch ?? 0), raw: text.trim().replace(/^Kubernetes\s+/, '') };
}

export function isModelledMinor(minor: number): boolean {
  return Number.isInteger(minor) && minor >= OLDEST_MODELLED_MINOR && minor <= NEWEST_MODELLED_MINOR;
}

export function formatVersion(v: KubeletVersion): string {
  return `${v.major}.${v.minor}.${v.patch}`;
}

/** What kubelet of one minor version does while registering credential providers. */
export interface KubeletTraits {
  readonly minor: number;
  /** G1 (1.26-1.29) os.Stat: existence only. 1.30+ exec.LookPath: not a directory, exec bit (PR #120291). */
  readonly pluginBinaryCheck: 'stat' | 'lookpath';
  /** 1.32+: unknown and duplicate fields are decoding errors (PR #128062). Before: silently dropped. */
  readonly strictDecoding: boolean;
  /** 1.34+: --image-credential-provider-config may be a directory (PR #131658). */
  readonly configMayBeDirectory: boolean;
  /**
   * Where a duplicate provider name is caught. <=1.32: klog.Fatalf at registration (exit 255, only
   * once the binary passed); 1.33: validation (PR #129669); 1.34+: while merging files.
   */
  readonly duplicateProviderNames: 'fatal-at-registration' | 'validation' | 'merge';
  /** tokenAttributes: unknown <=1.32; v1 without cacheType in 1.33; cacheType required from 1.34. */
  readonly tokenAttributes: 'absent' | 'without-cache-type' | 'with-cache-type';
  /** Default of KubeletServiceAccountTokenForCredentialProviders: alpha/off 1.33, beta/on 1.34+. */
  readonly tokenGateDefault: boolean | undefined;
  /** <=1.33: Required errors carry detail text ("apiVersion is required"); 1.34+ they do not. */
  readonly requiredErrorsHaveDetail: boolean;
  /** <=1.32: NotSupported lists values in Go map order (unpredictable); 1.33+ sorted. */
  readonly supportedValuesSorted: boolean;
  /** Field error values: Go %v/%#v rendering up to 1.34, JSON-like from 1.35 (research §3.6). */
  readonly fieldValueStyle: 'go' | 'json';
  /** 1.28-1.29: --config-dir needs KUBELET_CONFIG_DROPIN_DIR_ALPHA; 1.30+: no; <1.28: no --config-dir. */
  readonly configDir: 'absent' | 'alpha-env' | 'supported';
}

export function traitsFor(minor: number): KubeletTraits {
  const m = Math.min(Math.max(minor, OLDEST_MODELLED_MINOR), NEWEST_MODELLED_MINOR);
  return {
    minor: m,
    pluginBinaryCheck: m >= 30 ? 'lookpath' : 'stat',
    strictDecoding: m >= 32,
    configMayBeDirectory: m >= 34,
    duplicateProviderNames: m >= 34 ? 'merge' : m === 33 ? 'validation' : 'fatal-at-registration',
    tokenAttributes: m >= 34 ? 'with-cache-type' : m === 33 ? 'without-cache-type' : 'absent',
    tokenGateDefault: m >= 34 ? true : m === 33 ? false : undefined,
    requiredErrorsHaveDetail: m <= 33,
    supportedValuesSorted: m >= 33,
    fieldValueStyle: m >= 35 ? 'json' : 'go',
    configDir: m >= 30 ? 'supported' : m >= 28 ? 'alpha-env' : 'absent',
  };
}

/** "1.30-1.35", "1.32", "1.26-1.29, 1.33": a compact list of minors for messages. */
export function describeMinors(minors: readonly number[]): string {
  const sorted = [...new Set(minors)].sort((a, b) => a - b);
  const ranges: string[] = [];
  let start = sorted[0];
  for (let i = 0; i < sorted.length; i++) {
    const cur = sorted[i]!;
    const next = sorted[i + 1];
    if (next !== cur + 1) {
      ranges.push(start === cur ? `1.${cur}` : `1.${start}-1.${cur}`);
      start = next;
    }
  }
  return ranges.join(', ');
}
