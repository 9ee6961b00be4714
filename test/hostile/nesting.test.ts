/** Deep nesting is refused before the `yaml` package sees it. */
import t from 'tap';
import { parse } from 'yaml';
import { MAX_PARSE_NESTING, nestingProblem, yamlNestingBound } from '../../src/limits/nesting.js';

const deep = (n: number) => ({
  flowSeq: 'providers: ' + '['.repeat(n) + ']'.repeat(n) + '\n',
  flowMap: 'providers: ' + '{a: '.repeat(n) + '1' + '}'.repeat(n) + '\n',
  unclosed: 'providers: ' + '['.repeat(n) + '\n',
  compactSeq: 'providers:\n' + '- '.repeat(n) + 'x\n',
  explicitKeys: '? '.repeat(n) + 'x\n',
  indentedMaps: Array.from({ length: n }, (_, i) => ' '.repeat(i) + 'a:').join('\n') + ' x\n',
  mapThenSeq: Array.from({ length: n }, (_, i) => ' '.repeat(i) + (i % 2 ? '- ' : 'a:')).join('\n') + ' x\n',
  quotedThenFlow: 'a: "]]]]" ' + "'x'" + ' # ]]]\nb: ' + '[ "]", '.repeat(n) + ']'.repeat(n) + '\n',
});

t.test('the bound is at least the real nesting', async (t) => {
  for (const [shape, text] of Object.entries(deep(50))) t.ok(yamlNestingBound(text) >= 50, shape);
});

t.test('ordinary configs are far below the limit', async (t) => {
  const config = 'apiVersion: kubelet.config.k8s.io/v1\nkind: CredentialProviderConfig\nproviders:\n  - name: acr\n    matchImages: ["*.azurecr.io"]\n    args: [--a, {b: [c]}]\n    env:\n      - name: X\n        value: "[[["\n';
  t.ok(yamlNestingBound(config) < 20, String(yamlNestingBound(config)));
  t.equal(nestingProblem(config), undefined);
});

t.test('every deep shape is refused, and parsing what passes does not crash', async (t) => {
  for (const n of [MAX_PARSE_NESTING + 1, 1000, 5000]) {
    for (const [shape, text] of Object.entries(deep(n))) t.ok(nestingProblem(text), `${shape} ${n}`);
  }
  // The largest that passes, in each shape, parses (the `yaml` package reports or succeeds).
  for (const [shape] of Object.entries(deep(1))) {
    let lo = 1;
    let hi = MAX_PARSE_NESTING * 2;
    while (lo < hi) {
      const mid = (lo + hi + 1) >> 1;
      if (nestingProblem((deep(mid) as Record<string, string>)[shape]!) === undefined) lo = mid;
      else hi = mid - 1;
    }
    t.doesNotThrow(() => {
      try {
        parse((deep(lo) as Record<string, string>)[shape]!, { uniqueKeys: false });
      } catch (error) {
        if ((error as { code?: string }).code === 'RESOURCE_EXHAUSTION') throw error;
      }
    }, `${shape} at ${lo}`);
  }
});
