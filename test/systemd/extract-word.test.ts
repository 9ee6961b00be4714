import t from 'tap';
import { cunescapeOne } from '../../src/systemd/c-unescape.js';
import { extractFirstWord, extractFirstWordAndWarn, splitWords } from '../../src/systemd/extract-word.js';

const cmdline = { unquote: true, cunescape: true } as const;

t.test('cunescapeOne decodes the C escapes systemd knows', async (t) => {
  const one = (s: string) => cunescapeOne(s, 0);
  t.same(one('n'), { value: '\n', length: 1 });
  t.same(one('t'), { value: '\t', length: 1 });
  t.same(one('\\'), { value: '\\', length: 1 });
  t.same(one('"'), { value: '"', length: 1 });
  t.same(one("'"), { value: "'", length: 1 });
  t.same(one('s'), { value: ' ', length: 1 });
  t.same(one('x41'), { value: 'A', length: 3 });
  t.same(one('101'), { value: 'A', length: 3 });
  t.same(one('u00e9'), { value: 'é', length: 5 });
  t.same(one('U0001F600'), { value: '😀', length: 9 });
});

t.test('cunescapeOne refuses NUL, bad digits and unknown letters', async (t) => {
  for (const bad of ['x00', '000', 'u0000', 'x4', 'xZZ', '400', 'UFFFFFFFF', 'q', ';', '$']) {
    t.equal(cunescapeOne(bad, 0), undefined, bad);
  }
});

t.test('words are split at blanks, quotes group and vanish, even inside a word', async (t) => {
  t.same(splitWords('  a  "b c"\td', cmdline), ['a', 'b c', 'd']);
  t.same(splitWords(`--labels="x y",z 'it''s'`, cmdline), ['--labels=x y,z', 'its']);
  t.same(splitWords('"" \'\'', cmdline), ['', '']);
});

t.test('C escapes apply outside and inside either quote kind', async (t) => {
  t.same(splitWords(String.raw`a\tb "c\nd" 'e\x41'`, cmdline), ['a\tb', 'c\nd', 'eA']);
  t.same(splitWords(String.raw`a\sb`, cmdline), ['a b']);
  // "\ " is no C escape: strict extraction fails, the relaxed retry keeps it verbatim.
  t.equal(splitWords(String.raw`a\ b`, cmdline), undefined);
  t.same(splitWords(String.raw`a\ b`, { ...cmdline, cunescapeRelax: true }), ['a\\ b']);
});

t.test('without cunescape a backslash just takes the next character', async (t) => {
  t.same(splitWords(String.raw`a\tb \"c`, { unquote: true }), ['atb', '"c']);
});

t.test('an unbalanced quote is invalid unless relaxed', async (t) => {
  t.same(extractFirstWord('"abc', 0, cmdline), { kind: 'invalid' });
  t.same(extractFirstWord('"abc', 0, { ...cmdline, relax: true }), { kind: 'word', word: 'abc', next: undefined });
  t.same(extractFirstWord('abc\\', 0, cmdline), { kind: 'invalid' });
});

t.test('next points at the following word, undefined at the end', async (t) => {
  t.same(extractFirstWord('ab   cd', 0, cmdline), { kind: 'word', word: 'ab', next: 5 });
  t.same(extractFirstWord('ab   ', 0, cmdline), { kind: 'word', word: 'ab', next: undefined });
  t.same(extractFirstWord('   ', 0, cmdline), { kind: 'end' });
  t.same(extractFirstWord('x', undefined, cmdline), { kind: 'end' });
});

t.test('extractFirstWordAndWarn keeps unknown escapes verbatim with a warning', async (t) => {
  const r = extractFirstWordAndWarn(String.raw`a\;b c`, 0, cmdline, 'rv');
  t.equal(r.kind, 'word');
  if (r.kind === 'word') {
    t.equal(r.word, 'a\\;b');
    t.match(r.warning, /unknown escape/);
  }
  const bad = extractFirstWordAndWarn('"open', 0, cmdline, 'the value');
  t.same(bad, { kind: 'invalid', warning: 'Unbalanced quoting, ignoring: "the value"' });
});
