// --exit-on-lock-contention and --lock-file in run() (src/rules/run/lock-file.ts).
import t from 'tap';
import { lockFileRule } from '../../../src/rules/run/lock-file.js';
import { refusalOf as failOf, startContext as ctx } from '../../helpers/start-context.js';

t.test('--exit-on-lock-contention without --lock-file', async (t) => {
  const refused = failOf(lockFileRule.decide(ctx('--exit-on-lock-contention', 30)));
  t.equal(refused?.findingId, 'kubelet-lock-file-missing');
  t.equal(refused?.kubeletError, 'failed to run Kubelet: cannot exit on lock file contention: no lock file specified');
  t.equal(refused?.path, '/etc/systemd/system/kubelet.service', 'the unit that gives the flag');
  t.same(lockFileRule.decide(ctx('--exit-on-lock-contention=false', 30)), { pass: true });
  t.same(lockFileRule.decide(ctx('--lock-file=/var/run/lock/kubelet.lock', 30)), { undecidable: '--lock-file /var/run/lock/kubelet.lock: whether kubelet can create and lock it is not modelled', path: '/etc/systemd/system/kubelet.service' });
});
