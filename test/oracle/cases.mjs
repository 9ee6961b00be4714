// The oracle's cases: node roots the real kubelet (scripts/oracle/judge.mjs) and node-check
// (test/oracle/compare.ts) both judge. Two kinds:
//  - fixture: test/fixtures/nodes/<name>/root, for each upstream minor its case.json expects
//    (OpenShift-flavour fixtures are left out: the upstream kubelet is not OpenShift's);
//  - generated: a standalone node (no API server: webhook authn/authz off) whose files vary one
//    input kubelet acts on: flags valid, typo'd, removed or with bad values, feature gates,
//    KubeletConfiguration fields, credential-provider configs and plugin states.
// A case's hash covers every file (path, mode, bytes) of its root, so a recorded verdict whose
// inputs changed is stale. Plain JS, Go-free: used by the comparison in npm test.
import { createHash } from 'node:crypto';
import { chmodSync, cpSync, existsSync, lstatSync, mkdirSync, mkdtempSync, readdirSync, readFileSync, readlinkSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { bootstrapKubeconfig, eksKubeconfig, kubeadmKubeletConf, KUBELET_CLIENT_PEM, KUBELET_CLIENT_PEM_PATH } from '../../scripts/fixtures/kubeconfig.mjs';

export const FIXTURES_DIR = fileURLToPath(new URL('../fixtures/nodes/', import.meta.url));

const UNIT = `[Service]
EnvironmentFile=-/etc/default/kubelet
ExecStart=/usr/bin/kubelet --config=/var/lib/kubelet/config.yaml $KUBELET_EXTRA_ARGS
`;
const ENDPOINT = 'unix:///run/containerd/containerd.sock';

/** The base KubeletConfiguration: standalone, the sandbox's cgroupfs driver; on 1.31+ it says
 * failCgroupV1: false, which the sandbox's cgroup v1 host needs from 1.35 (the field is unknown before 1.31). */
export function baseConfig(minor, extra = '') {
  return [
    'apiVersion: kubelet.config.k8s.io/v1beta1',
    'kind: KubeletConfiguration',
    'authentication:',
    '  anonymous:',
    '    enabled: true',
    '  webhook:',
    '    enabled: false',
    'authorization:',
    '  mode: AlwaysAllow',
    'cgroupDriver: cgroupfs',
    ...(minor >= 31 ? ['failCgroupV1: false'] : []),
    extra,
  ].filter(Boolean).join('\n') + '\n';
}

const PASSWD = 'root:x:0:0:root:/root:/bin/sh\n';
// pkg/kubelet/kubelet_pods.go getKubeletMappings: user.Lookup("kubelet") once UserNamespacesSupport is on (by default from 1.33).
const USER_LOOKUP_MINOR = 33;
// The releases are built with cgo (hack/lib/golang.sh leaves kubelet out of KUBE_STATIC_BINARIES):
// user.Lookup asks glibc's NSS, and a missing /etc/passwd is ENOENT, which Go 1.23+
// (GOROOT/src/os/user/cgo_lookup_unix.go) turns into UnknownUserError (default mappings, kubelet
// runs on). The oracle's CGO-less build reads the file itself and fails without it (the first
// 1.34.12 run: "create user namespace manager: kubelet mappings: open /etc/passwd: …"), and the
// case roots do not carry that binary, so node-check takes the release's build for them. On
// 1.33-1.34 a fixture without /etc/passwd is judged only completed, where it has the file; from
// 1.35 the recorded ones stop earlier (failCgroupV1 on the sandbox host's cgroup v1).
const NSS_LOOKUP_UNTIL_MINOR = 34;
const PLUGIN = '#!/bin/sh\necho {}\n';
function credentialConfig(providers, apiVersion = 'kubelet.config.k8s.io/v1') {
  return JSON.stringify({ apiVersion, kind: 'CredentialProviderConfig', providers }, null, 1) + '\n';
}
const provider = (name, extra = {}) => ({ name, matchImages: ['*.example.com'], defaultCacheDuration: '10m', apiVersion: 'credentialprovider.kubelet.k8s.io/v1', ...extra });
const credentialFlags = '--image-credential-provider-config=/etc/kubernetes/credential-provider.json --image-credential-provider-bin-dir=/usr/libexec/kubelet-credential-providers';

// A fixture is a copy of a node's configuration; the kubeconfig and client certificate it names
// are fill-ins it carries (scripts/fixtures/kubeconfig.mjs). Some name a client CA file they do
// not carry, and kubelet stops there (InitializeTLS, cmd/kubelet/app/server.go), before the steps
// the fixture is about. Its "completed" case adds that file, so kubelet runs on to them: a CA
// certificate with no key anywhere.
const ORACLE_CA = "-----BEGIN CERTIFICATE-----\nMIIBlTCCATugAwIBAgIUcZZuMQD6fX5EnHAt8nuyhR9zV+kwCgYIKoZIzj0EAwIw\nHzEdMBsGA1UEAwwUbm9kZS1jaGVjay1vcmFjbGUtY2EwIBcNMjYxMjAxMTk0NzI0\nWhgPMjEyNjExMDcxOTQ3MjRaMB8xHTAbBgNVBAMMFG5vZGUtY2hlY2stb3JhY2xl\nLWNhMFkwEwYHKoZIzj0CAQYIKoZIzj0DAQcDQgAEw3gMH+KqcRh8LfWjc6Y0RjYY\ntJRymNBvVD0isUeCjOb6VNLjap4rBGRbeCN4pGK+AH/5Otd2iIhftybDwxS9V6NT\nMFEwHQYDVR0OBBYEFKrYWbckb394YFE32M/v8ZHX1xarMB8GA1UdIwQYMBaAFKrY\nWbckb394YFE32M/v8ZHX1xarMA8GA1UdEwEB/wQFMAMBAf8wCgYIKoZIzj0EAwID\nSAAwRQIhAMIaMWwArP2KXBQyuGISFH3Lir4WiHl0MyscI2XpRShVAiBJVJ4hC+14\n4qRsI9va11U41vbwsANkMh1i495NC5Sz0Q==\n-----END CERTIFICATE-----\n";

function completionFiles(minor, entries) {
  const present = new Set(entries.map(([p]) => p));
  const text = entries.filter(([, e]) => e.content).map(([, e]) => e.content.toString('utf8')).join('\n');
  const files = {};
  // From 1.33 (UserNamespacesSupport on) kubelet looks its user up in /etc/passwd, which every node has.
  if (minor >= USER_LOOKUP_MINOR && !present.has('/etc/passwd')) files['/etc/passwd'] = { content: PASSWD, mode: 0o644 };
  for (const m of text.matchAll(/"?clientCAFile"?\s*:\s*"?([^\s"',}]+)/g)) if (!present.has(m[1])) files[m[1]] = { content: ORACLE_CA, mode: 0o644 };
  return files;
}

// Kubelet's API client (cmd/kubelet/app/server.go buildKubeletClientConfig): kubeconfig shapes
// and failures, with and without a bootstrap kubeconfig and certificate rotation.
const KC = '/etc/kubernetes/kubelet.conf';
const BKC = '/etc/kubernetes/bootstrap-kubelet.conf';
const CA_FILE = '/etc/kubernetes/pki/ca.crt';
const kcFlags = (bootstrap = false) => `--kubeconfig=${KC}${bootstrap ? ` --bootstrap-kubeconfig=${BKC}` : ''}`;
const tokenKubeconfig = bootstrapKubeconfig();
const pemFile = { [KUBELET_CLIENT_PEM_PATH]: { content: KUBELET_CLIENT_PEM, mode: 0o600 } };
const b64 = (text) => Buffer.from(text).toString('base64');
const kubeconfigVariants = () => [
  ['kubeconfig-token', { flags: kcFlags(), files: { [KC]: tokenKubeconfig } }],
  ['kubeconfig-client-cert', { flags: kcFlags(), files: { [KC]: kubeadmKubeletConf(), ...pemFile } }],
  ['kubeconfig-client-cert-data', { flags: kcFlags(), files: { [KC]: kubeadmKubeletConf().replace(`client-certificate: ${KUBELET_CLIENT_PEM_PATH}`, `client-certificate-data: ${b64(KUBELET_CLIENT_PEM)}`).replace(`client-key: ${KUBELET_CLIENT_PEM_PATH}`, `client-key-data: ${b64(KUBELET_CLIENT_PEM)}`) } }],
  ['kubeconfig-exec', { flags: kcFlags(), files: { [KC]: eksKubeconfig(), [CA_FILE]: ORACLE_CA } }],
  ['kubeconfig-json', { flags: kcFlags(), files: { [KC]: JSON.stringify({ apiVersion: 'v1', kind: 'Config', clusters: [{ name: 'c', cluster: { server: 'https://127.0.0.1:6443', 'insecure-skip-tls-verify': true } }], users: [{ name: 'u', user: { token: 'oracle' } }], contexts: [{ name: 'x', context: { cluster: 'c', user: 'u' } }], 'current-context': 'x' }) } }],
  ['kubeconfig-relative-ca', { flags: kcFlags(), files: { [KC]: eksKubeconfig('oracle', 'us-east-1', 'pki/ca.crt'), [CA_FILE]: ORACLE_CA } }],
  ['kubeconfig-missing-rotate', { flags: kcFlags(), config: 'rotateCertificates: true' }],
  ['kubeconfig-bootstrap-missing', { flags: kcFlags(true) }],
  ['kubeconfig-bootstrap-rotate', { flags: kcFlags(true), config: 'rotateCertificates: true', files: { [BKC]: tokenKubeconfig } }],
  ['kubeconfig-token-bootstrap-missing', { flags: kcFlags(true), files: { [KC]: tokenKubeconfig } }],
  ['kubeconfig-cert-bootstrap-missing', { flags: kcFlags(true), files: { [KC]: kubeadmKubeletConf(), ...pemFile } }],
  ['kubeconfig-rotate-current-pem', { flags: kcFlags(true), config: 'rotateCertificates: true', files: { [KC]: kubeadmKubeletConf(), ...pemFile } }],
  ['kubeconfig-standalone-bootstrap-missing', { flags: `--bootstrap-kubeconfig=${BKC}` }],
  ['kubeconfig-yaml-syntax', { flags: kcFlags(), files: { [KC]: 'apiVersion: v1\nclusters: [\n' } }],
  ['kubeconfig-empty', { flags: kcFlags(), files: { [KC]: '' } }],
  ['kubeconfig-no-current-context', { flags: kcFlags(), files: { [KC]: tokenKubeconfig.replace('current-context: kubelet\n', '') } }],
  ['kubeconfig-unknown-current-context', { flags: kcFlags(), files: { [KC]: tokenKubeconfig.replace('current-context: kubelet', 'current-context: nope') } }],
  ['kubeconfig-no-server', { flags: kcFlags(), files: { [KC]: tokenKubeconfig.replace(/    server: .*\n/, '') } }],
  ['kubeconfig-ca-file-missing', { flags: kcFlags(), files: { [KC]: eksKubeconfig() } }],
  ['kubeconfig-client-cert-missing', { flags: kcFlags(), files: { [KC]: kubeadmKubeletConf() } }],
  ['kubeconfig-is-directory', { flags: kcFlags(), files: { [`${KC}/placeholder`]: '' } }],
  ['kubeconfig-exec-v1', { flags: kcFlags(), files: { [KC]: eksKubeconfig().replace('client.authentication.k8s.io/v1beta1', 'client.authentication.k8s.io/v1').replace('      args:', '      interactiveMode: Never\n      args:'), [CA_FILE]: ORACLE_CA } }],
  ['kubeconfig-insecure-token', { flags: kcFlags(), files: { [KC]: tokenKubeconfig.replace(/    certificate-authority-data: .*\n/, '    insecure-skip-tls-verify: true\n') } }],
  ['flag-rotate-certificates-kubeconfig-missing', { flags: `${kcFlags()} --rotate-certificates=true` }],
];

/** Values kubelet takes without a word, or refuses, that node-check decides. */
const valueVariants = () => [
  ['config-cpu-manager-none', { config: 'cpuManagerPolicy: none' }],
  ['config-cpu-manager-static-zero-reserved', { config: 'cpuManagerPolicy: static\nsystemReserved:\n  cpu: "0"' }],
  ['flag-cpu-manager-bogus', { flags: '--cpu-manager-policy=bogus' }],
  ['flag-cgroup-root-missing', { flags: '--cgroup-root=/no-such-cgroup' }],
  ['config-tls-cert-missing', { config: 'tlsCertFile: /etc/kubernetes/pki/missing.crt\ntlsPrivateKeyFile: /etc/kubernetes/pki/missing.key' }],
  ['config-tls-key-missing', { config: `tlsCertFile: ${KUBELET_CLIENT_PEM_PATH}\ntlsPrivateKeyFile: /etc/kubernetes/pki/missing.key`, files: pemFile }],
  ['config-tls-cert-valid', { config: `tlsCertFile: ${KUBELET_CLIENT_PEM_PATH}\ntlsPrivateKeyFile: ${KUBELET_CLIENT_PEM_PATH}`, files: pemFile }],
  ['config-max-pods-250', { config: 'maxPods: 250' }],
  ['config-pod-pids-limit', { config: 'podPidsLimit: 4096' }],
  ['config-serialize-image-pulls-false', { config: 'serializeImagePulls: false' }],
  ['config-container-log-max-size', { config: 'containerLogMaxSize: 50Mi' }],
  ['config-container-log-max-files', { config: 'containerLogMaxFiles: 3' }],
  ['config-image-gc-valid', { config: 'imageGCHighThresholdPercent: 80\nimageGCLowThresholdPercent: 70' }],
  ['config-kube-reserved-valid', { config: 'kubeReserved:\n  cpu: 100m\n  memory: 100Mi' }],
  ['config-cluster-dns', { config: 'clusterDNS:\n- 10.96.0.10\nclusterDomain: cluster.local' }],
  ['config-register-node-false', { config: 'registerNode: false' }],
  ['config-eviction-percent', { config: 'evictionHard:\n  memory.available: 5%' }],
  ['config-node-status-update-frequency', { config: 'nodeStatusUpdateFrequency: 20s' }],
  ['config-kube-api-qps', { config: 'kubeAPIQPS: 50\nkubeAPIBurst: 100' }],
  ['config-sync-frequency', { config: 'syncFrequency: 1m' }],
  ['config-topology-none', { config: 'topologyManagerPolicy: none' }],
  ['config-cpu-cfs-quota-false', { config: 'cpuCFSQuota: false' }],
  ['config-hairpin-veth', { config: 'hairpinMode: hairpin-veth' }],
  ['config-max-open-files', { config: 'maxOpenFiles: 1000000' }],
  ['config-image-minimum-gc-age', { config: 'imageMinimumGCAge: 5m' }],
  ['config-reserved-system-cpus', { config: 'reservedSystemCPUs: "0"' }],
  ['flag-v-4', { flags: '--v=4' }],
  ['flag-node-labels-two', { flags: '--node-labels=a.example.com/x=1,b.example.com/y=2' }],
  ['flag-register-with-taints', { flags: '--register-with-taints=dedicated=infra:NoSchedule' }],
  ['flag-fail-swap-on-true', { flags: '--fail-swap-on=true' }],
  ['flag-max-pods-110', { flags: '--max-pods=110' }],
  ['config-eviction-two-signals', { config: 'evictionHard:\n  memory.available: 100Mi\n  nodefs.available: 10%' }],
];

/** Generated variants for one minor: [id, { flags, config, files }]. */
function variants(minor) {
  const list = [
    ['base', {}],
    ['flag-typo', { flags: '--contianer-runtime-endpoint=unix:///run/containerd/containerd.sock' }],
    ['flag-unknown-single-dash', { flags: '-v=2 -node-ip=10.0.0.1' }],
    ['flag-stray-word', { flags: 'true' }],
    ['flag-removed-network-plugin', { flags: '--network-plugin=cni' }],
    ['flag-removed-container-runtime', { flags: '--container-runtime=remote' }],
    ['flag-pod-infra-container-image', { flags: '--pod-infra-container-image=registry.k8s.io/pause:3.9' }],
    ['flag-keep-terminated-pod-volumes', { flags: '--keep-terminated-pod-volumes=true' }],
    ['flag-cloud-provider-aws', { flags: '--cloud-provider=aws' }],
    ['flag-cloud-provider-external', { flags: '--cloud-provider=external' }],
    ['flag-bad-int', { flags: '--max-pods=many' }],
    ['flag-bad-bool', { flags: '--register-node=maybe' }],
    ['flag-bad-verbosity', { flags: '--v=loud' }],
    ['flag-bad-node-ip', { flags: '--node-ip=not-an-ip' }],
    ['flag-node-ip', { flags: '--node-ip=127.0.0.1' }],
    ['flag-node-labels-kubernetes-io', { flags: '--node-labels=node-role.kubernetes.io/worker=' }],
    ['flag-node-labels-ok', { flags: '--node-labels=example.com/pool=a' }],
    ['flag-bad-cgroup-driver', { flags: '--cgroup-driver=bogus' }],
    ['flag-max-pods-valid', { flags: '--max-pods=50' }],
    ['gate-unknown', { flags: '--feature-gates=NoSuchGate=true' }],
    ['gate-bad-value', { flags: '--feature-gates=KubeletInUserNamespace=maybe' }],
    ['gate-valid', { flags: '--feature-gates=KubeletInUserNamespace=true' }],
    ['gate-all-alpha', { flags: '--feature-gates=AllAlpha=false' }],
    ['gate-kubelet-credential-providers', { flags: '--feature-gates=KubeletCredentialProviders=true' }],
    ['gate-config-unknown', { config: 'featureGates:\n  NoSuchGate: true' }],
    ['gate-config-valid', { config: 'featureGates:\n  KubeletInUserNamespace: true' }],
    ['config-unknown-field', { config: 'noSuchField: 1' }],
    ['config-typo-field', { config: 'maxPod: 10' }],
    ['config-duplicate-field', { config: 'maxPods: 10\nmaxPods: 20' }],
    ['config-wrong-kind', { configText: 'apiVersion: kubelet.config.k8s.io/v1beta1\nkind: KubeletConfig\n' }],
    ['config-wrong-api-version', { configText: 'apiVersion: kubelet.config.k8s.io/v1\nkind: KubeletConfiguration\n' }],
    ['config-empty-file', { configText: '' }],
    ['config-yaml-syntax', { configText: 'apiVersion: kubelet.config.k8s.io/v1beta1\nkind: KubeletConfiguration\nmaxPods: [\n' }],
    ['config-max-pods-negative', { config: 'maxPods: -1' }],
    ['config-max-pods-string', { config: 'maxPods: lots' }],
    ['config-bad-duration', { config: 'syncFrequency: often' }],
    ['config-image-gc-101', { config: 'imageGCHighThresholdPercent: 101' }],
    ['config-image-gc-low-above-high', { config: 'imageGCHighThresholdPercent: 50\nimageGCLowThresholdPercent: 60' }],
    ['config-port-70000', { config: 'port: 70000' }],
    ['config-bad-cgroup-driver', { config: 'cgroupDriver: bogus' }],
    ['config-eviction-bad', { config: 'evictionHard:\n  memory.available: lots' }],
    ['config-eviction-unknown-signal', { config: 'evictionHard:\n  no.such.signal: 10%' }],
    ['config-system-reserved-bad', { config: 'systemReserved:\n  cpu: lots' }],
    ['config-cpu-manager-bogus', { config: 'cpuManagerPolicy: bogus' }],
    ['config-topology-bogus', { config: 'topologyManagerPolicy: bogus' }],
    ['config-hairpin-bogus', { config: 'hairpinMode: bogus' }],
    ['config-node-status-max-images-bad', { config: 'nodeStatusMaxImages: -2' }],
    ['config-registry-qps-negative', { config: 'registryPullQPS: -1' }],
    ['config-fail-swap-on-false', { config: 'failSwapOn: false' }],
    ['config-json', { configText: JSON.stringify({ apiVersion: 'kubelet.config.k8s.io/v1beta1', kind: 'KubeletConfiguration', authentication: { webhook: { enabled: false }, anonymous: { enabled: true } }, authorization: { mode: 'AlwaysAllow' }, cgroupDriver: 'cgroupfs', ...(minor >= 31 ? { failCgroupV1: false } : {}) }) }],
    ['config-missing-file', { noConfig: true }],
    ['credential-ok', { flags: credentialFlags, files: { '/etc/kubernetes/credential-provider.json': credentialConfig([provider('example-provider')]), '/usr/libexec/kubelet-credential-providers/example-provider': { content: PLUGIN, mode: 0o755 } } }],
    ['credential-plugin-missing', { flags: credentialFlags, files: { '/etc/kubernetes/credential-provider.json': credentialConfig([provider('example-provider')]), '/usr/libexec/kubelet-credential-providers/.keep': '' } }],
    ['credential-plugin-not-executable', { flags: credentialFlags, files: { '/etc/kubernetes/credential-provider.json': credentialConfig([provider('example-provider')]), '/usr/libexec/kubelet-credential-providers/example-provider': { content: PLUGIN, mode: 0o644 } } }],
    ['credential-config-missing', { flags: credentialFlags, files: { '/usr/libexec/kubelet-credential-providers/example-provider': { content: PLUGIN, mode: 0o755 } } }],
    ['credential-config-unknown-field', { flags: credentialFlags, files: { '/etc/kubernetes/credential-provider.json': credentialConfig([provider('example-provider', { noSuchField: 1 })]), '/usr/libexec/kubelet-credential-providers/example-provider': { content: PLUGIN, mode: 0o755 } } }],
    ['credential-config-bad-match-image', { flags: credentialFlags, files: { '/etc/kubernetes/credential-provider.json': credentialConfig([provider('example-provider', { matchImages: ['%%bad'] })]), '/usr/libexec/kubelet-credential-providers/example-provider': { content: PLUGIN, mode: 0o755 } } }],
    ['credential-config-no-cache-duration', { flags: credentialFlags, files: { '/etc/kubernetes/credential-provider.json': credentialConfig([{ name: 'example-provider', matchImages: ['*.example.com'], apiVersion: 'credentialprovider.kubelet.k8s.io/v1' }]), '/usr/libexec/kubelet-credential-providers/example-provider': { content: PLUGIN, mode: 0o755 } } }],
    ['credential-config-v1beta1', { flags: credentialFlags, files: { '/etc/kubernetes/credential-provider.json': credentialConfig([provider('example-provider', { apiVersion: 'credentialprovider.kubelet.k8s.io/v1beta1' })], 'kubelet.config.k8s.io/v1beta1'), '/usr/libexec/kubelet-credential-providers/example-provider': { content: PLUGIN, mode: 0o755 } } }],
    ['credential-config-duplicate-names', { flags: credentialFlags, files: { '/etc/kubernetes/credential-provider.json': credentialConfig([provider('example-provider'), provider('example-provider')]), '/usr/libexec/kubelet-credential-providers/example-provider': { content: PLUGIN, mode: 0o755 } } }],
    ['credential-bin-dir-only', { flags: '--image-credential-provider-bin-dir=/usr/libexec/kubelet-credential-providers' }],
    ['flag-fail-swap-on-false', { flags: '--fail-swap-on=false' }],
    ['flag-hostname-override', { flags: '--hostname-override=node-a' }],
    ['flag-hostname-override-invalid', { flags: '--hostname-override=Not_A_Name' }],
    ['flag-read-only-port', { flags: '--read-only-port=10255' }],
    ['flag-root-dir-elsewhere', { flags: '--root-dir=/var/lib/kubelet-elsewhere' }],
    ['flag-pod-manifest-path-missing', { flags: '--pod-manifest-path=/etc/kubernetes/manifests' }],
    ['flag-tls-cert-file-missing', { flags: '--tls-cert-file=/etc/kubernetes/pki/missing.crt --tls-private-key-file=/etc/kubernetes/pki/missing.key' }],
    ['flag-kubeconfig-missing', { flags: '--kubeconfig=/etc/kubernetes/kubelet.conf' }],
    ['config-static-pod-path-missing', { config: 'staticPodPath: /etc/kubernetes/manifests' }],
    ['config-client-ca-missing', { configText: baseConfig(minor).replace('authentication:\n', 'authentication:\n  x509:\n    clientCAFile: /etc/kubernetes/pki/ca.crt\n') }],
    ['config-cgroup-root-missing', { config: 'cgroupRoot: /no-such-cgroup' }],
    ['config-cpu-manager-static-no-reservation', { config: 'cpuManagerPolicy: static' }],
    ['config-system-reserved-valid', { config: 'systemReserved:\n  cpu: 100m\n  memory: 100Mi' }],
    ['config-eviction-valid', { config: 'evictionHard:\n  memory.available: 100Mi' }],
    ['config-shutdown-grace', { config: 'shutdownGracePeriod: 30s\nshutdownGracePeriodCriticalPods: 10s' }],
    ['config-shutdown-grace-inverted', { config: 'shutdownGracePeriod: 10s\nshutdownGracePeriodCriticalPods: 30s' }],
    ...kubeconfigVariants(),
    ...valueVariants(),
  ];
  return [...list, ...fieldTypeVariants(minor), ...gateVariants(minor, GENERATED_PER_MINOR - list.length - fieldTypeVariants(minor).length), ...userNamespaceVariants(minor), ...runCloudRefusalVariants(minor)];
}

/**
 * 1.32-1.33's run() refuses a built-in --cloud-provider before it builds the API client
 * (cmd/kubelet/app/server.go at v1.32.13, v1.33.13): with a missing kubeconfig too, the provider's
 * refusal is kubelet's words. Added after the budget, as the user namespace cases are.
 */
function runCloudRefusalVariants(minor) {
  if (minor < 32 || minor > 33) return [];
  return [['flag-cloud-provider-aws-and-kubeconfig-missing', { flags: '--cloud-provider=aws --kubeconfig=/etc/kubernetes/kubelet.conf' }]];
}

/** An x86_64 ELF header (static): the case's kubelet, over which the sandbox binds the oracle's own. */
const KUBELET_STAND_IN = (() => {
  const head = Buffer.alloc(64);
  head.writeUInt32BE(0x7f454c46, 0);
  head[4] = 2;
  head[5] = 1;
  head.writeUInt16LE(62, 18);
  return { content: head, mode: 0o755 };
})();

/**
 * The user namespace manager (src/kubelet/node-setup/user-namespaces.ts): from 1.30, with
 * UserNamespacesSupport on (by the flag before 1.33). The PATH directories the sandbox's kubelet
 * searches for getsubids exist, so /usr/bin carries a stand-in kubelet. Added after the budget
 * of GENERATED_PER_MINOR, so the other cases stay as recorded.
 */
function userNamespaceVariants(minor) {
  if (minor < 30) return [];
  const flags = minor < 33 ? '--feature-gates=UserNamespacesSupport=true' : '';
  const pathDirs = Object.fromEntries(['/usr/local/sbin', '/usr/local/bin', '/usr/sbin', '/sbin', '/bin'].map((d) => [`${d}/.keep`, '']));
  return [
    ['userns-no-passwd', { flags, noPasswd: true }],
    ['userns-kubelet-user-no-getsubids', { flags, files: { '/etc/passwd': `${PASSWD}kubelet:x:900:900::/var/lib/kubelet:/sbin/nologin\n`, '/usr/bin/kubelet': KUBELET_STAND_IN, ...pathDirs } }],
    ['userns-max-pods-70000', { flags, config: 'maxPods: 70000' }],
  ];
}

// Enough generated cases that every minor has 200 judged by the real binary without its fixtures
// (1.37 has none yet).
const GENERATED_PER_MINOR = 215;
const SRC_DATA = new URL('../../src/kubelet/data/', import.meta.url);

/** Every gate row of src/kubelet/data/feature-gates.generated.ts (read as text: this file is Go- and TS-free). */
export function gateHistory() {
  const text = readFileSync(new URL('feature-gates.generated.ts', SRC_DATA), 'utf8');
  return Object.fromEntries([...text.matchAll(/^ {2}"(\w+)": (\[\[.*\]\]),?$/gm)].map((m) => [m[1], JSON.parse(m[2])]));
}

/** KubeletConfiguration's top-level fields (json name -> Go type) of the newest minor at or below this one that the data has. */
export function configFields(minor) {
  const text = readFileSync(new URL('kubelet-config-fields.ts', SRC_DATA), 'utf8');
  const perMinor = new Map([...text.matchAll(/^\s*(\d+): \(\) => ("(?:[^"\\]|\\.)*"),?$/gm)].map((m) => [Number(m[1]), m[2]]));
  const at = Math.max(...[...perMinor.keys()].filter((m) => m <= minor));
  const rows = JSON.parse(JSON.parse(perMinor.get(at))).KubeletConfiguration;
  return rows.filter(([name]) => name !== '').map(([name, , type]) => [name, type]);
}

// A value of the wrong JSON type for each scalar field: the strict decoder's words, field by field.
export const WRONG_VALUE = { int32: '"x"', '*int32': '"x"', int64: '"x"', '*int64': '"x"', bool: '"x"', '*bool': '"x"', 'metav1.Duration': 'often', '*metav1.Duration': 'often', string: '[1]', '*string': '[1]', '*float64': '"x"' };
function fieldTypeVariants(minor) {
  return configFields(minor)
    .filter(([name, type]) => WRONG_VALUE[type] !== undefined && !['cgroupDriver', 'failCgroupV1'].includes(name))
    .map(([name, type]) => [`config-field-wrong-type/${name}`, { config: `${name}: ${WRONG_VALUE[type]}` }]);
}

/**
 * Feature-gate cases for this minor: every gate the previous minor registered and this one does
 * not (unrecognized), every locked gate set against its lock, then registered gates set to their
 * own default (kubelet accepts them; node-check must know the name) while `room` is left.
 */
function gateVariants(minor, room) {
  const rowAt = (rows, m) => rows.find(([from, until]) => from <= m && m <= until);
  const gates = Object.entries(gateHistory());
  const removed = gates.filter(([, rows]) => rowAt(rows, minor - 1) && !rowAt(rows, minor)).map(([name]) => [`gate-removed/${name}`, { flags: `--feature-gates=${name}=true` }]);
  const registered = gates.filter(([, rows]) => rowAt(rows, minor)).map(([name, rows]) => [name, rowAt(rows, minor)]);
  const locked = registered.filter(([, row]) => row[4] === 1).map(([name, row]) => [`gate-locked-against/${name}`, { flags: `--feature-gates=${name}=${row[2] ? 'false' : 'true'}` }]);
  const defaults = registered.filter(([, row]) => row[4] === 0 && row[3] !== 'PreAlpha').map(([name, row]) => [`gate-default/${name}`, { flags: `--feature-gates=${name}=${row[2] ? 'true' : 'false'}` }]);
  const fixed = [...removed, ...locked];
  return [...fixed, ...defaults.slice(0, Math.max(0, room - fixed.length))];
}

function generatedFiles(minor, spec) {
  const files = {
    '/usr/lib/systemd/system/kubelet.service': UNIT,
    // The endpoint as a flag: containerRuntimeEndpoint is a config field only from 1.27.
    '/etc/default/kubelet': `KUBELET_EXTRA_ARGS=--container-runtime-endpoint=${ENDPOINT} ${spec.flags ?? ''}\n`.replace(/ \n$/, '\n'),
    ...(spec.noConfig ? {} : { '/var/lib/kubelet/config.yaml': spec.configText ?? baseConfig(minor, spec.config) }),
    // Every node has one; kubelet looks the "kubelet" user up in it (pkg/kubelet/kubelet_pods.go
    // getKubeletMappings, UserNamespacesSupport on from 1.33) and, built without cgo, fails without it.
    ...(spec.noPasswd ? {} : { '/etc/passwd': PASSWD }),
    ...spec.files,
  };
  return Object.fromEntries(Object.entries(files).map(([path, f]) => [path, typeof f === 'string' ? { content: f, mode: 0o644 } : f]));
}

function hashFiles(entries) {
  const hash = createHash('sha256');
  for (const [path, { mode, content, link }] of [...entries].sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0))) {
    hash.update(`${path}\0${mode.toString(8)}\0${link ?? ''}\0`);
    hash.update(content ?? '');
    hash.update('\0');
  }
  return `sha256:${hash.digest('hex')}`;
}

function treeEntries(root) {
  const entries = [];
  const walk = (dir, rel) => {
    for (const name of readdirSync(dir).sort()) {
      const path = join(dir, name);
      const st = lstatSync(path);
      const nodePath = `${rel}/${name}`;
      if (st.isSymbolicLink()) entries.push([nodePath, { mode: 0o120000, link: readlinkSync(path) }]);
      else if (st.isDirectory()) {
        entries.push([`${nodePath}/`, { mode: st.mode & 0o7777 }]);
        walk(path, nodePath);
      } else entries.push([nodePath, { mode: st.mode & 0o7777, content: readFileSync(path) }]);
    }
  };
  walk(root, '');
  return entries;
}

/** Every fixture under test/fixtures/nodes with its case.json, in name order. */
function* fixtureSpecs() {
  for (const name of readdirSync(FIXTURES_DIR).sort()) {
    let spec;
    try {
      spec = JSON.parse(readFileSync(join(FIXTURES_DIR, name, 'case.json'), 'utf8'));
    } catch {
      continue;
    }
    yield [name, spec];
  }
}

/**
 * The cases for one minor: { id, kind, root?, files?, unit, hash }. A fixture case has `root`
 * (its directory); a generated case has `files` (node path -> { content, mode }) for
 * materializeCase to write.
 */
export function casesFor(minor) {
  const cases = [];
  for (const [name, spec] of fixtureSpecs()) {
    if (name.startsWith('ocp-') || spec.kubeletFlavor === 'openshift' || !spec.expect?.[`1.${minor}`]) continue;
    const root = join(FIXTURES_DIR, name, 'root');
    const entries = treeEntries(root);
    const judgedAsItIs = !(minor >= USER_LOOKUP_MINOR && minor <= NSS_LOOKUP_UNTIL_MINOR && !entries.some(([p]) => p === '/etc/passwd'));
    if (judgedAsItIs) cases.push({ id: `fixture/${name}`, kind: 'fixture', root, unit: spec.unit ?? 'kubelet.service', hash: hashFiles(entries) });
    const extra = completionFiles(minor, entries);
    if (Object.keys(extra).length > 0) {
      const all = [...entries, ...Object.entries(extra).map(([p, f]) => [p, { mode: f.mode, content: Buffer.from(f.content) }])];
      cases.push({ id: `fixture-completed/${name}`, kind: 'fixture', root, extraFiles: extra, unit: spec.unit ?? 'kubelet.service', hash: hashFiles(all) });
    }
  }
  for (const [id, spec] of variants(minor)) {
    const files = generatedFiles(minor, spec);
    cases.push({ id: `generated/${id}`, kind: 'generated', files, unit: 'kubelet.service', hash: hashFiles(Object.entries(files).map(([p, f]) => [p, { mode: f.mode, content: Buffer.from(f.content) }])) });
  }
  return cases;
}

/** The case's root on disk: a fixture's own directory, or a generated case written to a temporary one. */
export function materializeCase(kase) {
  if (kase.root && !kase.extraFiles) return { root: kase.root, cleanup() {} };
  const dir = mkdtempSync(join(tmpdir(), 'oracle-case-'));
  if (kase.root) cpSync(kase.root, dir, { recursive: true, verbatimSymlinks: true });
  for (const [path, { content, mode }] of Object.entries(kase.files ?? kase.extraFiles)) {
    mkdirSync(dirname(join(dir, path)), { recursive: true });
    writeFileSync(join(dir, path), content);
    chmodSync(join(dir, path), mode);
  }
  // An OpenShift variant may take files (or a directory, ending in /) away from its base root.
  for (const path of kase.removeFiles ?? []) rmSync(join(dir, path), { recursive: true, force: true });
  return { root: dir, cleanup: () => rmSync(dir, { recursive: true, force: true }) };
}

// ---- OpenShift: cases OpenShift's kubelet judges (scripts/oracle/build-openshift-kubelet.mjs) ----
// Per OpenShift release 4.N (its kubelet minor from scripts/generate/openshift-kubelet-source.lock.json):
//  - fixture: the OpenShift-flavour fixtures in test/fixtures/nodes/ that expect that kubelet minor;
//  - mco: the roots rendered from the machine-config operator's templates for that release
//    (test/fixtures/generated/openshift/ocp-4.N-*, scripts/fixtures/openshift-node-roots.mjs);
//  - example: the demo node examples/ocp-4.N-*;
//  - generated: the release's rendered AWS worker with one input varied: the generic variants
//    above (flags, gates, fields, values, credential providers) where they apply to that node, and
//    what the fork differs on (NodeLogQuery's default, node-role labels, unknown and fork-only
//    gates, --max-housekeeping-interval, the credential-provider plugin of the 4.16 incident).
export const OPENSHIFT_FIXTURES_DIR = fileURLToPath(new URL('../fixtures/generated/openshift/', import.meta.url));
export const EXAMPLES_DIR = fileURLToPath(new URL('../../examples/', import.meta.url));
const OPENSHIFT_LOCK = new URL('../../scripts/generate/openshift-kubelet-source.lock.json', import.meta.url);

/** The kubelet minor an OpenShift release ships (the lock read from MicroShift's vendored fork). */
export function openshiftKubeletMinor(release) {
  const locked = JSON.parse(readFileSync(OPENSHIFT_LOCK, 'utf8')).releases[release];
  if (!locked) throw new Error(`OpenShift ${release} is not in scripts/generate/openshift-kubelet-source.lock.json`);
  return locked.kubeletMinor;
}

const OCP_UNIT = '/etc/systemd/system/kubelet.service';
const OCP_CONFIG = '/etc/kubernetes/kubelet.conf';
const OCP_PLUGIN_DIR = '/usr/libexec/kubelet-image-credential-provider-plugins';
const OCP_ECR_CONFIG = '/etc/kubernetes/credential-providers/ecr-credential-provider.yaml';

/** Top-level keys of a YAML snippet written as `key: value` lines (the variants' `config`). */
function snippetKeys(snippet) {
  return new Set([...snippet.matchAll(/^([A-Za-z]\w*):/gm)].map((m) => m[1]));
}

/**
 * The MCO's kubelet.conf (JSON) with a variant's YAML snippet: each top-level field the snippet
 * does not set, one per line as a JSON value (YAML reads JSON), then the snippet. Kubelet reads
 * it as it reads the JSON (sigs.k8s.io/yaml converts both).
 */
function mergeConfig(json, snippet) {
  const config = JSON.parse(json);
  const keys = snippetKeys(snippet);
  const kept = Object.entries(config).filter(([k]) => !keys.has(k)).map(([k, v]) => `${k}: ${JSON.stringify(v)}`);
  return `${kept.join('\n')}\n${snippet}\n`;
}

/** What the fork differs on, as variants of the rendered worker: [id, { flags, config, configText, files, remove }]. */
function openshiftVariants(release) {
  const roles = ['master', 'control-plane', 'etcd', 'infra', 'custom-role'];
  const list = [
    ['openshift/nodelogquery-gate-false', { configEdit: (c) => ({ ...c, featureGates: { ...c.featureGates, NodeLogQuery: false } }) }],
    ['openshift/nodelogquery-gate-true', { configEdit: (c) => ({ ...c, featureGates: { ...c.featureGates, NodeLogQuery: true } }) }],
    ['openshift/nodelogquery-flag-false', { flags: '--feature-gates=NodeLogQuery=false' }],
    ['openshift/system-log-query-false', { configEdit: (c) => ({ ...c, enableSystemLogQuery: false }) }],
    ['openshift/system-log-handler-false', { configEdit: (c) => ({ ...c, enableSystemLogHandler: false }) }],
    ['openshift/feature-gates-removed', { configEdit: ({ featureGates, ...c }) => c }],
    ['openshift/feature-gates-unknown-only', { configEdit: (c) => ({ ...c, featureGates: { NoSuchOpenShiftGate: true } }) }],
    ['openshift/gate-flag-unknown', { flags: '--feature-gates=NoSuchGate=true' }],
    ['openshift/gate-flag-bad-value', { flags: '--feature-gates=NodeLogQuery=maybe' }],
    ['openshift/gate-config-bad-value', { configEdit: (c) => ({ ...c, featureGates: { ...c.featureGates, NodeLogQuery: 'maybe' } }) }],
    ['openshift/gate-upstream-only', { flags: '--feature-gates=KubeletPodResourcesGetAllocatable=true' }],
    ['openshift/gate-route-external-certificate', { flags: '--feature-gates=RouteExternalCertificate=true' }],
    ['openshift/gate-all-alpha', { flags: '--feature-gates=AllAlpha=true' }],
    ['openshift/gate-all-beta-false', { flags: '--feature-gates=AllBeta=false' }],
    ...roles.map((r) => [`openshift/node-labels-role-${r}`, { unitEdit: (u) => u.replace('--node-labels=node-role.kubernetes.io/worker,', `--node-labels=node-role.kubernetes.io/${r},`) }]),
    ['openshift/node-labels-role-with-value', { unitEdit: (u) => u.replace('--node-labels=node-role.kubernetes.io/worker,', '--node-labels=node-role.kubernetes.io/worker=true,') }],
    ['openshift/node-labels-kubernetes-io-forbidden', { flags: '--node-labels=kubernetes.io/role=worker' }],
    ['openshift/node-labels-node-restriction', { flags: '--node-labels=node-restriction.kubernetes.io/pool=a' }],
    ['openshift/node-labels-k8s-io-forbidden', { flags: '--node-labels=k8s.io/pool=a' }],
    ['openshift/node-labels-instance-type', { flags: '--node-labels=node.kubernetes.io/instance-type=m5.large' }],
    ['openshift/node-labels-openshift-io', { flags: '--node-labels=node.openshift.io/pool=a' }],
    ['openshift/max-housekeeping-interval', { flags: '--max-housekeeping-interval=15s' }],
    ['openshift/max-housekeeping-interval-bad', { flags: '--max-housekeeping-interval=often' }],
    ['openshift/max-housekeeping-interval-negative', { flags: '--max-housekeeping-interval=-10s' }],
    ['openshift/housekeeping-interval', { flags: '--housekeeping-interval=20s' }],
    ['openshift/credential-plugin-missing', { remove: [`${OCP_PLUGIN_DIR}/ecr-credential-provider`] }],
    ['openshift/credential-plugin-not-executable', { files: { [`${OCP_PLUGIN_DIR}/ecr-credential-provider`]: { content: '#!/bin/sh\necho {}\n', mode: 0o644 } } }],
    ['openshift/credential-config-missing', { remove: [OCP_ECR_CONFIG] }],
    ['openshift/credential-config-empty', { files: { [OCP_ECR_CONFIG]: '' } }],
    ['openshift/credential-config-unknown-field', { fileEdit: { [OCP_ECR_CONFIG]: (t) => `${t.trimEnd()}\nnoSuchField: 1\n` } }],
    ['openshift/credential-bin-dir-missing', { remove: [`${OCP_PLUGIN_DIR}/ecr-credential-provider`, `${OCP_PLUGIN_DIR}/`] }],
    ['openshift/credential-disable-cloud-providers-false', { configEdit: (c) => ({ ...c, featureGates: { ...c.featureGates, DisableKubeletCloudCredentialProviders: false } }) }],
    ['openshift/client-ca-missing', { remove: ['/etc/kubernetes/kubelet-ca.crt'] }],
    ['openshift/kubeconfig-missing', { remove: ['/var/lib/kubelet/kubeconfig'] }],
    ['openshift/bootstrap-kubeconfig-missing', { remove: ['/etc/kubernetes/kubeconfig'] }],
    ['openshift/client-cert-missing', { remove: ['/var/lib/kubelet/pki/kubelet-client-current.pem'] }],
    ['openshift/system-reserved-empty-cpu', { fileEdit: { '/etc/node-sizing.env': (t) => t.replace(/^SYSTEM_RESERVED_CPU=.*$/m, 'SYSTEM_RESERVED_CPU=') } }],
    ['openshift/system-reserved-bad-memory', { fileEdit: { '/etc/node-sizing.env': (t) => t.replace(/^SYSTEM_RESERVED_MEMORY=.*$/m, 'SYSTEM_RESERVED_MEMORY=lots') } }],
    ['openshift/log-level-bad', { unitEdit: (u) => u.replace('--v=${KUBELET_LOG_LEVEL}', '--v=loud') }],
    ['openshift/endpoint-unix-url', { unitEdit: (u) => u.replace('--container-runtime-endpoint=/var/run/crio/crio.sock', '--container-runtime-endpoint=unix:///var/run/crio/crio.sock') }],
    ['openshift/cgroup-driver-cgroupfs', { configEdit: (c) => ({ ...c, cgroupDriver: 'cgroupfs' }) }],
    ['openshift/system-cgroups-without-root', { configEdit: ({ cgroupRoot, ...c }) => c }],
    ['openshift/protect-kernel-defaults-true', { configEdit: (c) => ({ ...c, protectKernelDefaults: true }) }],
    ['openshift/config-json-syntax', { fileEdit: { [OCP_CONFIG]: (t) => t.slice(0, -2) } }],
    ['openshift/config-unknown-field', { configEdit: (c) => ({ ...c, noSuchField: 1 }) }],
    ['openshift/config-missing', { remove: [OCP_CONFIG] }],
    ['openshift/flag-cloud-provider-aws', { unitEdit: (u) => u.replace('--cloud-provider=external', '--cloud-provider=aws') }],
    ['openshift/flag-cloud-provider-empty', { unitEdit: (u) => u.replace('--cloud-provider=external', '--cloud-provider=') }],
  ];
  return list;
}

// Generic variants that name paths the OpenShift node uses otherwise (its KubeletConfiguration is
// /etc/kubernetes/kubelet.conf) or rebuild the standalone base config.
const NOT_ON_OPENSHIFT = /^(kubeconfig-|flag-kubeconfig-missing$|flag-rotate-certificates-kubeconfig-missing$|config-client-ca-missing$)/;

/** The entries of a root, with a variant applied: files written or edited, paths removed. */
function variedEntries(entries, spec) {
  const map = new Map(entries);
  const text = (path) => map.get(path).content.toString('utf8');
  const put = (path, f) => {
    const file = typeof f === 'string' ? { content: f, mode: 0o644 } : f;
    map.set(path, { mode: file.mode, content: Buffer.from(file.content) });
  };
  let unit = text(OCP_UNIT);
  if (spec.unitEdit) unit = spec.unitEdit(unit);
  if (spec.flags) unit = unit.replace('--v=${KUBELET_LOG_LEVEL}', `--v=\${KUBELET_LOG_LEVEL} ${spec.flags}`);
  if (unit !== text(OCP_UNIT)) put(OCP_UNIT, { content: unit, mode: map.get(OCP_UNIT).mode });
  if (spec.configEdit) put(OCP_CONFIG, JSON.stringify(spec.configEdit(JSON.parse(text(OCP_CONFIG)))));
  if (spec.config) put(OCP_CONFIG, mergeConfig(text(OCP_CONFIG), spec.config));
  if (spec.configText !== undefined) put(OCP_CONFIG, spec.configText);
  if (spec.noConfig) map.delete(OCP_CONFIG);
  for (const [path, edit] of Object.entries(spec.fileEdit ?? {})) put(path, { content: edit(text(path)), mode: map.get(path).mode });
  for (const [path, f] of Object.entries(spec.files ?? {})) {
    // A generic variant's config file for credential providers sits beside the node's.
    put(path, f);
  }
  for (const path of spec.remove ?? []) map.delete(path);
  return map;
}

function fixtureRoot(dir, name) {
  const root = join(dir, name, 'root');
  try {
    return lstatSync(root).isDirectory() ? root : undefined;
  } catch {
    return undefined;
  }
}

/** A root's case: unchanged, or with what it names but lacks (completionFiles) added. */
function rootCases(id, root, unit, minor) {
  const entries = treeEntries(root);
  const cases = [{ id, kind: 'fixture', root, unit, hash: hashFiles(entries) }];
  const extra = completionFiles(minor, entries);
  if (Object.keys(extra).length > 0) {
    const all = [...entries, ...Object.entries(extra).map(([p, f]) => [p, { mode: f.mode, content: Buffer.from(f.content) }])];
    cases.push({ id: id.replace(/^(\w+)\//, '$1-completed/'), kind: 'fixture', root, extraFiles: extra, unit, hash: hashFiles(all) });
  }
  return cases;
}

/** The cases OpenShift's kubelet of one release judges (same shape as casesFor's). */
export function openshiftCasesFor(release) {
  const minor = openshiftKubeletMinor(release);
  const cases = [];
  for (const [name, spec] of fixtureSpecs()) {
    if (!(name.startsWith('ocp-') || name.startsWith('start-ocp-') || spec.kubeletFlavor === 'openshift') || !spec.expect?.[`1.${minor}`]) continue;
    cases.push(...rootCases(`fixture/${name}`, join(FIXTURES_DIR, name, 'root'), spec.unit ?? 'kubelet.service', minor));
  }
  const mcoRoots = readdirSync(OPENSHIFT_FIXTURES_DIR).filter((n) => n.startsWith(`ocp-${release}-`) && fixtureRoot(OPENSHIFT_FIXTURES_DIR, n)).sort();
  for (const name of mcoRoots) {
    const spec = JSON.parse(readFileSync(join(OPENSHIFT_FIXTURES_DIR, name, 'case.json'), 'utf8'));
    cases.push(...rootCases(`mco/${name}`, fixtureRoot(OPENSHIFT_FIXTURES_DIR, name), spec.unit ?? 'kubelet.service', minor));
  }
  // The example's root holds its README and provenance beside the node's files: not node files, but
  // hashed like them (a changed README makes its verdict stale, which is harmless).
  for (const name of readdirSync(EXAMPLES_DIR).filter((n) => n.startsWith(`ocp-${release}-`) && existsSync(join(EXAMPLES_DIR, n, 'etc'))).sort()) {
    cases.push(...rootCases(`example/${name}`, join(EXAMPLES_DIR, name), 'kubelet.service', minor));
  }
  const base = fixtureRoot(OPENSHIFT_FIXTURES_DIR, `ocp-${release}-aws-worker`);
  if (!base) return cases;
  // The variants' base says protectKernelDefaults: false (the MCO renders true): kubelet checks the
  // kernel tunables only after "Started kubelet" (pkg/kubelet/cm/container_manager_linux.go
  // setupNode), where the oracle does not look, and the sandbox host's are not kubelet's, so with
  // true every variant that starts would show only that. The rendered roots keep true.
  const rendered = treeEntries(base);
  const baseEntries = [...variedEntries(rendered, { configEdit: (c) => ({ ...c, protectKernelDefaults: false }) })];
  const generic = variants(minor).filter(([id]) => !NOT_ON_OPENSHIFT.test(id));
  const seen = new Set();
  for (const [id, spec] of [['base', {}], ...openshiftVariants(release), ...generic]) {
    const map = variedEntries(baseEntries, spec);
    const hash = hashFiles([...map]);
    // A generic variant that gives this node the same files as one before it (the same unknown gate) is left out.
    if (seen.has(hash)) continue;
    seen.add(hash);
    // Written over a copy of the rendered root: every file that differs from it, and what it lacks.
    const original = new Map(rendered);
    const changed = Object.fromEntries([...map].filter(([p, e]) => e.content !== undefined && original.get(p)?.content?.equals(e.content) !== true).map(([p, e]) => [p, { content: e.content, mode: e.mode }]));
    const removed = rendered.map(([p]) => p).filter((p) => !map.has(p));
    cases.push({ id: `generated/${id}`, kind: 'generated', root: base, extraFiles: changed, removeFiles: removed, unit: 'kubelet.service', hash });
  }
  return cases;
}
