/**
 * The fallback plan as data (docs/fallback.md "What it does"): what to write and remove, and why. Made by
 * plan.ts and revert-plan.ts, carried out by apply.ts.
 */
import type { FallbackState } from './state.js';

export type FallbackAction = 'apply' | 'revert' | 'keep' | 'none' | 'refuse';

/** Why a plan refuses: the CLI maps 'undecidable' to exit 2 and the others to exit 1. */
export type FallbackRefusal =
  /** node-check cannot tell what kubelet would do (unit unreadable, version-dependent answer…). */
  | 'undecidable'
  /** Kubelet would fail for a reason that has nothing to do with credential providers. */
  | 'not-credential'
  /** Even without the failing providers kubelet would not start. */
  | 'would-still-fail'
  /** Something else is in the way: another unit's fallback, a drop-in that overrides ours. */
  | 'conflict';

export interface FallbackWrite {
  readonly path: string;
  readonly content: string;
  readonly mode: number;
}

export interface FallbackPlan {
  readonly action: FallbackAction;
  readonly reason: string;
  /**
   * In the order they are written: the record first, then the filtered config, then the drop-in
   * that points to it. A crash between two writes leaves the old configuration in effect.
   */
  readonly writes: readonly FallbackWrite[];
  /**
   * In the order they are removed: the drop-in before the config it points to, the record last.
   * A path ending in "/" is a directory, removed only when empty.
   */
  readonly removes: readonly string[];
  readonly removedProviders: readonly string[];
  readonly keptProviders: readonly string[];
  /** The record once the plan is applied; undefined when no fallback remains. */
  readonly state?: FallbackState;
  readonly unit: string;
  readonly refusal?: FallbackRefusal;
  /** The argv systemd gives kubelet under the fallback ('apply' and 'keep'). */
  readonly argv?: readonly string[];
}

export function emptyPlan(unit: string, action: FallbackAction, reason: string): FallbackPlan {
  return { action, reason, writes: [], removes: [], removedProviders: [], keptProviders: [], unit };
}
