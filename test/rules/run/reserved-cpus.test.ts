// --reserved-cpus against the online CPUs (src/rules/run/reserved-cpus.ts), on the live root.
import t from 'tap';
import { reservedCpusRule } from '../../../src/rules/run/reserved-cpus.js';
import { refusalOf as failOf, startContext as ctx, withHost as host } from '../../helpers/start-context.js';

t.test('--reserved-cpus against the online CPUs', async (t) => {
  const cpus = failOf(reservedCpusRule.decide(ctx('--reserved-cpus=0-7', 30, host({ onlineCpus: '0-3', swaps: { present: false } }))));
  t.equal(cpus?.kubeletError, 'failed to run Kubelet: reserved-cpus: 0-7 is not a subset of online-cpus: 0-3');
  t.notOk(cpus?.inexact);
  t.same(reservedCpusRule.decide(ctx('--reserved-cpus=0-1', 30, host({ onlineCpus: '0-3' }))), { pass: true });
  t.same(reservedCpusRule.decide(ctx('--reserved-cpus=0-7', 30, host({ onlineCpus: '0-3' }, {}, [{ fact: 'onlineCpus', reason: 'not the live root' }]))), { pass: true }, 'not checked');
});
