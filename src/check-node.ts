/**
 * One check of a node, end to end: discover (I/O) then evaluate (pure). What `check`,
 * `preflight` and `serve` share.
 */
import { discoverNode } from './discover/discover-node.js';
import { evaluate } from './evaluate/evaluate.js';
import type { FallbackStatus, Report } from './model/report.js';
import type { KubeletFlavor } from './kubelet/flavor.js';

export interface CheckNodeOptions {
  readonly root: string;
  readonly unit: string;
  readonly kubeletVersion?: string;
  readonly kubeletFlavor?: KubeletFlavor;
  /** Bound on `kubelet --version` (live root only). */
  readonly versionProbeTimeoutMs?: number;
  readonly fallback?: FallbackStatus;
}

export async function checkNode(options: CheckNodeOptions): Promise<Report> {
  const model = await discoverNode({
    root: options.root,
    unit: options.unit,
    kubeletVersion: options.kubeletVersion,
    kubeletFlavor: options.kubeletFlavor,
    versionProbeTimeoutMs: options.versionProbeTimeoutMs ?? 2000,
  });
  return evaluate(model, { fallback: options.fallback });
}
