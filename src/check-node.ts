/**
 * One check of a node, end to end: discover (I/O) then evaluate (pure). What `check`,
 * `preflight` and `serve` share. With overlays (`check --machine-config` / `--overlay`), the
 * answer is about the node after applying them (src/overlay/check-upgrade.ts).
 */
import { discoverNode } from './discover/discover-node.js';
import { evaluate } from './evaluate/evaluate.js';
import type { HostIo } from './discover/host-facts.js';
import type { FallbackStatus, Report, UpgradeSection } from './model/report.js';
import type { KubeletLinkage } from './model/node.js';
import type { KubeletFlavor } from './kubelet/flavor.js';
import type { OverlayInput } from './overlay/check-upgrade.js';

export type { OverlayInput } from './overlay/check-upgrade.js';

export interface CheckNodeOptions {
  readonly root: string;
  readonly unit: string;
  readonly kubeletVersion?: string;
  readonly kubeletFlavor?: KubeletFlavor;
  /** Bound on `kubelet --version` (live root only). */
  readonly versionProbeTimeoutMs?: number;
  readonly fallback?: FallbackStatus;
  /** Configurations to lay over the node, in order; the report then answers for the node after them. */
  readonly overlays?: readonly OverlayInput[];
  /** Set when the kubelet version was derived from --openshift-version (reported in `upgrade`). */
  readonly openshiftVersion?: UpgradeSection['openshiftVersion'];
  /** false: no next-minor warnings (preflight: EvaluateOptions.upgradeWarnings). */
  readonly upgradeWarnings?: boolean;
  /** --verbose: add `provenance` (where each input came from). */
  readonly verbose?: boolean;
  /** Host facts read through this instead of this machine (the oracle's recorded sandbox). */
  readonly hostIo?: HostIo;
  /** The linkage of the kubelet that runs, when it is not the root's binary (the oracle's own build). */
  readonly kubeletLinkage?: KubeletLinkage;
}

export async function checkNode(options: CheckNodeOptions): Promise<Report> {
  if (options.overlays && options.overlays.length > 0) {
    // Loaded only when asked for: kubelet's ExecStartPre never lays a configuration over the node.
    const { checkUpgrade } = await import('./overlay/check-upgrade.js');
    return checkUpgrade({
      root: options.root,
      unit: options.unit,
      ...(options.kubeletVersion !== undefined ? { kubeletVersion: options.kubeletVersion } : {}),
      ...(options.kubeletFlavor !== undefined ? { kubeletFlavor: options.kubeletFlavor } : {}),
      versionProbeTimeoutMs: options.versionProbeTimeoutMs ?? 2000,
      ...(options.fallback ? { fallback: options.fallback } : {}),
      overlays: options.overlays,
      ...(options.openshiftVersion ? { openshiftVersion: options.openshiftVersion } : {}),
      ...(options.verbose ? { verbose: true } : {}),
    });
  }
  const model = await discoverNode({
    root: options.root,
    unit: options.unit,
    kubeletVersion: options.kubeletVersion,
    kubeletFlavor: options.kubeletFlavor,
    versionProbeTimeoutMs: options.versionProbeTimeoutMs ?? 2000,
    ...(options.hostIo ? { hostIo: options.hostIo } : {}),
    ...(options.kubeletLinkage ? { kubeletLinkage: options.kubeletLinkage } : {}),
  });
  const report = evaluate(model, { fallback: options.fallback, ...(options.upgradeWarnings === false ? { upgradeWarnings: false } : {}) });
  if (!options.verbose) return report;
  const { provenanceOf } = await import('./evaluate/provenance.js');
  return { ...report, provenance: provenanceOf(model, options.openshiftVersion?.openshift) };
}
