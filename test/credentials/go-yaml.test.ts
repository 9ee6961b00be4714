import t from 'tap';
import { yamlToGoJson, type YamlToJsonResult } from '../../src/credentials/go-yaml.js';
import type { GoJson } from '../../src/go/json.js';

// go-yaml v2 (YAML 1.1) as sigs.k8s.io/yaml's YAMLToJSON runs it: gopkg.in/yaml.v2 resolve.go and
// decode.go, kubernetes-sigs/yaml yaml.go.
const convert = (text: string | Buffer): YamlToJsonResult => yamlToGoJson(typeof text === 'string' ? Buffer.from(text) : text, { capitalisedMapKeyError: false });

/** The JSON value of `a:` in a one-key document. */
function valueOf(text: string): GoJson | string {
  const r = convert(`a: ${text}\n`);
  if (!r.ok) return r.error;
  return r.value.kind === 'object' ? r.value.members[0]!.value : r.value;
}

t.test('YAML 1.1 implicit types of plain scalars', async (t) => {
  const bool = (value: boolean) => ({ kind: 'bool', value });
  const num = (text: string) => ({ kind: 'number', text });
  const str = (value: string) => ({ kind: 'string', value });
  for (const s of ['y', 'Y', 'yes', 'Yes', 'YES', 'true', 'True', 'TRUE', 'on', 'On', 'ON']) t.same(valueOf(s), bool(true), s);
  for (const s of ['n', 'N', 'no', 'No', 'NO', 'false', 'False', 'FALSE', 'off', 'Off', 'OFF']) t.same(valueOf(s), bool(false), s);
  for (const s of ['~', 'null', 'Null', 'NULL', '']) t.same(valueOf(s), { kind: 'null' }, JSON.stringify(s));
  t.same(valueOf('42'), num('42'));
  t.same(valueOf('-7'), num('-7'));
  t.same(valueOf('+7'), num('7'));
  t.same(valueOf('0x1F'), num('31'));
  t.same(valueOf('0o17'), num('15'));
  t.same(valueOf('017'), num('15'), 'a leading 0 is octal');
  t.same(valueOf('08'), num('8'), 'not octal, so a float');
  t.same(valueOf('0b101'), num('5'));
  t.same(valueOf('1_000'), num('1000'));
  t.same(valueOf('1e3'), num('1000'));
  t.same(valueOf('.5'), num('0.5'));
  t.same(valueOf('9223372036854775808'), num('9223372036854775808'), 'uint64');
  for (const s of ['yep', 'Yes!', '1:20', '12e', '0x', '+', '1.2.3', 'TrUe', 'nil', '2001-12-14', '1e400']) t.same(valueOf(s), str(s), s);
  t.same(valueOf('-'), 'yaml: block sequence entries are not allowed in this context', '`a: -` is a block entry, refused after a simple key');
  t.same(convert('x: 1\na: - b\n').ok ? '' : (convert('x: 1\na: - b\n') as { error: string }).error, 'yaml: line 2: block sequence entries are not allowed in this context');
  t.same(valueOf('"yes"'), str('yes'), 'quoted scalars are strings');
  t.same(valueOf("'42'"), str('42'));
  t.same(valueOf('|\n  yes\n'), str('yes\n'), 'block scalars are strings');
});

t.test('explicit tags', async (t) => {
  t.same(valueOf('!!str 42'), { kind: 'string', value: '42' });
  t.same(valueOf("!!int '42'"), { kind: 'number', text: '42' });
  t.same(valueOf('!!float 1'), { kind: 'number', text: '1' });
  t.same(valueOf('!!bool yes'), { kind: 'bool', value: true });
  t.same(valueOf('!foo 42'), { kind: 'string', value: '42' }, 'an unknown tag leaves the text');
  t.same(valueOf('!!timestamp 2001-12-14'), { kind: 'string', value: '2001-12-14' }, 'interface{} gets the text of a timestamp');
  t.same(valueOf('!!binary aGVsbG8='), { kind: 'string', value: 'hello' });
  t.equal(valueOf('!!int foo'), 'yaml: cannot decode !!str `foo` as a !!int');
  t.equal(valueOf('!!null x'), 'yaml: cannot decode !!str `x` as a !!null');
  t.equal(valueOf('!!bool 1'), 'yaml: cannot decode !!int `1` as a !!bool');
  t.equal(valueOf('!!binary "a*b"'), 'yaml: !!binary value contains invalid base64 data');
  t.equal(valueOf('!!float .nan'), 'json: unsupported value: NaN', 'json.Marshal refuses NaN');
  t.equal(valueOf('-.inf'), 'json: unsupported value: -Inf');
});

t.test('map keys become JSON strings; objects come out sorted byte-wise', async (t) => {
  const r = convert('b: 1\nB: 2\n10: x\n1.5: y\nyes: z\na: 3\n');
  t.same(r.ok && r.value.kind === 'object' && r.value.members.map((m) => m.key), ['1.5', '10', 'B', 'a', 'b', 'true']);
  t.same(convert('~: x\n'), { ok: false, error: 'unsupported map key of type: %!s(<nil>), key: <nil>, value: "x"', exact: false });
  t.same(yamlToGoJson(Buffer.from('~: x\n'), { capitalisedMapKeyError: true }), { ok: false, error: 'Unsupported map key of type: %!s(<nil>), key: <nil>, value: "x"', exact: false }, 'sigs.k8s.io/yaml v1.3.0 capitalises');
  t.same(convert('? [a, b]\n: 1\n'), { ok: false, error: 'yaml: invalid map key: []interface {}{"a", "b"}', exact: false });
});

t.test('duplicate keys: the last value wins; each repeat is a strict-mode complaint with its value line', async (t) => {
  const r = convert('a: 1\nb:\n  c: 1\n  c:\n    - x\na: 3\n');
  t.same(r, {
    ok: true,
    value: { kind: 'object', members: [{ key: 'a', value: { kind: 'number', text: '3' } }, { key: 'b', value: { kind: 'object', members: [{ key: 'c', value: { kind: 'array', items: [{ kind: 'string', value: 'x' }] } }] } }] },
    strictDuplicateLines: ['line 5: key "c" already set in map', 'line 6: key "a" already set in map'],
    duplicatePaths: ['b.c', 'a'],
  });
  const sameSpelling = convert('1: a\n"1": b\n');
  t.same(sameSpelling.ok && sameSpelling.strictDuplicateLines, [], '1 and "1" are different YAML keys');
});

t.test('merge keys apply in place, earlier maps first, explicit keys after them repeat', async (t) => {
  const r = convert('base: &b {x: 1, z: 2}\nother: &o {x: 9, w: 8}\nm:\n  <<: [*b, *o]\n  z: 3\n');
  if (!r.ok || r.value.kind !== 'object') throw new Error('expected a mapping');
  t.same(r.value.members.find((m) => m.key === 'm')!.value, {
    kind: 'object',
    members: [{ key: 'w', value: { kind: 'number', text: '8' } }, { key: 'x', value: { kind: 'number', text: '1' } }, { key: 'z', value: { kind: 'number', text: '3' } }],
  });
  t.same(r.strictDuplicateLines, ['line 1: key "x" already set in map', 'line 5: key "z" already set in map']);
  t.same(convert('a:\n  <<: 5\n'), { ok: false, error: 'yaml: map merge requires map or sequence of maps as the value', exact: true });
  t.same(convert('a:\n  "<<": 5\n').ok, true, 'a quoted << is an ordinary key');
});

t.test('aliases', async (t) => {
  const r = convert('a: &x {k: v}\nb: *x\n');
  t.same(r.ok && r.value.kind === 'object' && r.value.members[1]!.value, { kind: 'object', members: [{ key: 'k', value: { kind: 'string', value: 'v' } }] });
  t.same(convert('a: *x\nb: &x 1\n'), { ok: false, error: "yaml: unknown anchor 'x' referenced", exact: true }, 'an anchor after its alias is unknown');
  const latest = convert('a: &x 1\nb: &x 2\nc: *x\n');
  t.same(latest.ok && latest.value.kind === 'object' && latest.value.members[2]!.value, { kind: 'number', text: '2' }, 'the latest anchor wins');
  t.same(convert('a: &x [*x]\n'), { ok: false, error: "yaml: anchor 'x' value contains itself", exact: true });
});

t.test('reader checks: bad bytes anywhere in a one-document file', async (t) => {
  t.same(convert(Buffer.from('a: b\n# \xff\n', 'latin1')), { ok: false, error: 'yaml: invalid leading UTF-8 octet', exact: true }, 'even inside a comment');
  t.same(convert(Buffer.from([0x61, 0x3a, 0x20, 0xc3])), { ok: false, error: 'yaml: incomplete UTF-8 octet sequence', exact: true });
  t.same(convert(Buffer.from([0x61, 0x3a, 0x20, 0xc3, 0x41])), { ok: false, error: 'yaml: invalid trailing UTF-8 octet', exact: true });
  t.same(convert(Buffer.from([0x61, 0x3a, 0x20, 0xc0, 0x80])), { ok: false, error: 'yaml: invalid length of a UTF-8 sequence', exact: true });
  t.same(convert(Buffer.from([0x61, 0x3a, 0x20, 0xed, 0xa0, 0x80])), { ok: false, error: 'yaml: invalid Unicode character', exact: true });
  t.same(convert('a: \uFFFE\n'), { ok: false, error: 'yaml: control characters are not allowed', exact: true });
  t.same(convert('a: \u0085x\n').ok, true, 'NEL is allowed');
  t.same(convert(Buffer.concat([Buffer.from([0xef, 0xbb, 0xbf]), Buffer.from('a: 1\n')])).ok, true, 'a UTF-8 BOM is skipped');
  const utf16 = Buffer.concat([Buffer.from([0xff, 0xfe]), Buffer.from('a: 1\n', 'utf16le')]);
  t.same(convert(utf16), { ok: true, value: { kind: 'object', members: [{ key: 'a', value: { kind: 'number', text: '1' } }] }, strictDuplicateLines: [], duplicatePaths: [] }, 'UTF-16 with a BOM');
});

t.test('a bad byte far beyond the first document is never read', async (t) => {
  const far = `a: 1\n---\n${'# padding\n'.repeat(200)}\x01\n`;
  t.same(convert(far).ok, true);
  t.same(convert(`a: 1\n---\n\x01\n`), { ok: false, error: 'yaml: control characters are not allowed', exact: true }, 'within the chunk read to end the first document');
});

t.test('tabs where go-yaml expects a token start', async (t) => {
  t.same(convert('a:\tb\n'), { ok: false, error: 'yaml: found character that cannot start any token', exact: true }, 'line 1 is not named');
  t.same(convert('x: 1\n-\tb\n').ok, false);
  t.same(convert('x: 1\na:\n\t- b\n'), { ok: false, error: 'yaml: line 3: found character that cannot start any token', exact: true });
  t.same(convert('x: 1\n\t\ny: 2\n'), { ok: false, error: 'yaml: line 2: found character that cannot start any token', exact: true }, 'a tab-only line');
  t.same(convert('a: b\t# comment\n').ok, true, 'after a value a tab is only space');
  t.same(convert('a: [1,\t2]\n').ok, true, 'flow context allows tabs');
  t.same(convert('a: |\n  x\n  \ty\n').ok, true, 'block scalar content');
  t.same(convert('a: 1\n---\n\tb: 2\n').ok, true, 'only the first document is scanned');
  t.same(convert('a:\tb\n---\n\tb: 2\n').ok, false, 'the first document\'s tab is met first');
  t.same(convert('a: "x\ty"\n').ok, true, 'quoted content');
});

t.test('syntax errors are flagged as approximations', async (t) => {
  t.same(convert('a: b: c\n'), { ok: false, error: 'yaml: mapping values are not allowed in this context', exact: false });
  t.same(convert('a:\n  b: 1\n c: 2\n'), { ok: false, error: 'yaml: line 2: did not find expected key', exact: false }, 'go-yaml prints parser errors 0-based');
  t.same(convert('x: 1\na: "abc\n'), { ok: false, error: 'yaml: line 3: found unexpected end of stream', exact: false });
});
