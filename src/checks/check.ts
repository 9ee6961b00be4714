/**
 * A check is a small value, like kubeadm preflight's Checker: a stable id, the kubelet versions it
 * models, and a pure function from what was discovered (plus kubelet's simulated registration for
 * one version) to findings.
 */
import type { Finding } from '../model/findings.js';
import type { NodeModel } from '../model/node.js';
import type { KubeletTraits } from '../kubelet/version.js';
import type { RegistrationResult } from '../credentials/registration.js';

export interface CredentialFlags {
  /** --image-credential-provider-config ("" when set empty or absent while the bin dir is set). */
  readonly configPath: string;
  readonly binDir: string;
}

export interface CheckContext {
  readonly model: NodeModel;
  readonly traits: KubeletTraits;
  readonly flags: CredentialFlags;
  readonly registration: RegistrationResult;
}

export interface Check {
  readonly id: string;
  readonly title: string;
  /** The kubelet minors whose behaviour this check models. */
  appliesTo(traits: KubeletTraits): boolean;
  run(context: CheckContext): Finding[];
}
