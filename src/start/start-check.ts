/**
 * A start precondition is a small value, like kubeadm preflight's Checker and like the credential
 * checks: a stable id, the kubelet minors it models, and a pure function from the node (one
 * kubelet minor at a time) to an outcome. The start sequence (start-sequence.ts) orders them the
 * way systemd and kubelet meet them, and the first failure decides, exactly as kubelet stops at
 * its first error.
 */
import type { Finding } from '../model/findings.js';
import type { StartContext } from './start-context.js';
import type { Refusal, Verdict } from '../model/verdict.js';
import { PASS } from '../model/verdict.js';

/** What refuses: systemd before kubelet runs, or kubelet at one of its start steps. */
export type StartStage = 'systemd' | 'kubelet';

/** Why kubelet (or systemd) refuses to start, in its own words (src/model/verdict.ts). */
export type StartFailure = Refusal;

/** A step's verdict, with the warnings and notes of the step. */
export type StepOutcome = Verdict & { readonly findings?: readonly Finding[] };

export interface StartCheck {
  readonly id: string;
  readonly title: string;
  readonly stage: StartStage;
  /** The kubelet minors whose behaviour this check models (sources are cited in each check). */
  appliesTo(minor: number): boolean;
  run(context: StartContext): StepOutcome;
}

export { PASS };

/**
 * A failure of one of kubelet's own start steps: kubelet exits 1 (unless said otherwise) and logs
 * the error in this minor's fatal-line shape (src/kubelet/data/start-sequence.ts).
 */
export function kubeletFails(context: StartContext, failure: Omit<StartFailure, 'logLine' | 'exitStatus'> & { readonly exitStatus?: number }): StepOutcome {
  const logLine = context.fatalLogLine(failure.kubeletError);
  return { fail: { ...failure, exitStatus: failure.exitStatus ?? 1, ...(logLine ? { logLine } : {}) } };
}
