import t from 'tap';
import { readFileSync } from 'node:fs';
import { renderFindingsMarkdown, renderExplanation } from '../../src/render/explain.js';
import { allFindingKinds } from '../../src/catalog/findings.js';

t.test('docs/findings.md is the finding catalog (regenerate with `node scripts/gen-docs.mjs`)', async (t) => {
  t.equal(readFileSync(new URL('../../docs/findings.md', import.meta.url), 'utf8'), renderFindingsMarkdown());
});

t.test('every finding kind has a unique id and a unique 128-bit MESSAGE_ID', async (t) => {
  const kinds = allFindingKinds();
  t.equal(new Set(kinds.map((k) => k.id)).size, kinds.length);
  t.equal(new Set(kinds.map((k) => k.messageId)).size, kinds.length);
  for (const kind of kinds) {
    t.match(kind.messageId, /^[0-9a-f]{32}$/, kind.id);
    t.match(kind.id, /^[a-z0-9]+(-[a-z0-9]+)*$/, kind.id);
    const flat = (text: string) => text.replace(/\s+/g, ' ');
    t.ok(flat(renderExplanation(kind)).includes(flat(kind.meaning)), `explain ${kind.id} carries its meaning`);
  }
});
