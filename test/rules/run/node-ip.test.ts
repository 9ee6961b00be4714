// --node-ip as RunKubelet checks it (src/rules/run/node-ip.ts), with the cloud provider it depends on.
import t from 'tap';
import { nodeIpRule } from '../../../src/rules/run/node-ip.js';
import { refusalOf as failOf, startContext as ctx } from '../../helpers/start-context.js';

t.test('two addresses of one family, per minor', async (t) => {
  const pair = failOf(nodeIpRule.decide(ctx('--node-ip=10.0.0.1,10.0.0.2', 28)));
  t.equal(pair?.findingId, 'node-ip-rejected');
  t.equal(pair?.kubeletError, 'failed to run Kubelet: bad --node-ip "10.0.0.1,10.0.0.2": must contain either a single IP or a dual-stack pair of IPs');
  t.same(nodeIpRule.decide(ctx('--node-ip=10.0.0.1,fd00::1', 33)), { pass: true }, 'a dual-stack pair');
  t.same(nodeIpRule.decide(ctx('--node-ip=10.0.0.1,fd00::1 --cloud-provider=external', 30)), { pass: true }, '1.30+: with "external" too');
  t.ok(failOf(nodeIpRule.decide(ctx('--node-ip=10.0.0.1,fd00::1 --cloud-provider=external', 28))), '1.27-1.28: "external" needs CloudDualStackNodeIPs');
});
