// The YAML the fixture generators write for Go structs: encoding/json's omitempty and
// sigs.k8s.io/yaml (go-yaml v2) quoting, on a package read from Go source.
import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import t from 'tap';
// @ts-expect-error: a plain .mjs module without types
import { jsonPath, readGoPackage, structJson, toYaml } from '../../scripts/fixtures/go-struct-yaml.mjs';

t.test('a zero struct: every field encoding/json writes, omitempty drops empties but never a struct', async (t) => {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'node-check-gostruct-'));
  t.teardown(() => fs.rmSync(dir, { recursive: true, force: true }));
  fs.writeFileSync(path.join(dir, 'types.go'), [
    'package v1beta1',
    'import (',
    '\tmetav1 "k8s.io/apimachinery/pkg/apis/meta/v1"',
    ')',
    'type Mode string',
    'type Config struct {',
    '\tmetav1.TypeMeta `json:",inline"`',
    '\tSync metav1.Duration `json:"syncFrequency,omitempty"`',
    '\tPort int32 `json:"port,omitempty"`',
    '\tMode Mode `json:"mode"`',
    '\tPtr *bool `json:"ptr,omitempty"`',
    '\tList []string `json:"list,omitempty"`',
    '\tAuth Auth `json:"auth"`',
    '\tSkipped string `json:"-"`',
    '}',
    'type Auth struct {',
    '\tEnabled *bool `json:"enabled,omitempty"`',
    '\tTTL metav1.Duration `json:"cacheTTL"`',
    '}',
    '',
  ].join('\n'));
  fs.writeFileSync(path.join(dir, 'types_test.go'), 'package v1beta1\ntype Ignored struct {\n\tX string `json:"x"`\n}\n');
  const pkg = readGoPackage(dir, 'example.com/v1beta1');
  const noOther = () => {
    throw new Error('no other package is needed');
  };
  t.same(structJson(pkg, 'Config', noOther), { syncFrequency: '0s', mode: '', auth: { cacheTTL: '0s' } }, 'a Duration is a struct: omitempty keeps it');
  t.same(jsonPath(pkg, 'Config', 'Auth.Enabled', noOther), ['auth', 'enabled']);
  t.notOk(pkg.structs.has('Ignored'), '_test.go files are not read');
});

t.test('YAML as go-yaml v2 writes it: sorted keys, quotes only where a string would read back as another type', async (t) => {
  const yaml = toYaml({ b: { z: '0s', a: '0' }, a: ['10.96.0.10'], c: '', d: 'true', e: {}, f: '127.0.0.1', g: 10248, h: '1.5', i: '*.dkr.ecr', j: 'unix:///run/x.sock' });
  t.equal(yaml, [
    'a:',
    '- 10.96.0.10',
    'b:',
    '  a: "0"',
    '  z: 0s',
    'c: ""',
    'd: "true"',
    'e: {}',
    'f: 127.0.0.1',
    'g: 10248',
    'h: "1.5"',
    'i: "*.dkr.ecr"',
    'j: unix:///run/x.sock',
    '',
  ].join('\n'));
});
