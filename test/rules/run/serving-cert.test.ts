// The serving certificate as NewMainKubelet loads it from 1.31 (src/rules/run/serving-cert.ts);
// the certificate's own cases are test/kubelet/node-setup/serving-cert.test.ts.
import t from 'tap';
import { servingCertRule } from '../../../src/rules/run/serving-cert.js';
import { KUBELET_CONFIG_HEADER as KC, refusalOf as failOf, startContext as ctx, withConfig } from '../../helpers/start-context.js';

const CONF = '/var/lib/kubelet/config.yaml';
const TLS = `${KC}tlsCertFile: /etc/kubelet/tls.crt\ntlsPrivateKeyFile: /etc/kubelet/tls.key\n`;
const gone = { exists: false, code: 'ENOENT' } as const;

t.test('a missing tlsCertFile: 1.31+ refuses in NewMainKubelet; before, it is read after "Started kubelet"', async (t) => {
  const files = { '/etc/kubelet/tls.crt': gone, '/etc/kubelet/tls.key': gone };
  const refused = failOf(servingCertRule.decide(ctx(`--config=${CONF}`, 31, { ...withConfig(CONF, TLS), files })));
  t.equal(refused?.findingId, 'kubelet-serving-cert-invalid');
  t.match(refused?.kubeletError, /^failed to run Kubelet: failed to create kubelet: failed to initialize file based certificate manager: /);
  t.same(servingCertRule.decide(ctx(`--config=${CONF}`, 30, { ...withConfig(CONF, TLS), files })), { pass: true });
});
