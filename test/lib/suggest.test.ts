import t from 'tap';
import fc from 'fast-check';
import { closeMatches, didYouMean, editDistance } from '../../src/lib/suggest.js';

/** The textbook recurrence, unbounded: what the bounded version must agree with. */
function reference(a: string, b: string): number {
  const d = Array.from({ length: a.length + 1 }, (_, i) => Array.from({ length: b.length + 1 }, (_, j) => (i === 0 ? j : j === 0 ? i : 0)));
  for (let i = 1; i <= a.length; i++) for (let j = 1; j <= b.length; j++) d[i]![j] = Math.min(d[i - 1]![j]! + 1, d[i]![j - 1]! + 1, d[i - 1]![j - 1]! + (a[i - 1] === b[j - 1] ? 0 : 1));
  return d[a.length]![b.length]!;
}

const word = fc.string({ unit: fc.constantFrom('a', 'b', 'c', '-'), maxLength: 12 });

t.test('a bounded distance is the true distance, or bound + 1 past it', async (t) => {
  fc.assert(fc.property(word, word, fc.nat(6), (a, b, bound) => {
    const exact = reference(a, b);
    t.equal(editDistance(a, b), exact);
    t.equal(editDistance(a, b, bound), Math.min(exact, bound + 1));
  }), { numRuns: 2000 });
});

t.test('close matches are ranked by their true distance, containment included', async (t) => {
  const flags = ['node-labels', 'node-ip', 'node-status-max-images', 'max-pods', 'pod-max-pids', 'register-with-taints'];
  t.same(closeMatches('node-lables', flags), ['node-labels']);
  t.same(closeMatches('max-pod', flags), ['max-pods']);
  // "node" is contained in three names, which are ranked by distance, not dropped for exceeding the bound.
  t.same(closeMatches('node', flags), ['node-ip', 'node-labels', 'node-status-max-images']);
  t.equal(didYouMean('zzzzzzzz', flags), '');
  t.equal(didYouMean('max-pod', flags), ' Did you mean max-pods?');
});

t.test('the letter-count shortcut never drops a match the full comparison keeps', async (t) => {
  const bruteForce = (w: string, candidates: string[]) => {
    const bound = Math.max(2, Math.floor(w.length / 3));
    return candidates
      .map((candidate) => ({ candidate, distance: reference(w, candidate) }))
      .filter(({ candidate, distance }) => distance <= bound || (w.length >= 4 && (candidate.includes(w) || w.includes(candidate))))
      .sort((x, y) => x.distance - y.distance || x.candidate.localeCompare(y.candidate))
      .slice(0, 3)
      .map(({ candidate }) => candidate);
  };
  fc.assert(fc.property(word, fc.array(word, { maxLength: 12 }), (w, candidates) => {
    t.same(closeMatches(w, candidates), bruteForce(w, candidates));
  }), { numRuns: 2000 });
  // Words with a letter past ASCII take the counting map instead of the ASCII array.
  const wide = fc.string({ unit: fc.constantFrom('a', 'b', '-', '\u00e9'), maxLength: 12 });
  fc.assert(fc.property(wide, fc.array(wide, { maxLength: 12 }), (w, candidates) => {
    t.same(closeMatches(w, candidates), bruteForce(w, candidates));
  }), { numRuns: 2000 });
});
