// The run step's rules in kubelet's order (src/rules/run/index.ts, src/rules/rule.ts runRules):
// the first refusal decides, a cannot-tell before it makes its words inexact.
import t from 'tap';
import { inKubeletOrder, runRules } from '../../../src/rules/rule.js';
import { RUN_RULES } from '../../../src/rules/run/index.js';
import type { StartContext } from '../../../src/start/start-context.js';
import { refusalOf as failOf, startContext as ctx, withHost as host } from '../../helpers/start-context.js';

/** The finding ids of every rule that refuses, in kubelet's order. */
const refusals = (context: StartContext) => inKubeletOrder(context.minor, RUN_RULES).map((rule) => failOf(rule.decide(context))?.findingId).filter((id) => id !== undefined);

t.test('nothing set: every rule passes', async (t) => {
  t.same(runRules(ctx('--v=2', 30), RUN_RULES), { pass: true });
});

t.test('1.28: cloud init, then the reserved maps, then --node-ip', async (t) => {
  t.same(refusals(ctx('--cloud-provider=foo --kube-reserved=gpu=1 --node-ip=10.0.0.1,10.0.0.2', 28)), ['cloud-provider-unknown', 'kube-reserved-unparsable', 'node-ip-rejected']);
});

t.test('NewMainKubelet\'s disabled-provider check comes after --node-ip; an unknown provider first', async (t) => {
  const args = '--system-reserved=cpu= --node-ip=10.0.0.1,10.0.0.2';
  t.same(refusals(ctx(`${args} --cloud-provider=gce --feature-gates=DisableCloudProviders=true`, 29)), ['system-reserved-unparsable', 'node-ip-rejected', 'cloud-provider-disabled']);
  t.same(refusals(ctx(`${args} --cloud-provider=aws`, 27)), ['cloud-provider-unknown', 'system-reserved-unparsable', 'node-ip-rejected']);
});

t.test('host facts in kubelet\'s order: --reserved-cpus before swap; a cannot-tell before a refusal', async (t) => {
  const swap = { present: true, lines: ['Filename Type Size Used Priority', '/swapfile file 100 0 -2'] };
  const both = failOf(runRules(ctx('--reserved-cpus=0-7', 30, host({ onlineCpus: '0-3', swaps: swap })), RUN_RULES));
  t.equal(both?.findingId, 'host-reserved-cpus-offline', '--reserved-cpus is checked before swap');
  const undecidedFirst = failOf(runRules(ctx('--v=2', 30, host({ swaps: swap }, {}, [])), RUN_RULES));
  t.equal(undecidedFirst?.findingId, 'host-swap-on', 'the CRI socket not read does not hide swap');
  const inexact = failOf(runRules(ctx('--lock-file=/run/kubelet.lock --node-ip=10.0.0.1,10.0.0.2', 30), RUN_RULES));
  t.equal(inexact?.findingId, 'node-ip-rejected');
  t.equal(inexact?.inexact, true, 'the lock file before it could not be decided: kubelet may stop there, in other words');
  t.same(runRules(ctx('--lock-file=/run/kubelet.lock', 30), RUN_RULES), { undecidable: '--lock-file /run/kubelet.lock: whether kubelet can create and lock it is not modelled' }, 'the step\'s cannot-tell names no file');
});

t.test('the NewContainerManager checks keep their order within the step: swap, cgroup root, CPU manager', async (t) => {
  const ids = inKubeletOrder(30, RUN_RULES).map((rule) => rule.id);
  t.same(ids.filter((id) => ['run/swap', 'run/cgroup-root', 'run/cpu-manager'].includes(id)), ['run/swap', 'run/cgroup-root', 'run/cpu-manager']);
  t.equal(ids[0], 'run/lock-file');
  t.same(ids.slice(-3), ['run/cloud-provider-disabled', 'run/serving-cert', 'run/user-namespaces'], '1.30: NewMainKubelet last, the user namespace manager at its end');
  const at33 = inKubeletOrder(33, RUN_RULES).map((rule) => rule.id);
  t.ok(at33.indexOf('run/cloud-provider') < at33.indexOf('run/client-config'), '1.33: run() refuses a built-in provider before it builds the API client');
  t.equal(inKubeletOrder(34, RUN_RULES).at(-1)?.id, 'run/cloud-provider', '1.34+ has no run:cloud-init step (only NewMainKubelet refuses): that rule sorts last');
});
