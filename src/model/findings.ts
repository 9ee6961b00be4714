/**
 * A finding is one thing node-check has to say about the node (docs/json.md "finding"; the catalog in docs/findings.md).
 * Renderers, sinks and the fallback planner consume findings; they never re-derive them.
 */

import type { FindingId } from '../catalog/findings.js';

export type { FindingId } from '../catalog/findings.js';

/** `error` = kubelet will not start; `warning` = it starts but something will hurt; `info` = context. */
export type Severity = 'error' | 'warning' | 'info';

export interface Finding {
  /** Stable kebab-case id, documented in the finding catalog and by `node-check explain <id>`. */
  readonly id: FindingId;
  readonly severity: Severity;
  /** One sentence, in kubelet's terms. */
  readonly message: string;
  /** The file involved, as kubelet sees it (a path on the node, not under --root). */
  readonly path?: string;
  /** The credential provider involved, when there is one. */
  readonly provider?: string;
  /** The command or change that fixes it. */
  readonly remediation: string;
  /** The exact text kubelet of this version logs as err="…" in "Failed to register CRI auth plugins". */
  readonly kubeletError?: string;
  /** The journal line kubelet (or systemd) writes, its stable part: `"command failed" err="…"`. */
  readonly kubeletLogLine?: string;
  /** The verdict is certain but kubelet's exact text is not (see docs/unverified.md). */
  readonly inexact?: boolean;
  /** The kubelet versions this finding holds for, e.g. "1.30-1.35"; set when several were evaluated. */
  readonly versions?: string;
  /** Named by --ignore: still reported, no longer deciding the exit code (Report.ignored). */
  readonly ignored?: true;
}
