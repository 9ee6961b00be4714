/** Kubelet's serving certificate before "Started kubelet" (src/kubelet/node-setup/serving-cert.ts), loaded as Go's tls.X509KeyPair does. */
import t from 'tap';
import { checkServingCert, type ServingCertInput } from '../../../src/kubelet/node-setup/serving-cert.js';
import type { PathFact } from '../../../src/model/node.js';

const fillIns = '../../../scripts/fixtures/kubeconfig.mjs';
const { KUBELET_CLIENT_PEM } = (await import(fillIns)) as { KUBELET_CLIENT_PEM: string };
const CERT = KUBELET_CLIENT_PEM.slice(0, KUBELET_CLIENT_PEM.indexOf('-----BEGIN EC'));
const KEY = KUBELET_CLIENT_PEM.slice(KUBELET_CLIENT_PEM.indexOf('-----BEGIN EC'));
// Another P-256 key: Go 1.26.8 says "tls: private key does not match public key" (test/go/keypair-verdict).
const OTHER_KEY = '-----BEGIN EC PRIVATE KEY-----\nMHcCAQEEILrw3MA5Kf2sTWA4+sW88jqRRd2xrfmZ1JChHLKVds1woAoGCCqGSM49\nAwEHoUQDQgAEn1NQTV9YBYPhmB0V6OuFPew2XAIcaMg5B8IbVRSTcr2oXNq62qeN\nQ89dmjCszA43tPRV1rcGHA/uqRin4DPQWQ==\n-----END EC PRIVATE KEY-----\n';
const file = (text: string): PathFact => ({ exists: true, type: 'file', mode: 0o600, uid: 0, gid: 0, content: { ok: true, data: Buffer.from(text) } });
const fileOf = (files: Record<string, string>) => (path: string): PathFact => (files[path] === undefined ? { exists: false, code: 'ENOENT' } : file(files[path]!));
const input = (over: Partial<ServingCertInput> = {}): ServingCertInput => ({ minor: 31, certDir: '/var/lib/kubelet/pki', tlsCertFile: '/etc/kubelet/tls.crt', tlsPrivateKeyFile: '/etc/kubelet/tls.key', serverTLSBootstrap: false, gateEnabled: () => true, now: new Date('2027-01-01T00:00:00Z'), ...over });
const WRAP = 'failed to initialize file based certificate manager: unable to set up dynamic certificate manager for kubelet server cert files: ';

t.test('tlsCertFile / tlsPrivateKeyFile from 1.31 (ReloadKubeletServerCertificateFile)', async (t) => {
  t.same(checkServingCert(input(), fileOf({ '/etc/kubelet/tls.crt': CERT, '/etc/kubelet/tls.key': KEY })), { ok: true });
  t.same(checkServingCert(input(), fileOf({ '/etc/kubelet/tls.crt': CERT, '/etc/kubelet/tls.key': OTHER_KEY })), { ok: false, error: `${WRAP}tls: private key does not match public key`, path: '/etc/kubelet/tls.crt' });
  t.same(checkServingCert(input(), fileOf({ '/etc/kubelet/tls.crt': CERT, '/etc/kubelet/tls.key': '' })), { ok: false, error: `${WRAP}missing content for serving cert "kubelet-server-cert-files::/etc/kubelet/tls.crt::/etc/kubelet/tls.key"`, path: '/etc/kubelet/tls.crt' });
  t.same(checkServingCert(input({ minor: 30 }), fileOf({ '/etc/kubelet/tls.crt': CERT, '/etc/kubelet/tls.key': OTHER_KEY })), { ok: true }, 'before 1.31 the files are read after "Started kubelet"');
});

t.test('the server certificate store (serverTLSBootstrap)', async (t) => {
  const store = '/var/lib/kubelet/pki/kubelet-server-current.pem';
  t.same(checkServingCert(input({ serverTLSBootstrap: true }), fileOf({ [store]: KUBELET_CLIENT_PEM })), { ok: true });
  t.same(checkServingCert(input({ serverTLSBootstrap: true }), fileOf({})), { ok: true }, 'no pair yet: the manager requests one');
  t.same(checkServingCert(input({ serverTLSBootstrap: true }), fileOf({ [store]: CERT + OTHER_KEY })),
    { ok: false, error: `failed to initialize certificate manager: failed to initialize server certificate manager: could not convert data from "${store}" into cert/key pair: tls: private key does not match public key`, path: store, inexact: true });
});
