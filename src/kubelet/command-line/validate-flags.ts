/**
 * ValidateKubeletFlags (cmd/kubelet/app/options/options.go), run by kubelet right after the feature
 * gates from flags are applied; kubelet wraps its error as `failed to validate kubelet flags: %w`
 * (cmd/kubelet/app/server.go, 1.24+). Pure.
 *
 * Rule read in kubernetes/kubernetes options.go (index id 3102907, a 1.28..1.30 kubelet) and
 * openshift/kubernetes options.go (commit 28509412535a, a 1.31..1.33 kubelet); the same rule since 1.16
 * (kubernetes #85073). The unknown-label text is confirmed by real logs (index ids 19030536402,
 * 5718548008). Allowed labels: k8s.io/kubelet pkg/apis/well_known_labels.go, unchanged in tags
 * v0.24.0..v0.37.0-beta.0.
 *
 * OpenShift carry (openshift/kubernetes, kubeletapis.IsForbiddenOpenshiftLabel, index id 809358862):
 * node-role.kubernetes.io/{control-plane,master,worker,etcd} are skipped entirely (no unknown-label
 * and no syntax check). Pinned for one 1.31..1.33 version; every OpenShift unit passes
 * node-role.kubernetes.io/worker or /master and starts, so those are exempt on every minor; other
 * node-role.kubernetes.io/* labels answer "cannot tell" outside the pinned set's certainty.
 */
import type { CommandLineParse } from './parse-command-line.js';
import { goTrimSpace } from './strconv.js';
import type { KubeletFlavor } from '../flavor.js';

export type FlagValidation =
  | { readonly ok: true }
  | { readonly ok: false; readonly error: string; readonly rule: 'node-labels-unknown' | 'node-labels-invalid'; readonly inexact?: boolean }
  | { readonly ok?: undefined; readonly undecidable: string };

/** k8s.io/kubelet pkg/apis: kubeletLabels.List() (sorted). */
export const KUBELET_ALLOWED_LABELS: readonly string[] = [
  'beta.kubernetes.io/arch',
  'beta.kubernetes.io/instance-type',
  'beta.kubernetes.io/os',
  'failure-domain.beta.kubernetes.io/region',
  'failure-domain.beta.kubernetes.io/zone',
  'kubernetes.io/arch',
  'kubernetes.io/hostname',
  'kubernetes.io/os',
  'node.kubernetes.io/instance-type',
  'topology.kubernetes.io/region',
  'topology.kubernetes.io/zone',
];
/** kubeletLabelNamespaces.List(). */
export const KUBELET_ALLOWED_LABEL_NAMESPACES: readonly string[] = ['kubelet.kubernetes.io', 'node.kubernetes.io'];
/** openshift/kubernetes staging/src/k8s.io/kubelet/pkg/apis openshiftNodeLabels. */
export const OPENSHIFT_EXEMPT_NODE_LABELS: readonly string[] = [
  'node-role.kubernetes.io/control-plane',
  'node-role.kubernetes.io/etcd',
  'node-role.kubernetes.io/master',
  'node-role.kubernetes.io/worker',
];

function labelNamespace(key: string): string {
  const slash = key.indexOf('/');
  return slash === -1 ? '' : key.slice(0, slash);
}

function isKubernetesLabel(key: string): boolean {
  const ns = labelNamespace(key);
  return ns === 'kubernetes.io' || ns.endsWith('.kubernetes.io') || ns === 'k8s.io' || ns.endsWith('.k8s.io');
}

export function isKubeletLabel(key: string): boolean {
  if (KUBELET_ALLOWED_LABELS.includes(key)) return true;
  const ns = labelNamespace(key);
  return KUBELET_ALLOWED_LABEL_NAMESPACES.some((a) => ns === a || ns.endsWith(`.${a}`));
}

/** The NodeLabels map as cliflag.ConfigurationMap builds it from every --node-labels occurrence. */
export function nodeLabelsFrom(values: readonly string[]): Map<string, string> {
  const labels = new Map<string, string>();
  for (const value of values) {
    for (const s of value.split(',')) {
      if (s.length === 0) continue;
      const eq = s.indexOf('=');
      if (eq === -1) labels.set(goTrimSpace(s), '');
      else labels.set(goTrimSpace(s.slice(0, eq)), goTrimSpace(s.slice(eq + 1)));
    }
  }
  return labels;
}

/** sets.String.List(): Go's sort.Strings (byte order). */
function goSorted(values: Iterable<string>): string[] {
  return [...values].sort((a, b) => (Buffer.compare(Buffer.from(a), Buffer.from(b))));
}

// apimachinery validation.IsQualifiedName / IsValidLabelValue (verdict only; texts are long and
// were not re-read per version, so they are reported as inexact).
const NAME = /^([A-Za-z0-9][-A-Za-z0-9_.]*)?[A-Za-z0-9]$/;
const DNS1123_SUBDOMAIN = /^[a-z0-9]([-a-z0-9]*[a-z0-9])?(\.[a-z0-9]([-a-z0-9]*[a-z0-9])?)*$/;
function qualifiedNameOK(key: string): boolean {
  const parts = key.split('/');
  if (parts.length > 2) return false;
  const name = parts.length === 2 ? parts[1]! : parts[0]!;
  if (parts.length === 2) {
    const prefix = parts[0]!;
    if (prefix.length === 0 || prefix.length > 253 || !DNS1123_SUBDOMAIN.test(prefix)) return false;
  }
  return name.length > 0 && name.length <= 63 && NAME.test(name);
}
function labelValueOK(value: string): boolean {
  return value.length <= 63 && (value === '' || NAME.test(value));
}

/**
 * ValidateKubeletFlags for kubelet 1.<minor>, given the parsed command line (its --node-labels and, for
 * 1.24..1.26, --container-runtime / --container-runtime-endpoint).
 */
export function validateKubeletFlags(
  parsed: CommandLineParse & { ok: true },
  minor: number,
  flavor: KubeletFlavor,
): FlagValidation {
  if (minor < 24 || minor > 36) return { undecidable: `kubelet 1.${minor} is not modelled (1.24..1.36)` };
  // 1.24..1.26: ValidateKubeletFlags also checked the container runtime options (dockershim removal);
  // that version of the function was not read, so only the shape every working 1.24..1.26 node has is
  // known to pass.
  if (minor <= 26) {
    const runtime = parsed.occurrences.get('container-runtime')?.at(-1);
    const endpoint = parsed.occurrences.get('container-runtime-endpoint')?.at(-1);
    if ((runtime !== undefined && runtime !== 'remote') || endpoint === undefined || endpoint === '') {
      return { undecidable: `kubelet 1.${minor} validates --container-runtime and --container-runtime-endpoint in ValidateKubeletFlags; that check was not read, and this command line ${endpoint ? `sets --container-runtime=${runtime}` : 'has no --container-runtime-endpoint'}` };
    }
  }
  const labels = nodeLabelsFrom(parsed.occurrences.get('node-labels') ?? []);
  const unknown = new Set<string>();
  const invalid: string[] = [];
  for (const [k, v] of labels) {
    if (isKubernetesLabel(k) && !isKubeletLabel(k)) {
      if (flavor === 'openshift' && OPENSHIFT_EXEMPT_NODE_LABELS.includes(k)) continue;
      unknown.add(k);
    }
    if (!qualifiedNameOK(k)) invalid.push(k);
    if (!labelValueOK(v)) invalid.push(v);
  }
  if (unknown.size > 0) {
    if (flavor === 'openshift' && [...unknown].every((k) => k.startsWith('node-role.kubernetes.io/'))) {
      return { undecidable: `OpenShift's kubelet exempts some node-role.kubernetes.io labels from the --node-labels restriction; the exempt set was pinned for one version only (control-plane, etcd, master, worker), not for ${goSorted(unknown).join(', ')} on 1.${minor}` };
    }
    return {
      ok: false,
      rule: 'node-labels-unknown',
      error:
        `unknown 'kubernetes.io' or 'k8s.io' labels specified with --node-labels: [${goSorted(unknown).join(' ')}]\n` +
        `--node-labels in the 'kubernetes.io' namespace must begin with an allowed prefix (${KUBELET_ALLOWED_LABEL_NAMESPACES.join(', ')}) ` +
        `or be in the specifically allowed set (${KUBELET_ALLOWED_LABELS.join(', ')})`,
      // OpenShift: a label exempt in another carry version would change the list, not the verdict.
      ...(flavor === 'openshift' && [...unknown].some((k) => k.startsWith('node-role.kubernetes.io/')) ? { inexact: true } : {}),
    };
  }
  if (invalid.length > 0) {
    return {
      ok: false,
      rule: 'node-labels-invalid',
      // Go map order picks the order of the parts, and the apimachinery texts were not re-read.
      error: `invalid node labels: ${invalid.map((x) => `'${x}' - …`).join('; ')}`,
      inexact: true,
    };
  }
  return { ok: true };
}

/** kubelet's wrapping of a ValidateKubeletFlags error (cmd/kubelet/app/server.go, 1.24+). */
export function withKubeletValidatePrefix(error: string): string {
  return `failed to validate kubelet flags: ${error}`;
}
