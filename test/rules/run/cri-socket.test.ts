// The CRI socket (src/rules/run/cri-socket.ts), on the live root.
import t from 'tap';
import { criSocketRule } from '../../../src/rules/run/cri-socket.js';
import { refusalOf as failOf, startContext as ctx, withHost as host } from '../../helpers/start-context.js';

t.test('the CRI socket', async (t) => {
  const endpoint = 'unix:///run/containerd/containerd.sock';
  const cri = failOf(criSocketRule.decide(ctx(`--container-runtime-endpoint=${endpoint}`, 30, host({ swaps: { present: false } }, { [endpoint]: { kind: 'missing', endpoint, path: '/run/containerd/containerd.sock' } }))));
  t.equal(cri?.findingId, 'host-cri-socket-missing');
  t.match(cri?.kubeletError, `failed to run Kubelet: validate service connection: validate CRI v1 runtime API for endpoint "${endpoint}": rpc error: code = Unavailable desc = connection error: desc = "transport: Error while dialing: dial unix /run/containerd/containerd.sock: connect: no such file or directory"`);
  t.equal(cri?.inexact, true, 'grpc-go\'s words differ between versions');
  t.same(criSocketRule.decide(ctx(`--container-runtime-endpoint=${endpoint}`, 30, host({}))), { pass: true }, 'an endpoint discovery did not look at is not "cannot tell"');
});
