// The traits table (src/kubelet/data/credential-provider-traits.ts): every modelled minor has a
// row, no other minor has one, and each column changes exactly where its source says (last minor
// with the old value, first with the new).
import t from 'tap';
import { CREDENTIAL_PROVIDER_TRAITS } from '../../src/kubelet/data/credential-provider-traits.js';
import { requireTraits, traitsFor, type KubeletTraits } from '../../src/kubelet/version.js';
import { MODELLED_MINORS, NEXT_MINOR } from '../../src/kubelet/data/minors.js';

const MINORS = MODELLED_MINORS;

t.test('a row for every modelled minor exactly; nothing is borrowed from a neighbour', async (t) => {
  t.same([...CREDENTIAL_PROVIDER_TRAITS.keys()].sort((a, b) => a - b), MINORS);
  for (const m of MINORS) t.equal(requireTraits(m).minor, m);
  for (const m of [0, 23, NEXT_MINOR, 40, 24.5, Number.NaN]) t.equal(traitsFor(m), undefined, String(m));
});

/** [column, last minor with the old value, old value, new value] */
const boundaries: [keyof KubeletTraits, number, unknown, unknown][] = [
  ['credentialProvidersGate', 25, 'beta', 'ga-locked'],
  ['credentialProvidersGate', 27, 'ga-locked', 'removed'],
  ['configApiVersions', 25, ['v1alpha1', 'v1beta1'], ['v1', 'v1alpha1', 'v1beta1']],
  ['execApiVersions', 25, ['credentialprovider.kubelet.k8s.io/v1alpha1', 'credentialprovider.kubelet.k8s.io/v1beta1'], ['credentialprovider.kubelet.k8s.io/v1', 'credentialprovider.kubelet.k8s.io/v1alpha1', 'credentialprovider.kubelet.k8s.io/v1beta1']],
  ['sigsYamlVersion', 25, '1.2.0', '1.3.0'],
  ['sigsYamlVersion', 30, '1.3.0', '1.4.0'],
  ['sigsYamlVersion', 33, '1.4.0', '1.6.0'],
  ['configDir', 27, 'absent', 'alpha-env'],
  ['configDir', 29, 'alpha-env', 'supported'],
  ['pluginBinaryCheck', 29, 'stat', 'lookpath'],
  ['strictDecoding', 31, false, true],
  ['supportedValuesSorted', 32, false, true],
  ['duplicateProviderNames', 32, 'fatal-at-registration', 'validation'],
  ['duplicateProviderNames', 33, 'validation', 'merge'],
  ['tokenAttributes', 32, 'absent', 'without-cache-type'],
  ['tokenAttributes', 33, 'without-cache-type', 'with-cache-type'],
  ['imagePullRecordVersions', 32, [], ['v1alpha1']],
  ['imagePullRecordVersions', 34, ['v1alpha1'], ['v1alpha1', 'v1beta1']],
  ['configMayBeDirectory', 33, false, true],
  ['requiredErrorsHaveDetail', 33, true, false],
  ['fieldValueStyle', 33, 'go', 'json'],
  ['negativeDurationDetail', 33, 'defaultCacheDuration must be greater than or equal to 0', 'must be greater than or equal to 0'],
  ['qualifiedNameWording', 34, 'qualified-name', 'label-key'],
];

for (const [column, last, before, after] of boundaries) {
  t.test(`${column}: 1.${last} → 1.${last + 1}`, async (t) => {
    t.same(requireTraits(last)[column], before, `1.${last}`);
    t.same(requireTraits(last + 1)[column], after, `1.${last + 1}`);
  });
}

t.test('in-tree provider names per minor (global registry <=1.32)', async (t) => {
  const gcp = ['google-container-registry', 'google-dockercfg', 'google-dockercfg-url'];
  const names = (m: number) => [...requireTraits(m).inTreeProviderNames].sort();
  t.same(names(24), ['.dockercfg', 'amazon-ecr', 'azure', ...gcp]);
  t.same(names(26), ['.dockercfg', 'amazon-ecr', 'azure', ...gcp], '1.26: last with amazon-ecr');
  t.same(names(27), ['.dockercfg', 'azure', ...gcp]);
  t.same(names(29), ['.dockercfg', 'azure', ...gcp], '1.29: last with azure');
  t.same(names(30), ['.dockercfg', ...gcp], '1.30: last with google-*');
  t.same(names(31), ['.dockercfg']);
  t.same(names(32), ['.dockercfg'], '1.32: last global registry');
  for (const m of [33, 34, 35, 36]) t.same(names(m), [], `1.${m}: plugin-local registry`);
});

t.test('1.36 behaves as 1.35 (no credential-provider change in the 1.36 changelog or staging types)', async (t) => {
  t.same({ ...requireTraits(36), minor: 35 }, requireTraits(35));
});

t.test('only 1.25 pins the scheme line (a 1.25 kubelet log); 1.24 marks its inferred columns', async (t) => {
  t.equal(requireTraits(25).schemeLine, 56);
  for (const m of MINORS.filter((m) => m !== 25)) t.equal(requireTraits(m).schemeLine, undefined, `1.${m}`);
  t.ok(requireTraits(24).inferred.length > 0);
});
