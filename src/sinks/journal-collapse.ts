/**
 * preflight's journal entries with repeats collapsed per boot: reads the record, lets
 * journal-repeats.ts decide, and keeps the new record once the entries are written. Any trouble
 * with the record means every entry is written (the journal is never the price of a bad record),
 * and is reported as a problem.
 */
import { decideRepeats, type RepeatDecision } from './journal-repeats.js';
import { readRepeatState, writeRepeatState } from './journal-repeat-store.js';
import { ownSystemdUnit, readBootId } from '../discover/own-process.js';
import type { JournalEntry } from './journal-entry.js';

export interface Collapsed {
  readonly write: readonly JournalEntry[];
  /** Entries held back as repeats. */
  readonly suppressed: number;
  /** Records what was decided; call after writing. Returns a problem to report, if any. */
  readonly commit: () => string | undefined;
}

export function collapseRepeats(entries: readonly JournalEntry[], root: string, nowMs: number): Collapsed {
  let decision: RepeatDecision;
  try {
    const reading = readRepeatState(root);
    // No /run under the root: a file tree, not a node; nothing is kept and nothing held back.
    if (reading.kind === 'no-run-dir') return { write: entries, suppressed: 0, commit: () => undefined };
    // A clean run with no record: nothing to remember (a clean node writes nothing under /run).
    if (entries.length === 0 && reading.state === undefined) return { write: entries, suppressed: 0, commit: () => undefined };
    decision = decideRepeats(entries, { previous: reading.state, bootId: readBootId(), scope: ownSystemdUnit(), nowMs });
  } catch (error) {
    const problem = `journal repeats not collapsed: ${(error as Error).message}`;
    return { write: entries, suppressed: 0, commit: () => problem };
  }
  return {
    write: decision.write,
    suppressed: decision.suppressed,
    commit: () => {
      try {
        writeRepeatState(root, decision.next);
        return undefined;
      } catch (error) {
        return `journal repeats not recorded: ${(error as Error).message}`;
      }
    },
  };
}
