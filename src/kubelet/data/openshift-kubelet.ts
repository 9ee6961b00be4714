/**
 * OpenShift minor -> the kubelet (openshift/kubernetes) minor it ships, for
 * `check --openshift-version 4.N`. The kubelet of an OpenShift release is
 * openshift/kubernetes at the rebase of that Kubernetes minor.
 *
 * PROVENANCE (looked up 2026-11-30 through the shared search index; verified = a source read here
 * states the pair):
 * - 4.12-4.15: gist.github.com/jeyaramashok/ebbd25f36338de4422fd584fea841c08 ("Red Hat OpenShift
 *   version | Kubernetes version", citing the Red Hat Customer Portal article "What version of the
 *   Kubernetes API is included with each OpenShift 4.x release?"): 4.12=1.25, 4.13=1.26,
 *   4.14=1.27, 4.15=1.28. 4.15=1.28 also matches openshift/microshift release-4.15
 *   vendor/modules.txt (k8s.io/kubernetes v1.28.3 => github.com/openshift/kubernetes) and
 *   test/fixtures/nodes/ocp-4.15-* (nodeKubeletVersion 1.28.7).
 * - 4.16: OpenLiberty/open-liberty-operator release 1.6.2 notes ("Red Hat OpenShift Container
 *   Platform 4.16 and Kubernetes 1.29").
 * - 4.18: openshift/kubernetes PR #2418 "OCPBUGS-60511: Rebase v1.31.12 to 4.18" (and PR #2465
 *   "Rebase v1.31.13"); also cloud.ibm.com "4.18 version change log" (cloud controller manager
 *   v1.31.13 in the 4.18 fix packs).
 * - 4.19: openshift/kubernetes PR #2411 "OCPBUGS-60510: Rebase v1.32.8 to 4.19".
 * - 4.20: OpenLiberty/open-liberty-operator#776 "Support for OCP 4.20 and Kubernetes 1.33"; also
 *   openshift/microshift release-4.20 vendor/modules.txt (k8s.io/kubernetes v1.33.13).
 * - 4.21: OpenLiberty/open-liberty-operator#825 "Support for OCP 4.21 and Kubernetes 1.34"; also
 *   openshift/microshift release-4.21 vendor/modules.txt (k8s.io/kubernetes v1.34.9).
 * - 4.22: openshift/kubernetes PR #2736 "OCPBUGS-100181: Rebase release-4.22 to Kubernetes v1.35.7".
 * - 4.17 and 4.23: openshift/microshift's release branches vendor the fork at v1.30.1 and v1.36.3
 *   (vendor/modules.txt; scripts/generate/openshift-kubelet-source.lock.json records every release
 *   4.12-4.23 and 5.0, which all agree with this table).
 * - 4.6-4.11: openshift/machine-config-operator's go.mod at release-4.N requires (and replaces to)
 *   k8s.io/kubernetes and k8s.io/kubelet of that Kubernetes minor: 4.6=1.19 … 4.11=1.24 (v0.24.17);
 *   release-4.12's says 1.25, as the table above. 4.6-4.10 are outside the modelled minors
 *   (1.24-1.36): a node of theirs is "cannot tell".
 * - 5.0 vendors the same fork commit as 4.23 (kubelet 1.36); it is not listed because
 *   --openshift-version accepts 4.x only.
 * Code that uses an unverified row says so (finding openshift-version-unverified).
 */

export interface OpenShiftKubeletRow {
  readonly openshiftMinor: number;
  readonly kubeletMinor: number;
  readonly verified: boolean;
  readonly source: string;
}

export const OPENSHIFT_KUBELET: readonly OpenShiftKubeletRow[] = [
  { openshiftMinor: 6, kubeletMinor: 19, verified: true, source: 'openshift/machine-config-operator release-4.6 go.mod: k8s.io/kubernetes v1.19' },
  { openshiftMinor: 7, kubeletMinor: 20, verified: true, source: 'openshift/machine-config-operator release-4.7 go.mod: k8s.io/kubernetes v1.20' },
  { openshiftMinor: 8, kubeletMinor: 21, verified: true, source: 'openshift/machine-config-operator release-4.8 go.mod: k8s.io/kubernetes v1.21' },
  { openshiftMinor: 9, kubeletMinor: 22, verified: true, source: 'openshift/machine-config-operator release-4.9 go.mod: k8s.io/kubernetes v1.22' },
  { openshiftMinor: 10, kubeletMinor: 23, verified: true, source: 'openshift/machine-config-operator release-4.10 go.mod: k8s.io/kubernetes v1.23' },
  { openshiftMinor: 11, kubeletMinor: 24, verified: true, source: 'openshift/machine-config-operator release-4.11 go.mod: k8s.io/kubernetes v1.24' },
  { openshiftMinor: 12, kubeletMinor: 25, verified: true, source: 'gist jeyaramashok/ebbd25f3 (Red Hat KB table)' },
  { openshiftMinor: 13, kubeletMinor: 26, verified: true, source: 'gist jeyaramashok/ebbd25f3 (Red Hat KB table)' },
  { openshiftMinor: 14, kubeletMinor: 27, verified: true, source: 'gist jeyaramashok/ebbd25f3 (Red Hat KB table)' },
  { openshiftMinor: 15, kubeletMinor: 28, verified: true, source: 'gist jeyaramashok/ebbd25f3; openshift/microshift release-4.15 vendor/modules.txt: k8s.io/kubernetes v1.28.3 => github.com/openshift/kubernetes' },
  { openshiftMinor: 16, kubeletMinor: 29, verified: true, source: 'open-liberty-operator 1.6.2 release notes' },
  { openshiftMinor: 17, kubeletMinor: 30, verified: true, source: 'openshift/microshift release-4.17 vendor/modules.txt: k8s.io/kubernetes v1.30.1 => github.com/openshift/kubernetes' },
  { openshiftMinor: 18, kubeletMinor: 31, verified: true, source: 'openshift/kubernetes PR #2418 "Rebase v1.31.12 to 4.18"' },
  { openshiftMinor: 19, kubeletMinor: 32, verified: true, source: 'openshift/kubernetes PR #2411 "Rebase v1.32.8 to 4.19"' },
  { openshiftMinor: 20, kubeletMinor: 33, verified: true, source: 'OpenLiberty/open-liberty-operator#776 "OCP 4.20 and Kubernetes 1.33"; openshift/microshift release-4.20 vendor/modules.txt: k8s.io/kubernetes v1.33.13' },
  { openshiftMinor: 21, kubeletMinor: 34, verified: true, source: 'OpenLiberty/open-liberty-operator#825 "OCP 4.21 and Kubernetes 1.34"; openshift/microshift release-4.21 vendor/modules.txt: k8s.io/kubernetes v1.34.9' },
  { openshiftMinor: 22, kubeletMinor: 35, verified: true, source: 'openshift/kubernetes PR #2736 "Rebase release-4.22 to Kubernetes v1.35.7"' },
  { openshiftMinor: 23, kubeletMinor: 36, verified: true, source: 'openshift/microshift release-4.23 vendor/modules.txt: k8s.io/kubernetes v1.36.3 => ./deps/github.com/openshift/kubernetes' },
];

/** "4.16" or "4.16.3" -> its row; undefined for anything not in the table (never a neighbour's). */
export function kubeletForOpenShift(version: string): OpenShiftKubeletRow | undefined {
  const match = /^v?4\.(\d+)(?:\.\d+)?(?:[-+][0-9A-Za-z.+-]*)?$/.exec(version.trim());
  if (!match) return undefined;
  const minor = Number(match[1]);
  return OPENSHIFT_KUBELET.find((row) => row.openshiftMinor === minor);
}
