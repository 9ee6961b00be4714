/**
 * Kubelet's start, replayed for one minor: the start checks run in the order systemd and kubelet
 * meet them (start-sequence.ts) and the first failure ends the run, as it ends kubelet. A step
 * node-check cannot decide does not end it: if a later step fails, kubelet fails either way (only
 * the text it prints is then uncertain); if none does, the answer is "cannot tell".
 */
import type { Finding } from '../model/findings.js';
import type { StartCheck, StartFailure } from './start-check.js';
import type { StartContext } from './start-context.js';

export interface UndecidedStep {
  readonly checkId: string;
  readonly reason: string;
  readonly path?: string;
}

export interface StartSimulation {
  readonly minor: number;
  /** The first failure in start order; its text is marked inexact when an undecided step came before it. */
  readonly failure?: StartFailure & { readonly checkId: string };
  /** Steps node-check could not decide (before the failure, or all of them when none failed). */
  readonly undecided: readonly UndecidedStep[];
  /** Warnings and notes from the steps that ran. */
  readonly findings: readonly Finding[];
}

export function simulateStart(context: StartContext, checks: readonly StartCheck[]): StartSimulation {
  const undecided: UndecidedStep[] = [];
  const findings: Finding[] = [];
  for (const check of checks) {
    if (!check.appliesTo(context.minor)) continue;
    const outcome = check.run(context);
    findings.push(...(outcome.findings ?? []));
    if ('fail' in outcome) {
      const inexact = outcome.fail.inexact === true || undecided.length > 0;
      return { minor: context.minor, failure: { ...outcome.fail, checkId: check.id, ...(inexact ? { inexact } : {}) }, undecided, findings };
    }
    if ('undecidable' in outcome) undecided.push({ checkId: check.id, reason: outcome.undecidable, ...(outcome.path ? { path: outcome.path } : {}) });
  }
  return { minor: context.minor, undecided, findings };
}

/** true: starts; false: refuses; null: cannot tell. */
export function startVerdict(simulation: StartSimulation): boolean | null {
  if (simulation.failure) return false;
  return simulation.undecided.length > 0 ? null : true;
}
