import t from 'tap';
import { formatValidationErrors, qualifiedNameErrors, validateCredentialProviderConfig, validationTextIsExact } from '../../src/credentials/validate.js';
import type { CredentialProvider, CredentialProviderConfig, ServiceAccountTokenAttributes } from '../../src/credentials/types.js';
import { requireTraits } from '../../src/kubelet/version.js';
import { MODELLED_MINORS } from '../../src/kubelet/data/minors.js';

/** Every modelled kubelet minor. */
const MINORS = MODELLED_MINORS;

// Test_validateCredentialProviderConfig (kubernetes/kubernetes pkg/credentialprovider/plugin/
// config_test.go at v1.33.13 and v1.34.12), run for every kubelet minor each case exists in.
// Expected strings: the 1.33 test file (Required with detail, %#v values), the newest file
// (1.34+: JSON values, shorter negative-duration detail; apimachinery v0.34.0 ErrorBody) and
// config.go validateCredentialProviderConfig at each tag for the rest. 1.24-1.25 accept only the v1alpha1 and v1beta1 exec APIs.

const MINUTE = 60_000_000_000n;
const V1ALPHA1 = 'credentialprovider.kubelet.k8s.io/v1alpha1';
const V1BETA1 = 'credentialprovider.kubelet.k8s.io/v1beta1';
const V1 = 'credentialprovider.kubelet.k8s.io/v1';
const QUALIFIED_NAME_DETAIL =
  "name part must consist of alphanumeric characters, '-', '_' or '.', and must start and end with an alphanumeric character (e.g. 'MyName',  or 'my.name',  or '123-abc', regex used for validation is '([A-Za-z0-9][-A-Za-z0-9_.]*)?[A-Za-z0-9]')";

const provider = (delta: Partial<CredentialProvider> = {}): CredentialProvider => ({
  name: 'foobar',
  matchImages: ['foobar.registry.io'],
  defaultCacheDuration: MINUTE,
  apiVersion: V1ALPHA1,
  args: [],
  env: [],
  ...delta,
});
const tokenAttributes = (delta: Partial<ServiceAccountTokenAttributes>): ServiceAccountTokenAttributes => ({
  serviceAccountTokenAudience: '',
  requiredServiceAccountAnnotationKeys: [],
  optionalServiceAccountAnnotationKeys: [],
  cacheType: '',
  ...delta,
});
const config = (...providers: CredentialProvider[]): CredentialProviderConfig => ({ providers });
/** cacheType only exists from 1.34; upstream's 1.33 cases have none. */
const cacheFrom34 = (minor: number, cacheType: string) => (minor >= 34 ? cacheType : '');
const withDetail = (minor: number, base: string, detail: string) => (minor <= 33 ? `${base}: ${detail}` : base);

interface Case {
  readonly id: string;
  readonly name: string;
  readonly since: number;
  readonly gate?: boolean;
  readonly config: (minor: number) => CredentialProviderConfig;
  /** The aggregate kubelet prints, or '' for none. */
  readonly expect: (minor: number) => string;
}

const cases: Case[] = [
  { id: 'V1', name: 'no providers provided', since: 24, config: () => config(), expect: () => 'providers: Required value: at least 1 item in plugins is required' },
  { id: 'V2', name: 'no matchImages provided', since: 24, config: () => config(provider({ matchImages: [] })), expect: () => 'providers.matchImages: Required value: at least 1 item in matchImages is required' },
  {
    id: 'V3', name: 'no default cache duration provided', since: 24,
    config: () => config({ ...provider(), defaultCacheDuration: undefined }),
    expect: (m) => withDetail(m, 'providers.defaultCacheDuration: Required value', 'defaultCacheDuration is required'),
  },
  { id: 'V4', name: "name contains '/'", since: 24, config: () => config(provider({ name: 'foo/../bar' })), expect: () => `providers.name: Invalid value: "foo/../bar": provider name cannot contain '/'` },
  { id: 'V5', name: "name is '.'", since: 24, config: () => config(provider({ name: '.' })), expect: () => `providers.name: Invalid value: ".": provider name cannot be '.'` },
  { id: 'V6', name: "name is '..'", since: 24, config: () => config(provider({ name: '..' })), expect: () => `providers.name: Invalid value: "..": provider name cannot be '..'` },
  { id: 'V7', name: 'name contains spaces', since: 24, config: () => config(provider({ name: 'foo bar' })), expect: () => 'providers.name: Invalid value: "foo bar": provider name cannot contain spaces' },
  {
    id: 'V8', name: 'duplicate names', since: 24,
    config: () => config(provider(), provider({ matchImages: ['bar.registry.io'] })),
    // <=1.32 has no duplicate validation: registration fails later (klog.Fatalf, exit 255).
    expect: (m) => (m >= 33 ? 'providers.name: Duplicate value: "foobar"' : ''),
  },
  { id: 'V9', name: 'no apiVersion', since: 24, config: () => config(provider({ apiVersion: '' })), expect: (m) => withDetail(m, 'providers.apiVersion: Required value', 'apiVersion is required') },
  {
    id: 'V10', name: 'invalid apiVersion', since: 24,
    config: () => config(provider({ apiVersion: 'credentialprovider.kubelet.k8s.io/v1alpha0' })),
    // <=1.32 lists the supported values in Go map order (varies per run); node-check renders them
    // sorted and marks the text inexact (see the validationTextIsExact test). No v1 before 1.26.
    expect: (m) => `providers.apiVersion: Unsupported value: "credentialprovider.kubelet.k8s.io/v1alpha0": supported values: ${m >= 26 ? `"${V1}", ` : ''}"${V1ALPHA1}", "${V1BETA1}"`,
  },
  {
    id: 'V11', name: 'negative default cache duration', since: 24,
    config: () => config(provider({ defaultCacheDuration: -MINUTE })),
    expect: (m) => (m >= 34 ? 'providers.defaultCacheDuration: Invalid value: "-1m0s": must be greater than or equal to 0' : 'providers.defaultCacheDuration: Invalid value: -1m0s: defaultCacheDuration must be greater than or equal to 0'),
  },
  {
    id: 'V12', name: 'invalid match image', since: 24,
    config: () => config(provider({ matchImages: ['%invalid%'] })),
    expect: () => 'providers.matchImages: Invalid value: "%invalid%": match image is invalid: parse "https://%invalid%": invalid URL escape "%in"',
  },
  { id: 'V13', name: 'valid config', since: 24, config: () => config(provider()), expect: () => '' },
  {
    id: 'V14', name: 'token attributes set without KubeletServiceAccountTokenForCredentialProviders feature gate enabled', since: 33, gate: false,
    config: (m) => config(provider({ apiVersion: V1, tokenAttributes: tokenAttributes({ serviceAccountTokenAudience: 'audience', requireServiceAccount: true, cacheType: cacheFrom34(m, 'ServiceAccount') }) })),
    expect: () => 'providers.tokenAttributes: Forbidden: tokenAttributes is not supported when KubeletServiceAccountTokenForCredentialProviders feature gate is disabled',
  },
  {
    id: 'V15', name: 'token attributes not nil but empty ServiceAccountTokenAudience', since: 33,
    config: (m) => config(provider({ apiVersion: V1, tokenAttributes: tokenAttributes({ requiredServiceAccountAnnotationKeys: ['prefix.io/annotation-1', 'prefix.io/annotation-2'], requireServiceAccount: true, cacheType: cacheFrom34(m, 'Token') }) })),
    expect: (m) => withDetail(m, 'providers.tokenAttributes.serviceAccountTokenAudience: Required value', 'serviceAccountTokenAudience is required'),
  },
  {
    id: 'V16', name: 'token attributes not nil but empty CacheType', since: 33,
    config: () => config(provider({ apiVersion: V1, tokenAttributes: tokenAttributes({ serviceAccountTokenAudience: 'audience', requireServiceAccount: true }) })),
    // 1.33 has no cacheType field to require.
    expect: (m) => (m >= 34 ? 'providers.tokenAttributes.cacheType: Required value: cacheType is required to be set when tokenAttributes is specified. Supported values are: ServiceAccount, Token' : ''),
  },
  {
    id: 'V17', name: 'token attributes not nil, invalid CacheType', since: 34,
    config: () => config(provider({ apiVersion: V1, tokenAttributes: tokenAttributes({ serviceAccountTokenAudience: 'audience', cacheType: 'invalid-cache-type', requireServiceAccount: true }) })),
    expect: () => 'providers.tokenAttributes.cacheType: Unsupported value: "invalid-cache-type": supported values: "ServiceAccount", "Token"',
  },
  {
    id: 'V18', name: 'token attributes not nil but empty ServiceAccountTokenRequired', since: 33,
    config: (m) => config(provider({ apiVersion: V1, tokenAttributes: tokenAttributes({ serviceAccountTokenAudience: 'audience', cacheType: cacheFrom34(m, 'ServiceAccount'), requiredServiceAccountAnnotationKeys: ['prefix.io/annotation-1', 'prefix.io/annotation-2'] }) })),
    expect: (m) => withDetail(m, 'providers.tokenAttributes.requireServiceAccount: Required value', 'requireServiceAccount is required'),
  },
  {
    id: 'V19', name: 'required service account annotation keys not qualified name (same validation as metav1.ObjectMeta)', since: 33,
    config: (m) => config(provider({ apiVersion: V1, tokenAttributes: tokenAttributes({ serviceAccountTokenAudience: 'audience', cacheType: cacheFrom34(m, 'Token'), requireServiceAccount: true, requiredServiceAccountAnnotationKeys: ['cantendwithadash-', 'now-with-dashes/simple'] }) })),
    expect: () => `providers.tokenAttributes.requiredServiceAccountAnnotationKeys: Invalid value: "cantendwithadash-": ${QUALIFIED_NAME_DETAIL}`,
  },
  {
    id: 'V20', name: 'optional service account annotation keys not qualified name (same validation as metav1.ObjectMeta)', since: 33,
    config: (m) => config(provider({ apiVersion: V1, tokenAttributes: tokenAttributes({ serviceAccountTokenAudience: 'audience', cacheType: cacheFrom34(m, 'ServiceAccount'), requireServiceAccount: true, optionalServiceAccountAnnotationKeys: ['cantendwithadash-', 'now-with-dashes/simple'] }) })),
    expect: () => `providers.tokenAttributes.optionalServiceAccountAnnotationKeys: Invalid value: "cantendwithadash-": ${QUALIFIED_NAME_DETAIL}`,
  },
  {
    id: 'V21', name: 'duplicate required service account annotation keys', since: 33,
    config: (m) => config(provider({ apiVersion: V1, tokenAttributes: tokenAttributes({ serviceAccountTokenAudience: 'audience', cacheType: cacheFrom34(m, 'Token'), requireServiceAccount: true, requiredServiceAccountAnnotationKeys: ['now-with-dashes/simple', 'now-with-dashes/simple'] }) })),
    expect: () => 'providers.tokenAttributes.requiredServiceAccountAnnotationKeys: Duplicate value: "now-with-dashes/simple"',
  },
  {
    id: 'V22', name: 'duplicate optional service account annotation keys', since: 33,
    config: (m) => config(provider({ apiVersion: V1, tokenAttributes: tokenAttributes({ serviceAccountTokenAudience: 'audience', cacheType: cacheFrom34(m, 'ServiceAccount'), requireServiceAccount: true, optionalServiceAccountAnnotationKeys: ['now-with-dashes/simple', 'now-with-dashes/simple'] }) })),
    expect: () => 'providers.tokenAttributes.optionalServiceAccountAnnotationKeys: Duplicate value: "now-with-dashes/simple"',
  },
  {
    id: 'V23', name: 'annotation key in required and optional keys', since: 33,
    config: (m) => config(provider({ apiVersion: V1, tokenAttributes: tokenAttributes({ serviceAccountTokenAudience: 'audience', cacheType: cacheFrom34(m, 'Token'), requireServiceAccount: true, requiredServiceAccountAnnotationKeys: ['now-with-dashes/simple-1', 'now-with-dashes/simple-2'], optionalServiceAccountAnnotationKeys: ['now-with-dashes/simple-2', 'now-with-dashes/simple-3'] }) })),
    expect: (m) => `providers.tokenAttributes: Invalid value: ${m >= 34 ? '["now-with-dashes/simple-2"]' : '[]string{"now-with-dashes/simple-2"}'}: annotation keys cannot be both required and optional`,
  },
  {
    id: 'V24', name: 'required annotation keys set when requireServiceAccount is false', since: 33,
    config: (m) => config(provider({ apiVersion: V1, tokenAttributes: tokenAttributes({ serviceAccountTokenAudience: 'audience', cacheType: cacheFrom34(m, 'ServiceAccount'), requireServiceAccount: false, requiredServiceAccountAnnotationKeys: ['now-with-dashes/simple-1', 'now-with-dashes/simple-2'] }) })),
    expect: () => 'providers.tokenAttributes.requiredServiceAccountAnnotationKeys: Forbidden: requireServiceAccount cannot be false when requiredServiceAccountAnnotationKeys is set',
  },
  {
    id: 'V25', name: 'valid config with KubeletServiceAccountTokenForCredentialProviders feature gate enabled', since: 33,
    config: (m) => config(provider({ apiVersion: V1, tokenAttributes: tokenAttributes({ serviceAccountTokenAudience: 'audience', cacheType: cacheFrom34(m, 'Token'), requireServiceAccount: true, requiredServiceAccountAnnotationKeys: ['now-with-dashes/simple-1', 'now-with-dashes/simple-2'], optionalServiceAccountAnnotationKeys: ['now-with-dashes/simple-3'] }) })),
    expect: () => '',
  },
  {
    id: 'V26', name: 'tokenAttributes set with credentialprovider.kubelet.k8s.io/v1alpha1 APIVersion', since: 33,
    config: (m) => config(provider({ apiVersion: V1ALPHA1, tokenAttributes: tokenAttributes({ serviceAccountTokenAudience: 'audience', cacheType: cacheFrom34(m, 'Token'), requireServiceAccount: true, requiredServiceAccountAnnotationKeys: ['now-with-dashes/simple'] }) })),
    expect: () => `providers.tokenAttributes: Forbidden: tokenAttributes is only supported for ${V1} API version`,
  },
  {
    id: 'V27', name: 'tokenAttributes set with credentialprovider.kubelet.k8s.io/v1beta1 APIVersion', since: 33,
    config: (m) => config(provider({ apiVersion: V1BETA1, tokenAttributes: tokenAttributes({ serviceAccountTokenAudience: 'audience', cacheType: cacheFrom34(m, 'ServiceAccount'), requireServiceAccount: true, requiredServiceAccountAnnotationKeys: ['now-with-dashes/simple'] }) })),
    expect: () => `providers.tokenAttributes: Forbidden: tokenAttributes is only supported for ${V1} API version`,
  },
];

for (const c of cases) {
  t.test(`${c.id} ${c.name}`, async (t) => {
    for (const minor of MINORS.filter((m) => m >= c.since)) {
      const traits = requireTraits(minor);
      // Token cases run with the gate on unless they say otherwise, as upstream's do.
      const gate = c.gate ?? c.since >= 33;
      const message = formatValidationErrors(validateCredentialProviderConfig(c.config(minor), traits, gate), traits);
      const expected = c.expect(minor);
      t.equal(message, expected === '' ? '' : `failed to validate credential provider config: ${expected}`, `1.${minor}`);
    }
  });
}

t.test('before 1.33 tokenAttributes is not validated at all (the field does not exist)', async (t) => {
  const withToken = (m: number) => config(provider({ apiVersion: m >= 26 ? V1 : V1BETA1, tokenAttributes: tokenAttributes({}) }));
  for (const minor of MINORS.filter((m) => m <= 32)) {
    t.same(validateCredentialProviderConfig(withToken(minor), requireTraits(minor), false), [], `1.${minor}`);
  }
});

t.test('1.33 ignores cacheType: the field is unknown there', async (t) => {
  const c = config(provider({ apiVersion: V1, tokenAttributes: tokenAttributes({ serviceAccountTokenAudience: 'a', requireServiceAccount: true, cacheType: 'bogus' }) }));
  t.same(validateCredentialProviderConfig(c, requireTraits(33), true), []);
  t.equal(validateCredentialProviderConfig(c, requireTraits(34), true).length, 1);
});

t.test('the aggregate: several errors in kubelet order, "[a, b]", identical messages once', async (t) => {
  const traits = requireTraits(33);
  const twoBroken = config({ ...provider({ name: 'a' }), defaultCacheDuration: undefined }, { ...provider({ name: 'b' }), defaultCacheDuration: undefined, apiVersion: '' });
  t.equal(
    formatValidationErrors(validateCredentialProviderConfig(twoBroken, traits, false), traits),
    'failed to validate credential provider config: [providers.defaultCacheDuration: Required value: defaultCacheDuration is required, providers.apiVersion: Required value: apiVersion is required]',
  );
  t.equal(formatValidationErrors([], traits), '');
});

t.test('a 1.33 kubelet log from k3s (k3s-io/k3s#14039): apiVersion and defaultCacheDuration missing, tokenAttributes on an empty exec apiVersion', async (t) => {
  const traits = requireTraits(33);
  const c = config({
    ...provider({ name: 'gcp-credential-provider', apiVersion: '', matchImages: ['*.pkg.dev'] }),
    defaultCacheDuration: undefined,
    tokenAttributes: tokenAttributes({ serviceAccountTokenAudience: 'aud', requireServiceAccount: true }),
  });
  t.equal(
    formatValidationErrors(validateCredentialProviderConfig(c, traits, true), traits),
    'failed to validate credential provider config: [providers.apiVersion: Required value: apiVersion is required, providers.defaultCacheDuration: Required value: defaultCacheDuration is required, providers.tokenAttributes: Forbidden: tokenAttributes is only supported for credentialprovider.kubelet.k8s.io/v1 API version]',
  );
});

t.test('all errors of one provider, in config.go order', async (t) => {
  const traits = requireTraits(34);
  const c = config(
    provider({ name: 'a/b c', apiVersion: 'x', matchImages: ['ok.io', 'bad:port'], defaultCacheDuration: -1n, tokenAttributes: tokenAttributes({ requiredServiceAccountAnnotationKeys: ['k'], requireServiceAccount: false }) }),
  );
  t.same(
    validateCredentialProviderConfig(c, traits, false).map((e) => `${e.type} ${e.field}`),
    [
      'Invalid providers.name',
      'Invalid providers.name',
      'NotSupported providers.apiVersion',
      'Invalid providers.matchImages',
      'Invalid providers.defaultCacheDuration',
      'Forbidden providers.tokenAttributes',
      'Required providers.tokenAttributes.serviceAccountTokenAudience',
      'Forbidden providers.tokenAttributes',
      'Forbidden providers.tokenAttributes.requiredServiceAccountAnnotationKeys',
      'Required providers.tokenAttributes.cacheType',
    ],
  );
});

t.test('names: only "/", the ASCII space, "." and ".." are refused; empty and unicode names pass', async (t) => {
  const traits = requireTraits(35);
  for (const name of ['', 'auth-provider-gcp.exe', 'UPPER', 'tab\tname', 'ünï']) {
    t.same(validateCredentialProviderConfig(config(provider({ name })), traits, false), [], JSON.stringify(name));
  }
});

t.test('match images: only url.Parse failures are errors', async (t) => {
  const traits = requireTraits(30);
  const message = (matchImage: string) => formatValidationErrors(validateCredentialProviderConfig(config(provider({ matchImages: [matchImage] })), traits, false), traits);
  t.equal(message('https://gcr.io'), '', 'a scheme passes (and never matches)');
  t.equal(message(''), '', 'an empty pattern passes');
  t.equal(message('registry.io/*'), '');
  t.equal(message('registry.io:abc'), 'failed to validate credential provider config: providers.matchImages: Invalid value: "registry.io:abc": match image is invalid: parse "https://registry.io:abc": invalid port ":abc" after host');
  t.equal(message('foo bar.io'), 'failed to validate credential provider config: providers.matchImages: Invalid value: "foo bar.io": match image is invalid: parse "https://foo bar.io": invalid character " " in host name');
});

t.test('IsQualifiedName messages', async (t) => {
  t.same(qualifiedNameErrors('example.com/key', 'qualified-name'), []);
  t.same(qualifiedNameErrors('/key', 'qualified-name'), ['prefix part must be non-empty']);
  t.same(qualifiedNameErrors('a/b/c', 'qualified-name'), [
    "a qualified name must consist of alphanumeric characters, '-', '_' or '.', and must start and end with an alphanumeric character (e.g. 'MyName',  or 'my.name',  or '123-abc', regex used for validation is '([A-Za-z0-9][-A-Za-z0-9_.]*)?[A-Za-z0-9]') with an optional DNS subdomain prefix and '/' (e.g. 'example.com/MyName')",
  ]);
  t.same(qualifiedNameErrors('Bad_Prefix/key', 'qualified-name'), [
    "prefix part a lowercase RFC 1123 subdomain must consist of lower case alphanumeric characters, '-' or '.', and must start and end with an alphanumeric character (e.g. 'example.com', regex used for validation is '[a-z0-9]([-a-z0-9]*[a-z0-9])?(\\.[a-z0-9]([-a-z0-9]*[a-z0-9])?)*')",
  ]);
  t.same(qualifiedNameErrors(`p/${'a'.repeat(64)}`, 'qualified-name'), ['name part must be no more than 63 characters']);
  t.same(qualifiedNameErrors('p/', 'qualified-name'), ['name part must be non-empty', `name part ${QUALIFIED_NAME_DETAIL.slice('name part '.length)}`]);
});

t.test('IsQualifiedName became content.IsLabelKey in apimachinery v0.35.0: 1.34 old words, 1.35 new', async (t) => {
  t.equal(requireTraits(34).qualifiedNameWording, 'qualified-name');
  t.equal(requireTraits(35).qualifiedNameWording, 'label-key');
  t.equal(requireTraits(36).qualifiedNameWording, 'label-key');
  t.same(qualifiedNameErrors('a/b/c', 'label-key'), [
    "a valid label key must consist of alphanumeric characters, '-', '_' or '.', and must start and end with an alphanumeric character (e.g. 'MyName',  or 'my.name',  or '123-abc', regex used for validation is '([A-Za-z0-9][-A-Za-z0-9_.]*)?[A-Za-z0-9]') with an optional DNS subdomain prefix and '/' (e.g. 'example.com/MyName')",
  ]);
  t.same(qualifiedNameErrors(`p/${'a'.repeat(64)}`, 'label-key'), ['name part must be no more than 63 bytes']);
  const key = (minor: number) => {
    const traits = requireTraits(minor);
    const c = config(provider({ apiVersion: V1, tokenAttributes: tokenAttributes({ serviceAccountTokenAudience: 'a', cacheType: 'Token', requireServiceAccount: true, requiredServiceAccountAnnotationKeys: ['a/b/c'] }) }));
    return formatValidationErrors(validateCredentialProviderConfig(c, traits, true), traits);
  };
  t.match(key(34), /Invalid value: "a\/b\/c": a qualified name must consist/);
  t.match(key(35), /Invalid value: "a\/b\/c": a valid label key must consist/);
});

t.test('values rendered by json.Marshal from 1.34 (apimachinery v0.34.0), Go %v / %#v up to 1.33', async (t) => {
  const negative = (minor: number) => {
    const traits = requireTraits(minor);
    return formatValidationErrors(validateCredentialProviderConfig(config(provider({ defaultCacheDuration: -90n * 1_000_000_000n })), traits, false), traits);
  };
  t.equal(negative(33), 'failed to validate credential provider config: providers.defaultCacheDuration: Invalid value: -1m30s: defaultCacheDuration must be greater than or equal to 0');
  t.equal(negative(34), 'failed to validate credential provider config: providers.defaultCacheDuration: Invalid value: "-1m30s": must be greater than or equal to 0');
  t.equal(negative(24), negative(33), '1.24 words as 1.33');
  t.equal(negative(36), negative(34), '1.36 words as 1.34');
});

t.test('1.24-1.25 know no credentialprovider.kubelet.k8s.io/v1 exec API (staging k8s.io/kubelet v0.25.0)', async (t) => {
  const v1 = config(provider({ apiVersion: V1 }));
  for (const minor of [24, 25]) {
    const traits = requireTraits(minor);
    const errors = validateCredentialProviderConfig(v1, traits, false);
    t.equal(
      formatValidationErrors(errors, traits),
      `failed to validate credential provider config: providers.apiVersion: Unsupported value: "${V1}": supported values: "${V1ALPHA1}", "${V1BETA1}"`,
      `1.${minor}`,
    );
    t.equal(validationTextIsExact(errors, traits), false, 'two values in Go map order: either order can be printed');
  }
  t.same(validateCredentialProviderConfig(v1, requireTraits(26), false), [], '1.26 accepts v1');
});

t.test('the text is exact except for NotSupported apiVersion lists before 1.33 (Go map order)', async (t) => {
  const bad = config(provider({ apiVersion: 'x' }));
  const exact = (minor: number, c: CredentialProviderConfig) => validationTextIsExact(validateCredentialProviderConfig(c, requireTraits(minor), false), requireTraits(minor));
  t.equal(exact(32, bad), false, '1.32: map order');
  t.equal(exact(33, bad), true, '1.33: sorted');
  t.equal(exact(32, config(provider({ defaultCacheDuration: -1n }))), true, 'other errors are exact');
});
