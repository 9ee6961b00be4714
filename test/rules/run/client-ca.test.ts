// The client CA bundle as BuildAuth reads it in run() from 1.36 (src/rules/run/client-ca.ts); up
// to 1.35 the dependencies step loads it first (test/start/start-inputs.test.ts).
import t from 'tap';
import { clientCaRule, NEWEST_MINOR_CLIENT_CA_IN_INITIALIZE_TLS } from '../../../src/rules/run/client-ca.js';
import { refusalOf as failOf, startContext as ctx } from '../../helpers/start-context.js';

const CA = '/etc/kubernetes/pki/ca.crt';

t.test('1.36+: a missing or empty bundle is refused at run:auth; up to 1.35 not here', async (t) => {
  const missing = failOf(clientCaRule.decide(ctx(`--client-ca-file=${CA}`, 36, { files: { [CA]: { exists: false, code: 'ENOENT' } } })));
  t.equal(missing?.findingId, 'kubelet-client-ca-invalid');
  t.equal(missing?.kubeletError, `failed to run Kubelet: open ${CA}: no such file or directory`);
  t.equal(missing?.path, CA);
  t.same(clientCaRule.decide(ctx(`--client-ca-file=${CA}`, NEWEST_MINOR_CLIENT_CA_IN_INITIALIZE_TLS, { files: { [CA]: { exists: false, code: 'ENOENT' } } })), { pass: true }, 'InitializeTLS has loaded it before run()');
  t.match(clientCaRule.decide(ctx(`--client-ca-file=${CA}`, 36)), { undecidable: /^authentication\.x509\.clientCAFile: /, path: CA }, 'a file discovery did not read');
  t.same(clientCaRule.decide(ctx('--v=2', 36)), { pass: true }, 'no client CA file');
});
