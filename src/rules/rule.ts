/**
 * A start rule is one small value: an id, the start step it belongs to (kubelet's order,
 * src/kubelet/data/start-sequence.ts), the catalog entries of the findings it reports, the host
 * facts it reads, and decide(context) → one Verdict (src/model/verdict.ts). A step's rules are one
 * list per folder (src/rules/<step>/index.ts); the step runs them in kubelet's order and the
 * first refusal decides, as it does for kubelet. The catalog (src/catalog/findings.ts) is built
 * from the same lists. How to add one: docs/adding-a-rule.md.
 */
import type { FindingKind } from '../catalog/findings.js';
import type { HostFactName } from '../host-facts/types.js';
import { goSprintf, RUN_WRAP, stepIndex, type StartStepId } from '../kubelet/data/start-sequence.js';
import { PASS, type CannotTell, type Refusal, type Verdict } from '../model/verdict.js';
import type { StartContext } from '../start/start-context.js';

/** A step of kubelet's start, or the container manager's start after "Started kubelet". */
export type RuleStep = StartStepId | 'post-start';

/**
 * A rule value. Declared as `Rule<typeof KINDS>`: the catalog types its finding ids from the rules'
 * own entries, so each rule names the type of its entries rather than have it inferred.
 */
export interface Rule<K extends readonly FindingKind[] = readonly FindingKind[]> {
  /** `<step folder>/<module>`, e.g. `run/cpu-manager`. */
  readonly id: string;
  readonly step: RuleStep;
  /** The catalog entries of the findings this rule reports (`node-check explain`, docs/findings.md). */
  readonly kinds: K;
  /**
   * The kubelet inputs it decides, with what reads them: top-level KubeletConfiguration fields and
   * flags that bind no field (docs/kubelet-inputs.md; src/catalog/inputs.ts takes them from here).
   */
  readonly inputs?: { readonly fields?: Readonly<Record<string, string>>; readonly flags?: Readonly<Record<string, string>> };
  /** Host facts it reads: only on the live root; with another root they are not checked and never change the answer. */
  readonly hostFacts?: readonly HostFactName[];
  decide(context: StartContext): Verdict;
}

/**
 * A step's rules for one minor in kubelet's order: by their step's place in this minor's start
 * sequence (a step the minor lacks sorts after the others, post-start last), in list order
 * within a step.
 */
export function inKubeletOrder<R extends Rule>(minor: number, rules: readonly R[]): R[] {
  const rank = (step: RuleStep) => (step === 'post-start' ? Number.MAX_SAFE_INTEGER : stepIndex(minor, step) ?? Number.MAX_SAFE_INTEGER - 1);
  return rules.map((rule, i) => ({ rule, rank: rank(rule.step), i })).sort((a, b) => a.rank - b.rank || a.i - b.i).map(({ rule }) => rule);
}

/**
 * A step's rules run in kubelet's order (inKubeletOrder): the first refusal decides; a
 * cannot-tell before it makes its words inexact, and with no refusal the first cannot-tell is the
 * step's answer.
 */
export function runRules(context: StartContext, rules: readonly Rule[]): Verdict {
  let undecided: string | undefined;
  for (const rule of inKubeletOrder(context.minor, rules)) {
    const verdict = rule.decide(context);
    if ('undecidable' in verdict) undecided ??= verdict.undecidable;
    if (!('fail' in verdict)) continue;
    return undecided && !verdict.fail.inexact ? { fail: { ...verdict.fail, inexact: true } } : verdict;
  }
  return undecided ? { undecidable: undecided } : PASS;
}

type Words = Omit<Refusal, 'logLine' | 'exitStatus'> & { readonly exitStatus?: number };

/**
 * A failure of one of kubelet's own start steps: kubelet exits 1 (unless said otherwise) and logs
 * the error in this minor's fatal-line shape (src/kubelet/data/start-sequence.ts).
 */
export function kubeletFails(context: StartContext, failure: Words): { readonly fail: Refusal } {
  const logLine = context.fatalLogLine(failure.kubeletError);
  return { fail: { ...failure, exitStatus: failure.exitStatus ?? 1, ...(logLine ? { logLine } : {}) } };
}

/** An error run() returns as it is: Run() adds "failed to run Kubelet: " (RUN_WRAP), kubelet exits 1. */
export function runFails(context: StartContext, inner: string, words: Omit<Words, 'kubeletError'>): { readonly fail: Refusal } {
  return kubeletFails(context, { ...words, kubeletError: goSprintf(RUN_WRAP, inner) });
}

/** The Verdict of a check that answers with kubelet's error (a refusal), a cannot-tell, or nothing (passes). */
export function verdictOf(context: StartContext, outcome: Refusal | CannotTell | undefined): Verdict {
  if (outcome === undefined) return PASS;
  return 'undecidable' in outcome ? outcome : kubeletFails(context, outcome);
}

/** The config file's path as a finding's `path`, when there is one. */
export function atConfig(context: StartContext): { readonly path?: string } {
  const path = context.configPath;
  return path ? { path } : {};
}
