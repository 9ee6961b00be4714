/**
 * One verdict for every start rule and step: kubelet (or systemd) passes, refuses in its own
 * words, or node-check cannot tell, and says why. Plain data. Rules (src/rules/) return it, the
 * start steps (src/start/steps/) return it with their findings, the systemd and host checks return
 * its refusal and cannot-tell halves in lists (src/systemd-preconditions/outcome.ts).
 */
import type { FindingId } from '../catalog/findings.js';

/** Why kubelet (or systemd) refuses to start, in its own words. */
export interface Refusal {
  /** Finding id (documented in the catalog and by `node-check explain`). */
  readonly findingId: FindingId;
  /** One sentence for people. */
  readonly message: string;
  readonly remediation: string;
  /**
   * The text kubelet prints as err="…", exact for this version; for systemd, the journal MESSAGE
   * of PID 1 (with the "<unit>: " prefix systemd puts in front).
   */
  readonly kubeletError: string;
  /** The stable part of the journal line, e.g. `"command failed" err="failed to parse kubelet flag: unknown flag: --x"`. */
  readonly logLine?: string;
  /** Exit status: 1 for kubelet's errors, 255 for klog.Fatalf, 203 for systemd's EXEC failure. */
  readonly exitStatus?: number;
  readonly path?: string;
  readonly provider?: string;
  /** The verdict is certain but the exact text is not (e.g. Go map order picks one of several errors). */
  readonly inexact?: boolean;
  /** systemd's Result= for the unit after the failure ('resources', 'exit-code'). */
  readonly systemdResult?: string;
  /** Every journal line systemd logs for the failure, in order (the first is kubeletError). */
  readonly systemdLines?: readonly string[];
}

/** node-check cannot tell: the reason is a sentence. */
export interface CannotTell {
  readonly undecidable: string;
  readonly path?: string;
  /** The finding this would have been, when known. */
  readonly findingId?: FindingId;
}

export type Verdict = { readonly pass: true } | { readonly fail: Refusal } | CannotTell;

export const PASS: Verdict = { pass: true };

/** "cannot tell", with the file it is about when there is one. */
export function cannotTell(reason: string, path?: string): CannotTell {
  return path ? { undecidable: reason, path } : { undecidable: reason };
}

/**
 * What an emulated Go or Kubernetes function answers before kubelet wraps its error: nil, the
 * error's text (inexact when Go's map order picks one of several), or cannot tell. `Failed` and
 * `Undecided` add what a function always says with them (the file it is about). A rule turns it
 * into a Verdict in kubelet's words (src/rules/rule.ts).
 */
export type GoAnswer<Failed extends object = object, Undecided extends object = Failed> =
  | { readonly ok: true }
  | ({ readonly ok: false; readonly error: string; readonly inexact?: boolean; readonly path?: string } & Failed)
  | (CannotTell & Undecided);
