/** Kubelet's API client from --kubeconfig / --bootstrap-kubeconfig (src/kubelet/node-setup/kubeconfig.ts). */
import t from 'tap';
import { checkClientConfig, kubeconfigReferences, type ClientConfigInput } from '../../../src/kubelet/node-setup/kubeconfig.js';
import type { PathFact } from '../../../src/model/node.js';

// The fixtures' own fill-ins (plain JS generators' modules).
const fillIns = '../../../scripts/fixtures/kubeconfig.mjs';
const caFillIn = '../../../scripts/fixtures/client-ca.mjs';
const { bootstrapKubeconfig, eksKubeconfig, kubeadmKubeletConf, KUBELET_CLIENT_PEM, KUBELET_CLIENT_PEM_PATH } = (await import(fillIns)) as {
  bootstrapKubeconfig(): string;
  eksKubeconfig(cluster?: string, region?: string, caFile?: string): string;
  kubeadmKubeletConf(): string;
  KUBELET_CLIENT_PEM: string;
  KUBELET_CLIENT_PEM_PATH: string;
};
const { CLIENT_CA_PEM } = (await import(caFillIn)) as { CLIENT_CA_PEM: string };

const KC = '/etc/kubernetes/kubelet.conf';
const BKC = '/etc/kubernetes/bootstrap-kubelet.conf';
const file = (text: string): PathFact => ({ exists: true, type: 'file', mode: 0o600, uid: 0, gid: 0, content: { ok: true, data: Buffer.from(text) } });
const missing: PathFact = { exists: false, code: 'ENOENT' };
const fileOf = (files: Record<string, string | PathFact>) => (path: string): PathFact => {
  const f = files[path];
  return f === undefined ? missing : typeof f === 'string' ? file(f) : f;
};
const input = (over: Partial<ClientConfigInput> = {}): ClientConfigInput => ({ kubeconfig: KC, bootstrapKubeconfig: '', rotateCertificates: false, certDir: '/var/lib/kubelet/pki', now: new Date('2027-01-01T00:00:00Z'), minor: 31, ...over });
const pem = { [KUBELET_CLIENT_PEM_PATH]: KUBELET_CLIENT_PEM };

t.test('standalone mode reads nothing, not even a missing bootstrap kubeconfig', async (t) => {
  t.same(checkClientConfig(input({ kubeconfig: '', bootstrapKubeconfig: BKC }), () => undefined), { ok: true });
});

t.test('a missing kubeconfig, in the words of each path (as the real kubelet 1.31.14 prints them)', async (t) => {
  t.same(checkClientConfig(input(), fileOf({})), { ok: false, error: `invalid kubeconfig: stat ${KC}: no such file or directory`, inexact: false, path: KC });
  t.same(checkClientConfig(input({ rotateCertificates: true }), fileOf({})), { ok: false, error: `unable to load kubeconfig: stat ${KC}: no such file or directory`, inexact: false, path: KC });
  t.same(checkClientConfig(input({ bootstrapKubeconfig: BKC }), fileOf({})), { ok: false, error: `unable to load bootstrap kubeconfig: stat ${BKC}: no such file or directory`, inexact: false, path: BKC });
});

t.test('usable kubeconfigs: token, client certificate files, exec plugin with a CA file', async (t) => {
  t.same(checkClientConfig(input(), fileOf({ [KC]: bootstrapKubeconfig() })), { ok: true });
  t.same(checkClientConfig(input(), fileOf({ [KC]: kubeadmKubeletConf(), ...pem })), { ok: true });
  t.same(checkClientConfig(input(), fileOf({ [KC]: eksKubeconfig(), '/etc/kubernetes/pki/ca.crt': CLIENT_CA_PEM })), { ok: true });
});

t.test('with a bootstrap kubeconfig: an unexpired client certificate keeps the kubeconfig, anything else goes to the bootstrap one', async (t) => {
  t.same(checkClientConfig(input({ bootstrapKubeconfig: BKC }), fileOf({ [KC]: kubeadmKubeletConf(), ...pem })), { ok: true }, 'the bootstrap kubeconfig is not read');
  const expired = checkClientConfig(input({ bootstrapKubeconfig: BKC, now: new Date('2200-01-01T00:00:00Z') }), fileOf({ [KC]: kubeadmKubeletConf(), ...pem }));
  t.match(expired, { ok: false, error: /^unable to load bootstrap kubeconfig: stat / }, 'an expired certificate is not still valid');
  t.match(checkClientConfig(input({ bootstrapKubeconfig: BKC }), fileOf({ [KC]: bootstrapKubeconfig() })), { ok: false, error: /^unable to load bootstrap kubeconfig/ }, 'a token is no client certificate');
  t.same(checkClientConfig(input({ bootstrapKubeconfig: BKC, rotateCertificates: true }), fileOf({ [BKC]: bootstrapKubeconfig() })), { ok: true }, 'with rotation kubelet bootstraps in the background');
  t.match(checkClientConfig(input({ bootstrapKubeconfig: BKC }), fileOf({ [BKC]: bootstrapKubeconfig() })), { undecidable: /API server/ }, 'without rotation it waits for the API server');
});

t.test('contents kubelet refuses: false, words marked inexact', async (t) => {
  const cases: [string, string, RegExp][] = [
    ['YAML that does not parse', 'apiVersion: v1\nclusters: [\n', /^invalid kubeconfig: error loading config file "\/etc\/kubernetes\/kubelet.conf": yaml: /],
    ['an empty file', '', /no configuration has been provided/],
    ['no current-context', bootstrapKubeconfig().replace('current-context: kubelet\n', ''), /no configuration has been provided/],
    ['an unknown current-context', bootstrapKubeconfig().replace('current-context: kubelet', 'current-context: nope'), /context was not found for specified context: nope/],
    ['a cluster without a server', bootstrapKubeconfig().replace(/ {4}server: .*\n/, ''), /no server found for cluster "local"/],
    ['a CA file that is missing', eksKubeconfig(), /unable to read certificate-authority \/etc\/kubernetes\/pki\/ca.crt for kubernetes due to open /],
    ['a client certificate file that is missing', kubeadmKubeletConf(), /unable to read client-cert /],
  ];
  for (const [what, text, error] of cases) t.match(checkClientConfig(input(), fileOf({ [KC]: text })), { ok: false, error, inexact: true }, what);
});

t.test('what is not modelled, or not readable, is undecided, never a pass', async (t) => {
  t.match(checkClientConfig(input(), fileOf({ [KC]: bootstrapKubeconfig().replace('kind: Config', 'kind: Config\nextensions: []') })), { undecidable: /keys node-check does not model/ });
  t.match(checkClientConfig(input(), fileOf({ [KC]: bootstrapKubeconfig().replace('https://', 'http://') })), { undecidable: /https/ });
  t.match(checkClientConfig(input(), fileOf({ [KC]: { exists: false, code: 'EACCES' } })), { undecidable: /cannot be read here/ });
  t.match(checkClientConfig(input(), () => undefined), { undecidable: /was not read/ });
  // Without rotation the transport loads certificate files at the first TLS handshake (ReloadTLSFiles): after start.
  t.match(checkClientConfig(input(), fileOf({ [KC]: kubeadmKubeletConf(), [KUBELET_CLIENT_PEM_PATH]: 'garbage' })), { undecidable: /first TLS handshake, after it has started, and Go refuses them there \(tls: failed to find any PEM data in certificate input\)/ });
  t.match(checkClientConfig(input({ rotateCertificates: true }), fileOf({ [KC]: bootstrapKubeconfig(), '/var/lib/kubelet/pki/kubelet-client-updated.pem': KUBELET_CLIENT_PEM })), { undecidable: /kubelet-client-updated.pem/ });
});

// Pairs checked with the real Go 1.26.8 (test/go/keypair-verdict): KUBELET_CLIENT_PEM's certificate
// with another P-256 key "does not match"; the encrypted key "failed to parse"; Ed25519 loads.
const CLIENT_CERT = KUBELET_CLIENT_PEM.slice(0, KUBELET_CLIENT_PEM.indexOf('-----BEGIN EC'));
const OTHER_P256_KEY = "-----BEGIN EC PRIVATE KEY-----\nMHcCAQEEILrw3MA5Kf2sTWA4+sW88jqRRd2xrfmZ1JChHLKVds1woAoGCCqGSM49\nAwEHoUQDQgAEn1NQTV9YBYPhmB0V6OuFPew2XAIcaMg5B8IbVRSTcr2oXNq62qeN\nQ89dmjCszA43tPRV1rcGHA/uqRin4DPQWQ==\n-----END EC PRIVATE KEY-----\n";
const ENCRYPTED_KEY = "-----BEGIN EC PRIVATE KEY-----\nProc-Type: 4,ENCRYPTED\nDEK-Info: AES-128-CBC,2281678EB3CC4898A2CF5D3C08F3CC0E\n\nPlNH5ZwZSarheUA+NeITLQ9A4/YdgnqoAlY9ICgBpElyBwFWSyIek0I48da6verh\nBBY/ynPbJiFJdYde0iHdqdfXVUlV4kDiADekp7Gcx8zDATlmN//z6FbNQU2UOJ3P\nt+pcG6RM9YkR97kD3ScgrIewY1P/mn5uD3J7pR6G2Uc=\n-----END EC PRIVATE KEY-----\n";
const ED25519_CERT = "-----BEGIN CERTIFICATE-----\nMIIBSDCB+6ADAgECAhQ26sAxY2+c3+JUSiCUWXDlXR5NmzAFBgMrZXAwGTEXMBUG\nA1UEAwwOc3lzdGVtOm5vZGU6ZWQwIBcNMjYxMjAyMDYzNTEzWhgPMjEyNjExMDgw\nNjM1MTNaMBkxFzAVBgNVBAMMDnN5c3RlbTpub2RlOmVkMCowBQYDK2VwAyEAapo+\n4wSFJIA7VEbj4PIeMwF3OP6j/zyUeWFB2FFp8GajUzBRMB0GA1UdDgQWBBT+JoTO\nOh31nFkc5d8wkz2UW/B0eTAfBgNVHSMEGDAWgBT+JoTOOh31nFkc5d8wkz2UW/B0\neTAPBgNVHRMBAf8EBTADAQH/MAUGAytlcANBAFw4jwBQAwTooZpyW/99TbAFmZQz\nPdUuQXJdKn1wvI0hRVnfhBkGpB7X8JqYNSR22fBQtYw+bNwldDbxOUBCsA0=\n-----END CERTIFICATE-----\n";
const ED25519_KEY = "-----BEGIN PRIVATE KEY-----\nMC4CAQAwBQYDK2VwBCIEIK3xQjRq3N6EOHvDgtLVInxD526gXNlnfZrZSlpJzS5o\n-----END PRIVATE KEY-----\n";
const b64 = (s: string) => Buffer.from(s).toString('base64');
/** kubeadm's kubelet.conf with the client certificate and key as data, or as two files. */
const withData = (cert: string, key: string) => kubeadmKubeletConf().replace(/client-certificate: .*\n(\s+)client-key: .*\n/, `client-certificate-data: ${b64(cert)}\n$1client-key-data: ${b64(key)}\n`);
const withFiles = kubeadmKubeletConf().replace(/client-certificate: .*\n(\s+)client-key: .*\n/, 'client-certificate: /etc/kubernetes/pki/client.crt\n$1client-key: /etc/kubernetes/pki/client.key\n');

t.test('the client certificate and key as Go loads them (tls.X509KeyPair), in kubelet\'s words', async (t) => {
  t.same(checkClientConfig(input(), fileOf({ [KC]: withData(CLIENT_CERT, OTHER_P256_KEY) })),
    { ok: false, error: 'failed to initialize kubelet client: tls: private key does not match public key', inexact: false, path: KC }, 'data: the transport refuses a pair that does not match');
  t.same(checkClientConfig(input(), fileOf({ [KC]: withData(CLIENT_CERT, ENCRYPTED_KEY) })),
    { ok: false, error: 'failed to initialize kubelet client: tls: failed to parse private key', inexact: false, path: KC }, 'an encrypted key is parsed as it is: Go does not decrypt');
  t.same(checkClientConfig(input(), fileOf({ [KC]: withData(ED25519_CERT, ED25519_KEY) })), { ok: true }, 'an Ed25519 pair');
  t.same(checkClientConfig(input(), fileOf({ [KC]: withData(KUBELET_CLIENT_PEM, KUBELET_CLIENT_PEM) })), { ok: true }, 'certificate and key in one PEM');
  t.same(checkClientConfig(input(), fileOf({ [KC]: withData(ED25519_KEY, ED25519_CERT) })),
    { ok: false, error: 'failed to initialize kubelet client: tls: failed to find certificate PEM data in certificate input, but did find a private key; PEM inputs may have been switched', inexact: false, path: KC });
  const files = { [KC]: withFiles, '/etc/kubernetes/pki/client.crt': CLIENT_CERT, '/etc/kubernetes/pki/client.key': OTHER_P256_KEY };
  t.match(checkClientConfig(input(), fileOf(files)), { undecidable: /first TLS handshake.*does not match/ }, 'files, no rotation: loaded after start');
  t.same(checkClientConfig(input({ rotateCertificates: true }), fileOf(files)),
    { ok: false, error: 'failed to initialize client certificate manager: tls: private key does not match public key', inexact: false, path: '/var/lib/kubelet/pki/kubelet-client-current.pem' }, 'files, rotation: the certificate store loads them');
  t.same(checkClientConfig(input({ rotateCertificates: true }), fileOf({ ...files, '/etc/kubernetes/pki/client.key': KUBELET_CLIENT_PEM })), { ok: true });
  t.same(checkClientConfig(input({ rotateCertificates: true }), fileOf({ [KC]: bootstrapKubeconfig(), [KUBELET_CLIENT_PEM_PATH]: CLIENT_CERT + OTHER_P256_KEY })),
    { ok: false, error: `failed to initialize client certificate manager: could not convert data from "${KUBELET_CLIENT_PEM_PATH}" into cert/key pair: tls: private key does not match public key`, inexact: false, path: KUBELET_CLIENT_PEM_PATH }, 'the store\'s current pair');
  t.same(checkClientConfig(input({ rotateCertificates: true }), fileOf({ [KC]: withData(CLIENT_CERT, OTHER_P256_KEY) })),
    { ok: false, error: 'failed to initialize client certificate manager: tls: private key does not match public key', inexact: false, path: KUBELET_CLIENT_PEM_PATH }, 'data, rotation: the manager bootstraps from it');
  t.match(checkClientConfig(input({ bootstrapKubeconfig: BKC }), fileOf({ [KC]: withData(CLIENT_CERT, OTHER_P256_KEY) })), { ok: false, error: /^unable to load bootstrap kubeconfig: stat / }, 'a pair Go refuses is not still valid: the bootstrap kubeconfig is loaded');
  t.same(checkClientConfig(input({ bootstrapKubeconfig: BKC }), fileOf({ [KC]: withData(ED25519_CERT, ED25519_KEY) })), { ok: true }, 'a valid pair is kept');
  t.match(checkClientConfig(input({ bootstrapKubeconfig: BKC, now: new Date('2126-11-08T06:35:14Z') }), fileOf({ [KC]: withData(ED25519_CERT, ED25519_KEY) })), { ok: false, error: /^unable to load bootstrap kubeconfig/ }, 'expiry from the Go-parsed NotAfter (2126-11-08T06:35:13Z)');
  t.same(checkClientConfig(input({ bootstrapKubeconfig: BKC, now: new Date('2126-11-08T06:35:13Z') }), fileOf({ [KC]: withData(ED25519_CERT, ED25519_KEY) })), { ok: true }, 'not expired at NotAfter itself (now.After)');
});

t.test('the cluster CA as client-go\'s rootCertPool loads it', async (t) => {
  const ca = (text: string) => bootstrapKubeconfig().replace(/certificate-authority-data: .*/, `certificate-authority-data: ${b64(text)}`);
  t.same(checkClientConfig(input(), fileOf({ [KC]: ca('garbage') })), { ok: false, error: 'failed to initialize kubelet client: unable to load root certificates: unable to parse bytes as PEM block', inexact: false, path: KC });
  t.same(checkClientConfig(input(), fileOf({ [KC]: ca(ED25519_KEY) })), { ok: false, error: 'failed to initialize kubelet client: unable to load root certificates: no valid certificate authority data seen', inexact: false, path: KC });
  t.same(checkClientConfig(input(), fileOf({ [KC]: ca(CLIENT_CERT.replace('MIIBzDCC', 'MIIBzDDC')) })), { ok: false, error: 'failed to initialize kubelet client: unable to load root certificates: failed to parse certificate: x509: malformed tbs certificate', inexact: false, path: KC }, 'Go 1.26.8 words it so (test/go/keypair-verdict)');
  t.same(checkClientConfig(input(), fileOf({ [KC]: ca(`${CLIENT_CERT.replace('MIIBzDCC', 'MIIBzDDC')}${ED25519_CERT}`) })), { ok: true }, 'one certificate that parses is enough');
  t.match(checkClientConfig(input({ rotateCertificates: true }), fileOf({ [KC]: ca('garbage') })), { ok: false, error: 'unable to configure TLS for the rest client: unable to load root certificates: unable to parse bytes as PEM block', inexact: true });
});

t.test('discovery learns the files a kubeconfig names, relative ones against its directory', async (t) => {
  t.same(kubeconfigReferences(KC, Buffer.from(eksKubeconfig('c', 'r', 'pki/ca.crt'))), ['/etc/kubernetes/pki/ca.crt']);
  t.same(kubeconfigReferences(KC, Buffer.from(kubeadmKubeletConf())), [KUBELET_CLIENT_PEM_PATH, KUBELET_CLIENT_PEM_PATH]);
});
