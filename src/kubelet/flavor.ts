/**
 * Which kubelet build runs on the node: upstream's, or OpenShift's (openshift/kubernetes, whose
 * carry patches change start-up: an unknown feature gate only warns, and the node-role labels
 * that every MCO unit passes are accepted). Decided from evidence on the node, or by
 * --kubelet-flavor; the report names the evidence so that a wrong guess can be seen and overridden.
 */
export type KubeletFlavor = 'upstream' | 'openshift';

export const KUBELET_FLAVORS: readonly KubeletFlavor[] = ['upstream', 'openshift'];

export interface FlavorEvidence {
  /** The version string's "+<commit>" suffix (OpenShift builds: v1.28.7+5f5f6b3). */
  readonly versionText?: string;
  /** Words in front of kubelet in ExecStart (kubenswrapper is MCO's wrapper). */
  readonly wrapper: readonly string[];
  /** /etc/os-release of the node. */
  readonly osRelease: Readonly<Record<string, string>>;
  /** OpenShift marker files found on the node (see OPENSHIFT_MARKER_PATHS). */
  readonly openshiftMarkers: readonly string[];
  /** The values of --node-labels kubelet is given ("k=v,k2"), in order. */
  readonly nodeLabels?: readonly string[];
}

export interface FlavorDecision {
  readonly flavor: KubeletFlavor;
  readonly source: 'flag' | 'node' | 'default';
  /** Sentences naming what decided, e.g. "ExecStart runs /usr/local/bin/kubenswrapper". */
  readonly evidence: readonly string[];
}

/**
 * Files only the machine-config daemon writes (openshift.md §4, §7): present on RHCOS and RHEL
 * workers alike, absent on other distributions.
 */
export const OPENSHIFT_MARKER_PATHS: readonly string[] = [
  '/etc/machine-config-daemon/currentconfig',
  '/etc/mcs-machine-config-content.json',
  '/usr/local/bin/kubenswrapper',
];

/**
 * The label every machine-config operator kubelet unit passes, worker and master, from 4.6
 * (when the unit ran `/usr/bin/hyperkube kubelet`, before kubenswrapper) through 4.23:
 * `--node-labels=node-role.kubernetes.io/<role>,node.openshift.io/os_id=${ID}` in
 * templates/{worker,master}/01-*-kubelet/_base/units/kubelet.service.yaml of
 * openshift/machine-config-operator at release-4.6 … release-4.23. Only OpenShift's kubelet accepts
 * the node-role label that comes with it. `hyperkube` alone is not evidence: other distributions
 * ran kubelet through their own hyperkube builds.
 */
export const OPENSHIFT_NODE_LABEL = 'node.openshift.io/os_id';

/** OpenShift's kubelet reports its source commit after "+": "v1.28.7+5f5f6b3" (k3s: "+k3s1", not hex). */
const OPENSHIFT_VERSION_SUFFIX = /\+[0-9a-f]{7,40}$/;

export function decideFlavor(evidence: FlavorEvidence, override?: KubeletFlavor): FlavorDecision {
  if (override) return { flavor: override, source: 'flag', evidence: [`--kubelet-flavor ${override}`] };
  const found: string[] = [];
  const version = evidence.versionText?.trim();
  if (version && OPENSHIFT_VERSION_SUFFIX.test(version)) found.push(`the kubelet version "${version}" carries an OpenShift build suffix`);
  const wrapper = evidence.wrapper.find((word) => word.endsWith('/kubenswrapper') || word === 'kubenswrapper');
  if (wrapper) found.push(`ExecStart runs kubelet through ${wrapper}`);
  const { ID: id, VARIANT_ID: variant } = evidence.osRelease;
  if (id === 'rhcos' || (id === 'rhel' && variant === 'coreos')) found.push(`/etc/os-release says ID=${id}${variant ? ` VARIANT_ID=${variant}` : ''} (RHCOS)`);
  for (const marker of evidence.openshiftMarkers) found.push(`${marker} exists (written by the machine-config daemon)`);
  const labelKeys = (evidence.nodeLabels ?? []).flatMap((value) => value.split(',')).map((pair) => pair.split('=', 1)[0]!.trim());
  if (labelKeys.includes(OPENSHIFT_NODE_LABEL)) {
    const hyperkube = evidence.wrapper.find((word) => word.slice(word.lastIndexOf('/') + 1) === 'hyperkube');
    found.push(`--node-labels sets ${OPENSHIFT_NODE_LABEL} (the machine-config operator's kubelet unit)${hyperkube ? `, run as ${hyperkube} kubelet (OpenShift 4.6–4.11)` : ''}`);
  }
  if (found.length > 0) return { flavor: 'openshift', source: 'node', evidence: found };
  return { flavor: 'upstream', source: 'default', evidence: [`no OpenShift evidence (version suffix, kubenswrapper, RHCOS, machine-config daemon files, the ${OPENSHIFT_NODE_LABEL} node label)`] };
}
