// Swap with failSwapOn (src/rules/run/swap.ts), on the live root.
import t from 'tap';
import { swapRule } from '../../../src/rules/run/swap.js';
import { refusalOf as failOf, startContext as ctx, withHost as host } from '../../helpers/start-context.js';

const swap = { present: true, lines: ['Filename Type Size Used Priority', '/swapfile file 100 0 -2'] };

t.test('swap with failSwapOn', async (t) => {
  const swapOn = failOf(swapRule.decide(ctx('--v=2', 30, host({ swaps: swap, cgroupVersion: 2 }))));
  t.equal(swapOn?.findingId, 'host-swap-on');
  t.equal(swapOn?.kubeletError, 'failed to run Kubelet: running with swap on is not supported, please disable swap! or set --fail-swap-on flag to false. /proc/swaps contained: [Filename Type Size Used Priority /swapfile file 100 0 -2]');
  t.match(swapOn?.logLine, /^"command failed" err="failed to run Kubelet: running with swap on/);
  t.same(swapRule.decide(ctx('--fail-swap-on=false', 30, host({ swaps: swap, cgroupVersion: 2 }))), { pass: true }, '--fail-swap-on=false');
  t.same(swapRule.decide(ctx('--v=2', 30, host({ swaps: swap }, {}, [{ fact: 'swaps', reason: 'not the live root' }]))), { pass: true }, 'a fact not checked never changes the answer');
  t.same(swapRule.decide(ctx('--v=2', 30)), { pass: true }, 'no host facts at all (a model without discovery)');
  t.ok('undecidable' in swapRule.decide(ctx('--v=2', 30, host({}))), '/proc/swaps not read on the live root: cannot tell');
});
