import t from 'tap';
import { goQuote, goTimeQuote, isGoPrint } from '../../src/go/quote.js';

// Expected values are what Go's strconv.Quote / time's quote() print for the same input.
t.test('strconv.Quote escapes quotes, backslashes and non-printable runes', async (t) => {
  t.equal(goQuote('foo bar'), '"foo bar"');
  t.equal(goQuote('a"b\\c'), '"a\\"b\\\\c"');
  t.equal(goQuote('\n\t\r\x07\x08\x0c\x0b'), '"\\n\\t\\r\\a\\b\\f\\v"');
  t.equal(goQuote('\x01\x7f'), '"\\x01\\x7f"');
  t.equal(goQuote('héllo 😀'), '"héllo 😀"', 'printable non-ASCII stays');
  t.equal(goQuote('\u00a0\u0085\u200b'), '"\\u00a0\\u0085\\u200b"', 'NBSP, NEL and ZWSP are not printable');
  t.equal(goQuote('\u{e0001}'), '"\\U000e0001"', 'a non-printable rune above the BMP');
});

t.test('strconv.Quote writes each invalid UTF-8 byte as \\xNN', async (t) => {
  t.equal(goQuote(Buffer.from([0x61, 0xff, 0xc3, 0x62])), '"a\\xff\\xc3b"');
  t.equal(goQuote(Buffer.from('efbfbd', 'hex')), '"\uFFFD"', 'a real U+FFFD is printable');
});

t.test("time's quote hex-escapes every byte of a non-ASCII or control rune", async (t) => {
  t.equal(goTimeQuote('10x'), '"10x"');
  t.equal(goTimeQuote('1é'), '"1\\xc3\\xa9"');
  t.equal(goTimeQuote('a"b\\\t'), '"a\\"b\\\\\\x09"');
  t.equal(goTimeQuote(Buffer.from([0x31, 0xff])), '"1\\xff"');
});

t.test('isGoPrint: L, M, N, P, S and the ASCII space', async (t) => {
  t.ok(isGoPrint(0x20));
  t.ok(isGoPrint(0x41));
  t.notOk(isGoPrint(0x09));
  t.notOk(isGoPrint(0xa0));
  t.ok(isGoPrint(0x20ac), '€ is a symbol');
});

t.test('isGoPrint: its ASCII shortcut agrees with the Unicode categories for every ASCII rune', async (t) => {
  const categories = /^[\p{L}\p{M}\p{N}\p{P}\p{S}]$/u;
  for (let rune = 0; rune < 0x80; rune++) {
    t.equal(isGoPrint(rune), rune === 0x20 || categories.test(String.fromCharCode(rune)), `U+${rune.toString(16)}`);
  }
});

t.test('isGoPrint: the ranges answered without the Unicode pattern agree with it', async (t) => {
  const pattern = /^[\p{L}\p{M}\p{N}\p{P}\p{S}]$/u;
  const wrong: string[] = [];
  for (const [from, to] of [[0x80, 0x100], [0x2000, 0x2070]] as const) {
    for (let rune = from; rune < to; rune++) {
      if (isGoPrint(rune) !== pattern.test(String.fromCodePoint(rune))) wrong.push(rune.toString(16));
    }
  }
  t.same(wrong, []);
  t.equal(goQuote('plugin.go:…'), '"plugin.go:…"');
});
