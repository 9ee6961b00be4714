import t from 'tap';
import { describeAnswerChange, type Answer } from '../../src/serve/answer-change.js';

const answer = (kubeletWillStart: boolean | null, findingIds: string[], fallbackActive = false): Answer => ({ kubeletWillStart, findingIds, fallbackActive });

t.test('the first check names the prediction and its findings', async (t) => {
  t.equal(describeAnswerChange(undefined, answer(false, ['kubelet-flag-unknown'])), 'first check: kubelet will NOT start (kubelet-flag-unknown)');
  t.equal(describeAnswerChange(undefined, answer(true, [])), 'first check: kubelet is predicted to start');
});

t.test('the same answer says nothing', async (t) => {
  t.equal(describeAnswerChange(answer(false, ['a', 'b']), answer(false, ['a', 'b'])), undefined);
});

t.test('only the findings changed: said so, with the ids that came and went', async (t) => {
  t.equal(
    describeAnswerChange(answer(false, ['kubelet-flag-unknown']), answer(false, ['feature-gate-unknown'])),
    'findings changed, the prediction did not: kubelet will NOT start; new: feature-gate-unknown; gone: kubelet-flag-unknown',
  );
});

t.test('a changed prediction names the one before and the reason', async (t) => {
  t.equal(
    describeAnswerChange(answer(false, ['plugin-binary-missing']), answer(true, [])),
    'answer changed: kubelet is predicted to start (before: will NOT start); gone: plugin-binary-missing',
  );
  t.equal(describeAnswerChange(answer(true, [], true), answer(true, [])), 'findings changed, the prediction did not: kubelet is predicted to start; fallback no longer active');
});
