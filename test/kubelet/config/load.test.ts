import t from 'tap';
import { readFileSync } from 'node:fs';
import { kubeletConfigFileError, loadKubeletConfigFile } from '../../../src/kubelet/config/load.js';
import { KUBELET_CONFIG_FIELDS } from '../../../src/kubelet/data/kubelet-config-fields.js';
import { NEXT_MINOR } from '../../../src/kubelet/data/minors.js';

// pkg/kubelet/kubeletconfig/configfiles fsLoader.Load + cmd/kubelet/app/server.go loadConfigFile,
// codec.DecodeKubeletConfiguration (strict, then lenient).

const P = '/var/lib/kubelet/config.yaml';
const HEAD = 'apiVersion: kubelet.config.k8s.io/v1beta1\nkind: KubeletConfiguration\n';
const load = (minor: number, text: string | Buffer, path = P) => loadKubeletConfigFile(minor, path, typeof text === 'string' ? Buffer.from(text) : text);

t.test('a missing file: the read error as a 2019 kubelet log shows it', async (t) => {
  const r = loadKubeletConfigFile(30, P, { errno: 'ENOENT' });
  t.same(r, {
    ok: false,
    reason: 'unreadable',
    error: `failed to load Kubelet config file ${P}, error failed to read kubelet config file "${P}", error: open ${P}: no such file or directory`,
  });
  t.equal(
    kubeletConfigFileError(30, P, 'X'),
    `failed to load kubelet config file, path: ${P}, error: X`,
  );
  t.equal(kubeletConfigFileError(27, P, 'X'), `failed to load kubelet config file, error: X, path: ${P}`);
  const dir = loadKubeletConfigFile(30, P, { errno: 'EISDIR' });
  t.match(dir, { ok: false, error: /error: read \/var\/lib\/kubelet\/config\.yaml: is a directory$/ });
});

t.test('an empty file is fatal', async (t) => {
  t.same(load(28, ''), { ok: false, reason: 'empty', error: `failed to load Kubelet config file ${P}, error kubelet config file "${P}" was empty` });
});

t.test('outside the modelled minors nothing is decided', async (t) => {
  t.match(load(23, HEAD), { undecidable: /outside/ });
  t.match(load(NEXT_MINOR, HEAD), { undecidable: /outside/ });
});

t.test('kubeadm-style YAML config loads; relative paths resolve against the file directory', async (t) => {
  const text = `${HEAD}authentication:
  anonymous:
    enabled: false
  webhook:
    cacheTTL: 0s
    enabled: true
  x509:
    clientCAFile: pki/ca.crt
authorization:
  mode: Webhook
cgroupDriver: systemd
clusterDNS:
- 10.96.0.10
clusterDomain: cluster.local
containerRuntimeEndpoint: ""
cpuManagerReconcilePeriod: 0s
evictionPressureTransitionPeriod: 0s
fileCheckFrequency: 0s
healthzBindAddress: 127.0.0.1
healthzPort: 10248
httpCheckFrequency: 0s
imageMinimumGCAge: 0s
logging:
  flushFrequency: 0
  options:
    json:
      infoBufferSize: "0"
  verbosity: 0
memorySwap: {}
nodeStatusReportFrequency: 0s
nodeStatusUpdateFrequency: 0s
rotateCertificates: true
runtimeRequestTimeout: 0s
shutdownGracePeriod: 0s
shutdownGracePeriodCriticalPods: 0s
staticPodPath: /etc/kubernetes/manifests
streamingConnectionIdleTimeout: 0s
syncFrequency: 0s
volumeStatsAggPeriod: 0s
`;
  for (const minor of [24, 27, 30, 33, 36]) {
    const r = load(minor, text);
    t.ok('ok' in r && r.ok, `1.${minor}`);
    if ('ok' in r && r.ok) {
      // containerRuntimeEndpoint is a config field from 1.27 (types.go v0.27.0); older kubelets drop it.
      t.same(r.droppedFields, minor < 27 ? ['containerRuntimeEndpoint'] : [], `1.${minor} dropped fields`);
      t.same((r.config.authentication as { x509: unknown }).x509, { clientCAFile: '/var/lib/kubelet/pki/ca.crt' });
      t.equal(r.config.staticPodPath, '/etc/kubernetes/manifests');
    }
  }
});

t.test('JSON config (OpenShift kubelet.conf) loads at its minor', async (t) => {
  const cases: [string, number][] = [
    ['ocp-4.14-aws-worker', 27],
    ['ocp-4.15-aws-worker', 28],
    ['ocp-4.16-aws-worker', 29],
    ['ocp-4.21-aws-worker-config-dir', 34],
    ['ocp-4.22-aws-worker-crio-provider-missing', 35],
  ];
  for (const [node, minor] of cases) {
    const r = loadKubeletConfigFile(minor, '/etc/kubernetes/kubelet.conf', readFileSync(`test/fixtures/nodes/${node}/root/etc/kubernetes/kubelet.conf`));
    t.ok('ok' in r && r.ok, node);
    if ('ok' in r && r.ok) {
      t.same(r.droppedFields, [], `${node}: no field dropped`);
      t.equal(r.config.serializeImagePulls, false);
      t.equal(r.config.imageMinimumGCAge, '0s');
    }
  }
});

t.test('unknown and wrongly cased fields are dropped with the lenient warning', async (t) => {
  const r = load(30, `${HEAD}maxPods: 20\nMaxPods: 30\nfooBar: true\n`);
  t.same(r, {
    ok: true,
    config: { apiVersion: 'kubelet.config.k8s.io/v1beta1', kind: 'KubeletConfiguration', maxPods: 20 },
    droppedFields: ['MaxPods', 'fooBar'],
    duplicateFields: [],
    lenientWarning: 'strict decoding error: unknown field "MaxPods", unknown field "fooBar"',
  });
  // A field newer than the kubelet: failCgroupV1 arrived in 1.31.
  t.match(load(30, `${HEAD}failCgroupV1: false\n`), { ok: true, droppedFields: ['failCgroupV1'] });
  t.match(load(31, `${HEAD}failCgroupV1: false\n`), { ok: true, droppedFields: [], config: { failCgroupV1: false } });
});

t.test('unknown nested fields are dropped too, with their paths', async (t) => {
  t.match(load(30, `${HEAD}authentication:\n  x509:\n    clientCaFile: /ca.crt\n`), {
    ok: true,
    droppedFields: ['authentication.x509.clientCaFile'],
    lenientWarning: 'strict decoding error: unknown field "authentication.x509.clientCaFile"',
  });
});

t.test('a repeated key: the last wins, strict decoding complains', async (t) => {
  const r = load(30, `${HEAD}maxPods: 20\nmaxPods: 30\n`);
  t.match(r, { ok: true, config: { maxPods: 30 }, duplicateFields: ['maxPods'] });
  t.match(r, { lenientWarning: /^strict decoding error: yaml: unmarshal errors:\n {2}line 4: key "maxPods" already set in map/ });
});

t.test('type errors are fatal', async (t) => {
  t.same(load(30, `${HEAD}port: "10250"\n`), {
    ok: false,
    reason: 'invalid',
    error: `failed to load Kubelet config file ${P}, error failed to decode: json: cannot unmarshal string into Go struct field KubeletConfiguration.port of type int32`,
  });
  t.match(load(30, `${HEAD}maxPods: 1.5\n`), { error: /cannot unmarshal number 1\.5 into Go struct field KubeletConfiguration\.maxPods of type int32$/ });
  t.match(load(30, `${HEAD}serializeImagePulls: "false"\n`), { error: /cannot unmarshal string into Go struct field KubeletConfiguration\.serializeImagePulls of type bool$/ });
  t.match(load(30, `${HEAD}shutdownGracePeriod: 30\n`), { error: /cannot unmarshal number into Go struct field KubeletConfiguration\.shutdownGracePeriod of type string$/ });
  t.match(load(30, `${HEAD}shutdownGracePeriod: 30x\n`), { error: /failed to decode: time: unknown unit "x" in duration "30x"$/ });
  t.match(load(30, `${HEAD}clusterDNS: 10.96.0.10\n`), { error: /cannot unmarshal string into Go struct field KubeletConfiguration\.clusterDNS of type \[\]string$/ });
  // YAML 1.1: "on" is a boolean, so an unquoted value for a string field is a type error.
  t.match(load(30, `${HEAD}cgroupDriver: on\n`), { error: /cannot unmarshal bool into Go struct field KubeletConfiguration\.cgroupDriver of type string$/ });
  // systemReserved is map[string]string: an unquoted YAML number is a type error.
  t.match(load(30, `${HEAD}systemReserved:\n  cpu: 1\n`), { error: /cannot unmarshal number into Go struct field KubeletConfiguration\.systemReserved of type string$/ });
  t.match(load(30, `${HEAD}registerWithTaints: {}\n`), { error: /cannot unmarshal object into Go struct field KubeletConfiguration\.registerWithTaints of type \[\]v1\.Taint$/ });
  t.match(load(30, `${HEAD}port: 99999999999\n`), { error: /cannot unmarshal number 99999999999 into Go struct field KubeletConfiguration\.port of type int32$/ });
  // Nested struct fields have their Go types too (the innermost struct names the error).
  t.match(load(30, `${HEAD}authentication:\n  anonymous:\n    enabled: "false"\n`), {
    error: /failed to decode: json: cannot unmarshal string into Go struct field KubeletAnonymousAuthentication\.authentication\.anonymous\.enabled of type bool$/,
  });
  t.match(load(30, `${HEAD}authorization:\n  mode: 1\n`), {
    error: /cannot unmarshal number into Go struct field KubeletAuthorization\.authorization\.mode of type v1beta1\.KubeletAuthorizationMode$/,
  });
  t.match(load(30, `${HEAD}authentication:\n  webhook:\n    cacheTTL: 2x\n`), { error: /failed to decode: time: unknown unit "x" in duration "2x"$/ });
  t.match(load(30, `${HEAD}logging: text\n`), { error: /cannot unmarshal string into Go struct field KubeletConfiguration\.logging of type v1\.LoggingConfiguration$/ });
  // A type error wins over unknown fields (it is not a strict-decoding error).
  t.match(load(30, `${HEAD}bogus: 1\nport: "x"\n`), { ok: false, reason: 'invalid' });
});

t.test('YAML and JSON syntax errors are fatal, without a YAML-to-JSON prefix', async (t) => {
  t.same(load(30, `${HEAD}maxPods: 1\n\tport: 2\n`), {
    ok: false,
    reason: 'invalid',
    error: `failed to load Kubelet config file ${P}, error failed to decode: yaml: line 4: found character that cannot start any token`,
  });
  t.same(load(34, '{"kind": "KubeletConfiguration",}'), {
    ok: false,
    reason: 'invalid',
    error: `failed to load Kubelet config file ${P}, error failed to decode: couldn't get version/kind; json parse error: invalid character '}' looking for beginning of object key string`,
  });
});

t.test('apiVersion and kind', async (t) => {
  t.match(load(30, 'kind: KubeletConfiguration\nmaxPods: 3\n'), { ok: false, error: /failed to decode: Object 'apiVersion' is missing in 'kind: KubeletConfiguration\nmaxPods: 3\n'$/ });
  t.match(load(30, 'apiVersion: kubelet.config.k8s.io/v1beta1\n'), { ok: false, error: /Object 'Kind' is missing in/ });
  t.match(load(30, '# only a comment\n'), { ok: false, error: /Object 'Kind' is missing in '# only a comment\n'$/ });
  const wrong = load(30, 'apiVersion: kubelet.config.k8s.io/v1\nkind: KubeletConfiguration\n');
  t.match(wrong, { ok: false, reason: 'wrong-kind', inexact: true, error: /no kind "KubeletConfiguration" is registered for version "kubelet\.config\.k8s\.io\/v1" in scheme "pkg\/kubelet\/apis\/config\/scheme\/scheme\.go:/ });
  t.match(load(30, 'apiVersion: kubeadm.k8s.io/v1beta3\nkind: ClusterConfiguration\n'), { ok: false, reason: 'wrong-kind' });
  t.match(load(30, 'apiVersion: kubelet.config.k8s.io/v1beta1\nkind: SerializedNodeConfigSource\n'), {
    ok: false,
    error: /failed to cast object to KubeletConfiguration, unexpected type: kubelet\.config\.k8s\.io\/v1beta1, Kind=SerializedNodeConfigSource$/,
  });
  // A credential provider config passed as --config.
  t.same(load(31, 'apiVersion: kubelet.config.k8s.io/v1beta1\nkind: CredentialProviderConfig\nproviders: []\n'), {
    ok: false,
    reason: 'wrong-kind',
    error: `failed to load Kubelet config file ${P}, error failed to cast object to KubeletConfiguration, unexpected type: kubelet.config.k8s.io/v1beta1, Kind=CredentialProviderConfig`,
  });
});

t.test('relative paths in the file are resolved before validation (podLogsDir from 1.30)', async (t) => {
  t.match(load(30, `${HEAD}podLogsDir: pods\nvolumePluginDir: plugins\ntlsCertFile: ../pki/kubelet.crt\n`, '/etc/kubelet/config.yaml'), {
    ok: true,
    config: { podLogsDir: '/etc/kubelet/pods', volumePluginDir: '/etc/kubelet/plugins', tlsCertFile: '/etc/pki/kubelet.crt' },
  });
});

t.test('a relative --config path is not decided here', async (t) => {
  t.match(loadKubeletConfigFile(30, 'config.yaml', Buffer.from(HEAD)), { undecidable: /relative/ });
});

t.test('the checked-in KubeletConfiguration field table is what scripts/generate/kubelet-config-fields.mjs reads from the locked tags', async (t) => {
  // @ts-expect-error -- plain ESM generator script without type declarations
  const { generate } = await import('../../../scripts/generate/kubelet-config-fields.mjs');
  // @ts-expect-error -- plain ESM generator script without type declarations
  const { SourceError } = await import('../../../scripts/generate/kubernetes-source.mjs');
  const checkedIn = readFileSync(new URL('../../../src/kubelet/data/kubelet-config-fields.ts', import.meta.url), 'utf8');
  let generated: string;
  try {
    generated = (generate as () => string)();
  } catch (error) {
    if (!(error instanceof (SourceError as typeof Error))) throw error;
    t.comment(`skipped: the locked k8s.io/kubelet cannot be read here: ${(error as Error).message}`);
    return;
  }
  t.equal(checkedIn, generated, 'run: node scripts/generate/kubelet-config-fields.mjs');
});
