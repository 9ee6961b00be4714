/**
 * Which journal entries a run writes, given what earlier runs of this boot wrote.
 * Pure: the state comes in and goes out as data (journal-repeat-store.ts reads and writes it).
 *
 * Kubelet crash-loops every RestartSec (10 s on OpenShift), and preflight runs before every start:
 * without this, each finding would be written 360 times an hour until someone fixes the node. An
 * entry is written when it is news, and otherwise only as a reminder that carries the count:
 *  - news: the first time this boot, or back after a run without it (the finding set changed);
 *  - reminders: when the count reaches 10, 100, 1000, ..., or an hour after it was last written.
 * A crash loop then writes about 26 entries per finding per day instead of 8,640.
 *
 * Entries are told apart by a fingerprint of all their fields (the message, paths, providers,
 * kubelet version, ...), so any change in what node-check would say is news. Runs are counted per
 * scope, the systemd unit node-check runs in: node-check-precheck.service and kubelet's own
 * ExecStartPre both run before every kubelet start, and `journalctl -u kubelet` must still show
 * kubelet's copy.
 */
import { sanitizeJournalValue, MAX_MESSAGE_LENGTH } from './journal-value.js';
import { journalField, type JournalEntry, type JournalFieldName } from './journal-entry.js';
import { lazyBuiltin } from '../host/builtins.js';

export const REPEAT_STATE_VERSION = 1;
/** A reminder at least this often while a finding persists. */
export const REMINDER_INTERVAL_MS = 60 * 60 * 1000;
/** Bounds on the state (and so on its file): scopes kept, and entries remembered per scope. */
export const MAX_SCOPES = 8;
export const MAX_ENTRIES_PER_SCOPE = 64;

/** One entry as remembered: how often it was due this boot, and when it was last written. */
export interface SeenEntry {
  /** The finding id, so that a person reading the state file knows what the fingerprint is. */
  readonly id: string;
  readonly count: number;
  /** ms since the epoch. */
  readonly loggedAt: number;
  readonly lastSeenAt: number;
}

export interface ScopeState {
  /** Fingerprints of this scope's last run: what is not among them is news. */
  readonly lastRun: readonly string[];
  readonly seen: Readonly<Record<string, SeenEntry>>;
}

export interface RepeatState {
  readonly version: typeof REPEAT_STATE_VERSION;
  /** /proc/sys/kernel/random/boot_id: counts are per boot, even where /run outlives one. */
  readonly bootId: string;
  readonly scopes: Readonly<Record<string, ScopeState>>;
}

export type WriteReason = 'first' | 'returned' | 'count' | 'hour';

export interface RepeatDecision {
  /** The entries to write now, in the run's order; reminders carry NODE_CHECK_REPEAT_COUNT. */
  readonly write: readonly JournalEntry[];
  /** Why each written entry was written (same order as `write`). */
  readonly reasons: readonly WriteReason[];
  /** How many entries were held back as repeats. */
  readonly suppressed: number;
  readonly next: RepeatState;
}

export interface RepeatInput {
  /** The state read from /run, or undefined when there is none (or it could not be used). */
  readonly previous: RepeatState | undefined;
  readonly bootId: string;
  /** The systemd unit this run belongs to ('' when unknown). */
  readonly scope: string;
  readonly nowMs: number;
}

/** Fields that differ between runs without the entry saying anything new. */
const NOT_FINGERPRINTED: ReadonlySet<JournalFieldName> = new Set<JournalFieldName>(['SYSLOG_PID', 'NODE_CHECK_REPEAT_COUNT']);


export function entryFingerprint(entry: JournalEntry): string {
  const fields = entry.fields.filter(([name]) => !NOT_FINGERPRINTED.has(name));
  // node:crypto: only preflight runs that write the journal need it (start-path cost).
  const { createHash } = lazyBuiltin('node:crypto');
  return createHash('sha256').update(JSON.stringify(fields)).digest('hex').slice(0, 32);
}

/** 10, 100, 1000, ...: a reminder is due when the count reaches a power of ten. */
export function isReminderCount(count: number): boolean {
  if (!Number.isSafeInteger(count) || count < 10) return false;
  let n = count;
  while (n % 10 === 0) n /= 10;
  return n === 1;
}

export function decideRepeats(entries: readonly JournalEntry[], input: RepeatInput): RepeatDecision {
  const fresh = input.previous === undefined || input.previous.version !== REPEAT_STATE_VERSION || input.previous.bootId !== input.bootId;
  const scopes: Record<string, ScopeState> = fresh ? {} : { ...input.previous!.scopes };
  const scope = scopes[input.scope] ?? { lastRun: [], seen: {} };
  const lastRun = new Set(scope.lastRun);
  const seen: Record<string, SeenEntry> = { ...scope.seen };

  const write: JournalEntry[] = [];
  const reasons: WriteReason[] = [];
  const thisRun: string[] = [];
  let suppressed = 0;
  for (const entry of entries) {
    const fingerprint = entryFingerprint(entry);
    // One run never has two entries with the same fields, but if it did they are one finding.
    if (thisRun.includes(fingerprint)) continue;
    thisRun.push(fingerprint);
    const before = seen[fingerprint];
    const count = (before?.count ?? 0) + 1;
    const reason: WriteReason | undefined =
      before === undefined
        ? 'first'
        : !lastRun.has(fingerprint)
          ? 'returned'
          : isReminderCount(count)
            ? 'count'
            : Math.abs(input.nowMs - before.loggedAt) >= REMINDER_INTERVAL_MS // a clock set back counts too
              ? 'hour'
              : undefined;
    const id = journalField(entry, 'NODE_CHECK_FINDING_ID') ?? '';
    seen[fingerprint] = { id, count, loggedAt: reason === undefined ? before!.loggedAt : input.nowMs, lastSeenAt: input.nowMs };
    if (reason === undefined) {
      suppressed++;
      continue;
    }
    write.push(count > 1 ? withRepeatCount(entry, count) : entry);
    reasons.push(reason);
  }

  scopes[input.scope] = { lastRun: thisRun, seen: newest(seen, MAX_ENTRIES_PER_SCOPE, thisRun) };
  return { write, reasons, suppressed, next: { version: REPEAT_STATE_VERSION, bootId: input.bootId, scopes: boundScopes(scopes, input.scope) } };
}

/** The entry as a reminder: "... (seen N times since boot)" and NODE_CHECK_REPEAT_COUNT=N. */
export function withRepeatCount(entry: JournalEntry, count: number): JournalEntry {
  const suffix = ` (seen ${count} times since boot)`;
  const fields = entry.fields.map(([name, value]): readonly [JournalFieldName, string] =>
    // The message is cut before the suffix, so the count survives a message at the length limit.
    name === 'MESSAGE' ? [name, sanitizeJournalValue(value, MAX_MESSAGE_LENGTH - suffix.length) + suffix] : [name, value],
  );
  return { fields: [...fields.filter(([name]) => name !== 'NODE_CHECK_REPEAT_COUNT'), ['NODE_CHECK_REPEAT_COUNT', String(count)]] };
}

/** The most recently seen entries, this run's always kept (a run has far fewer finding kinds than the bound). */
function newest(seen: Record<string, SeenEntry>, max: number, keep: readonly string[]): Record<string, SeenEntry> {
  const ranked = Object.entries(seen).sort(([a, x], [b, y]) => Number(keep.includes(b)) - Number(keep.includes(a)) || y.lastSeenAt - x.lastSeenAt);
  return Object.fromEntries(ranked.slice(0, Math.max(max, keep.length)));
}

function boundScopes(scopes: Record<string, ScopeState>, current: string): Record<string, ScopeState> {
  const lastSeen = (s: ScopeState) => Math.max(0, ...Object.values(s.seen).map((e) => e.lastSeenAt));
  const ranked = Object.entries(scopes).sort(([a, x], [b, y]) => Number(b === current) - Number(a === current) || lastSeen(y) - lastSeen(x));
  return Object.fromEntries(ranked.slice(0, MAX_SCOPES));
}
