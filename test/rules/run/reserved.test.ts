// --kube-reserved / --system-reserved as run() parses them (src/rules/run/reserved.ts).
import t from 'tap';
import { reservedRule } from '../../../src/rules/run/reserved.js';
import { KUBELET_CONFIG_HEADER as KC, refusalOf as failOf, startContext as ctx, withConfig } from '../../helpers/start-context.js';

const CONF = '/etc/kubernetes/kubelet.conf';

t.test('--kube-reserved parsed by parseResourceList', async (t) => {
  const flag = failOf(reservedRule.decide(ctx('--kube-reserved=cpu=abc', 30)));
  t.equal(flag?.findingId, 'kube-reserved-unparsable');
  t.equal(flag?.kubeletError, 'failed to run Kubelet: --kube-reserved value failed to parse: failed to parse quantity "abc" for "cpu" resource: quantities must match the regular expression \'^([+-]?[0-9.]+)([eEinumkKMGTP]*[-+]?[0-9]*)$\'');
  t.equal(flag?.path, '/etc/systemd/system/kubelet.service', 'a flag names the unit that holds it');
  const file = failOf(reservedRule.decide(ctx(`--config=${CONF}`, 30, withConfig(CONF, `${KC}kubeReserved:\n  gpu: "1"\n`))));
  t.equal(file?.kubeletError, 'failed to run Kubelet: --kube-reserved value failed to parse: cannot reserve "gpu" resource');
  t.equal(file?.path, CONF);
});

t.test('an empty --system-reserved value on the command line: the finding names where the flag comes from', async (t) => {
  const empty = failOf(reservedRule.decide(ctx('--system-reserved=cpu=${SYSTEM_RESERVED_CPU}', 30, {}, {})));
  t.equal(empty?.findingId, 'system-reserved-unparsable');
  t.match(empty?.kubeletError, 'failed to parse quantity "" for "cpu" resource');
  t.match(empty?.message, '(--system-reserved comes from ExecStart= at /etc/systemd/system/kubelet.service:20)');
  t.equal(empty?.path, '/etc/systemd/system/kubelet.service');
});

t.test('systemReserved is parsed after kubeReserved; --reserved-cpus overrides the cpu entries first', async (t) => {
  const system = failOf(reservedRule.decide(ctx(`--config=${CONF}`, 30, withConfig(CONF, `${KC}systemReserved:\n  memory: "-1Gi"\n`))));
  t.equal(system?.kubeletError, 'failed to run Kubelet: --system-reserved value failed to parse: resource quantity for "memory" cannot be negative: -1Gi');
  const both = failOf(reservedRule.decide(ctx(`--config=${CONF}`, 30, withConfig(CONF, `${KC}kubeReserved:\n  gpu: "1"\nsystemReserved:\n  memory: "-1Gi"\n`))));
  t.equal(both?.findingId, 'kube-reserved-unparsable', 'kubeReserved first');
  t.same(reservedRule.decide(ctx(`--config=${CONF}`, 30, withConfig(CONF, `${KC}kubeReserved:\n  cpu: abc\nsystemReserved:\n  cpu: abc\nreservedSystemCPUs: "0-1"\n`))), { pass: true }, 'the bad cpu quantities are never parsed');
  t.equal(failOf(reservedRule.decide(ctx('--kube-reserved=cpu=abc', 26)))?.kubeletError, 'failed to run Kubelet: quantities must match the regular expression \'^([+-]?[0-9.]+)([eEinumkKMGTP]*[-+]?[0-9]*)$\'', '1.26 returns the error unwrapped');
});
