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
const input = (over: Partial<ClientConfigInput> = {}): ClientConfigInput => ({ kubeconfig: KC, bootstrapKubeconfig: '', rotateCertificates: false, certDir: '/var/lib/kubelet/pki', now: new Date('2027-01-01T00:00:00Z'), ...over });
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
  t.match(checkClientConfig(input(), fileOf({ [KC]: kubeadmKubeletConf(), [KUBELET_CLIENT_PEM_PATH]: 'garbage' })), { undecidable: /not a pair/ });
  t.match(checkClientConfig(input({ rotateCertificates: true }), fileOf({ [KC]: bootstrapKubeconfig(), '/var/lib/kubelet/pki/kubelet-client-current.pem': 'garbage' })), { undecidable: /kubelet-client-current.pem/ });
});

t.test('discovery learns the files a kubeconfig names, relative ones against its directory', async (t) => {
  t.same(kubeconfigReferences(KC, Buffer.from(eksKubeconfig('c', 'r', 'pki/ca.crt'))), ['/etc/kubernetes/pki/ca.crt']);
  t.same(kubeconfigReferences(KC, Buffer.from(kubeadmKubeletConf())), [KUBELET_CLIENT_PEM_PATH, KUBELET_CLIENT_PEM_PATH]);
});
