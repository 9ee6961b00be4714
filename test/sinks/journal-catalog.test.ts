import t from 'tap';
import { readFileSync } from 'node:fs';
import { allFindingKinds } from '../../src/catalog/findings.js';
import { renderJournalCatalog, substitutionsFor, wrap } from '../../src/sinks/journal-catalog.js';
import { findingDocumentationUrl, JOURNAL_FIELD_NAMES } from '../../src/sinks/journal-entry.js';

interface CatalogEntry {
  id: string;
  headers: [string, string][];
  payload: string[];
}

/** Parses a catalog the way systemd's catalog_import_file does (comments anywhere, "-- id" after an empty line). */
function parseCatalog(text: string): CatalogEntry[] {
  const entries: CatalogEntry[] = [];
  let current: CatalogEntry | undefined;
  let emptyLine = true;
  let inHeaders = false;
  for (const line of text.split('\n')) {
    if (line === '') {
      emptyLine = true;
      if (current && inHeaders) inHeaders = false;
      else if (current) current.payload.push('');
      continue;
    }
    if (line.startsWith('#') || line.startsWith(';')) continue;
    const separator = /^-- ([0-9a-f]{32})$/.exec(line);
    if (emptyLine && separator) {
      current = { id: separator[1]!, headers: [], payload: [] };
      entries.push(current);
      inHeaders = true;
      emptyLine = false;
      continue;
    }
    emptyLine = false;
    if (!current) throw new Error(`payload before the first id: ${line}`);
    if (inHeaders) {
      const colon = line.indexOf(': ');
      current.headers.push([line.slice(0, colon), line.slice(colon + 2)]);
    } else {
      current.payload.push(line);
    }
  }
  for (const entry of entries) while (entry.payload.at(-1) === '') entry.payload.pop();
  return entries;
}

const committed = readFileSync(new URL('../../systemd/node-check.catalog', import.meta.url), 'utf8');

t.test('systemd/node-check.catalog is the finding catalog (regenerate with `node scripts/gen-catalog.mjs`)', async (t) => {
  t.equal(committed, renderJournalCatalog());
});

t.test('one catalog entry per MESSAGE_ID, with subject, origin and a link to the finding', async (t) => {
  const entries = parseCatalog(committed);
  const kinds = allFindingKinds();
  t.same(entries.map((e) => e.id), kinds.map((k) => k.messageId));
  for (const [index, entry] of entries.entries()) {
    const kind = kinds[index]!;
    t.same(entry.headers, [
      ['Subject', kind.title],
      ['Defined-By', 'node-check'],
      ['Support', 'file:///usr/share/doc/node-check/README.md'],
      ['Documentation', findingDocumentationUrl(kind.id)],
    ], `${kind.id}: headers`);
    const prose = entry.payload.join(' ').replace(/\s+/g, ' ');
    t.ok(prose.includes(kind.meaning.replace(/\s+/g, ' ')), `${kind.id}: says what happened and why kubelet cares`);
    t.ok(prose.includes(kind.fix.replace(/\s+/g, ' ')), `${kind.id}: says how to fix it`);
  }
});

t.test('the text follows catalog rules: 76 columns, no accidental comments or substitutions', async (t) => {
  const known = new Set<string>(JOURNAL_FIELD_NAMES);
  for (const entry of parseCatalog(committed)) {
    for (const line of entry.payload) {
      const columns = [...line].length;
      t.ok(columns <= 76 || !line.includes(' '), `${entry.id}: ${columns} columns: ${line}`);
      for (const match of line.matchAll(/@([^@\s]*)@/g)) t.ok(known.has(match[1]!), `${entry.id}: @${match[1]}@ is a field node-check writes`);
      t.equal(line.replace(/@[A-Z_]+@/g, '').includes('@'), false, `${entry.id}: no stray "@"`);
    }
  }
  // Every raw line, including comments: nothing the parser would take for a comment inside the prose.
  const lines = committed.split('\n');
  t.equal(lines.filter((l) => /^[#;]/.test(l)).length, 8, 'only the eight header comment lines start with # or ;');
});

t.test('substituted fields are the ones the journal entry for that finding carries', async (t) => {
  t.match(substitutionsFor('plugin-binary-missing').join('\n'), /@NODE_CHECK_PROVIDER@.*@NODE_CHECK_PATH@/);
  t.same(substitutionsFor('unit-problem'), [], 'no substitution where the path is optional');
  t.same(substitutionsFor('cannot-decide'), []);
});

t.test('wrap keeps "#" words off the start of a line and deliberate double spaces', async (t) => {
  // 15 words fill 74 columns; "#!" would start the next line, so it moves there with its word.
  t.same(wrap(`${'word '.repeat(15)}#! interpreter`, 76), [Array(14).fill('word').join(' '), 'word #! interpreter']);
  t.same(wrap('a ;b', 2), ['a ;b']);
  t.same(wrap('executable  did not exist'), ['executable  did not exist']);
  t.same(wrap('a '.repeat(40).trim(), 10).every((l) => l.length <= 10), true);
  t.same(wrap(`see ${'x'.repeat(100)} now`), ['see', 'x'.repeat(100), 'now'], 'a word longer than a line gets its own line');
});
