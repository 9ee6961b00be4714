/** Result shapes shared by the node-setup checks (brief: COMMON.md "When a step fails"). */

export interface NodeSetupFailure {
  readonly findingId: string;
  /** The Go error text kubelet logs as err="…", with the prefixes this version wraps it in. */
  readonly kubeletError: string;
  readonly message: string;
  readonly remediation: string;
  readonly path?: string;
  /** Process exit status when not 1 (klog.Fatalf exits 255). */
  readonly exitStatus?: number;
  /** The verdict is certain but the exact text is not (Go map order, environment-dependent text). */
  readonly inexact?: boolean;
}

export interface Undecidable {
  readonly undecidable: string;
}

export type NodeSetupResult = NodeSetupFailure | Undecidable | undefined;

export function isUndecidable(r: NodeSetupResult): r is Undecidable {
  return r !== undefined && 'undecidable' in r;
}

/** Gate lookup supplied by the caller (effective gates for this minor and flavour). */
export type GateEnabled = (name: string) => boolean;

/** Shared decision (COMMON.md): OpenShift's kubelet is openshift/kubernetes with carry patches. */
export type { KubeletFlavor } from '../flavor.js';
