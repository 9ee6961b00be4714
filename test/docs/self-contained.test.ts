/**
 * The shipped and repository docs cite what a reader has: this repository's files and kubelet's
 * tagged source, never the design notes or research pages that live outside it.
 */
import t from 'tap';
import { readdirSync, readFileSync } from 'node:fs';
import { join, relative } from 'node:path';
import { fileURLToPath } from 'node:url';

const REPO = fileURLToPath(new URL('../..', import.meta.url));
const OUTSIDE = /DESIGN §|shared\/research|research\/[a-z0-9-]+\.md|\b(?:code )?index (?:file )?ids? \d|\bissues? #?\d/i;

function markdown(dir: string): string[] {
  return readdirSync(dir, { withFileTypes: true }).flatMap((entry) => {
    const path = join(dir, entry.name);
    if (entry.isDirectory()) return markdown(path);
    return entry.name.endsWith('.md') ? [path] : [];
  });
}

t.test('no doc cites material outside the repository', async (t) => {
  const files = [join(REPO, 'README.md'), ...markdown(join(REPO, 'docs')), ...markdown(join(REPO, 'packaging'))];
  t.ok(files.length > 5);
  for (const file of files) {
    const lines = readFileSync(file, 'utf8').split('\n');
    const cited = lines.map((line, i) => ({ line, i })).filter(({ line }) => OUTSIDE.test(line));
    t.same(cited.map(({ i, line }) => `${relative(REPO, file)}:${i + 1}: ${line.trim()}`), [], relative(REPO, file));
  }
});
