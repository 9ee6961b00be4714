/**
 * The journal entries of one run (docs/operations.md "Journal"), as data: one entry per finding kind, with a fixed
 * MESSAGE_ID from the finding catalog, and their serialization for `logger --journald`. Pure.
 *
 * Field names are the constants below; values come from config files and are sanitized
 * (journal-value.ts) both here and again when serialized, so no value can add or change a field.
 */
import type { Finding, Severity } from '../model/findings.js';
import type { Report } from '../model/report.js';
import { findingKind } from '../catalog/findings.js';
import { MAX_MESSAGE_LENGTH, MAX_VALUE_LENGTH, sanitizeJournalValue } from './journal-value.js';

export const SYSLOG_IDENTIFIER = 'node-check';

/** Every field node-check writes, in the order it writes them. */
export const JOURNAL_FIELD_NAMES = [
  'MESSAGE',
  'PRIORITY',
  'SYSLOG_IDENTIFIER',
  'SYSLOG_PID',
  'MESSAGE_ID',
  'DOCUMENTATION',
  'NODE_CHECK_FINDING_ID',
  'NODE_CHECK_PATH',
  'NODE_CHECK_PROVIDER',
  'NODE_CHECK_KUBELET_ERROR',
  'NODE_CHECK_REMEDIATION',
  'NODE_CHECK_FINDING_VERSIONS',
  'NODE_CHECK_KUBELET_VERSION',
  'NODE_CHECK_KUBELET_WILL_START',
  'NODE_CHECK_UNIT',
  'NODE_CHECK_REPEAT_COUNT',
] as const;

export type JournalFieldName = (typeof JOURNAL_FIELD_NAMES)[number];

/**
 * One entry: fields in write order. A name may repeat (the journal keeps every value, and
 * `journalctl NODE_CHECK_PROVIDER=x` matches any of them) when several findings of one kind name
 * different paths or providers; MESSAGE, PRIORITY and the ids appear once.
 */
export interface JournalEntry {
  readonly fields: readonly (readonly [JournalFieldName, string])[];
}

/** syslog priorities: 3 err (kubelet will fail), 4 warning, 6 info. */
export const PRIORITY_BY_SEVERITY: Readonly<Record<Severity, '3' | '4' | '6'>> = { error: '3', warning: '4', info: '6' };

/** Where the packages install docs/ (the RPM's %doc): links that work on a node without network. */
export const INSTALLED_DOC_DIR = '/usr/share/doc/node-check';

/** Where a finding is documented; the catalog's Documentation: header and the DOCUMENTATION field. */
export function findingDocumentationUrl(id: string): string {
  return `file://${INSTALLED_DOC_DIR}/findings.md#${id}`;
}

export interface JournalContext {
  /** The kubelet unit checked (NODE_CHECK_UNIT). */
  readonly unit: string;
  /**
   * node-check's own process id (SYSLOG_PID): journald's _PID is logger's, a process gone by the
   * time anyone reads the entry, so this is how `journalctl -o verbose` names the run.
   */
  readonly pid: number;
}

/** Findings of one kind named in one MESSAGE; the rest are counted ("and 3 more"). */
const MAX_FINDINGS_PER_MESSAGE = 5;
/** Distinct values of one repeated field (paths, providers, ...) per entry. */
const MAX_VALUES_PER_FIELD = 16;
const SEVERITY_RANK: Readonly<Record<Severity, number>> = { error: 0, warning: 1, info: 2 };

/**
 * One entry per finding kind present in the report, errors first. `info` findings are left out
 * when an error or warning is present (they are context, not news). A clean report gives none.
 * When the fallback is active but the report carries no `fallback-active` finding, one is written
 * from report.fallback, so an active fallback is never silent in the journal.
 */
export function journalEntriesFor(report: Report, context: JournalContext): JournalEntry[] {
  const findings = [...report.findings, ...fallbackFinding(report)];
  const news = findings.some((f) => f.severity !== 'info') ? findings.filter((f) => f.severity !== 'info') : findings;
  const groups = new Map<string, Finding[]>();
  for (const finding of news) groups.set(finding.id, [...(groups.get(finding.id) ?? []), finding]);
  return [...groups.values()]
    .map((group) => ({ group, severity: highestSeverity(group) }))
    .sort((a, b) => SEVERITY_RANK[a.severity] - SEVERITY_RANK[b.severity]) // stable: report order within a severity
    .flatMap(({ group, severity }) => entryFor(group, severity, report, context));
}

/** What an entry says about the run besides its findings. */
type RunAnswer = Pick<Report, 'kubeletVersion' | 'kubeletWillStart'>;

/**
 * The entry of a run that stopped before it could decide, made in advance (preflight's watchdog
 * writes it when it must kill): the one finding, with kubelet's answer unknown.
 */
export function undecidedRunEntry(finding: Finding, context: JournalContext): JournalEntry | undefined {
  return entryFor([finding], finding.severity, { kubeletVersion: null, kubeletWillStart: null }, context)[0];
}

function entryFor(group: readonly Finding[], severity: Severity, report: RunAnswer, context: JournalContext): JournalEntry[] {
  const id = group[0]!.id;
  const kind = findingKind(id);
  // Every finding id is in the catalog (test/docs/findings.test.ts); an unknown one has no MESSAGE_ID to file under.
  if (kind === undefined) return [];
  const fields: [JournalFieldName, string][] = [];
  const add = (name: JournalFieldName, value: string | undefined) => {
    if (value === undefined) return;
    const clean = sanitizeJournalValue(value, name === 'MESSAGE' ? MAX_MESSAGE_LENGTH : MAX_VALUE_LENGTH);
    if (clean !== '') fields.push([name, clean]);
  };
  const addEach = (name: JournalFieldName, values: readonly (string | undefined)[]) => {
    for (const value of distinct(values).slice(0, MAX_VALUES_PER_FIELD)) add(name, value);
  };

  add('MESSAGE', messageFor(group, severity, report));
  add('PRIORITY', PRIORITY_BY_SEVERITY[severity]);
  add('SYSLOG_IDENTIFIER', SYSLOG_IDENTIFIER);
  if (Number.isSafeInteger(context.pid) && context.pid > 0) add('SYSLOG_PID', String(context.pid));
  add('MESSAGE_ID', kind.messageId);
  add('DOCUMENTATION', findingDocumentationUrl(id));
  add('NODE_CHECK_FINDING_ID', id);
  addEach('NODE_CHECK_PATH', group.map((f) => f.path));
  addEach('NODE_CHECK_PROVIDER', group.map((f) => f.provider));
  addEach('NODE_CHECK_KUBELET_ERROR', group.map((f) => f.kubeletError));
  addEach('NODE_CHECK_REMEDIATION', group.map((f) => f.remediation));
  addEach('NODE_CHECK_FINDING_VERSIONS', group.map((f) => f.versions));
  add('NODE_CHECK_KUBELET_VERSION', report.kubeletVersion ?? undefined);
  add('NODE_CHECK_KUBELET_WILL_START', report.kubeletWillStart === null ? 'unknown' : String(report.kubeletWillStart));
  add('NODE_CHECK_UNIT', context.unit);
  return [{ fields }];
}

/**
 * "kubelet will not start: credential provider plugin "acr" is missing: /x/acr does not exist".
 * Errors and "cannot decide" lead with the verdict; warnings and info are their own sentence.
 */
function messageFor(group: readonly Finding[], severity: Severity, report: RunAnswer): string {
  const shown = group.slice(0, MAX_FINDINGS_PER_MESSAGE);
  const more = group.length > shown.length ? `; and ${group.length - shown.length} more` : '';
  const verdict =
    group[0]!.id === 'cannot-decide'
      ? 'node-check cannot tell whether kubelet will start'
      : severity === 'error'
        ? report.kubeletWillStart === false ? 'kubelet will not start' : 'kubelet may not start'
        : undefined;
  if (verdict === undefined) return shown.map((f) => f.message.trim()).join(' ') + more;
  return `${verdict}: ${shown.map((f) => clause(f.message)).join('; ')}${more}`;
}

/** A finding's message as a clause after "kubelet will not start: ". */
function clause(message: string): string {
  const text = message
    .trim()
    // The verdict already says it; the exit status is in NODE_CHECK_KUBELET_ERROR and the catalog.
    .replace(/\s*Kubelet will exit with status \d+(?: \([^)]*\))? at start-up\.$/, '')
    .replace(/\.$/, '');
  // "Credential provider ..." -> "credential provider ...", but leave "ACR ..." and "--flag ..." alone.
  return /^[A-Z][a-z]/.test(text) ? text.charAt(0).toLowerCase() + text.slice(1) : text;
}

function fallbackFinding(report: Report): Finding[] {
  const { fallback } = report;
  if (!fallback.active || report.findings.some((f) => f.id === 'fallback-active')) return [];
  const removed = fallback.removedProviders ?? [];
  const without = removed.length > 0 ? `credential provider${removed.length > 1 ? 's' : ''} ${removed.map((p) => `"${p}"`).join(', ')}` : 'some credential providers';
  const since = fallback.since ? ` since ${fallback.since}` : '';
  const reason = fallback.reason ? ` (${fallback.reason.trim().replace(/\.$/, '')})` : '';
  return [
    {
      id: 'fallback-active',
      severity: 'warning',
      message: `Kubelet runs under the node-check fallback${since}, without ${without}${reason}; image pulls that need ${removed.length > 1 ? 'them' : 'it'} fail until the plugin is installed.`,
      ...(fallback.dropInPath ? { path: fallback.dropInPath } : {}),
      ...(removed.length === 1 ? { provider: removed[0]! } : {}),
      remediation: findingKind('fallback-active')?.fix ?? 'Install the missing plugin.',
    },
  ];
}

function highestSeverity(group: readonly Finding[]): Severity {
  return group.reduce<Severity>((worst, f) => (SEVERITY_RANK[f.severity] < SEVERITY_RANK[worst] ? f.severity : worst), 'info');
}

function distinct(values: readonly (string | undefined)[]): string[] {
  return [...new Set(values.filter((v): v is string => v !== undefined && v !== ''))];
}

const FIELD_NAME = /^[A-Z][A-Z0-9_]{0,63}$/;
const KNOWN_FIELDS = new Set<string>(JOURNAL_FIELD_NAMES);

/**
 * The `logger --journald` input for one entry: `NAME=value` lines, ending with one "\n" and no
 * empty line (logger reads one entry per run, up to the first empty line or end of input; older
 * util-linux rejects an empty line outright). Values are sanitized again here, unknown or
 * malformed names are dropped, and only the first MESSAGE is kept (logger would merge a second
 * MESSAGE line into the first).
 */
export function serializeForLogger(entry: JournalEntry): string {
  const lines: string[] = [];
  let message = false;
  for (const [name, value] of entry.fields) {
    if (!KNOWN_FIELDS.has(name) || !FIELD_NAME.test(name)) continue;
    if (name === 'MESSAGE') {
      if (message) continue;
      message = true;
    }
    const clean = sanitizeJournalValue(String(value), name === 'MESSAGE' ? MAX_MESSAGE_LENGTH : MAX_VALUE_LENGTH);
    if (clean !== '') lines.push(`${name}=${clean}`);
  }
  return lines.length > 0 ? `${lines.join('\n')}\n` : '';
}

/** The first value of a field, if the entry has it. */
export function journalField(entry: JournalEntry, name: JournalFieldName): string | undefined {
  return entry.fields.find(([n]) => n === name)?.[1];
}

/**
 * The entry as one stderr line for when the journal cannot be reached: a `<N>` syslog priority
 * prefix (systemd's SyslogLevelPrefix= files it at that priority under the calling unit), the
 * message and the finding id.
 */
export function formatForStderr(entry: JournalEntry): string {
  const priority = journalField(entry, 'PRIORITY') ?? '4';
  const message = sanitizeJournalValue(journalField(entry, 'MESSAGE') ?? '', MAX_MESSAGE_LENGTH);
  const id = journalField(entry, 'NODE_CHECK_FINDING_ID');
  return `<${priority}>node-check: ${message}${id ? ` [${sanitizeJournalValue(id)}]` : ''}\n`;
}
