import t from 'tap';
import { findingKind } from '../../src/catalog/findings.js';
import {
  formatForStderr,
  JOURNAL_FIELD_NAMES,
  journalEntriesFor,
  journalField,
  serializeForLogger,
  type JournalEntry,
} from '../../src/sinks/journal-entry.js';
import { MAX_MESSAGE_LENGTH, MAX_VALUE_LENGTH, sanitizeJournalValue } from '../../src/sinks/journal-value.js';
import { acrMissing, BIN_DIR, fallbackActive, hostile, HOSTILE_DIR, HOSTILE_PROVIDER, missingPlugin, notConfigured, report, unknownVersion } from './reports.js';

const context = { unit: 'kubelet.service', pid: 4321 };

/** What journald makes of logger's input: logger.c journald_entry + journald's split at the first "=". */
function parseLoggerInput(input: string): [string, string][] {
  const fields: [string, string][] = [];
  for (const raw of input.split('\n')) {
    const line = raw.split('\0')[0]!.replace(/\s+$/, ''); // NUL ends the line (strlen), trailing space trimmed
    if (line === '') break; // the first empty line ends the entry
    const eq = line.indexOf('=');
    const name = line.slice(0, eq);
    const value = line.slice(eq + 1);
    const message = fields.find(([n]) => n === 'MESSAGE');
    if (name === 'MESSAGE' && message) message[1] += `\n${value}`; // logger merges MESSAGE lines
    else fields.push([name, value]);
  }
  return fields;
}

function fieldsOf(entry: JournalEntry): Record<string, string[]> {
  const fields: Record<string, string[]> = {};
  for (const [name, value] of entry.fields) (fields[name] ??= []).push(value);
  return fields;
}

t.test('a missing plugin: one entry that names the plugin and the path, at priority 3', async (t) => {
  const entries = journalEntriesFor(acrMissing(), context);
  t.equal(entries.length, 1);
  const kind = findingKind('plugin-binary-missing')!;
  t.same(fieldsOf(entries[0]!), {
    MESSAGE: [`kubelet will not start: credential provider plugin "acr-credential-provider" is missing: ${BIN_DIR}/acr-credential-provider does not exist`],
    PRIORITY: ['3'],
    SYSLOG_IDENTIFIER: ['node-check'],
    SYSLOG_PID: ['4321'],
    MESSAGE_ID: [kind.messageId],
    DOCUMENTATION: ['file:///usr/share/doc/node-check/findings.md#plugin-binary-missing'],
    NODE_CHECK_FINDING_ID: ['plugin-binary-missing'],
    NODE_CHECK_PATH: [`${BIN_DIR}/acr-credential-provider`],
    NODE_CHECK_PROVIDER: ['acr-credential-provider'],
    NODE_CHECK_KUBELET_ERROR: [`plugin binary executable ${BIN_DIR}/acr-credential-provider did not exist`],
    NODE_CHECK_REMEDIATION: [missingPlugin('acr-credential-provider').remediation],
    NODE_CHECK_KUBELET_VERSION: ['1.29.6'],
    NODE_CHECK_KUBELET_WILL_START: ['false'],
    NODE_CHECK_UNIT: ['kubelet.service'],
  });
  t.same(entries[0]!.fields.map(([name]) => name), JOURNAL_FIELD_NAMES.filter((n) => n !== 'NODE_CHECK_FINDING_VERSIONS' && n !== 'NODE_CHECK_REPEAT_COUNT'), 'fields in the documented order');
});

t.test('findings of one kind share one entry; repeated fields carry each path and provider', async (t) => {
  const r = report({ kubeletWillStart: false, findings: [missingPlugin('a'), missingPlugin('b')] });
  const entries = journalEntriesFor(r, context);
  t.equal(entries.length, 1, 'one entry per finding kind');
  const fields = fieldsOf(entries[0]!);
  t.equal(fields.MESSAGE?.length, 1);
  t.match(fields.MESSAGE?.[0], /^kubelet will not start: credential provider plugin "a" is missing: .*\/a does not exist; credential provider plugin "b" is missing: .*\/b does not exist$/);
  t.same(fields.NODE_CHECK_PROVIDER, ['a', 'b']);
  t.same(fields.NODE_CHECK_PATH, [`${BIN_DIR}/a`, `${BIN_DIR}/b`]);
  t.equal(fields.MESSAGE_ID?.length, 1);
});

t.test('many findings of one kind: the message names five and counts the rest', async (t) => {
  const names = Array.from({ length: 30 }, (_, i) => `p${i}`);
  const [entry] = journalEntriesFor(report({ kubeletWillStart: false, findings: names.map((n) => missingPlugin(n)) }), context);
  const fields = fieldsOf(entry!);
  t.match(fields.MESSAGE?.[0], /"p4" is missing: [^;]*; and 25 more$/);
  t.notMatch(fields.MESSAGE?.[0], /"p5"/);
  t.equal(fields.NODE_CHECK_PROVIDER?.length, 16, 'repeated values are bounded');
});

t.test('errors come first, info is left out when there is news, and verdict wording follows the report', async (t) => {
  const entries = journalEntriesFor(unknownVersion(), context);
  t.same(entries.map((e) => journalField(e, 'NODE_CHECK_FINDING_ID')), ['plugin-binary-not-executable', 'cannot-decide']);
  t.same(entries.map((e) => journalField(e, 'PRIORITY')), ['3', '4']);
  t.equal(
    journalField(entries[0]!, 'MESSAGE'),
    `kubelet may not start: kubelet 1.30-1.35: Credential provider plugin "acr-credential-provider" at ${BIN_DIR}/acr-credential-provider is not an executable file`,
    'an error for some versions only: "may not start"',
  );
  t.equal(journalField(entries[0]!, 'NODE_CHECK_FINDING_VERSIONS'), '1.30-1.35');
  t.match(journalField(entries[1]!, 'MESSAGE'), /^node-check cannot tell whether kubelet will start: without the kubelet version the answer differs/);
  t.equal(journalField(entries[1]!, 'NODE_CHECK_KUBELET_WILL_START'), 'unknown');
  t.equal(journalField(entries[1]!, 'NODE_CHECK_KUBELET_VERSION'), undefined, 'no version field when the version is unknown');
});

t.test('info findings are written when they are the only thing to say; a clean report writes nothing', async (t) => {
  const entries = journalEntriesFor(notConfigured(), context);
  t.equal(entries.length, 1);
  t.equal(journalField(entries[0]!, 'PRIORITY'), '6');
  t.equal(journalField(entries[0]!, 'NODE_CHECK_FINDING_ID'), 'credential-providers-not-configured');
  t.match(journalField(entries[0]!, 'MESSAGE'), /^Kubelet runs without --image-credential-provider-config/);
  t.same(journalEntriesFor(report(), context), []);
});

t.test('an active fallback is written even when the report has no fallback-active finding', async (t) => {
  const entries = journalEntriesFor(fallbackActive(), context);
  t.equal(entries.length, 1);
  const fields = fieldsOf(entries[0]!);
  t.same(fields.MESSAGE_ID, [findingKind('fallback-active')!.messageId]);
  t.same(fields.PRIORITY, ['4']);
  t.match(fields.MESSAGE?.[0], /^Kubelet runs under the node-check fallback since 2026-11-30T04:00:00Z, without credential provider "acr-credential-provider" \(plugin acr-credential-provider is missing\); image pulls/);
  t.same(fields.NODE_CHECK_PROVIDER, ['acr-credential-provider']);
  t.same(fields.NODE_CHECK_PATH, ['/run/systemd/system/kubelet.service.d/90-node-check-fallback.conf']);

  const withFinding = fallbackActive();
  const explicit = { ...withFinding, findings: [{ id: 'fallback-active' as const, severity: 'warning' as const, message: 'Fallback.', remediation: 'Install it.' }] };
  t.equal(journalEntriesFor(explicit, context).length, 1, 'not twice when the finding is there');
  t.equal(journalField(journalEntriesFor(explicit, context)[0]!, 'MESSAGE'), 'Fallback.');
});

t.test('serializeForLogger: NAME=value lines, one final newline, no empty line', async (t) => {
  const [entry] = journalEntriesFor(acrMissing(), context);
  const text = serializeForLogger(entry!);
  t.ok(text.endsWith('\n') && !text.endsWith('\n\n'));
  t.notMatch(text, /\n\n/);
  t.same(parseLoggerInput(text), entry!.fields.map(([n, v]) => [n, v]), 'logger reads back exactly the fields');
});

t.test('hostile provider names and paths cannot create or change a field', async (t) => {
  const [entry] = journalEntriesFor(hostile(), context);
  const text = serializeForLogger(entry!);
  const parsed = parseLoggerInput(text);
  const names = parsed.map(([n]) => n);
  t.same(names, entry!.fields.map(([n]) => n), 'exactly the fields node-check meant, in order');
  t.ok(names.every((n) => (JOURNAL_FIELD_NAMES as readonly string[]).includes(n)), 'only node-check field names');
  const single = (name: string) => parsed.filter(([n]) => n === name).map(([, v]) => v);
  t.same(single('MESSAGE_ID'), [findingKind('plugin-binary-missing')!.messageId], 'MESSAGE_ID is the catalog id, once');
  t.same(single('PRIORITY'), ['3']);
  t.same(single('NODE_CHECK_FINDING_ID'), ['plugin-binary-missing']);
  t.equal(single('MESSAGE').length, 1);
  t.notMatch(single('MESSAGE')[0], /\n/, 'the message is one line: no merged MESSAGE lines');
  t.same(single('NODE_CHECK_PROVIDER'), [
    'evil\\x0aMESSAGE_ID=00000000000000000000000000000000\\x0aPRIORITY=0\\x0a\\x0aNODE_CHECK_FINDING_ID=forged\\x0d_SYSTEMD_UNIT=sshd.service\\x00NUL=cut\\u{2028}\\u{202e}SEP',
  ], 'control and layout characters are escaped, "=" is kept as text');
  t.same(single('NODE_CHECK_PATH'), [`/opt/MESSAGE_ID=ffffffffffffffffffffffffffffffff/x=y\\x0aMESSAGE=forged message/${sanitizeJournalValue(HOSTILE_PROVIDER)}`]);
  t.notMatch(text, /[\u0000\r\u2028\u202e]/, 'no raw control or layout character reaches logger');
  t.equal(text.split('\n').length - 1, entry!.fields.length, 'one line per field');
  t.ok(HOSTILE_DIR.includes('\n'), 'the fixture does contain raw newlines');
});

t.test('serializeForLogger re-sanitizes entries built elsewhere and keeps one MESSAGE', async (t) => {
  const crafted: JournalEntry = {
    fields: [
      ['MESSAGE', 'first\nPRIORITY=0'],
      ['MESSAGE', 'second'],
      ['NODE_CHECK_PATH', '/x  \t'],
      ['NODE_CHECK_PROVIDER', ''],
      ['lower' as never, 'dropped'],
      ['PRIORITY', '4'],
    ],
  };
  t.equal(serializeForLogger(crafted), 'MESSAGE=first\\x0aPRIORITY=0\nNODE_CHECK_PATH=/x  \\x09\nPRIORITY=4\n');
  t.equal(serializeForLogger({ fields: [] }), '', 'nothing to write is an empty input');
});

t.test('sanitizeJournalValue caps lengths, keeps code points whole and is idempotent', async (t) => {
  const long = 'x'.repeat(MAX_VALUE_LENGTH - 13) + '😀'.repeat(20);
  const capped = sanitizeJournalValue(long);
  t.ok(capped.length <= MAX_VALUE_LENGTH);
  t.match(capped, /x…\[truncated\]$|😀…\[truncated\]$/);
  t.notMatch(capped, /[\ud800-\udbff](?![\udc00-\udfff])/, 'no half surrogate pair at the cut');
  t.equal(sanitizeJournalValue(capped), capped, 'idempotent after truncation');
  const nasty = 'a\nb\u0000c\u001bd\u0085e\u2029f \t ';
  t.equal(sanitizeJournalValue(nasty), 'a\\x0ab\\x00c\\x1bd\\x85e\\u{2029}f \\x09');
  t.equal(sanitizeJournalValue(sanitizeJournalValue(nasty)), sanitizeJournalValue(nasty));
  t.equal(sanitizeJournalValue('lone \ud800 half'), 'lone \ufffd half');
  t.equal(sanitizeJournalValue('m'.repeat(MAX_MESSAGE_LENGTH + 10), MAX_MESSAGE_LENGTH).length, MAX_MESSAGE_LENGTH);
  t.equal(sanitizeJournalValue('a=b=c'), 'a=b=c', '"=" stays: journald splits at the first one, the name is ours');
});

t.test('formatForStderr: one priority-prefixed line per entry', async (t) => {
  const [entry] = journalEntriesFor(hostile(), context);
  const line = formatForStderr(entry!);
  t.match(line, /^<3>node-check: kubelet will not start: credential provider plugin "evil\\x0aMESSAGE_ID=/);
  t.match(line, / \[plugin-binary-missing\]\n$/);
  t.equal(line.indexOf('\n'), line.length - 1, 'exactly one line');
});

t.test('SYSLOG_PID is the pid given, in every entry; never one that cannot be a pid', async (t) => {
  const entries = journalEntriesFor(unknownVersion(), { unit: 'kubelet.service', pid: 777 });
  t.ok(entries.length > 1);
  t.same(entries.map((e) => journalField(e, 'SYSLOG_PID')), entries.map(() => '777'));
  for (const pid of [0, -1, 1.5, Number.NaN]) {
    t.same(journalEntriesFor(acrMissing(), { unit: 'kubelet.service', pid }).map((e) => journalField(e, 'SYSLOG_PID')), [undefined], `no SYSLOG_PID for ${pid}`);
  }
});

t.test('DOCUMENTATION links to the installed findings.md, which works without network', async (t) => {
  const [entry] = journalEntriesFor(acrMissing(), context);
  t.equal(journalField(entry!, 'DOCUMENTATION'), 'file:///usr/share/doc/node-check/findings.md#plugin-binary-missing');
});
