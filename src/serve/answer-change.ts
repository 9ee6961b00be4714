/**
 * What serve says when a check's answer differs from the last one it logged: the prediction, the
 * finding ids that came and went, and the fallback, in one line. Only a difference in these is
 * logged (and journaled), so a re-check that finds the same answer says nothing. Pure.
 */
import type { Report } from '../model/report.js';

export interface Answer {
  readonly kubeletWillStart: boolean | null;
  /** The distinct finding ids, sorted. */
  readonly findingIds: readonly string[];
  readonly fallbackActive: boolean;
}

export function answerOf(report: Report): Answer {
  return {
    kubeletWillStart: report.kubeletWillStart,
    findingIds: [...new Set(report.findings.map((f) => f.id))].sort(),
    fallbackActive: report.fallback.active,
  };
}

export function sameAnswer(a: Answer, b: Answer): boolean {
  return a.kubeletWillStart === b.kubeletWillStart && a.fallbackActive === b.fallbackActive && a.findingIds.join('\n') === b.findingIds.join('\n');
}

const prediction = (willStart: boolean | null) => (willStart === true ? 'is predicted to start' : willStart === false ? 'will NOT start' : 'start cannot be predicted');

/** The line to log, or undefined when nothing of the answer changed. */
export function describeAnswerChange(previous: Answer | undefined, current: Answer): string | undefined {
  if (previous === undefined) return `first check: kubelet ${prediction(current.kubeletWillStart)}${current.findingIds.length > 0 ? ` (${current.findingIds.join(', ')})` : ''}${current.fallbackActive ? '; fallback active' : ''}`;
  if (sameAnswer(previous, current)) return undefined;
  const reasons: string[] = [];
  const added = current.findingIds.filter((id) => !previous.findingIds.includes(id));
  const gone = previous.findingIds.filter((id) => !current.findingIds.includes(id));
  if (added.length > 0) reasons.push(`new: ${added.join(', ')}`);
  if (gone.length > 0) reasons.push(`gone: ${gone.join(', ')}`);
  if (previous.fallbackActive !== current.fallbackActive) reasons.push(current.fallbackActive ? 'fallback now active' : 'fallback no longer active');
  const head =
    previous.kubeletWillStart === current.kubeletWillStart
      ? `findings changed, the prediction did not: kubelet ${prediction(current.kubeletWillStart)}`
      : `answer changed: kubelet ${prediction(current.kubeletWillStart)} (before: ${prediction(previous.kubeletWillStart)})`;
  return `${head}; ${reasons.join('; ')}`;
}
