/**
 * Provenance a successor can follow: the code, scripts and tests cite this repository's own files
 * and upstream sources at a tag (kubelet's at the tags of scripts/generate/kubernetes-source.lock.json,
 * read from the Go module cache), never material that lives outside the repository: design or
 * research notes, a search index's ids, a tracker's issue numbers, briefs. Upstream issues and
 * pull requests are cited as owner/repo#N or "PR #N". test/docs/self-contained.test.ts does the
 * same for the docs.
 */
import t from 'tap';
import { lstatSync, readdirSync, readFileSync } from 'node:fs';
import { join, relative } from 'node:path';
import { fileURLToPath } from 'node:url';

const REPO = fileURLToPath(new URL('../..', import.meta.url));
const ROOTS = ['src', 'scripts', 'test'];
/** Files that must spell the patterns to look for them. */
const EXEMPT = new Set(['test/meta/provenance.test.ts', 'test/docs/self-contained.test.ts']);

const RULES: readonly (readonly [RegExp, string])[] = [
  [/DESIGN(?:\.md| §)/, 'the design notes are outside the repository: cite docs/ or README'],
  [/\b(?:code )?index (?:file )?ids? \d|\bids? \d{6,}/i, 'a search index id: cite the upstream path at a tag'],
  [/shared\/research|\bresearch (?:§|[a-z0-9-]+\.md)|\bresearch\/[a-z0-9-]+\.md/i, 'research notes are outside the repository: cite the upstream source at a tag'],
  [/\bissues? #?\d/i, "a tracker's issue number: say why, or cite the test that pins it (upstream: owner/repo#N)"],
  [/COMMON\.md|\bthe brief\b/i, 'a brief is outside the repository: say the rule itself'],
];

function files(dir: string): string[] {
  return readdirSync(dir, { withFileTypes: true }).flatMap((entry) => {
    const path = join(dir, entry.name);
    if (entry.isDirectory()) return entry.name === 'node_modules' ? [] : files(path);
    return entry.isFile() ? [path] : [];
  });
}

t.test('src/, scripts/ and test/ cite nothing outside the repository', async (t) => {
  const all = ROOTS.flatMap((root) => files(join(REPO, root)));
  t.ok(all.length > 100, 'the tree was walked');
  const found: string[] = [];
  for (const file of all) {
    const name = relative(REPO, file);
    if (EXEMPT.has(name) || lstatSync(file).size > 4 << 20) continue;
    const data = readFileSync(file);
    if (data.includes(0)) continue; // binary
    data
      .toString('utf8')
      .split('\n')
      .forEach((line, i) => {
        for (const [pattern, why] of RULES) if (pattern.test(line)) found.push(`${name}:${i + 1}: ${why}: ${line.trim().slice(0, 160)}`);
      });
  }
  t.same(found, [], 'no citation of material outside the repository');
});

t.test('the rules catch what they name', async (t) => {
  const caught = (line: string) => RULES.some(([pattern]) => pattern.test(line));
  for (const line of ['(DESIGN §4.3)', 'index ids 46468843', 'code index id 9350235', 'copies in the code index (ids 16677878, 421944960', 'shared/research/openshift.md §1.2', 'research §3.1', 'per research openshift.md §1.6', '(issue 12)', 'issue #11654', 'Issue 10, item 3:', 'brief: COMMON.md'])
    t.ok(caught(line), line);
  for (const line of ['kubernetes/kubernetes PR #119390', 'systemd/systemd#11654', 'cmd/kubelet/app/server.go run() at v1.30.14', 'an issuer of 12 certificates', 'briefly'])
    t.notOk(caught(line), line);
});
