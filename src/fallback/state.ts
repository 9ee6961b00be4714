/**
 * The fallback's record, /run/node-check/fallback.json: what was removed, since when, why, and which
 * files it wrote. It is written before the fallback's other files and removed after them
 * (apply.ts), so whenever one of those files exists the record does too.
 *
 * Reading tolerates anything: a missing, unreadable or garbled record is "no state" with a problem
 * that says so; a drop-in left without a record is still reported (and can be reverted).
 */
import type { RootFs } from '../host/root-fs.js';
import type { FallbackStatus } from '../model/report.js';
import { parseUnitName } from '../systemd/unit-name.js';
import { dropInPath, FALLBACK_STATE_PATH, filteredConfigPath } from './paths.js';
import { lazyBuiltin } from '../host/builtins.js';

export interface FallbackState {
  /** ISO 8601: when the fallback was first applied (kept while it is re-planned). */
  readonly since: string;
  readonly reason: string;
  readonly removedProviders: readonly string[];
  readonly dropInPath: string;
  readonly filteredConfigPath?: string;
  readonly unit: string;
  /** fallbackDigest of the files the fallback wrote, so a later run can tell they are intact. */
  readonly digest?: string;
}

export interface FallbackStateReading {
  /** The record, or one recovered from a drop-in found without a record. */
  readonly state?: FallbackState;
  /** True when the fallback drop-in is on disk (systemd applies it at the next reload). */
  readonly active: boolean;
  /** True when the files on disk are exactly the ones the record describes. */
  readonly intact: boolean;
  /** What was wrong with the record or the files, one sentence each, naming the file. */
  readonly problems: readonly string[];
}

const STATE_MAX_BYTES = 64 * 1024;

export function readFallbackState(fs: RootFs, options: { readonly unit?: string; readonly now?: Date } = {}): FallbackStateReading {
  const problems: string[] = [];
  const recorded = readRecord(fs, problems);
  if (!recorded) return recoverOrphan(fs, options.unit ?? 'kubelet.service', options.now ?? new Date(), problems);

  const dropIn = fs.readFile(recorded.dropInPath, STATE_MAX_BYTES);
  const filtered = recorded.filteredConfigPath ? fs.readFile(recorded.filteredConfigPath, 4 * 1024 * 1024) : undefined;
  const onDisk = [
    ...(dropIn.ok ? [{ path: recorded.dropInPath, content: dropIn.data.toString('utf8') }] : []),
    ...(filtered?.ok ? [{ path: recorded.filteredConfigPath!, content: filtered.data.toString('utf8') }] : []),
  ];
  const complete = dropIn.ok && (filtered === undefined || filtered.ok);
  const intact = complete && recorded.digest !== undefined && fallbackDigest(onDisk) === recorded.digest;
  if (!dropIn.ok) problems.push(`${FALLBACK_STATE_PATH} records a fallback, but its drop-in ${recorded.dropInPath} is not there (${dropIn.code}): the fallback is not in effect.`);
  else if (!intact) problems.push(`The fallback files under /run differ from what ${FALLBACK_STATE_PATH} records; they will be rewritten or removed on the next plan.`);
  const { digest: _digest, ...withoutDigest } = recorded;
  return { state: intact ? recorded : withoutDigest, active: dropIn.ok, intact, problems };
}

/** The record as stored (one JSON object, schemaVersion 1). */
export function serializeFallbackState(state: FallbackState): string {
  return `${JSON.stringify({ schemaVersion: 1, ...state }, null, 2)}\n`;
}

/** Parses a stored record; a problem names the file and line when it is not one. */
export function parseFallbackState(text: string, path = FALLBACK_STATE_PATH): { state: FallbackState } | { problem: string } {
  let value: unknown;
  try {
    value = JSON.parse(text);
  } catch (error) {
    return { problem: `${path}:${jsonErrorLine(text, error as Error)}: not valid JSON; treated as no fallback state.` };
  }
  const bad = (why: string) => ({ problem: `${path}: ${why}; treated as no fallback state.` });
  if (!value || typeof value !== 'object' || Array.isArray(value)) return bad('not a JSON object');
  const v = value as Record<string, unknown>;
  if (typeof v['unit'] !== 'string' || !parseUnitName(v['unit'])) return bad('"unit" is not a unit name');
  const unit = v['unit'];
  if (typeof v['since'] !== 'string' || Number.isNaN(Date.parse(v['since']))) return bad('"since" is not an ISO 8601 time');
  if (typeof v['reason'] !== 'string') return bad('"reason" is not a string');
  const removed = v['removedProviders'];
  if (!Array.isArray(removed) || !removed.every((p) => typeof p === 'string')) return bad('"removedProviders" is not a list of names');
  // Only node-check's own paths: a crafted record must never make a revert delete anything else.
  if (v['dropInPath'] !== dropInPath(unit)) return bad(`"dropInPath" is not ${dropInPath(unit)}`);
  const filtered = v['filteredConfigPath'];
  if (filtered !== undefined && filtered !== filteredConfigPath(unit)) return bad(`"filteredConfigPath" is not ${filteredConfigPath(unit)}`);
  const digest = v['digest'];
  if (digest !== undefined && (typeof digest !== 'string' || !/^[0-9a-f]{64}$/.test(digest))) return bad('"digest" is not a sha256');
  return {
    state: {
      since: v['since'],
      reason: v['reason'],
      removedProviders: removed as string[],
      dropInPath: dropInPath(unit),
      ...(filtered !== undefined ? { filteredConfigPath: filteredConfigPath(unit) } : {}),
      unit,
      ...(digest !== undefined ? { digest: digest as string } : {}),
    },
  };
}


/** A digest of file contents, independent of order. */
export function fallbackDigest(files: readonly { readonly path: string; readonly content: string }[]): string {
  // node:crypto: only a recorded fallback needs a digest (start-path cost).
  const { createHash } = lazyBuiltin('node:crypto');
  const hash = createHash('sha256');
  for (const file of [...files].sort((a, b) => (a.path < b.path ? -1 : a.path > b.path ? 1 : 0))) {
    hash.update(file.path).update('\0').update(file.content).update('\0');
  }
  return hash.digest('hex');
}

/** The "fallback" section of a report (docs/json.md "fallback") from what is on disk. */
export function fallbackStatus(reading: FallbackStateReading, enabled: boolean): FallbackStatus {
  const { state } = reading;
  if (!reading.active || !state) return { enabled, active: false };
  return { enabled, active: true, reason: state.reason, since: state.since, removedProviders: state.removedProviders, dropInPath: state.dropInPath };
}

/** The first comment lines of the drop-in (plan.ts writes them; recovery reads them back). */
export function dropInHeader(unit: string, since: string, removedProviders: readonly string[]): string[] {
  return [
    `# node-check fallback for ${commentSafe(unit)}, active since ${commentSafe(since)}.`,
    `# Removed credential providers: ${removedProviders.length > 0 ? removedProviders.map(commentSafe).join(' ') : '(none known)'}`,
  ];
}

/**
 * Text for a comment in a unit file or in YAML: no C0 control (a space instead), no backslash
 * (systemd 239 continues a comment ending in one), and no C1 control, line or paragraph separator
 * or bidi control (U+FFFD instead): go-yaml breaks lines at U+0085, U+2028 and U+2029, and U+009B
 * or U+202E would act on a terminal showing the file (pinned by test/hostile/secrets-and-names.test.ts).
 */
export function commentSafe(text: string): string {
  return text
    .replace(/[\x00-\x1f\x7f]/g, ' ')
    .replace(/[\u0080-\u009f\u2028\u2029\u200e\u200f\u202a-\u202e\u2066-\u2069\ufeff]/g, '\ufffd')
    .replace(/[\ud800-\udbff](?![\udc00-\udfff])|(?<![\ud800-\udbff])[\udc00-\udfff]/g, '\ufffd')
    .replace(/\\/g, '/');
}

function readRecord(fs: RootFs, problems: string[]): FallbackState | undefined {
  const read = fs.readFile(FALLBACK_STATE_PATH, STATE_MAX_BYTES);
  if (!read.ok) {
    if (read.code !== 'ENOENT') problems.push(`${FALLBACK_STATE_PATH}: cannot be read (${read.code}); treated as no fallback state.`);
    return undefined;
  }
  const parsed = parseFallbackState(read.data.toString('utf8'));
  if ('problem' in parsed) {
    problems.push(parsed.problem);
    return undefined;
  }
  return parsed.state;
}

/** A drop-in without a record (the record was garbled or deleted): report it so it can be reverted. */
function recoverOrphan(fs: RootFs, unit: string, now: Date, problems: string[]): FallbackStateReading {
  if (!parseUnitName(unit)) return { active: false, intact: false, problems };
  const path = dropInPath(unit);
  const dropIn = fs.readFile(path, STATE_MAX_BYTES);
  if (!dropIn.ok) return { active: false, intact: false, problems };
  const text = dropIn.data.toString('utf8');
  const since = /^# node-check fallback for \S+, active since (\S+)\.$/m.exec(text)?.[1];
  const removed = /^# Removed credential providers: (.*)$/m.exec(text)?.[1];
  const filtered = fs.stat(filteredConfigPath(unit));
  problems.push(`${path} exists without a valid ${FALLBACK_STATE_PATH}; it is reported as an active fallback so that it can be reverted.`);
  return {
    state: {
      since: since && !Number.isNaN(Date.parse(since)) ? since : now.toISOString(),
      reason: `recovered from ${path} (the fallback record was missing or unreadable)`,
      removedProviders: removed && removed !== '(none known)' ? removed.split(' ').filter(Boolean) : [],
      dropInPath: path,
      ...(filtered.ok ? { filteredConfigPath: filteredConfigPath(unit) } : {}),
      unit,
    },
    active: true,
    intact: false,
    problems,
  };
}

/** The 1-based line of a JSON.parse error, from the position Node reports. */
function jsonErrorLine(text: string, error: Error): number {
  const lineColumn = /line (\d+) column \d+/.exec(error.message);
  if (lineColumn) return Number(lineColumn[1]);
  const position = /position (\d+)/.exec(error.message);
  const offset = position ? Number(position[1]) : text.length;
  return text.slice(0, offset).split('\n').length;
}
