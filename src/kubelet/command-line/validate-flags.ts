/**
 * ValidateKubeletFlags (cmd/kubelet/app/options/options.go), run by kubelet right after the feature
 * gates from flags are applied; kubelet wraps its error as `failed to validate kubelet flags: %w`
 * (cmd/kubelet/app/server.go, 1.24+). Pure.
 *
 * Rule read in cmd/kubelet/app/options/options.go ValidateKubeletFlags at v1.24.17-v1.37.2 (the
 * unknown-label text identical in every tag) and openshift/kubernetes options.go (commit
 * 28509412535a, a 1.31..1.33 kubelet). Allowed labels: k8s.io/kubelet pkg/apis/well_known_labels.go, unchanged in tags
 * v0.24.0..v0.37.0-beta.0.
 *
 * OpenShift carry, read per release from MicroShift's vendored fork
 * (openshiftKubelet(minor).nodeRoleLabels, scripts/generate/feature-gates-openshift.mjs):
 * 4.12 (1.25) lists node-role.kubernetes.io/{control-plane,master,worker,etcd} in kubeletLabels
 * itself (k8s.io/kubelet/pkg/apis/well_known_labels.go), so the refusal text lists them too; from
 * 4.13 (1.26) options.go skips kubeletapis.IsForbiddenOpenshiftLabel's set entirely (no unknown-label
 * and no syntax check; well_known_openshift_labels.go), /arbiter added in 4.19 (1.32). Any other
 * node-role.kubernetes.io/* label is refused as upstream refuses it. For an OpenShift kubelet whose
 * fork was not read (1.24), the four labels every release accepts are exempt and any other
 * node-role label answers "cannot tell".
 */
import type { CommandLineParse } from './parse-command-line.js';
import { goTrimSpace } from '../../go/strconv.js';
import type { KubeletFlavor } from '../flavor.js';
import { openshiftKubelet } from '../gates/gate-table.js';
import { isModelledMinor, MODELLED_RANGE } from '../data/minors.js';

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
/** The node-role labels every OpenShift release read accepts (4.12-4.23), for a fork not read. */
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
  if (!isModelledMinor(minor)) return { undecidable: `kubelet 1.${minor} is not modelled (${MODELLED_RANGE})` };
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
  const fork = flavor === 'openshift' ? openshiftKubelet(minor)?.nodeRoleLabels : undefined;
  const forkUnread = flavor === 'openshift' && !fork;
  const roleLabels = fork?.labels ?? (forkUnread ? OPENSHIFT_EXEMPT_NODE_LABELS : []);
  const allowedLabels = fork?.inAllowedSet ? [...KUBELET_ALLOWED_LABELS, ...fork.labels].sort() : KUBELET_ALLOWED_LABELS;
  const unknown = new Set<string>();
  const invalid: string[] = [];
  for (const [k, v] of labels) {
    if (isKubernetesLabel(k) && !isKubeletLabel(k)) {
      // In the allowed set (4.12) the label is still syntax-checked; exempt (4.13+) it is skipped.
      if (roleLabels.includes(k) && fork?.inAllowedSet) {
        if (!labelValueOK(v)) invalid.push(v);
        continue;
      }
      if (roleLabels.includes(k)) continue;
      unknown.add(k);
    }
    if (!qualifiedNameOK(k)) invalid.push(k);
    if (!labelValueOK(v)) invalid.push(v);
  }
  if (unknown.size > 0) {
    if (forkUnread && [...unknown].every((k) => k.startsWith('node-role.kubernetes.io/'))) {
      return { undecidable: `OpenShift's kubelet 1.${minor}: its fork was not read, and which node-role.kubernetes.io labels it accepts besides ${OPENSHIFT_EXEMPT_NODE_LABELS.join(', ')} (${goSorted(unknown).join(', ')}) is not known` };
    }
    return {
      ok: false,
      rule: 'node-labels-unknown',
      error:
        `unknown 'kubernetes.io' or 'k8s.io' labels specified with --node-labels: [${goSorted(unknown).join(' ')}]\n` +
        `--node-labels in the 'kubernetes.io' namespace must begin with an allowed prefix (${KUBELET_ALLOWED_LABEL_NAMESPACES.join(', ')}) ` +
        `or be in the specifically allowed set (${allowedLabels.join(', ')})`,
      // An unread fork may exempt more labels: the list may differ, not the verdict.
      ...(forkUnread && [...unknown].some((k) => k.startsWith('node-role.kubernetes.io/')) ? { inexact: true } : {}),
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
