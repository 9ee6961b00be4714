/** Result shapes shared by the node-setup checks (the shape is defined in ../../systemd-preconditions/outcome.ts). */

import type { PreconditionFailure, PreconditionUndecidable } from '../../systemd-preconditions/outcome.js';

/** The shape every start precondition shares: kubelet's text (err="…", wrapped as this version wraps it), or "cannot tell". */
export type NodeSetupFailure = PreconditionFailure;
export type Undecidable = PreconditionUndecidable;

export type NodeSetupResult = NodeSetupFailure | Undecidable | undefined;

export function isUndecidable(r: NodeSetupResult): r is Undecidable {
  return r !== undefined && 'undecidable' in r;
}

/** Gate lookup supplied by the caller (effective gates for this minor and flavour). */
export type GateEnabled = (name: string) => boolean;

/** OpenShift's kubelet is openshift/kubernetes with carry patches. */
export type { KubeletFlavor } from '../flavor.js';
