// The API client: buildKubeletClientConfig in run() (src/rules/run/client-config.ts); the
// kubeconfig's own cases are test/kubelet/node-setup/kubeconfig.test.ts.
import t from 'tap';
import { clientConfigRule } from '../../../src/rules/run/client-config.js';
import { refusalOf as failOf, startContext as ctx } from '../../helpers/start-context.js';

const KUBECONFIG = '/etc/kubernetes/kubelet.conf';

t.test('a missing --kubeconfig is refused under Run()\'s wrapping; standalone passes', async (t) => {
  const missing = failOf(clientConfigRule.decide(ctx(`--kubeconfig=${KUBECONFIG}`, 30, { files: { [KUBECONFIG]: { exists: false, code: 'ENOENT' } } })));
  t.equal(missing?.findingId, 'kubelet-kubeconfig-invalid');
  t.match(missing?.kubeletError, /^failed to run Kubelet: invalid kubeconfig: stat \/etc\/kubernetes\/kubelet\.conf: no such file or directory/);
  t.equal(missing?.path, KUBECONFIG);
  t.same(clientConfigRule.decide(ctx('--v=2', 30)), { pass: true }, 'no --kubeconfig: standalone mode');
});
