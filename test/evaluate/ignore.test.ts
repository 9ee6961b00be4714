/** --ignore as a pure function of the report (src/evaluate/ignore.ts), and "did you mean" (src/lib/suggest.ts). */
import t from 'tap';
import { applyIgnores } from '../../src/evaluate/ignore.js';
import { unknownIgnoreIds } from '../../src/lib/suggest.js';
import { exitCodeFor, type Report } from '../../src/model/report.js';
import type { Finding, FindingId } from '../../src/model/findings.js';
import { closeMatches, didYouMean } from '../../src/lib/suggest.js';

/** Placeholder ids ('a', 'w') as --ignore would name them: applyIgnores reads ids as plain words. */
const finding = (id: string, severity: Finding['severity']): Finding => ({ id: id as FindingId, severity, message: id, remediation: 'fix' });
const report = (kubeletWillStart: boolean | null, findings: Finding[]) => ({ kubeletWillStart, findings }) as unknown as Report;

t.test('ignoring every error of "will not start" gives exit 0; the prediction stays', async (t) => {
  const r = applyIgnores(report(false, [finding('plugin-binary-missing', 'error'), finding('plugin-world-writable', 'warning')]), ['plugin-binary-missing']);
  t.equal(r.kubeletWillStart, false);
  t.same(r.ignored, { ids: ['plugin-binary-missing'], findings: 1, verdictIgnored: true });
  t.equal(exitCodeFor(r), 0);
  t.same(r.findings.map((f) => f.ignored ?? false), [true, false]);
});

t.test('one error left: exit 1; ignoring a warning changes nothing but the mark', async (t) => {
  const two = applyIgnores(report(false, [finding('a', 'error'), finding('b', 'error')]), ['a']);
  t.equal(exitCodeFor(two), 1);
  t.equal(two.ignored?.verdictIgnored, false);
  const warning = applyIgnores(report(true, [finding('w', 'warning')]), ['w']);
  t.equal(exitCodeFor(warning), 0);
  t.same(warning.ignored, { ids: ['w'], findings: 1, verdictIgnored: false });
});

t.test('"cannot tell" is ignored only with cannot-decide (and any error) ignored', async (t) => {
  const r = report(null, [finding('cannot-decide', 'warning'), finding('x', 'warning')]);
  t.equal(exitCodeFor(applyIgnores(r, ['x'])), 2);
  t.equal(exitCodeFor(applyIgnores(r, ['cannot-decide'])), 0);
  const withError = report(null, [finding('cannot-decide', 'warning'), finding('e', 'error')]);
  t.equal(exitCodeFor(applyIgnores(withError, ['cannot-decide'])), 2);
});

t.test('no ids: the report is returned as is; duplicates collapse', async (t) => {
  const r = report(false, [finding('a', 'error')]);
  t.equal(applyIgnores(r, []), r);
  t.same(applyIgnores(r, ['a', 'a']).ignored?.ids, ['a']);
});

t.test('unknown ids, with the close known ones', async (t) => {
  t.same(unknownIgnoreIds(['plugin-binary-missing', 'plugin-binary-mising', 'zzz'], ['plugin-binary-missing', 'bin-dir-missing']), [
    { id: 'plugin-binary-mising', close: ['plugin-binary-missing'] },
    { id: 'zzz', close: [] },
  ]);
  t.same(closeMatches('chek', ['check', 'preflight', 'serve']), ['check']);
  t.same(closeMatches('sevre', ['check', 'preflight', 'serve']), ['serve']);
  t.equal(didYouMean('xyz', ['check']), '');
  t.equal(didYouMean('fallbak', ['fallback', 'explain']), ' Did you mean fallback?');
});
