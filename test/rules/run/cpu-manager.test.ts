// cpuManagerPolicy as the container manager's cpumanager.NewManager takes it (src/rules/run/cpu-manager.ts).
import t from 'tap';
import { checkCpuManagerPolicy, cpuManagerRule } from '../../../src/rules/run/cpu-manager.js';
import { refusalOf as failOf, startContext as ctx } from '../../helpers/start-context.js';

t.test('an unknown policy, and static without a CPU reservation, are refused in kubelet\'s words', async (t) => {
  const unknown = failOf(cpuManagerRule.decide(ctx('--cpu-manager-policy=dynamic', 30)));
  t.equal(unknown?.findingId, 'kubelet-cpu-manager-policy-invalid');
  t.equal(unknown?.kubeletError, 'failed to run Kubelet: unknown policy: "dynamic"');
  t.equal(unknown?.remediation, 'Set cpuManagerPolicy to none or static.');
  const unreserved = failOf(cpuManagerRule.decide(ctx('--cpu-manager-policy=static', 36)));
  t.equal(unreserved?.kubeletError, 'failed to run Kubelet: [cpumanager] unable to determine reserved CPU resources for static policy');
  t.match(unreserved?.remediation, 'Reserve CPUs for the static policy');
  t.same(cpuManagerRule.decide(ctx('--cpu-manager-policy=none', 30)), { pass: true });
  t.same(cpuManagerRule.decide(ctx('--v=2', 30)), { pass: true }, 'unset is none');
});

t.test('static with a reservation depends on the machine: cannot tell', async (t) => {
  t.match(cpuManagerRule.decide(ctx('--cpu-manager-policy=static --kube-reserved=cpu=500m', 30)), { undecidable: /CPU topology/ });
  t.match(cpuManagerRule.decide(ctx('--cpu-manager-policy=static --reserved-cpus=0', 30)), { undecidable: /CPU topology/ }, '--reserved-cpus is a reservation');
  t.same(checkCpuManagerPolicy('static', { kubeReserved: { cpu: '0' }, systemReserved: { cpu: '0' } }), { ok: false, error: '[cpumanager] unable to determine reserved CPU resources for static policy' }, 'zero sums are dropped');
  t.match(checkCpuManagerPolicy('static', { kubeReserved: { cpu: 'abc' } }), { undecidable: /cannot add up/ });
});

t.test('before 1.26 only with the CPUManager gate on', async (t) => {
  t.same(cpuManagerRule.decide(ctx('--cpu-manager-policy=dynamic --feature-gates=CPUManager=false', 25)), { pass: true });
  t.equal(failOf(cpuManagerRule.decide(ctx('--cpu-manager-policy=dynamic', 25)))?.findingId, 'kubelet-cpu-manager-policy-invalid', 'the gate is on by default (beta)');
});
