// scripts/tap-summary.mjs: the closing "N passed, N failed, N skipped" line of `npm test`. A test
// file that fails without a failed assertion (tap's "test count(9) != plan(0)") must still be
// counted, so a red run never ends with "0 failed".
import t from 'tap';
import { fileURLToPath } from 'node:url';
import { execa } from 'execa';

const SUMMARY = fileURLToPath(new URL('../../scripts/tap-summary.mjs', import.meta.url));
const summarize = (tap: string) => execa('node', [SUMMARY], { input: tap, reject: false });
const lastLines = (out: string, n: number) => out.trimEnd().split('\n').slice(-n);

// As tap 21 prints a file whose subtest took plan(0) after assertions: the file is "not ok",
// the closing counts have no fail.
const PLAN_MISMATCH = [
  'TAP version 14',
  '# Subtest: test/packaging/prometheus-rules.test.ts',
  '    # Subtest: the Alertmanager inhibit rules',
  '        # test count(9) != plan(0)',
  '    not ok 6 - the Alertmanager inhibit rules # SKIP tool missing: amtool',
  '    1..6',
  'not ok 1 - test/packaging/prometheus-rules.test.ts # time=1432.776ms',
  '  ---',
  '  exitCode: 1',
  '  ...',
  '# Subtest: test/a.test.ts',
  'ok 2 - test/a.test.ts # time=10ms',
  '1..2',
  '# { total: 134, pass: 132, skip: 2 }',
].join('\n');

t.test('a file failed with no failed assertion: counted and named, never "0 failed"', async (t) => {
  const run = await summarize(PLAN_MISMATCH);
  t.same(lastLines(run.stdout, 2), [
    '132 passed, 1 failed (0 assertions, 1 test file), 2 skipped',
    'failed test file: test/packaging/prometheus-rules.test.ts',
  ]);
  t.notMatch(run.stdout, /\b0 failed/);
  t.equal(run.exitCode, 1, 'a failed file fails the filter too');
  t.ok(run.stdout.startsWith(PLAN_MISMATCH), 'the TAP passes through unchanged');
});

t.test('failed assertions and their file add up', async (t) => {
  const tap = ['# Subtest: test/b.test.ts', '    not ok 1 - x', 'not ok 1 - test/b.test.ts # time=3ms', '1..1', '# { total: 5, pass: 2, fail: 3 }'].join('\n');
  const run = await summarize(tap);
  t.same(lastLines(run.stdout, 2), ['2 passed, 4 failed (3 assertions, 1 test file), 0 skipped', 'failed test file: test/b.test.ts']);
});

t.test('a green run: the plain line and exit 0; no summary: exit 1', async (t) => {
  const green = await summarize(['ok 1 - test/a.test.ts # time=1ms', '1..1', '# { total: 7, pass: 6, skip: 1 }'].join('\n'));
  t.same(lastLines(green.stdout, 1), ['6 passed, 0 failed, 1 skipped']);
  t.equal(green.exitCode, 0);
  const cut = await summarize('ok 1 - test/a.test.ts\n');
  t.match(cut.stdout, /tap printed no summary line/);
  t.equal(cut.exitCode, 1);
});
