// evictionHard as run() parses it (src/rules/run/eviction-hard.ts): ParseThresholdConfig per minor.
import t from 'tap';
import { checkEvictionHard, evictionHardRule } from '../../../src/rules/run/eviction-hard.js';
import { refusalOf as failOf, startContext as ctx } from '../../helpers/start-context.js';

t.test('parseThresholdStatement per entry', async (t) => {
  t.same(checkEvictionHard(28, { 'containerfs.available': '10%' }, false), { ok: false, error: 'unsupported eviction signal containerfs.available', inexact: false });
  t.same(checkEvictionHard(29, { 'containerfs.available': '10%' }, false), { ok: true }, 'containerfs.* from 1.29');
  t.same(checkEvictionHard(30, { 'memory.available': '0' }, false), { ok: false, error: 'eviction threshold memory.available must be positive: 0', inexact: false });
  t.same(checkEvictionHard(30, { 'memory.available': '100Mi', 'nodefs.available': '10%', 'nodefs.inodesFree': '5%', 'imagefs.available': '15%', 'pid.available': '100%' }, false), { ok: true });
  t.match(checkEvictionHard(30, { 'memory.available': 'x', 'nodefs.available': 'y' }, false), { ok: false, inexact: true }, 'Go map order picks the error');
});

t.test('the rule: run()\'s error as it is, under Run()\'s wrapping', async (t) => {
  const flag = failOf(evictionHardRule.decide(ctx('--eviction-hard=memory.available<200%', 30)));
  t.equal(flag?.findingId, 'kubelet-eviction-hard-invalid');
  t.equal(flag?.kubeletError, 'failed to run Kubelet: eviction percentage threshold memory.available must be <= 100%: 200%');
  t.same(evictionHardRule.decide(ctx('--eviction-hard=memory.available<200% --experimental-allocatable-ignore-eviction', 30)), { pass: true }, 'skipped with --experimental-allocatable-ignore-eviction');
  t.match(evictionHardRule.decide(ctx('--eviction-hard=memory.available<-0', 30)), { undecidable: /canonical form not modelled/ });
  t.equal(failOf(evictionHardRule.decide(ctx('--eviction-hard=memory.available<x,nodefs.available<y', 30)))?.inexact, true, 'Go map order picks the error');
});
