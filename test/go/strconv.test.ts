// Go's strconv (src/strconv/atoi.go, atob.go) as pflag's and component-base's values call it: results
// and the exact *NumError texts.
import t from 'tap';
import { goAtoi, goParseBool, goParseInt, goParseUint, goTrimSpace } from '../../src/go/strconv.js';

const ok = (v: bigint) => ({ ok: true, value: v });
const syntax = (fn: string, s: string) => ({ ok: false, error: `strconv.${fn}: parsing ${JSON.stringify(s)}: invalid syntax`, range: false });
const range = (fn: string, s: string) => ({ ok: false, error: `strconv.${fn}: parsing ${JSON.stringify(s)}: value out of range`, range: true });

t.test('ParseInt base 0: prefixes, sign, octal by leading zero', async (t) => {
  t.same(goParseInt('110', 0, 32), ok(110n));
  t.same(goParseInt('+5', 0, 64), ok(5n));
  t.same(goParseInt('-5', 0, 64), ok(-5n));
  t.same(goParseInt('0x1F', 0, 64), ok(31n));
  t.same(goParseInt('0X1f', 0, 64), ok(31n));
  t.same(goParseInt('0b101', 0, 64), ok(5n));
  t.same(goParseInt('0o17', 0, 64), ok(15n));
  t.same(goParseInt('017', 0, 64), ok(15n), 'a leading 0 is octal');
  t.same(goParseInt('0', 0, 64), ok(0n));
  t.same(goParseInt('08', 0, 64), syntax('ParseInt', '08'), '8 is not an octal digit');
  t.same(goParseInt('0x', 0, 64), syntax('ParseInt', '0x'));
  t.same(goParseInt('abc', 0, 32), syntax('ParseInt', 'abc'));
  t.same(goParseInt('', 0, 64), syntax('ParseInt', ''));
  t.same(goParseInt('1.5', 0, 64), syntax('ParseInt', '1.5'));
  t.same(goParseInt(' 1', 0, 64), syntax('ParseInt', ' 1'), 'no trimming');
});

t.test('ParseInt underscores: only with base 0, only between digits (underscoreOK)', async (t) => {
  const accepted: [string, bigint, string?][] = [['1_000', 1000n], ['-1_000', -1000n], ['0x_1F', 31n, 'an underscore may follow the base prefix'], ['0b1_0', 2n]];
  for (const [s, value, why] of accepted) t.same(goParseInt(s, 0, 64), ok(value), why ?? s);
  for (const s of ['1__0', '_10', '10_']) t.same(goParseInt(s, 0, 64), syntax('ParseInt', s), s);
  t.same(goParseInt('1_000', 10, 64), syntax('ParseInt', '1_000'), 'base 10 given: no underscores');
});

t.test('Atoi: ParseInt(s, 10, 0) on 64 bits, its errors naming Atoi', async (t) => {
  t.same(goAtoi('+7'), { ok: true, value: 7 });
  t.same(goAtoi('-12'), { ok: true, value: -12 });
  t.same(goAtoi('0x10'), { ok: false, error: 'strconv.Atoi: parsing "0x10": invalid syntax' }, 'base 10 only');
  t.same(goAtoi('1_0'), { ok: false, error: 'strconv.Atoi: parsing "1_0": invalid syntax' });
  t.same(goAtoi(''), { ok: false, error: 'strconv.Atoi: parsing "": invalid syntax' });
  t.same(goAtoi('99999999999999999999'), { ok: false, error: 'strconv.Atoi: parsing "99999999999999999999": value out of range' });
});

t.test('ParseInt ranges per bit size, reported with the original text', async (t) => {
  t.same(goParseInt('2147483647', 0, 32), ok(2147483647n));
  t.same(goParseInt('2147483648', 0, 32), range('ParseInt', '2147483648'));
  t.same(goParseInt('-2147483648', 0, 32), ok(-2147483648n));
  t.same(goParseInt('-2147483649', 0, 32), range('ParseInt', '-2147483649'));
  t.same(goParseInt('9223372036854775807', 0, 64), ok(9223372036854775807n));
  t.same(goParseInt('9223372036854775808', 0, 64), range('ParseInt', '9223372036854775808'));
  t.same(goParseInt('99999999999999999999999', 0, 64), range('ParseInt', '99999999999999999999999'));
});

t.test('ParseUint: no sign, ranges, and its own function name', async (t) => {
  t.same(goParseUint('18446744073709551615', 0, 64), ok(18446744073709551615n));
  t.same(goParseUint('18446744073709551616', 0, 64), range('ParseUint', '18446744073709551616'));
  t.same(goParseUint('-1', 0, 64), syntax('ParseUint', '-1'));
  t.same(goParseUint('+1', 10, 31), syntax('ParseUint', '+1'));
  t.same(goParseUint('2147483648', 10, 31), range('ParseUint', '2147483648'), 'verbosity is 31 bits');
  t.same(goParseUint('2147483647', 10, 31), ok(2147483647n));
  t.same(goParseUint('', 10, 31), syntax('ParseUint', ''));
  t.same(goParseUint('0x10', 10, 31), syntax('ParseUint', '0x10'), 'base 10 given: no prefix');
});

t.test('ParseBool: exactly Go\'s twelve spellings', async (t) => {
  for (const s of ['1', 't', 'T', 'TRUE', 'true', 'True']) t.same(goParseBool(s), { ok: true, value: true }, s);
  for (const s of ['0', 'f', 'F', 'FALSE', 'false', 'False']) t.same(goParseBool(s), { ok: true, value: false }, s);
  for (const s of ['yes', 'tRUE', 'on', '', ' true']) t.same(goParseBool(s), { ok: false, error: `strconv.ParseBool: parsing ${JSON.stringify(s)}: invalid syntax` }, JSON.stringify(s));
});

t.test('strings.TrimSpace: Unicode white space at both ends only', async (t) => {
  t.equal(goTrimSpace(' \t\n\v\f\r x y \u0085\u00a0\u2000\u3000'), 'x y');
  t.equal(goTrimSpace('\u200bx'), '\u200bx', 'a zero-width space is not white space');
  t.equal(goTrimSpace('   '), '');
});
