import t from 'tap';
import fc from 'fast-check';
import { compareGoStrings } from '../../src/go/utf8.js';

/** Go compares strings byte-wise: the order of their UTF-8 encodings. */
const byBytes = (a: string, b: string) => Buffer.compare(Buffer.from(a, 'utf8'), Buffer.from(b, 'utf8'));

t.test('compareGoStrings orders as Go does, by UTF-8 bytes, where UTF-16 order differs too', async (t) => {
  t.equal(compareGoStrings('a', 'b'), -1);
  t.equal(compareGoStrings('b', 'a'), 1);
  t.equal(compareGoStrings('ab', 'ab'), 0);
  t.equal(compareGoStrings('a', 'ab'), -1, 'a prefix first');
  t.equal(compareGoStrings('B', 'a'), -1, 'upper case first');
  t.equal(compareGoStrings('\u{1F600}', '\uFF5E'), 1, 'U+1F600 after U+FF5E, though its UTF-16 (a surrogate) is below');
  t.equal(compareGoStrings('\uFF5E', '\u{1F600}'), -1);
  const units = fc.constantFrom('a', 'b', 'B', '\u00e9', '\u07ff', '\u0800', '\ud7ff', '\ue000', '\uff5e', '\uffff', '\u{10000}', '\u{1F600}', '\ud800', '\udc00', '\ud83d');
  const text = fc.string({ unit: units, maxLength: 4 });
  fc.assert(fc.property(text, text, (a, b) => Math.sign(compareGoStrings(a, b)) === Math.sign(byBytes(a, b))), { numRuns: 3000 });
});
