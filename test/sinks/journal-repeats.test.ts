// The per-boot collapse of journal entries, as a pure decision: a crash-looping kubelet (preflight
// every 10 s) writes each finding once, then reminders at 10, 100, 1000 or hourly, with the count.
import t from 'tap';
import { journalEntriesFor, journalField, type JournalEntry } from '../../src/sinks/journal-entry.js';
import {
  decideRepeats,
  entryFingerprint,
  isReminderCount,
  MAX_ENTRIES_PER_SCOPE,
  MAX_SCOPES,
  REMINDER_INTERVAL_MS,
  withRepeatCount,
  type RepeatState,
} from '../../src/sinks/journal-repeats.js';
import { MAX_MESSAGE_LENGTH } from '../../src/sinks/journal-value.js';
import { acrMissing, missingPlugin, report, unknownVersion } from './reports.js';

const BOOT = '5f1d7c1e-7c1a-4a52-9d0e-3b1f7a2c9e10';
const SCOPE = 'kubelet.service';
const START = Date.UTC(2026, 10, 30, 12, 0, 0);
const RESTART_SEC = 10_000;

function entries(pid = 1000, r = acrMissing()): JournalEntry[] {
  return journalEntriesFor(r, { unit: 'kubelet.service', pid });
}

/** preflight before every kubelet start, every 10 s: which runs wrote, and with which count. */
function crashLoop(runs: number, make: (run: number) => JournalEntry[] = (run) => entries(1000 + run)): { run: number; count: string | undefined; message: string }[] {
  let state: RepeatState | undefined;
  const written: { run: number; count: string | undefined; message: string }[] = [];
  for (let run = 1; run <= runs; run++) {
    const decision = decideRepeats(make(run), { previous: state, bootId: BOOT, scope: SCOPE, nowMs: START + (run - 1) * RESTART_SEC });
    for (const entry of decision.write) written.push({ run, count: journalField(entry, 'NODE_CHECK_REPEAT_COUNT'), message: journalField(entry, 'MESSAGE') ?? '' });
    state = decision.next;
  }
  return written;
}

t.test('a crash loop: the first run, then counts 10 and 100, then hourly; never every 10 s', async (t) => {
  const written = crashLoop(1000); // 10,000 s: 2 h 46 min
  t.same(written.map((w) => w.run), [1, 10, 100, 460, 820, 1000], 'runs 1, 10, 100, an hour (360 runs of 10 s) after each write, and 1000');
  t.same(written.map((w) => w.count), [undefined, '10', '100', '460', '820', '1000'], 'reminders carry NODE_CHECK_REPEAT_COUNT');
  t.notMatch(written[0]!.message, /seen/, 'the first one reads as before');
  t.match(written[1]!.message, /^kubelet will not start: credential provider plugin "acr-credential-provider" is missing: .* \(seen 10 times since boot\)$/);
  const day = crashLoop(8640).length;
  t.ok(day <= 30, `a day of crash loop writes ${day} entries per finding, not 8,640`);
});

t.test('a changed finding set writes the news at once; what persists keeps counting', async (t) => {
  const a = missingPlugin('a');
  const b = missingPlugin('b');
  const run = (findings: typeof a[]) => entries(1, report({ kubeletWillStart: false, findings }));
  let state: RepeatState | undefined;
  const step = (findings: typeof a[], seconds: number) => {
    const decision = decideRepeats(run(findings), { previous: state, bootId: BOOT, scope: SCOPE, nowMs: START + seconds * 1000 });
    state = decision.next;
    return decision;
  };
  t.equal(step([a], 0).write.length, 1, 'a: first');
  t.equal(step([a], 10).write.length, 0, 'a again: held back');
  t.equal(step([a], 20).suppressed, 1);
  const both = step([a, b], 30);
  t.equal(both.write.length, 1, 'a and b are one entry (one finding kind): its fields changed, so it is news');
  t.same(both.reasons, ['first']);
  t.equal(step([a, b], 40).write.length, 0);
  const back = step([a], 50);
  t.same(back.reasons, ['returned'], 'back to a alone: a changed set, written at once');
  t.equal(journalField(back.write[0]!, 'NODE_CHECK_REPEAT_COUNT'), '4', 'with the count of this boot (runs 1, 2, 3 and this one)');
  t.match(journalField(back.write[0]!, 'MESSAGE'), /\(seen 4 times since boot\)$/);
  t.equal(step([], 60).write.length, 0, 'a clean run writes nothing');
  t.same(step([a], 70).reasons, ['returned'], 'a after a clean run is news again');
});

t.test('entries of several kinds are decided one by one', async (t) => {
  const two = entries(1, unknownVersion());
  t.equal(two.length, 2);
  const first = decideRepeats(two, { previous: undefined, bootId: BOOT, scope: SCOPE, nowMs: START });
  t.equal(first.write.length, 2);
  const onlyOne = decideRepeats([two[1]!], { previous: first.next, bootId: BOOT, scope: SCOPE, nowMs: START + 10_000 });
  t.equal(onlyOne.write.length, 0, 'the one that stayed is a repeat');
  const again = decideRepeats(two, { previous: onlyOne.next, bootId: BOOT, scope: SCOPE, nowMs: START + 20_000 });
  t.same(again.reasons, ['returned'], 'only the one that came back is written');
  t.equal(journalField(again.write[0]!, 'NODE_CHECK_FINDING_ID'), journalField(two[0]!, 'NODE_CHECK_FINDING_ID'));
});

t.test('counts are per boot: another boot id starts over', async (t) => {
  const first = decideRepeats(entries(), { previous: undefined, bootId: BOOT, scope: SCOPE, nowMs: START });
  const same = decideRepeats(entries(), { previous: first.next, bootId: BOOT, scope: SCOPE, nowMs: START + 10_000 });
  t.equal(same.write.length, 0);
  const rebooted = decideRepeats(entries(), { previous: same.next, bootId: 'another-boot', scope: SCOPE, nowMs: START + 20_000 });
  t.same(rebooted.reasons, ['first']);
  t.equal(journalField(rebooted.write[0]!, 'NODE_CHECK_REPEAT_COUNT'), undefined);
  t.equal(rebooted.next.bootId, 'another-boot');
});

t.test('per scope: precheck.service and kubelet\'s ExecStartPre each write their first entry', async (t) => {
  const precheck = decideRepeats(entries(), { previous: undefined, bootId: BOOT, scope: 'node-check-precheck.service', nowMs: START });
  const kubelet = decideRepeats(entries(), { previous: precheck.next, bootId: BOOT, scope: 'kubelet.service', nowMs: START + 100 });
  t.equal(precheck.write.length, 1);
  t.equal(kubelet.write.length, 1, 'journalctl -u kubelet still gets its own copy');
  const precheckAgain = decideRepeats(entries(), { previous: kubelet.next, bootId: BOOT, scope: 'node-check-precheck.service', nowMs: START + 10_000 });
  t.equal(precheckAgain.write.length, 0, 'and each scope counts its own repeats');
});

t.test('the fingerprint ignores SYSLOG_PID and the count, and sees every other field', async (t) => {
  const [one] = entries(1);
  const [other] = entries(2);
  t.equal(entryFingerprint(one!), entryFingerprint(other!), 'another pid is the same entry');
  t.equal(entryFingerprint(withRepeatCount(one!, 10)).length, 32);
  t.not(entryFingerprint(withRepeatCount(one!, 10)), entryFingerprint(one!), 'the message suffix is part of it (only decided entries are annotated)');
  const [newer] = entries(1, { ...acrMissing(), kubeletVersion: '1.30.1' });
  t.not(entryFingerprint(newer!), entryFingerprint(one!), 'another kubelet version is news');
});

t.test('reminder counts are the powers of ten from 10', async (t) => {
  t.same([1, 2, 9, 10, 11, 20, 99, 100, 101, 1000, 5000, 10_000, 100_000].filter(isReminderCount), [10, 100, 1000, 10_000, 100_000]);
  t.equal(isReminderCount(Number.NaN), false);
});

t.test('an hour since the last write is a reminder, and so is a clock set back by an hour', async (t) => {
  const first = decideRepeats(entries(), { previous: undefined, bootId: BOOT, scope: SCOPE, nowMs: START });
  const second = decideRepeats(entries(), { previous: first.next, bootId: BOOT, scope: SCOPE, nowMs: START + REMINDER_INTERVAL_MS - 1 });
  t.equal(second.write.length, 0);
  const third = decideRepeats(entries(), { previous: second.next, bootId: BOOT, scope: SCOPE, nowMs: START + REMINDER_INTERVAL_MS });
  t.same(third.reasons, ['hour']);
  const back = decideRepeats(entries(), { previous: third.next, bootId: BOOT, scope: SCOPE, nowMs: START - 1 });
  t.same(back.reasons, ['hour'], 'the clock went back an hour: not held back until it catches up');
});

t.test('a reminder of a message at the length limit keeps its count', async (t) => {
  const [entry] = entries();
  const long: JournalEntry = { fields: entry!.fields.map(([n, v]) => (n === 'MESSAGE' ? [n, 'x'.repeat(MAX_MESSAGE_LENGTH)] : [n, v])) };
  const message = journalField(withRepeatCount(long, 1000), 'MESSAGE')!;
  t.ok(message.length <= MAX_MESSAGE_LENGTH, `${message.length} code units`);
  t.match(message, /…\[truncated\] \(seen 1000 times since boot\)$/);
  const twice = withRepeatCount(withRepeatCount(entry!, 10), 100);
  t.same(twice.fields.filter(([n]) => n === 'NODE_CHECK_REPEAT_COUNT'), [['NODE_CHECK_REPEAT_COUNT', '100']], 'one count field');
});

t.test('the state stays bounded whatever the runs throw at it', async (t) => {
  let state: RepeatState | undefined;
  for (let run = 0; run < 300; run++) {
    const findings = [missingPlugin(`p${run}`)];
    const scope = `unit-${run % 20}.service`;
    state = decideRepeats(entries(1, report({ kubeletWillStart: false, findings })), { previous: state, bootId: BOOT, scope, nowMs: START + run }).next;
  }
  const scopes = Object.values(state!.scopes);
  t.equal(scopes.length, MAX_SCOPES);
  t.ok(scopes.every((s) => Object.keys(s.seen).length <= MAX_ENTRIES_PER_SCOPE));
  t.ok(Object.keys(state!.scopes).includes('unit-19.service'), 'the current scope is kept');
  t.ok(JSON.stringify(state).length < 64 * 1024, `${JSON.stringify(state).length} bytes`);

  let one: RepeatState | undefined;
  for (let run = 0; run < 200; run++) {
    one = decideRepeats(entries(1, report({ kubeletWillStart: false, findings: [missingPlugin(`q${run}`)] })), { previous: one, bootId: BOOT, scope: SCOPE, nowMs: START + run }).next;
  }
  const seen = one!.scopes[SCOPE]!.seen;
  t.equal(Object.keys(seen).length, MAX_ENTRIES_PER_SCOPE, 'the oldest are forgotten');
  t.ok(Object.values(seen).every((s) => s.lastSeenAt >= START + 200 - MAX_ENTRIES_PER_SCOPE), 'the most recent are kept');
});
