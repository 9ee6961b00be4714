import t from 'tap';
import { providerNamesIn } from '../../src/credentials/provider-names.js';

t.test('names from valid YAML and JSON configs, in order, once each', async (t) => {
  const yaml = 'kind: CredentialProviderConfig\napiVersion: kubelet.config.k8s.io/v1\nproviders:\n  - name: ecr-credential-provider\n  - name: crio-credential-provider\n  - name: ecr-credential-provider\n';
  t.same(providerNamesIn(yaml), ['ecr-credential-provider', 'crio-credential-provider']);
  t.same(providerNamesIn(Buffer.from('{"providers":[{"name":"a"},{"name":"b"}]}')), ['a', 'b']);
});

t.test('names even from files kubelet rejects', async (t) => {
  t.same(providerNamesIn('providers:\n  - name: no-kind-here\n    unknown: x\n'), ['no-kind-here']);
  t.same(providerNamesIn('providers:\n  - name: a\n    matchImages: [unclosed\n'), ['a'], 'a syntax error later in the file');
  t.same(providerNamesIn('{"providers":[{"name":"json-with-trailing-comma"},]}'), ['json-with-trailing-comma']);
  t.same(providerNamesIn('providers:\n  - name: 42\n  - name: yes\n'), ['42', 'yes'], 'scalars as written');
  t.same(providerNamesIn('kind: x\n---\nproviders:\n  - name: second-doc\n'), ['second-doc']);
});

t.test('nothing from files without names, and never an exception', async (t) => {
  t.same(providerNamesIn(''), []);
  t.same(providerNamesIn('providers: {name: a}\n'), []);
  t.same(providerNamesIn('providers:\n  - name: [a]\n  - {}\n  - null\n'), []);
  t.same(providerNamesIn(Buffer.from([0xff, 0xfe, 0x00, 0x01])), []);
  t.same(providerNamesIn(`a: ${'['.repeat(20000)}`), []);
});
