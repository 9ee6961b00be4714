import t from 'tap';
import { effectiveEnvironment } from '../../src/systemd/effective-environment.js';
import { parseEnvironmentValue } from '../../src/systemd/environment-setting.js';
import { parseUnitName } from '../../src/systemd/unit-name.js';

const unit = parseUnitName('kubelet.service')!;
const at = { file: '/etc/systemd/system/kubelet.service.d/20-logging.conf', line: 2 };
const parse = (value: string) => parseEnvironmentValue(value, at, unit);

t.test('several quoted assignments on one line', async (t) => {
  t.same(parse(`"A=1" "B=two words" C=3 'D=it''s'`).assignments, [
    { name: 'A', value: '1' },
    { name: 'B', value: 'two words' },
    { name: 'C', value: '3' },
    { name: 'D', value: 'its' },
  ]);
});

t.test('C escapes and specifiers are resolved', async (t) => {
  t.same(parse(String.raw`"A=x\ty" B=%n`).assignments, [
    { name: 'A', value: 'x\ty' },
    { name: 'B', value: 'kubelet.service' },
  ]);
});

t.test('invalid assignments are ignored with a warning naming file:line', async (t) => {
  const r = parse('1A=x NOEQUALS "B C=1" OK=yes');
  t.same(r.assignments, [{ name: 'OK', value: 'yes' }]);
  t.equal(r.diagnostics.length, 3);
  for (const d of r.diagnostics) t.match(d.message, `${at.file}:2: Invalid environment assignment`);
});

t.test('a syntax error drops the rest of the line, keeping what came before', async (t) => {
  const r = parse('A=1 "B=2 C=3');
  t.same(r.assignments, [{ name: 'A', value: '1' }]);
  t.match(r.diagnostics[0]!.message, /Invalid syntax, ignoring/);
});

t.test('EnvironmentFile= values override Environment=, later files override earlier ones', async (t) => {
  const env = effectiveEnvironment(
    new Map([
      ['A', 'unit'],
      ['B', 'unit'],
    ]),
    [{ B: 'file1', C: 'file1' }, { C: 'file2' }],
    [],
  );
  t.same(Object.fromEntries(env), { A: 'unit', B: 'file1', C: 'file2' });
});

t.test('UnsetEnvironment= removes a name, or an exact assignment only', async (t) => {
  const env = effectiveEnvironment(
    new Map([
      ['A', '1'],
      ['B', '2'],
      ['C', '3'],
    ]),
    [],
    ['A', 'B=2', 'C=other'],
  );
  t.same(Object.fromEntries(env), { C: '3' });
});
