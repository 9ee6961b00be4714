/**
 * The per-boot record of what preflight wrote to the journal (journal-repeats.ts decides), kept in
 * ROOT/run/node-check/journal/repeats.json: /run is a tmpfs, so the record goes with the boot
 * (and its boot id is checked too). A subdirectory, because serve watches /run/node-check itself
 * and must not re-check on every preflight.
 *
 * Never in the way of the journal: a record that is missing, damaged, too big or from another
 * boot means "nothing written yet" and every entry is written; a root without /run (a file tree,
 * not a node) keeps no record. The directory is opened without following symlinks and the file
 * is replaced atomically (src/host/). Two runs at once may lose one's update (never two of one
 * unit: systemd runs a unit's commands in turn); the cost is at most one extra entry.
 */
import { closeSync, constants, fstatSync, openSync, readSync } from 'node:fs';
import { join, posix } from 'node:path';
import { openDirectoryBelow } from '../host/safe-dir.js';
import { replaceFileAtomically } from '../host/atomic-file.js';
import { MAX_ENTRIES_PER_SCOPE, MAX_SCOPES, REPEAT_STATE_VERSION, type RepeatState, type ScopeState, type SeenEntry } from './journal-repeats.js';

export const REPEAT_STATE_PATH = '/run/node-check/journal/repeats.json';
const DIR_PARTS = posix.dirname(REPEAT_STATE_PATH).split('/').filter(Boolean);
const FILE_NAME = posix.basename(REPEAT_STATE_PATH);
/** Far above what the bounds in journal-repeats.ts let the file grow to (about 80 KiB). */
export const MAX_STATE_BYTES = 256 * 1024;

export type StateReading = { readonly kind: 'no-run-dir' } | { readonly kind: 'read'; readonly state: RepeatState | undefined };

/** The record under `root`, or why there is none to keep. Throws only for an unsafe directory (a symlink). */
export function readRepeatState(root: string): StateReading {
  const run = openDirectoryBelow(root, DIR_PARTS.slice(0, 1));
  if (run === undefined) return { kind: 'no-run-dir' };
  run.close();
  const dir = openDirectoryBelow(root, DIR_PARTS);
  if (dir === undefined) return { kind: 'read', state: undefined };
  try {
    return { kind: 'read', state: parseRepeatState(readBounded(join(dir.at, FILE_NAME))) };
  } finally {
    dir.close();
  }
}

export function writeRepeatState(root: string, state: RepeatState): void {
  const dir = openDirectoryBelow(root, DIR_PARTS, { create: true, mode: 0o755 })!;
  try {
    // 0644: counts and finding ids, nothing secret; an operator may read it to see what was held back.
    replaceFileAtomically(dir.at, FILE_NAME, `${JSON.stringify(state)}\n`, 0o644);
  } finally {
    dir.close();
  }
}

function readBounded(file: string): string | undefined {
  let fd: number;
  try {
    fd = openSync(file, constants.O_RDONLY | constants.O_NOFOLLOW | constants.O_NONBLOCK);
  } catch {
    return undefined; // missing, or a symlink: no record
  }
  try {
    const stat = fstatSync(fd);
    if (!stat.isFile() || stat.size > MAX_STATE_BYTES) return undefined;
    const buffer = Buffer.alloc(MAX_STATE_BYTES + 1);
    const length = readSync(fd, buffer, 0, buffer.length, 0);
    return length > MAX_STATE_BYTES ? undefined : buffer.subarray(0, length).toString('utf8');
  } catch {
    return undefined;
  } finally {
    closeSync(fd);
  }
}

/** The record, checked field by field; anything unexpected gives undefined (start over). Pure. */
export function parseRepeatState(text: string | undefined): RepeatState | undefined {
  if (text === undefined) return undefined;
  let value: unknown;
  try {
    value = JSON.parse(text);
  } catch {
    return undefined;
  }
  if (!isObject(value) || value['version'] !== REPEAT_STATE_VERSION || typeof value['bootId'] !== 'string' || value['bootId'].length > 64) return undefined;
  const scopes = value['scopes'];
  if (!isObject(scopes) || Object.keys(scopes).length > MAX_SCOPES) return undefined;
  const parsed: Record<string, ScopeState> = {};
  for (const [scope, raw] of Object.entries(scopes)) {
    const state = parseScope(raw);
    if (state === undefined || scope.length > 256) return undefined;
    parsed[scope] = state;
  }
  return { version: REPEAT_STATE_VERSION, bootId: value['bootId'], scopes: parsed };
}

const FINGERPRINT = /^[0-9a-f]{32}$/;

function parseScope(raw: unknown): ScopeState | undefined {
  if (!isObject(raw) || !Array.isArray(raw['lastRun']) || !isObject(raw['seen'])) return undefined;
  const lastRun = raw['lastRun'];
  if (lastRun.length > MAX_ENTRIES_PER_SCOPE || !lastRun.every((f): f is string => typeof f === 'string' && FINGERPRINT.test(f))) return undefined;
  const seen: Record<string, SeenEntry> = {};
  const entries = Object.entries(raw['seen']);
  if (entries.length > MAX_ENTRIES_PER_SCOPE) return undefined;
  for (const [fingerprint, entry] of entries) {
    if (!FINGERPRINT.test(fingerprint) || !isObject(entry)) return undefined;
    const { id, count, loggedAt, lastSeenAt } = entry;
    if (typeof id !== 'string' || id.length > 128 || !Number.isSafeInteger(count) || (count as number) < 1) return undefined;
    if (!Number.isFinite(loggedAt) || !Number.isFinite(lastSeenAt)) return undefined;
    seen[fingerprint] = { id, count: count as number, loggedAt: loggedAt as number, lastSeenAt: lastSeenAt as number };
  }
  return { lastRun, seen };
}

function isObject(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}
