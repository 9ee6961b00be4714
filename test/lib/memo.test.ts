import t from 'tap';
import { oncePerInput } from '../../src/lib/memo.js';

t.test('each distinct input is computed once, and the same answer is given again', async (t) => {
  const calls: string[] = [];
  const answer = oncePerInput((input) => {
    calls.push(input);
    return { input };
  });
  const first = answer('*.azurecr.io');
  t.equal(answer('*.azurecr.io'), first, 'the very same answer');
  t.same(answer('*.azurecr.cn'), { input: '*.azurecr.cn' });
  t.same(calls, ['*.azurecr.io', '*.azurecr.cn']);
});

t.test('an undefined answer is remembered too', async (t) => {
  let calls = 0;
  const problem = oncePerInput((_input: string): string | undefined => {
    calls++;
    return undefined;
  });
  t.equal(problem('x'), undefined);
  t.equal(problem('x'), undefined);
  t.equal(calls, 1);
});

t.test('two memos never share answers: each lives as long as the caller holds it', async (t) => {
  let generation = 0;
  const compute = (input: string) => `${input}@${generation}`;
  const first = oncePerInput(compute);
  t.equal(first('/bin/sh'), '/bin/sh@0');
  generation = 1; // what the next check would see
  t.equal(first('/bin/sh'), '/bin/sh@0', 'the same memo: the same answer');
  t.equal(oncePerInput(compute)('/bin/sh'), '/bin/sh@1', 'a new memo asks again');
});
