// cgroupRoot as NewContainerManager validates it on the live host (src/rules/run/cgroup-root.ts).
import t from 'tap';
import { cgroupRootDir, cgroupRootRule } from '../../../src/rules/run/cgroup-root.js';
import { refusalOf as failOf, startContext as ctx, withHost as host } from '../../helpers/start-context.js';

t.test('a missing cgroup root is refused, with the path of the host\'s cgroup version', async (t) => {
  const v2 = failOf(cgroupRootRule.decide(ctx('--cgroup-root=/kubelet', 30, host({ cgroupVersion: 2, cgroupRoots: { '/kubelet': false } }))));
  t.equal(v2?.findingId, 'kubelet-cgroup-root-missing');
  t.equal(v2?.kubeletError, 'failed to run Kubelet: invalid configuration: cgroup ["kubelet"] has some missing paths: /sys/fs/cgroup/kubelet');
  t.equal(v2?.inexact, true, 'the paths are listed in the host\'s order');
  t.equal(cgroupRootDir('/kubelet/', 1), '/sys/fs/cgroup/memory/kubelet');
  t.same(cgroupRootRule.decide(ctx('--cgroup-root=/kubelet', 30, host({ cgroupVersion: 2, cgroupRoots: { '/kubelet': true } }))), { pass: true });
});

t.test('what is not decided, and what is not checked', async (t) => {
  const facts = host({ cgroupVersion: 2, cgroupRoots: { '/kubelet': false } });
  t.match(cgroupRootRule.decide(ctx('--cgroup-root=/kubelet --cgroup-driver=systemd', 30, facts)), { undecidable: /systemd driver/ });
  t.match(cgroupRootRule.decide(ctx('--cgroup-root=/other', 30, facts)), { undecidable: /was not read/ });
  t.same(cgroupRootRule.decide(ctx('--cgroup-root=/kubelet --cgroups-per-qos=false', 30, facts)), { pass: true }, 'only with cgroupsPerQOS');
  t.same(cgroupRootRule.decide(ctx('--cgroup-root=/', 30, facts)), { pass: true });
  t.same(cgroupRootRule.decide(ctx('--cgroup-root=/kubelet', 30, host({}, {}, [{ fact: 'cgroupRoots', reason: 'not the live root' }]))), { pass: true }, 'another root');
  t.same(cgroupRootRule.decide(ctx('--cgroup-root=/kubelet', 30)), { pass: true }, 'no host facts');
});
