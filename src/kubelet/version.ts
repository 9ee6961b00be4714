/**
 * Kubelet versions and the credential-provider behaviour each one has.
 *
 * Everything node-check predicts is keyed by the kubelet minor version. The table below is the
 * one place that says which behaviour starts where; its sources (kubelet's source at the tags of
 * scripts/generate/kubernetes-source.lock.json) are in the PROVENANCE comment of
 * ./data/credential-provider-traits.ts.
 */

import { CREDENTIAL_PROVIDER_TRAITS } from './data/credential-provider-traits.js';

export interface KubeletVersion {
  readonly major: number;
  readonly minor: number;
  readonly patch: number;
  /** As given, e.g. "v1.28.7+5f5f6b3". */
  readonly raw: string;
}

// The modelled range is ./data/minors.ts; re-exported here for the callers that read versions.
export { isModelledMinor, MODELLED_MINORS, MODELLED_RANGE, NEWEST_MODELLED_MINOR, OLDEST_MODELLED_MINOR } from './data/minors.js';

/** Parses "1.28.7", "v1.28.7", "v1.28.7+abc", "v1.30.0-rc.1" and "Kubernetes v1.28.7". */
export function parseKubeletVersion(text: string): KubeletVersion | undefined {
  const match = /(?:^|\s)v?(\d+)\.(\d+)(?:\.(\d+))?([-+][0-9A-Za-z.+-]*)?\s*$/.exec(text.trim());
  if (!match) return undefined;
  const [, major, minor, patch] = match;
  if (Number(major) !== 1) return undefined;
  return { major: 1, minor: Number(minor), patch: Number(patch ?? 0), raw: text.trim().replace(/^Kubernetes\s+/, '') };
}

export function formatVersion(v: KubeletVersion): string {
  return `${v.major}.${v.minor}.${v.patch}`;
}

/** What kubelet of one minor version does while registering credential providers (data: ./data/credential-provider-traits.ts). */
export interface KubeletTraits {
  readonly minor: number;
  /** G1 (<=1.29) os.Stat: existence only. 1.30+ exec.LookPath: not a directory, exec bit (PR #120291). */
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
  /** <=1.33: Required errors carry detail text ("apiVersion is required"); 1.34+ they do not. */
  readonly requiredErrorsHaveDetail: boolean;
  /** <=1.32: NotSupported lists values in Go map order (unpredictable); 1.33+ sorted. */
  readonly supportedValuesSorted: boolean;
  /** Field error values: Go %v/%#v rendering up to 1.33, json.Marshal from 1.34 (apimachinery v0.34.0). */
  readonly fieldValueStyle: 'go' | 'json';
  /** The detail of the negative defaultCacheDuration error (shortened in 1.34). */
  readonly negativeDurationDetail: string;
  /** validation.IsQualifiedName: "a qualified name"/"characters" <=1.34, "a valid label key"/"bytes" 1.35+. */
  readonly qualifiedNameWording: 'qualified-name' | 'label-key';
  /** 1.28-1.29: --config-dir needs KUBELET_CONFIG_DROPIN_DIR_ALPHA; 1.30+: no; <1.28: no --config-dir. */
  readonly configDir: 'absent' | 'alpha-env' | 'supported';
  /** kubelet.config.k8s.io versions that register CredentialProviderConfig (v1 from 1.26). */
  readonly configApiVersions: readonly string[];
  /** Exec API versions a provider may name, sorted (credentialprovider.kubelet.k8s.io/v1 from 1.26). */
  readonly execApiVersions: readonly string[];
  /** kubelet.config.k8s.io versions that also register ImagePullIntent and ImagePulledRecord. */
  readonly imagePullRecordVersions: readonly string[];
  /**
   * Names in kubelet's global credential provider registry before any plugin registers (<=1.32):
   * a plugin of such a name whose binary passes the check is fatal ("registered twice", exit 255).
   */
  readonly inTreeProviderNames: readonly string[];
  /** KubeletCredentialProviders: beta/default on (1.24-1.25; off = flags ignored), GA locked (1.26-1.27), removed (1.28+). */
  readonly credentialProvidersGate: 'beta' | 'ga-locked' | 'removed';
  /** The sigs.k8s.io/yaml release kubelet is built with (error wording of YAMLToJSON). */
  readonly sigsYamlVersion: '1.2.0' | '1.3.0' | '1.4.0' | '1.6.0';
  /** The line of runtime.NewScheme() in plugin.go, when a log of this minor pins it. */
  readonly schemeLine?: number;
  /** Columns of this row that were inferred, not read for this minor (see the table's PROVENANCE). */
  readonly inferred: readonly (keyof KubeletTraits)[];
}

/** The traits of a modelled minor (./data/minors.ts); undefined for any other minor, never a neighbour's. */
export function traitsFor(minor: number): KubeletTraits | undefined {
  return CREDENTIAL_PROVIDER_TRAITS.get(minor);
}

/** traitsFor for callers that only pass modelled minors; throws for any other. */
export function requireTraits(minor: number): KubeletTraits {
  const traits = traitsFor(minor);
  if (!traits) throw new RangeError(`kubelet 1.${minor} is not modelled`);
  return traits;
}

/** "1.30-1.35", "1.32", "1.26-1.29, 1.33": a compact list of minors for messages. */
/** The minors describeMinors() named: "1.24, 1.26-1.29" -> [24, 26, 27, 28, 29]. */
export function minorsDescribed(text: string): number[] {
  const minors: number[] = [];
  for (const part of text.split(', ')) {
    const match = /^1\.(\d+)(?:-1\.(\d+))?$/.exec(part);
    if (!match) continue;
    for (let minor = Number(match[1]); minor <= Number(match[2] ?? match[1]); minor++) minors.push(minor);
  }
  return minors;
}

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
