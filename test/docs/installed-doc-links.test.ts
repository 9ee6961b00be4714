// The offline links (file:///usr/share/doc/node-check/NAME#anchor) in journal entries, the journal
// catalog and the units lead somewhere: the RPM installs NAME with %doc (which puts it in
// /usr/share/doc/node-check/), and the anchor is a heading of that document.
import t from 'tap';
import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { allFindingKinds } from '../../src/catalog/findings.js';
import { findingDocumentationUrl, INSTALLED_DOC_DIR } from '../../src/sinks/journal-entry.js';
import { SUPPORT_URL } from '../../src/sinks/journal-catalog.js';

const REPO = fileURLToPath(new URL('../../', import.meta.url));
const LINK = new RegExp(`file://${INSTALLED_DOC_DIR}/([^\\s#)"'\`]+)(?:#([\\w-]+))?`, 'g');

/** The documents the spec's %doc line installs, and where each comes from in the repository. */
function rpmDocs(): Map<string, string> {
  const spec = readFileSync(join(REPO, 'packaging/rpm/node-check.spec'), 'utf8');
  const line = spec.split('\n').find((l) => l.startsWith('%doc '));
  const names = line ? line.split(/\s+/).slice(1) : [];
  return new Map(names.map((name) => [name, name === 'README.md' ? join(REPO, name) : join(REPO, 'docs', name)]));
}

/** GitHub-style anchors of a Markdown file's headings. */
function anchors(markdown: string): Set<string> {
  return new Set(
    markdown
      .split('\n')
      .filter((line) => /^#{1,6} /.test(line))
      .map((line) => line.replace(/^#+ /, '').toLowerCase().replace(/[^\w\- ]/g, '').replace(/ /g, '-')),
  );
}

t.test('every installed-doc link in src/ and systemd/ names a %doc file and one of its headings', async (t) => {
  const docs = rpmDocs();
  t.ok(docs.has('findings.md') && docs.has('README.md'), `the RPM installs findings.md and README.md (%doc ${[...docs.keys()].join(' ')})`);
  const sources = [
    ...readdirSync(join(REPO, 'systemd')).filter((n) => !n.endsWith('.d')).map((n) => join(REPO, 'systemd', n)),
    join(REPO, 'src/sinks/journal-entry.ts'),
    join(REPO, 'src/sinks/journal-catalog.ts'),
  ];
  const links = new Set<string>([SUPPORT_URL, ...allFindingKinds().map((k) => findingDocumentationUrl(k.id))]);
  for (const file of sources) for (const match of readFileSync(file, 'utf8').matchAll(LINK)) links.add(match[0]);
  t.ok(links.size > allFindingKinds().length, `${links.size} links`);
  for (const link of links) {
    const [, name, anchor] = new RegExp(LINK.source).exec(link) ?? [];
    const source = name === undefined ? undefined : docs.get(name);
    if (source === undefined) {
      t.fail(`${link}: ${name} is not installed by the RPM's %doc`);
      continue;
    }
    if (anchor !== undefined) t.ok(anchors(readFileSync(source, 'utf8')).has(anchor), `${link}: #${anchor} is a heading of ${name}`);
  }
});

t.test('the anchor check sees a missing heading', async (t) => {
  t.ok(anchors('## `plugin-binary-missing`\n').has('plugin-binary-missing'));
  t.notOk(anchors('plugin-binary-missing\n').has('plugin-binary-missing'));
});
