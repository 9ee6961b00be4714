// The per-boot record under ROOT/run/node-check/journal/ on disk, and collapseRepeats as preflight
// uses it: atomic, 0644, no symlink followed, bounded, and a bad record never costs an entry.
import t from 'tap';
import * as fs from 'node:fs';
import * as path from 'node:path';
import { journalEntriesFor } from '../../src/sinks/journal-entry.js';
import { decideRepeats, type RepeatState } from '../../src/sinks/journal-repeats.js';
import { MAX_STATE_BYTES, parseRepeatState, readRepeatState, REPEAT_STATE_PATH, writeRepeatState } from '../../src/sinks/journal-repeat-store.js';
import { collapseRepeats } from '../../src/sinks/journal-collapse.js';
import { readBootId } from '../../src/discover/own-process.js';
import { acrMissing } from './reports.js';

const NOW = Date.UTC(2026, 10, 30, 12);
const entries = journalEntriesFor(acrMissing(), { unit: 'kubelet.service', pid: 1234 });
const state: RepeatState = decideRepeats(entries, { previous: undefined, bootId: 'b00t', scope: 'kubelet.service', nowMs: NOW }).next;

t.test('written with mode 0644 by rename, read back the same', async (t) => {
  const root = t.testdir({ run: {} });
  t.same(readRepeatState(root), { kind: 'read', state: undefined }, 'no record yet');
  const old = process.umask(0o077);
  try {
    writeRepeatState(root, state);
  } finally {
    process.umask(old);
  }
  const file = path.join(root, REPEAT_STATE_PATH);
  t.equal(fs.statSync(file).mode & 0o777, 0o644, 'whatever the umask');
  t.equal(fs.statSync(path.dirname(file)).mode & 0o777, 0o755 & ~0o077, 'the directory is created (umask applies: never wider than 0755)');
  t.same(readRepeatState(root), { kind: 'read', state });
  t.same(fs.readdirSync(path.dirname(file)), ['repeats.json'], 'no temp file left');
});

t.test('a root without /run keeps no record and writes nothing there', async (t) => {
  const root = t.testdir({ etc: {} });
  t.same(readRepeatState(root), { kind: 'no-run-dir' });
  const collapsed = collapseRepeats(entries, root, NOW);
  t.same(collapsed.write, entries);
  t.equal(collapsed.commit(), undefined);
  t.same(fs.readdirSync(root), ['etc'], 'no /run created in a file tree');
});

t.test('symlinks: a linked directory is refused loudly, a linked file is not read and is replaced', async (t) => {
  const root = t.testdir({ run: {}, elsewhere: { journal: { 'repeats.json': JSON.stringify(state) } } });
  fs.symlinkSync(path.join(root, 'elsewhere'), path.join(root, 'run', 'node-check'));
  t.throws(() => readRepeatState(root), /is a symlink, not a plain directory/);
  const collapsed = collapseRepeats(entries, root, NOW);
  t.same(collapsed.write, entries, 'every entry is written');
  t.match(collapsed.commit(), /^journal repeats not collapsed: .*run\/node-check is a symlink/, 'and the problem is reported');

  const other = t.testdir({ run: { 'node-check': { journal: {} } }, target: JSON.stringify(state) });
  const file = path.join(other, REPEAT_STATE_PATH);
  fs.symlinkSync(path.join(other, 'target'), file);
  t.same(readRepeatState(other), { kind: 'read', state: undefined }, 'the link is not followed');
  writeRepeatState(other, { ...state, bootId: 'new' });
  t.ok(fs.lstatSync(file).isFile(), 'the link itself is replaced');
  t.equal(fs.readFileSync(path.join(other, 'target'), 'utf8'), JSON.stringify(state), 'its target is untouched');
});

t.test('a damaged, foreign or oversized record is no record', async (t) => {
  const good = JSON.stringify(state);
  t.same(parseRepeatState(good), state);
  const bad: Record<string, string> = {
    'not JSON': '{',
    'another version': JSON.stringify({ ...state, version: 2 }),
    'no scopes': JSON.stringify({ version: 1, bootId: 'b' }),
    'a count that is not one': good.replace('"count":1', '"count":-3'),
    'a fingerprint that is not one': good.replace(/"[0-9a-f]{32}":/, '"../../etc":'),
    'an array': '[]',
    'too many scopes': JSON.stringify({ ...state, scopes: Object.fromEntries(Array.from({ length: 9 }, (_, i) => [`u${i}`, { lastRun: [], seen: {} }])) }),
  };
  for (const [why, text] of Object.entries(bad)) t.equal(parseRepeatState(text), undefined, why);

  const root = t.testdir({ run: { 'node-check': { journal: { 'repeats.json': `${good}${' '.repeat(MAX_STATE_BYTES)}` } } } });
  t.same(readRepeatState(root), { kind: 'read', state: undefined }, 'over the size bound');
});

t.test('collapseRepeats: the second run of this boot writes nothing, and says so in the record', async (t) => {
  const root = t.testdir({ run: {} });
  const first = collapseRepeats(entries, root, NOW);
  t.same(first.write, entries);
  t.equal(first.commit(), undefined);
  const second = collapseRepeats(entries, root, NOW + 10_000);
  t.same(second.write, []);
  t.equal(second.suppressed, 1);
  t.equal(second.commit(), undefined);
  const record = JSON.parse(fs.readFileSync(path.join(root, REPEAT_STATE_PATH), 'utf8')) as RepeatState;
  t.equal(record.bootId, readBootId(), 'the record is of this boot');
  t.same(Object.values(Object.values(record.scopes)[0]!.seen).map((s) => [s.id, s.count]), [['plugin-binary-missing', 2]]);
});

t.test('a clean run with no record writes no record', async (t) => {
  const root = t.testdir({ run: {} });
  const clean = collapseRepeats([], root, NOW);
  t.equal(clean.commit(), undefined);
  t.same(fs.readdirSync(path.join(root, 'run')), []);
});

t.test('a record that cannot be written is reported; the entries were already decided', async (t) => {
  if (process.getuid?.() === 0) {
    // root ignores directory permissions: make /run/node-check a file instead.
    const root = t.testdir({ run: { 'node-check': 'a file' } });
    const collapsed = collapseRepeats(entries, root, NOW);
    t.same(collapsed.write, entries);
    t.match(collapsed.commit(), /not a directory/);
    return;
  }
  const root = t.testdir({ run: {} });
  fs.chmodSync(path.join(root, 'run'), 0o555);
  t.teardown(() => fs.chmodSync(path.join(root, 'run'), 0o755));
  const collapsed = collapseRepeats(entries, root, NOW);
  t.same(collapsed.write, entries);
  t.match(collapsed.commit(), /^journal repeats not recorded: /);
});
