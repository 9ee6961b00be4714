import t from 'tap';
import { goJsonCheckValid, goJsonFoldKey, goJsonMarshalString, parseGoJson, scanJsonSyntax } from '../../src/go/json.js';

const check = (s: string | Buffer) => goJsonCheckValid(typeof s === 'string' ? Buffer.from(s) : s);

// Expected texts are encoding/json SyntaxError messages for the same input.
t.test('encoding/json syntax errors', async (t) => {
  t.equal(check('{"a":1}'), undefined);
  t.equal(check('{"a":1,}'), "invalid character '}' looking for beginning of object key string");
  t.equal(check('{a:1}'), "invalid character 'a' looking for beginning of object key string");
  t.equal(check('{"a" 1}'), "invalid character '1' after object key");
  t.equal(check('{"a":1 "b":2}'), "invalid character '\"' after object key:value pair");
  t.equal(check('{"a":[1 2]}'), "invalid character '2' after array element");
  t.equal(check('{"a":1} x'), "invalid character 'x' after top-level value");
  t.equal(check('{"a":"\x01"}'), "invalid character '\\x01' in string literal");
  t.equal(check('{"a":"\\x"}'), "invalid character 'x' in string escape code");
  t.equal(check('{"a":"\\u12g4"}'), "invalid character 'g' in \\u hexadecimal character escape");
  t.equal(check('{"a":tru}'), "invalid character '}' in literal true (expecting 'e')");
  t.equal(check('{"a":nil}'), "invalid character 'i' in literal null (expecting 'u')");
  t.equal(check('{"a":1.}'), "invalid character '}' after decimal point in numeric literal");
  t.equal(check('{"a":1e}'), "invalid character '}' in exponent of numeric literal");
  t.equal(check('{"a":-}'), "invalid character '}' in numeric literal");
  t.equal(check('{"a":\'x\'}'), "invalid character '\\'' looking for beginning of value");
  t.equal(check('{"a"'), 'unexpected end of JSON input');
  t.equal(check(''), 'unexpected end of JSON input');
  t.equal(check('\u00a0{}'), "invalid character 'Â' looking for beginning of value", 'a byte is shown as its Latin-1 rune');
  t.equal(check('{"a":1}\n'), undefined);
});

t.test('encoding/json refuses nesting deeper than 10000', async (t) => {
  t.equal(check(`{"a":${'['.repeat(9999)}${']'.repeat(9999)}}`), undefined);
  t.equal(check(`{"a":${'['.repeat(10000)}${']'.repeat(10000)}}`), "invalid character '[' exceeded max depth");
});

t.test('parseGoJson keeps duplicate keys in order and decodes strings as Go does', async (t) => {
  t.same(parseGoJson(Buffer.from('{"a":1,"a":[true,null],"b":{"c":"\\ud83d\\ude00\\ud800x\\u00e9"}}')), {
    kind: 'object',
    members: [
      { key: 'a', value: { kind: 'number', text: '1' } },
      { key: 'a', value: { kind: 'array', items: [{ kind: 'bool', value: true }, { kind: 'null' }] } },
      { key: 'b', value: { kind: 'object', members: [{ key: 'c', value: { kind: 'string', value: '😀\uFFFDxé' } }] } },
    ],
  });
  t.same(parseGoJson(Buffer.from([0x22, 0x61, 0xff, 0x22])), { kind: 'string', value: 'a\uFFFD' }, 'invalid UTF-8 becomes U+FFFD');
  // Go replaces each invalid byte (utf8.DecodeRune's size 1), where Node's UTF-8 decoder would
  // replace a truncated sequence once: such a string takes the rune loop.
  t.same(parseGoJson(Buffer.from([0x22, 0xc3, 0xa9, 0xe2, 0x82, 0x78, 0x22])), { kind: 'string', value: 'é\uFFFD\uFFFDx' }, 'a truncated sequence: one U+FFFD per byte');
  t.same(parseGoJson(Buffer.from([0x22, 0xed, 0xa0, 0x80, 0x22])), { kind: 'string', value: '\uFFFD\uFFFD\uFFFD' }, 'a UTF-8 surrogate is invalid');
  t.same(parseGoJson(Buffer.from('["a\\"b", "c\\\\", "\u00e9t\u00e9"]')), { kind: 'array', items: [{ kind: 'string', value: 'a"b' }, { kind: 'string', value: 'c\\' }, { kind: 'string', value: 'été' }] }, 'an escaped quote does not end the string');
  const within = Buffer.from('xx{"k":"v"}').subarray(2);
  t.same(parseGoJson(within), { kind: 'object', members: [{ key: 'k', value: { kind: 'string', value: 'v' } }] }, 'a view into a larger buffer');
  const deep = parseGoJson(Buffer.from(`${'['.repeat(9000)}${']'.repeat(9000)}`));
  t.equal(deep.kind, 'array', 'deep nesting does not overflow the stack');
});

t.test('json.Marshal of a string escapes HTML characters', async (t) => {
  t.equal(goJsonMarshalString('<a&b> "x"\n\x01 é\u2028'), '"\\u003ca\\u0026b\\u003e \\"x\\"\\n\\u0001 é\\u2028"');
  t.equal(goJsonMarshalString(Buffer.from([0x61, 0xff])), '"a\\ufffd"');
});

t.test('key folding matches encoding/json (ASCII, Kelvin sign, long s)', async (t) => {
  t.equal(goJsonFoldKey('Kind'), goJsonFoldKey('kind'));
  t.equal(goJsonFoldKey('\u212aind'), 'KIND');
  t.equal(goJsonFoldKey('apiVer\u017fion'), 'APIVERSION');
  t.not(goJsonFoldKey('kïnd'), 'KIND');
});

t.test('the JSON.parse shortcut and the scanner agree where they could differ', async (t) => {
  const cases: [string, Uint8Array][] = [
    ['invalid UTF-8 inside a string', Buffer.from([0x22, 0xff, 0xfe, 0x22])],
    ['invalid UTF-8 outside a string', Buffer.from([0x5b, 0xff, 0x5d])],
    ['10000 levels (Go\'s limit)', Buffer.from('['.repeat(10000) + ']'.repeat(10000))],
    ['10001 levels', Buffer.from('['.repeat(10001) + ']'.repeat(10001))],
    ['a byte-order mark', Buffer.from('\ufeff{}')],
  ];
  for (const [name, bytes] of cases) t.equal(goJsonCheckValid(bytes), scanJsonSyntax(bytes), name);
  t.match(goJsonCheckValid(Buffer.from('['.repeat(10001) + ']'.repeat(10001))), /exceeded max depth/, 'Go refuses what JSON.parse accepts');
  t.equal(goJsonCheckValid(Buffer.from([0x22, 0xff, 0x22])), undefined);
});
