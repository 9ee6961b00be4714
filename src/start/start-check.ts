/**
 * A start precondition is a small value, like kubeadm preflight's Checker and like the credential
 * checks: a stable id, the kubelet minors it models, and a pure function from the node (one
 * kubelet minor at a time) to an outcome. The start sequence (start-sequence.ts) orders them the
 * way systemd and kubelet meet them, and the first failure decides, exactly as kubelet stops at
 * its first error.
 */
import type { Finding } from '../model/findings.js';
import type { StartContext } from './start-context.js';
import type { FindingId } from '../catalog/findings.js';

/** What refuses: systemd before kubelet runs, or kubelet at one of its start steps. */
export type StartStage = 'systemd' | 'kubelet';

/** Why kubelet (or systemd) refuses to start, in its own words. */
export interface StartFailure {
  /** Finding id (documented in the catalog and by `node-check explain`). */
  readonly findingId: FindingId;
  /** One sentence for people. */
  readonly message: string;
  readonly remediation: string;
  /** The text kubelet prints as err="…" (or systemd's journal line), exact for this version. */
  readonly kubeletError: string;
  /** The stable part of the journal line, e.g. `"command failed" err="failed to parse kubelet flag: unknown flag: --x"`. */
  readonly logLine?: string;
  /** Exit status: 1 for kubelet's errors, 255 for klog.Fatalf, 203 for systemd's EXEC failure. */
  readonly exitStatus?: number;
  readonly path?: string;
  readonly provider?: string;
  /** The verdict is certain but the exact text is not (e.g. Go map order picks one of several errors). */
  readonly inexact?: boolean;
}

export type StepOutcome =
  | { readonly pass: true; readonly findings?: readonly Finding[] }
  | { readonly fail: StartFailure; readonly findings?: readonly Finding[] }
  /** node-check cannot tell whether this step passes; the reason is a sentence. */
  | { readonly undecidable: string; readonly path?: string; readonly findings?: readonly Finding[] };

export interface StartCheck {
  readonly id: string;
  readonly title: string;
  readonly stage: StartStage;
  /** The kubelet minors whose behaviour this check models (sources are cited in each check). */
  appliesTo(minor: number): boolean;
  run(context: StartContext): StepOutcome;
}

export const PASS: StepOutcome = { pass: true };

/**
 * A failure of one of kubelet's own start steps: kubelet exits 1 (unless said otherwise) and logs
 * the error in this minor's fatal-line shape (src/kubelet/data/start-sequence.ts).
 */
export function kubeletFails(context: StartContext, failure: Omit<StartFailure, 'logLine' | 'exitStatus'> & { readonly exitStatus?: number }): StepOutcome {
  const logLine = context.fatalLogLine(failure.kubeletError);
  return { fail: { ...failure, exitStatus: failure.exitStatus ?? 1, ...(logLine ? { logLine } : {}) } };
}
