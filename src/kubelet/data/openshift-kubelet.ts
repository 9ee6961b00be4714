/**
 * OpenShift minor -> the kubelet (openshift/kubernetes) minor it ships, for
 * `check --openshift-version 4.N` (issue 9). The kubelet of an OpenShift release is
 * openshift/kubernetes at the rebase of that Kubernetes minor.
 *
 * PROVENANCE (looked up 2026-11-30 through the shared search index; verified = a source read here
 * states the pair):
 * - 4.12-4.15: gist.github.com/jeyaramashok/ebbd25f36338de4422fd584fea841c08 ("Red Hat OpenShift
 *   version | Kubernetes version", citing the Red Hat Customer Portal article "What version of the
 *   Kubernetes API is included with each OpenShift 4.x release?"): 4.12=1.25, 4.13=1.26,
 *   4.14=1.27, 4.15=1.28. 4.15=1.28 also matches shared/research/openshift.md §2 (RHEL worker at
 *   4.15 runs kubelet v1.28.7) and test/fixtures/nodes/ocp-4.15-* (nodeKubeletVersion 1.28.7).
 * - 4.16: OpenLiberty/open-liberty-operator release 1.6.2 notes ("Red Hat OpenShift Container
 *   Platform 4.16 and Kubernetes 1.29").
 * - 4.18: cloud.ibm.com docs "4.18 version change log" (Red Hat OpenShift on IBM Cloud): the 4.18
 *   master fix packs ship IBM Cloud Controller Manager v1.31.13-x, i.e. Kubernetes 1.31.
 * - 4.17, 4.19-4.22: not confirmed by a source read here (verified: false); they follow the
 *   pattern of the confirmed rows (4.N = 1.(N+13)). Code that uses them says so (finding
 *   openshift-version-unverified). 1.37 is not modelled, so nothing past 4.22 is listed.
 */

export interface OpenShiftKubeletRow {
  readonly openshiftMinor: number;
  readonly kubeletMinor: number;
  readonly verified: boolean;
  readonly source: string;
}

export const OPENSHIFT_KUBELET: readonly OpenShiftKubeletRow[] = [
  { openshiftMinor: 12, kubeletMinor: 25, verified: true, source: 'gist jeyaramashok/ebbd25f3 (Red Hat KB table)' },
  { openshiftMinor: 13, kubeletMinor: 26, verified: true, source: 'gist jeyaramashok/ebbd25f3 (Red Hat KB table)' },
  { openshiftMinor: 14, kubeletMinor: 27, verified: true, source: 'gist jeyaramashok/ebbd25f3 (Red Hat KB table)' },
  { openshiftMinor: 15, kubeletMinor: 28, verified: true, source: 'gist jeyaramashok/ebbd25f3; research/openshift.md (kubelet v1.28.7 on 4.15 RHEL workers)' },
  { openshiftMinor: 16, kubeletMinor: 29, verified: true, source: 'open-liberty-operator 1.6.2 release notes' },
  { openshiftMinor: 17, kubeletMinor: 30, verified: false, source: 'pattern 4.N = 1.(N+13)' },
  { openshiftMinor: 18, kubeletMinor: 31, verified: true, source: 'IBM Cloud "4.18 version change log" (cloud controller manager v1.31.13)' },
  { openshiftMinor: 19, kubeletMinor: 32, verified: false, source: 'pattern 4.N = 1.(N+13)' },
  { openshiftMinor: 20, kubeletMinor: 33, verified: false, source: 'pattern 4.N = 1.(N+13)' },
  { openshiftMinor: 21, kubeletMinor: 34, verified: false, source: 'pattern 4.N = 1.(N+13)' },
  { openshiftMinor: 22, kubeletMinor: 35, verified: false, source: 'pattern 4.N = 1.(N+13)' },
];

/** "4.16" or "4.16.3" -> its row; undefined for anything not in the table (never a neighbour's). */
export function kubeletForOpenShift(version: string): OpenShiftKubeletRow | undefined {
  const match = /^v?4\.(\d+)(?:\.\d+)?(?:[-+][0-9A-Za-z.+-]*)?$/.exec(version.trim());
  if (!match) return undefined;
  const minor = Number(match[1]);
  return OPENSHIFT_KUBELET.find((row) => row.openshiftMinor === minor);
}
