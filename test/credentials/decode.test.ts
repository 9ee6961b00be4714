import t from 'tap';
import { decodeCredentialProviderConfig, type DecodeResult } from '../../src/credentials/decode.js';
import { requireTraits } from '../../src/kubelet/version.js';

/** Every modelled kubelet minor. */
const MINORS = MODELLED_MINORS;
import { ACR_CONFIG } from '../helpers/facts.js';
import { MODELLED_MINORS } from '../../src/kubelet/data/minors.js';

// Test_readCredentialProviderConfig[File] (kubernetes/kubernetes pkg/credentialprovider/plugin/
// config_test.go at v1.34.12) for the single-file decoding part, run for every kubelet
// minor, plus the messy inputs kubelet meets on real nodes.
//
// For whoever implements directory reading (1.34+; not this file): R1/R2 expect
// `no configuration files found in directory "<dir>"`; R15 merges config-000.yaml then
// config-001.yaml in byte order; R16 mixes v1beta1, v1 and a JSON file named .yaml; R17 fails
// with `duplicate provider name "duplicate" found in configuration file(s)` before validation;
// R18 skips config-002.txt; R19 fails on the second file with `error decoding config "<file>":
// no kind "WrongKind" is registered for version "kubelet.config.k8s.io/v1" in scheme …`.

const MINUTE = 60_000_000_000n;

const provider = (name: string, image: string, minutes: bigint, api: string, extra = true) => ({
  name,
  matchImages: [image],
  defaultCacheDuration: minutes * MINUTE,
  apiVersion: `credentialprovider.kubelet.k8s.io/${api}`,
  args: extra ? ['--v=5'] : [],
  env: extra ? [{ name: 'FOO', value: 'BAR' }] : [],
});

const R3 = `---
kind: CredentialProviderConfig
apiVersion: kubelet.config.k8s.io/v1alpha1
providers:
  - name: test
    matchImages:
    - "registry.io/foobar"
    defaultCacheDuration: 10m
    apiVersion: credentialprovider.kubelet.k8s.io/v1alpha1
    args:
    - --v=5
    env:
    - name: FOO
      value: BAR`;

const R4 = `{
				  "kind": "CredentialProviderConfig",
				  "apiVersion": "kubelet.config.k8s.io/v1alpha1",
				  "providers": [
					{
					  "name": "test",
					  "matchImages": [
						"registry.io/foobar"
					  ],
					  "defaultCacheDuration": "10m",
					  "apiVersion": "credentialprovider.kubelet.k8s.io/v1alpha1",
					  "args": [
						"--v=5"
					  ],
					  "env": [
						{
						  "name": "FOO",
						  "value": "BAR"
						}
					  ]
					}
				  ]
				}`;

const multiple = (version: string) => `---
kind: CredentialProviderConfig
apiVersion: kubelet.config.k8s.io/${version}
providers:
  - name: test1
    matchImages:
    - "registry.io/one"
    defaultCacheDuration: 10m
    apiVersion: credentialprovider.kubelet.k8s.io/${version}
  - name: test2
    matchImages:
    - "registry.io/two"
    defaultCacheDuration: 10m
    apiVersion: credentialprovider.kubelet.k8s.io/${version}
    args:
    - --v=5
    env:
    - name: FOO
      value: BAR`;

const withTopVersion = (text: string, version: string) => text.replace('apiVersion: kubelet.config.k8s.io/v1alpha1', `apiVersion: ${version}`);

function decode(text: string | Buffer, minor: number): DecodeResult {
  return decodeCredentialProviderConfig(text, requireTraits(minor));
}

function forEachMinor(t: { pass: (message: string) => unknown }, check: (minor: number) => void): void {
  for (const minor of MINORS) check(minor);
  t.pass(`checked ${MODELLED_MINORS.length} minors`);
}

/** The minors that know kubelet.config.k8s.io/v1 and credentialprovider.kubelet.k8s.io/v1 (1.26+). */
function forEachV1Minor(t: { pass: (message: string) => unknown }, check: (minor: number) => void): void {
  for (const minor of MINORS.filter((m) => m >= 26)) check(minor);
  t.pass('checked 1.26-1.36');
}

const okConfig = (r: DecodeResult) => (r.ok ? r.config : r);
const failure = (r: DecodeResult) => (r.ok ? 'decoded' : { error: r.error, reason: r.reason });

t.test('R3 config with 1 plugin and 1 image matcher', async (t) => {
  forEachMinor(t, (m) => t.same(okConfig(decode(R3, m)), { providers: [provider('test', 'registry.io/foobar', 10n, 'v1alpha1')] }, `1.${m}`));
});

t.test('R4 config with 1 plugin and 1 image matcher (JSON!)', async (t) => {
  forEachMinor(t, (m) => t.same(okConfig(decode(R4, m)), { providers: [provider('test', 'registry.io/foobar', 10n, 'v1alpha1')] }, `1.${m}`));
});

t.test('R5 config with 1 plugin and a wildcard image match', async (t) => {
  forEachMinor(t, (m) => t.same(okConfig(decode(R3.replace('registry.io/foobar', 'registry.io/*'), m)), { providers: [provider('test', 'registry.io/*', 10n, 'v1alpha1')] }, `1.${m}`));
});

t.test('R6 config with 1 plugin and multiple image matchers', async (t) => {
  const text = R3.replace('    - "registry.io/foobar"', '    - "registry.io/*"\n    - "foobar.registry.io/*"');
  forEachMinor(t, (m) => t.same(okConfig(decode(text, m)), { providers: [{ ...provider('test', '', 10n, 'v1alpha1'), matchImages: ['registry.io/*', 'foobar.registry.io/*'] }] }, `1.${m}`));
});

for (const [id, version] of [['R7', 'v1alpha1'], ['R8', 'v1beta1'], ['R9', 'v1']] as const) {
  t.test(`${id} ${version} config with multiple providers`, async (t) => {
    forEachV1Minor(t, (m) =>
      t.same(okConfig(decode(multiple(version), m)), { providers: [provider('test1', 'registry.io/one', 10n, version, false), provider('test2', 'registry.io/two', 10n, version)] }, `1.${m}`),
    );
  });
}

t.test('R10 config with wrong Kind', async (t) => {
  forEachMinor(t, (m) => {
    const r = decode(R3.replace('kind: CredentialProviderConfig', 'kind: WrongKind'), m);
    t.match(failure(r), { error: /^no kind "WrongKind" is registered for version "kubelet\.config\.k8s\.io\/v1alpha1" in scheme "pkg\/credentialprovider\/plugin\/plugin\.go:/, reason: 'kind' }, `1.${m}`);
  });
});

t.test('R11 config with wrong apiversion', async (t) => {
  forEachMinor(t, (m) => {
    const r = decode(withTopVersion(R3, 'foobar/v1alpha1'), m);
    t.match(failure(r), { error: /^no kind "CredentialProviderConfig" is registered for version "foobar\/v1alpha1" in scheme "/, reason: 'group' }, `1.${m}`);
  });
});

t.test('R12 config with invalid typo: dropped up to 1.31, a strict decoding error from 1.32', async (t) => {
  const text = withTopVersion(R3, 'kubelet.config.k8s.io/v1').replace(
    '    defaultCacheDuration: 10m\n',
    '    defaultCacheDuration: 10m\n    unknownField: should not be here # this field should not be here\n',
  );
  forEachV1Minor(t, (m) => {
    const r = decode(text, m);
    if (m <= 31) t.same(r, { ok: true, config: { providers: [provider('test', 'registry.io/foobar', 10n, 'v1alpha1')] }, droppedFields: ['providers[0].unknownField'], duplicateFields: [] }, `1.${m}`);
    else t.same(failure(r), { error: 'strict decoding error: unknown field "providers[0].unknownField"', reason: 'strict' }, `1.${m}`);
  });
});

for (const [id, version] of [['R13', 'v1alpha1'], ['R14', 'v1beta1']] as const) {
  t.test(`${id} ${version} config with token attributes should fail (from 1.32; dropped before)`, async (t) => {
    const text = withTopVersion(R3, `kubelet.config.k8s.io/${version}`)
      .replace('credentialprovider.kubelet.k8s.io/v1alpha1', `credentialprovider.kubelet.k8s.io/${version}`)
      .replace('    args:\n', '    tokenAttributes:\n      serviceAccountTokenAudience: audience\n    args:\n');
    forEachMinor(t, (m) => {
      const r = decode(text, m);
      if (m <= 31) t.same(r.ok && r.droppedFields, ['providers[0].tokenAttributes'], `1.${m}`);
      else t.same(failure(r), { error: 'strict decoding error: unknown field "providers[0].tokenAttributes"', reason: 'strict' }, `1.${m}`);
    });
  });
}

t.test('R15/R16/R18 files decoded one by one (YAML v1, v1beta1, and JSON in a .yaml file)', async (t) => {
  const v1 = `---
kind: CredentialProviderConfig
apiVersion: kubelet.config.k8s.io/v1
providers:
  - name: test2
    matchImages:
    - "registry.io/two"
    defaultCacheDuration: 5m
    apiVersion: credentialprovider.kubelet.k8s.io/v1`;
  const json = `{
  "kind": "CredentialProviderConfig",
  "apiVersion": "kubelet.config.k8s.io/v1",
  "providers": [
    {
      "name": "test-v2",
      "matchImages": [
        "v2.registry.io/*"
      ],
      "defaultCacheDuration": "20m",
      "apiVersion": "credentialprovider.kubelet.k8s.io/v1"
    }
  ]
}`;
  forEachV1Minor(t, (m) => {
    t.same(okConfig(decode(v1, m)), { providers: [provider('test2', 'registry.io/two', 5n, 'v1', false)] }, `1.${m} yaml`);
    t.same(okConfig(decode(json, m)), { providers: [provider('test-v2', 'v2.registry.io/*', 20n, 'v1', false)] }, `1.${m} json`);
  });
});

t.test('R19 one file with kind WrongKind in kubelet.config.k8s.io/v1', async (t) => {
  forEachV1Minor(t, (m) => {
    const r = decode('---\nkind: WrongKind\napiVersion: kubelet.config.k8s.io/v1\nproviders: []\n', m);
    t.match(failure(r), { error: /^no kind "WrongKind" is registered for version "kubelet\.config\.k8s\.io\/v1" in scheme /, reason: 'kind' });
  });
});

t.test('files with no object: empty, whitespace, comments, null, a lone document marker', async (t) => {
  for (const text of ['', '   \n\n', '# only a comment\n# and another\n', 'null\n', '~\n', '---\n', '---\n...\n']) {
    forEachMinor(t, (m) => t.same(failure(decode(text, m)), { error: `Object 'Kind' is missing in '${text}'`, reason: 'empty' }, `1.${m} ${JSON.stringify(text)}`));
  }
});

t.test('a top-level YAML list or scalar cannot hold kind and apiVersion', async (t) => {
  const findKind = 'struct { APIVersion string "json:\\"apiVersion,omitempty\\""; Kind string "json:\\"kind,omitempty\\"" }';
  forEachMinor(t, (m) => {
    t.same(failure(decode('- name: a\n- name: b\n', m)), { error: `couldn't get version/kind; json parse error: json: cannot unmarshal array into Go value of type ${findKind}`, reason: 'type' });
    t.same(failure(decode('just text\n', m)), { error: `couldn't get version/kind; json parse error: json: cannot unmarshal string into Go value of type ${findKind}`, reason: 'type' });
    t.same(failure(decode('42\n', m)), { error: `couldn't get version/kind; json parse error: json: cannot unmarshal number into Go value of type ${findKind}`, reason: 'type' });
  });
});

t.test('missing or malformed kind and apiVersion', async (t) => {
  forEachV1Minor(t, (m) => {
    t.same(failure(decode('apiVersion: kubelet.config.k8s.io/v1\nproviders: []\n', m)), { error: "Object 'Kind' is missing in 'apiVersion: kubelet.config.k8s.io/v1\nproviders: []\n'", reason: 'kind' });
    t.same(failure(decode('kind: CredentialProviderConfig\n', m)), { error: "Object 'apiVersion' is missing in 'kind: CredentialProviderConfig\n'", reason: 'version' });
    t.same(failure(decode('kind: CredentialProviderConfig\napiVersion: kubelet.config.k8s.io/\n', m)), { error: "Object 'apiVersion' is missing in 'kind: CredentialProviderConfig\napiVersion: kubelet.config.k8s.io/\n'", reason: 'version' });
    t.same(failure(decode('kind: CredentialProviderConfig\napiVersion: a/b/c\n', m)), { error: 'unexpected GroupVersion string: a/b/c', reason: 'version' });
    t.same(failure(decode('kind: 5\napiVersion: v1\n', m)), { error: "couldn't get version/kind; json parse error: json: cannot unmarshal number into Go struct field .kind of type string", reason: 'type' });
    t.same(failure(decode('kind: [x]\napiVersion: v1\n', m)), { error: "couldn't get version/kind; json parse error: json: cannot unmarshal array into Go struct field .kind of type string", reason: 'type' });
    t.match(failure(decode('kind: CredentialProviderConfig\napiVersion: kubelet.config.k8s.io/v2\n', m)), { error: /^no kind "CredentialProviderConfig" is registered for version "kubelet\.config\.k8s\.io\/v2"/, reason: 'version' });
    t.match(failure(decode('kind: CredentialProviderConfig\napiVersion: credentialprovider.kubelet.k8s.io/v1\n', m)), { error: /^no kind "CredentialProviderConfig" is registered for version "credentialprovider\.kubelet\.k8s\.io\/v1"/, reason: 'kind' });
  });
});

t.test('the upstream ECR doc example has no kind/apiVersion at the top and fails', async (t) => {
  // kubernetes/cloud-provider-aws docs/credential_provider.md (its example config, verbatim)
  const text = 'providers:\n  - name: ecr-credential-provider\n    matchImages:\n      - "*.dkr.ecr.*.amazonaws.com"\n    defaultCacheDuration: "0"\n    apiVersion: credentialprovider.kubelet.k8s.io/v1\n';
  forEachMinor(t, (m) => t.same(failure(decode(text, m)), { error: `Object 'Kind' is missing in '${text}'`, reason: 'kind' }));
});

t.test('other registered kinds decode and are then the wrong Kind', async (t) => {
  forEachV1Minor(t, (m) => {
    t.same(failure(decode('apiVersion: kubelet.config.k8s.io/v1beta1\nkind: KubeletConfiguration\n', m)), { error: 'failed to decode "KubeletConfiguration" (wrong Kind)', reason: 'kind' });
    t.same(failure(decode('apiVersion: credentialprovider.kubelet.k8s.io/v1\nkind: CredentialProviderResponse\n', m)), { error: 'failed to decode "CredentialProviderResponse" (wrong Kind)', reason: 'kind' });
  });
  // A provider list under the wrong kind: dropped before 1.32, an unknown field after.
  const text = 'apiVersion: kubelet.config.k8s.io/v1beta1\nkind: KubeletConfiguration\nproviders: []\n';
  forEachV1Minor(t, (m) => t.same(failure(decode(text, m)), m <= 31 ? { error: 'failed to decode "KubeletConfiguration" (wrong Kind)', reason: 'kind' } : { error: 'strict decoding error: unknown field "providers"', reason: 'strict' }));
  // KubeletConfiguration's own fields are not modelled: the answer is marked inexact.
  const r = decode('apiVersion: kubelet.config.k8s.io/v1beta1\nkind: KubeletConfiguration\nmaxPods: 10\n', 35);
  t.same(r, { ok: false, error: 'failed to decode "KubeletConfiguration" (wrong Kind)', reason: 'kind', inexact: true });
});

t.test('field names are case-sensitive; Interpret is not', async (t) => {
  const text = 'Kind: CredentialProviderConfig\nApiVersion: kubelet.config.k8s.io/v1\nProviders: []\n';
  forEachV1Minor(t, (m) => {
    const r = decode(text, m);
    // Interpret finds kind and apiVersion case-insensitively; the typed decode does not know these keys.
    if (m <= 31) t.same(r, { ok: true, config: { providers: [] }, droppedFields: ['ApiVersion', 'Kind', 'Providers'], duplicateFields: [] });
    else t.same(failure(r), { error: 'strict decoding error: unknown field "ApiVersion", unknown field "Kind", unknown field "Providers"', reason: 'strict' });
  });
});

t.test('type mismatches are errors in every version', async (t) => {
  const cases: [string, string, string][] = [
    ['name: test', 'name: 42', 'json: cannot unmarshal number into Go struct field CredentialProvider.providers.name of type string'],
    ['name: test', 'name: yes', 'json: cannot unmarshal bool into Go struct field CredentialProvider.providers.name of type string'],
    ['name: test', 'name: on', 'json: cannot unmarshal bool into Go struct field CredentialProvider.providers.name of type string'],
    ['name: test', 'name: [a]', 'json: cannot unmarshal array into Go struct field CredentialProvider.providers.name of type string'],
    ['    matchImages:\n    - "registry.io/foobar"', '    matchImages: registry.io/foobar', 'json: cannot unmarshal string into Go struct field CredentialProvider.providers.matchImages of type []string'],
    ['    - "registry.io/foobar"', '    - 5000', 'json: cannot unmarshal number into Go struct field CredentialProvider.providers.matchImages of type string'],
    ['defaultCacheDuration: 10m', 'defaultCacheDuration: 0', 'json: cannot unmarshal number into Go struct field CredentialProvider.providers.defaultCacheDuration of type string'],
    ['defaultCacheDuration: 10m', 'defaultCacheDuration: 10', 'json: cannot unmarshal number into Go struct field CredentialProvider.providers.defaultCacheDuration of type string'],
    ['defaultCacheDuration: 10m', 'defaultCacheDuration: "10"', 'time: missing unit in duration "10"'],
    ['defaultCacheDuration: 10m', 'defaultCacheDuration: 1d', 'time: unknown unit "d" in duration "1d"'],
    ['defaultCacheDuration: 10m', 'defaultCacheDuration: ""', 'time: invalid duration ""'],
    ['defaultCacheDuration: 10m', 'defaultCacheDuration: {a: 1}', 'json: cannot unmarshal object into Go struct field CredentialProvider.providers.defaultCacheDuration of type string'],
    ['    - name: FOO\n      value: BAR', '    - name: FOO\n      value: 1', 'json: cannot unmarshal number into Go struct field ExecEnvVar.providers.env.value of type string'],
    ['    env:\n    - name: FOO\n      value: BAR', '    env: {FOO: BAR}', 'json: cannot unmarshal object into Go struct field CredentialProvider.providers.env of type []v1alpha1.ExecEnvVar'],
    ['providers:\n  - name: test', 'providers: test\nx:\n  - name: test', 'json: cannot unmarshal string into Go struct field CredentialProviderConfig.providers of type []v1alpha1.CredentialProvider'],
  ];
  for (const [from, to, error] of cases) {
    const text = R3.replace(from, to);
    t.not(text, R3, `the case rewrites ${JSON.stringify(from)}`);
    forEachMinor(t, (m) => {
      const r = decode(text, m);
      // Strict decoding reports the unknown "x" only when there is no type error: type errors win.
      t.same(failure(r), { error, reason: 'type' }, `1.${m}: ${to}`);
    });
  }
});

t.test('a null value leaves the field unset (then validation decides)', async (t) => {
  forEachMinor(t, (m) => {
    const r = decode(R3.replace('defaultCacheDuration: 10m', 'defaultCacheDuration:'), m);
    const decoded = r.ok ? r.config.providers[0] : undefined;
    t.equal(decoded?.name, 'test');
    t.notOk(decoded && 'defaultCacheDuration' in decoded, `1.${m}: no defaultCacheDuration`);
  });
});

t.test('the first type error wins over later ones; a failing duration stops decoding at once', async (t) => {
  const text = R3.replace('name: test', 'name: 1').replace('    args:\n    - --v=5', '    args: 5');
  t.same(failure(decode(text, 30)), { error: 'json: cannot unmarshal number into Go struct field CredentialProvider.providers.args of type []string', reason: 'type' }, 'YAML keys reach the decoder sorted: args before name');
  const json = '{"kind":"CredentialProviderConfig","apiVersion":"kubelet.config.k8s.io/v1","providers":[{"name":1,"defaultCacheDuration":"x"}]}';
  t.same(failure(decode(json, 30)), { error: 'time: invalid duration "x"', reason: 'type' });
});

t.test('duplicate keys: the last wins up to 1.31; from 1.32 YAML and JSON duplicates are strict errors', async (t) => {
  const yaml = R3.replace('    defaultCacheDuration: 10m\n', '    defaultCacheDuration: 10m\n    defaultCacheDuration: 5m\n');
  forEachMinor(t, (m) => {
    const r = decode(yaml, m);
    if (m <= 31) {
      t.equal(r.ok && r.config.providers[0]!.defaultCacheDuration, 5n * MINUTE);
      t.same(r.ok && r.duplicateFields, ['providers[0].defaultCacheDuration']);
    } else {
      t.same(failure(r), { error: 'strict decoding error: yaml: unmarshal errors:\n  line 9: key "defaultCacheDuration" already set in map', reason: 'strict' });
    }
  });
  const json = '{"kind":"CredentialProviderConfig","apiVersion":"kubelet.config.k8s.io/v1","providers":[{"name":"a","name":"b"}],"providers":[{"matchImages":["x"]}]}';
  forEachV1Minor(t, (m) => {
    const r = decode(json, m);
    // encoding/json decodes a repeated slice into the elements already there: the providers merge.
    if (m <= 31) t.same(r.ok && r.config.providers.map((p) => [p.name, p.matchImages]), [['b', ['x']]]);
    else t.same(failure(r), { error: 'strict decoding error: duplicate field "providers[0].name", duplicate field "providers"', reason: 'strict' });
  });
});

t.test('YAML and unknown-field strict errors are reported together, YAML first', async (t) => {
  const text = R3.replace('    defaultCacheDuration: 10m\n', '    defaultCacheDuration: 10m\n    defaultCacheDuration: 5m\n    typo: 1\n');
  t.same(failure(decode(text, 32)), {
    error: 'strict decoding error: yaml: unmarshal errors:\n  line 9: key "defaultCacheDuration" already set in map, unknown field "providers[0].typo"',
    reason: 'strict',
  });
});

t.test('tokenAttributes and cacheType exist only in kubelet.config.k8s.io/v1, from 1.33 and 1.34', async (t) => {
  // openshift/machine-config-operator templates/common/aws/files/etc-kubernetes-credential-providers-ecr-credential-provider.yaml (contents)
  const ecr = `apiVersion: kubelet.config.k8s.io/v1
kind: CredentialProviderConfig
providers:
  - name: ecr-credential-provider
    matchImages:
      - "*.dkr.ecr.*.amazonaws.com"
      - "*.dkr.ecr.*.amazonaws.com.cn"
    defaultCacheDuration: "12h"
    apiVersion: credentialprovider.kubelet.k8s.io/v1
  - name: crio-credential-provider
    matchImages:
      - docker.io
    defaultCacheDuration: "1s"
    apiVersion: credentialprovider.kubelet.k8s.io/v1
    tokenAttributes:
      serviceAccountTokenAudience: https://kubernetes.default.svc
      cacheType: "Token"
      requireServiceAccount: false
`;
  forEachV1Minor(t, (m) => {
    const r = decode(ecr, m);
    if (m <= 31) t.same(r.ok && r.droppedFields, ['providers[1].tokenAttributes'], `1.${m} drops tokenAttributes`);
    else if (m === 32) t.same(failure(r), { error: 'strict decoding error: unknown field "providers[1].tokenAttributes"', reason: 'strict' });
    else if (m === 33) t.same(failure(r), { error: 'strict decoding error: unknown field "providers[1].tokenAttributes.cacheType"', reason: 'strict' });
    else {
      t.same(r.ok && r.config.providers[1]!.tokenAttributes, {
        serviceAccountTokenAudience: 'https://kubernetes.default.svc',
        requireServiceAccount: false,
        requiredServiceAccountAnnotationKeys: [],
        optionalServiceAccountAnnotationKeys: [],
        cacheType: 'Token',
      });
    }
  });
  t.same(failure(decode(ecr.replace('requireServiceAccount: false', 'requireServiceAccount: "false"'), 34)), {
    error: 'json: cannot unmarshal string into Go struct field ServiceAccountTokenAttributes.providers.tokenAttributes.requireServiceAccount of type bool',
    reason: 'type',
  });
  t.same(failure(decode(ecr.replace('cacheType: "Token"', 'cacheType: 1'), 34)), {
    error: 'json: cannot unmarshal number into Go struct field ServiceAccountTokenAttributes.providers.tokenAttributes.cacheType of type v1.ServiceAccountTokenCacheType',
    reason: 'type',
  });
});

t.test('an OpenShift ACR config decodes in every version that knows v1 (1.26+)', async (t) => {
  const acr = ACR_CONFIG;
  forEachV1Minor(t, (m) => {
    const r = decode(acr, m);
    t.same(r.ok && r.config.providers[0], {
      name: 'acr-credential-provider',
      matchImages: ['*.azurecr.io', '*.azurecr.cn', '*.azurecr.de', '*.azurecr.us'],
      defaultCacheDuration: 10n * MINUTE,
      apiVersion: 'credentialprovider.kubelet.k8s.io/v1',
      args: ['/etc/kubernetes/cloud.conf'],
      env: [],
    });
  });
});

// No sigs.k8s.io/yaml release wraps YAMLToJSON's errors (the prefix change was reverted before
// v1.4.0, commit 3f79f32; err_test.go pins "yaml: line 1: " for YAMLToJSON), so no minor does.
t.test('YAML syntax errors are go-yaml\'s own, unwrapped, in every minor', async (t) => {
  const wrap = (_m: number, e: string) => e;
  forEachMinor(t, (m) => {
    // go-yaml refuses a tab where a token may start (after ':' here); YAML 1.2 allows it.
    t.same(failure(decode('kind: CredentialProviderConfig\napiVersion:\tkubelet.config.k8s.io/v1\n', m)), { error: wrap(m, 'yaml: line 2: found character that cannot start any token'), reason: 'syntax' });
    t.same(failure(decode('kind: x\x01\n', m)), { error: wrap(m, 'yaml: control characters are not allowed'), reason: 'syntax' });
    t.same(failure(decode(Buffer.from([0x6b, 0x3a, 0x20, 0xfe, 0x0a]), m)), { error: wrap(m, 'yaml: invalid leading UTF-8 octet'), reason: 'syntax' });
    t.same(failure(decode('a: *nope\n', m)), { error: wrap(m, "yaml: unknown anchor 'nope' referenced"), reason: 'syntax' });
    t.same(failure(decode('name: .nan\nkind: x\n', m)), { error: wrap(m, 'json: unsupported value: NaN'), reason: 'syntax' });
  });
  const r = decode('providers:\n  - name: a\n   matchImages: []\n', 30);
  t.match(r, { ok: false, reason: 'syntax', inexact: true }, 'other syntax errors are worded approximately');
});

t.test('binary garbage', async (t) => {
  const garbage = Buffer.from('7f454c460201010000000000000000000300', 'hex'); // an ELF header
  forEachMinor(t, (m) => t.same(failure(decode(garbage, m)), { error: 'yaml: control characters are not allowed', reason: 'syntax' }));
});

t.test('JSON is decoded only as JSON when it starts with "{": no YAML fallback', async (t) => {
  forEachMinor(t, (m) => {
    t.same(failure(decode('{"kind": "CredentialProviderConfig", }', m)), { error: "couldn't get version/kind; json parse error: invalid character '}' looking for beginning of object key string", reason: 'syntax' });
    // A YAML flow mapping is YAML, but it starts with '{'.
    t.same(failure(decode('{kind: CredentialProviderConfig}', m)), { error: "couldn't get version/kind; json parse error: invalid character 'k' looking for beginning of object key string", reason: 'syntax' });
    t.same(failure(decode('  \n {"kind":1}', m)), { error: "couldn't get version/kind; json parse error: json: cannot unmarshal number into Go struct field .kind of type string", reason: 'type' });
  });
  // With a UTF-8 byte order mark the data does not start with '{': YAML reads it (and the BOM is skipped).
  const bom = Buffer.concat([Buffer.from([0xef, 0xbb, 0xbf]), Buffer.from(R4)]);
  t.ok(decode(bom, 35).ok);
});

t.test('only the first YAML document counts', async (t) => {
  forEachMinor(t, (m) => {
    const r = decode(`${R3}\n---\nkind: Other\nthis is: [not even valid\n`, m);
    t.ok(r.ok, `1.${m}`);
  });
  t.same(failure(decode(`---\n---\n${R3}`, 35)), { error: `Object 'Kind' is missing in '---\n---\n${R3}'`, reason: 'empty' });
});

t.test('YAML 1.1: quoted and unquoted look-alikes', async (t) => {
  const text = R3.replace('name: test', 'name: "yes"').replace('    - "registry.io/foobar"', '    - 0x1F\n    - "0x1F"');
  t.same(failure(decode(text, 35)), { error: 'json: cannot unmarshal number into Go struct field CredentialProvider.providers.matchImages of type string', reason: 'type' });
  const quoted = R3.replace('name: test', 'name: "yes"');
  const decodedQuoted = decode(quoted, 35);
  t.equal(decodedQuoted.ok && decodedQuoted.config.providers[0]!.name, 'yes');
  // A key spelled y or n is a boolean key in YAML 1.1 and becomes "true"/"false" in JSON.
  const keyY = R3.replace('    args:\n', '    y: 1\n    args:\n');
  const r = decode(keyY, 31);
  t.same(r.ok && r.droppedFields, ['providers[0].true']);
});

t.test('alias bombs and deep nesting end with go-yaml\'s errors', async (t) => {
  const lol = ['a: &a ["lol","lol","lol","lol","lol","lol","lol","lol","lol"]'];
  for (const [name, prev] of [['b', 'a'], ['c', 'b'], ['d', 'c'], ['e', 'd'], ['f', 'e'], ['g', 'f'], ['h', 'g'], ['i', 'h']]) {
    lol.push(`${name}: &${name} [${Array(9).fill(`*${prev}`).join(',')}]`);
  }
  forEachMinor(t, (m) => t.same(failure(decode(`${lol.join('\n')}\n`, m)), { error: 'yaml: document contains excessive aliasing', reason: 'syntax' }));
  t.same(failure(decode(`a: &x [*x]\n`, 35)), { error: "yaml: anchor 'x' value contains itself", reason: 'syntax' });
  const deepYaml = decode(`a: ${'['.repeat(10001)}${']'.repeat(10001)}\n`, 35);
  t.match(deepYaml, { ok: false, reason: 'syntax', error: /exceeded max depth of 10000$/ });
  const deepJson = decode(`{"a":${'['.repeat(10001)}${']'.repeat(10001)}}`, 35);
  t.same(failure(deepJson), { error: "couldn't get version/kind; json parse error: invalid character '[' exceeded max depth", reason: 'syntax' });
});

t.test('the internal version decodes with Go field names (no json tags)', async (t) => {
  const text = 'kind: CredentialProviderConfig\napiVersion: kubelet.config.k8s.io/__internal\nproviders:\n  - name: a\n';
  t.same(decode(text, 30), { ok: true, config: { providers: [] }, droppedFields: ['providers'], duplicateFields: [] });
  t.same(failure(decode(text, 32)), { error: 'strict decoding error: unknown field "providers"', reason: 'strict' });
  const goNames = 'kind: CredentialProviderConfig\napiVersion: kubelet.config.k8s.io/__internal\nProviders:\n  - Name: a\n    MatchImages: [x]\n    DefaultCacheDuration: 1m\n    APIVersion: credentialprovider.kubelet.k8s.io/v1\n';
  t.same(okConfig(decode(goNames, 35)), { providers: [{ name: 'a', matchImages: ['x'], defaultCacheDuration: MINUTE, apiVersion: 'credentialprovider.kubelet.k8s.io/v1', args: [], env: [] }] });
});

t.test('a string or a Buffer: the same answer', async (t) => {
  t.same(decode(R3, 33), decode(Buffer.from(R3), 33));
});

t.test('1.24-1.25 register no kubelet.config.k8s.io/v1 (staging k8s.io/kubelet v0.25.0 has no config/v1)', async (t) => {
  // The 1.25 text is from a kubelet log (kubernetes-sigs/cluster-api-provider-azure#4110):
  // err="error decoding config /var/lib/kubelet/credential-provider-config.yaml: no kind \"CredentialProviderConfig\"
  // is registered for version \"kubelet.config.k8s.io/v1\" in scheme \"pkg/credentialprovider/plugin/plugin.go:56\""
  t.same(decode(ACR_CONFIG, 25), {
    ok: false,
    error: 'no kind "CredentialProviderConfig" is registered for version "kubelet.config.k8s.io/v1" in scheme "pkg/credentialprovider/plugin/plugin.go:56"',
    reason: 'version',
    // The real kubelet 1.25.16 built in module mode names "pkg/runtime/scheme.go:100" (test/oracle/verdicts/1.25.json).
    inexact: true,
  });
  // 1.24: same words, but plugin.go's line was not pinned.
  t.same(decode(ACR_CONFIG, 24), {
    ok: false,
    error: 'no kind "CredentialProviderConfig" is registered for version "kubelet.config.k8s.io/v1" in scheme "pkg/credentialprovider/plugin/plugin.go:…"',
    reason: 'version',
    inexact: true,
  });
  t.equal(decode(ACR_CONFIG, 26).ok, true, '1.26 is the first with v1');
  // The exec API group has no v1 either: a CredentialProviderResponse in v1 is an unknown version.
  t.match(failure(decode('apiVersion: credentialprovider.kubelet.k8s.io/v1\nkind: CredentialProviderResponse\n', 25)), { error: /^no kind "CredentialProviderResponse" is registered for version "credentialprovider\.kubelet\.k8s\.io\/v1"/, reason: 'version' });
  t.same(failure(decode('apiVersion: credentialprovider.kubelet.k8s.io/v1beta1\nkind: CredentialProviderResponse\n', 25)), { error: 'failed to decode "CredentialProviderResponse" (wrong Kind)', reason: 'kind' });
  // v1beta1 configs decode in 1.24-1.25.
  t.same(okConfig(decode(multiple('v1beta1'), 24)), { providers: [provider('test1', 'registry.io/one', 10n, 'v1beta1', false), provider('test2', 'registry.io/two', 10n, 'v1beta1')] });
});

t.test('ImagePullIntent/ImagePulledRecord: v1alpha1 from 1.33, also v1beta1 from 1.35 (kubernetes/kubelet register.go)', async (t) => {
  const kind = (version: string, k: string, m: number) => failure(decode(`apiVersion: kubelet.config.k8s.io/${version}\nkind: ${k}\n`, m));
  for (const k of ['ImagePullIntent', 'ImagePulledRecord']) {
    t.match(kind('v1alpha1', k, 32), { error: new RegExp(`^no kind "${k}" is registered for version "kubelet\\.config\\.k8s\\.io/v1alpha1"`), reason: 'kind' }, `${k} v1alpha1 1.32`);
    t.same(kind('v1alpha1', k, 33), { error: `failed to decode "${k}" (wrong Kind)`, reason: 'kind' }, `${k} v1alpha1 1.33`);
    t.match(kind('v1beta1', k, 34), { error: new RegExp(`^no kind "${k}" is registered for version "kubelet\\.config\\.k8s\\.io/v1beta1"`), reason: 'kind' }, `${k} v1beta1 1.34`);
    t.same(kind('v1beta1', k, 35), { error: `failed to decode "${k}" (wrong Kind)`, reason: 'kind' }, `${k} v1beta1 1.35`);
    t.same(kind('v1beta1', k, 36), { error: `failed to decode "${k}" (wrong Kind)`, reason: 'kind' }, `${k} v1beta1 1.36`);
    t.match(kind('v1', k, 36), { error: new RegExp(`^no kind "${k}" is registered for version "kubelet\\.config\\.k8s\\.io/v1"`) }, `${k} v1 1.36`);
  }
});

t.test('what node-check cannot reproduce is "unevaluable", never a kubelet text', async (t) => {
  // Nesting go-yaml accepts (<= 10000 levels) but the yaml package cannot parse.
  const r = decode(`a: ${'['.repeat(5000)}${']'.repeat(5000)}\n`, 35);
  if (!r.ok) t.match(r, { reason: 'unevaluable', inexact: true }, 'deep but legal nesting: cannot tell');
  else t.pass('the yaml package parsed it: then it is decoded like go-yaml');
  t.match(decode(Buffer.concat([Buffer.from('k8s\x00', 'latin1'), Buffer.from('x')]), 30), { ok: false, reason: 'unevaluable' }, 'protobuf envelope');
});
