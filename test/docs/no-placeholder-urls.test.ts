// No placeholder organisation URLs: node-check has no GitHub organisation or
// quay.io repository of that name, so a link there leads nowhere (or to a stranger). Links in what
// ships point at the installed docs (file:///usr/share/doc/node-check/...) instead.
// Covered: everything committed that ships or builds it, and the tests.
import t from 'tap';
import { readdirSync, readFileSync, statSync } from 'node:fs';
import { join, relative } from 'node:path';
import { fileURLToPath } from 'node:url';

const REPO = fileURLToPath(new URL('../../', import.meta.url));
const SCANNED = ['src', 'systemd', 'docs', 'README.md', 'packaging', 'scripts', 'test', 'examples', '.ci', 'package.json'];
const SKIPPED_DIRS = new Set(['node_modules', 'dist', '.git']);
// Spelled in pieces so that this file does not match itself.
const PLACEHOLDERS = [['github.com', 'node-check'], ['quay.io', 'node-check']].map((parts) => parts.join('/'));

function filesBelow(path: string): string[] {
  if (!statSync(path).isDirectory()) return [path];
  return readdirSync(path, { withFileTypes: true })
    .filter((entry) => entry.isFile() || (entry.isDirectory() && !SKIPPED_DIRS.has(entry.name)))
    .flatMap((entry) => filesBelow(join(path, entry.name)));
}

t.test(`no ${PLACEHOLDERS.join(' or ')} links in ${SCANNED.join(', ')}`, async (t) => {
  const files = SCANNED.flatMap((path) => filesBelow(join(REPO, path)));
  t.ok(files.length > 50, `${files.length} files scanned`);
  const found: string[] = [];
  for (const file of files) {
    const lines = readFileSync(file, 'utf8').split('\n');
    for (const [index, line] of lines.entries()) {
      if (PLACEHOLDERS.some((placeholder) => line.toLowerCase().includes(placeholder))) found.push(`${relative(REPO, file)}:${index + 1}: ${line.trim()}`);
    }
  }
  t.same(found, [], 'placeholder links');
});

t.test('the check finds a placeholder where there is one', async (t) => {
  const dir = t.testdir({ 'a.md': `see https://${PLACEHOLDERS[0]}/node-check/issues\n`, nested: { node_modules: { 'b.md': PLACEHOLDERS[1]! } } });
  const files = filesBelow(dir);
  t.same(files.map((f) => relative(dir, f)), ['a.md'], 'node_modules is skipped');
  t.ok(PLACEHOLDERS.some((p) => readFileSync(files[0]!, 'utf8').includes(p)));
});
