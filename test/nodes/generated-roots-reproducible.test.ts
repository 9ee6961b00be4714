/**
 * The generated OpenShift roots are what scripts/fixtures/openshift-node-roots.mjs renders from the
 * MCO commits in its lock. Without the MCO git dir (CI has none): every committed root names a
 * locked commit and its files match provenance.json byte for byte (sha256), no file more or less.
 * With it (MCO_GIT_DIR, or the mirror's usual place): every root is rendered again and compared.
 */
import { createHash } from 'node:crypto';
import * as fs from 'node:fs';
import * as path from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import t from 'tap';

const here = path.dirname(fileURLToPath(import.meta.url));
const repo = path.resolve(here, '../..');
const outDir = path.join(repo, 'test/fixtures/generated/openshift');
const lock = JSON.parse(fs.readFileSync(path.join(repo, 'scripts/fixtures/openshift-node-roots.lock.json'), 'utf8')) as { branches: Record<string, string> };
const sha = (buf: Buffer | string) => createHash('sha256').update(buf).digest('hex');

function filesUnder(dir: string, prefix = ''): string[] {
  return fs.readdirSync(dir, { withFileTypes: true }).flatMap((e) => (e.isDirectory() ? filesUnder(path.join(dir, e.name), `${prefix}/${e.name}`) : [`${prefix}/${e.name}`]));
}

const names = fs.readdirSync(outDir).sort();

t.test('committed roots match their provenance and the lock', async (t) => {
  for (const name of names) {
    const prov = JSON.parse(fs.readFileSync(path.join(outDir, name, 'provenance.json'), 'utf8')) as { branch: string; commit: string; files: Record<string, string>; templates: { commit: string }[] };
    t.equal(prov.commit, lock.branches[prov.branch], `${name}: rendered from the locked ${prov.branch} commit`);
    t.ok(prov.templates.every((tpl) => tpl.commit === prov.commit), `${name}: every template from that commit`);
    const root = path.join(outDir, name, 'root');
    const actual = Object.fromEntries(filesUnder(root).map((p) => [p, sha(fs.readFileSync(path.join(root, p)))]));
    t.same(actual, prov.files, `${name}: files as provenance.json lists them`);
  }
});

const mco = process.env.MCO_GIT_DIR ?? '/work/.mirror/openshift+machine-config-operator/repo';
t.test('rendering again gives the committed roots', { skip: fs.existsSync(mco) ? false : `no MCO git dir at ${mco} (set MCO_GIT_DIR)` }, async (t) => {
  const generator = (await import(pathToFileURL(path.join(repo, 'scripts/fixtures/openshift-node-roots.mjs')).href)) as {
    renderAll(gitDir: string): { roots: { name: string; tree: Map<string, { contents: string }>; caseJson: unknown; provenance: unknown }[]; lock: unknown };
  };
  const { roots, lock: fresh } = generator.renderAll(mco);
  t.same(fresh, lock, 'the lock names the commits rendered');
  t.same(roots.map((r) => r.name).sort(), names, 'the same roots');
  for (const r of roots) {
    const dir = path.join(outDir, r.name);
    t.same(JSON.parse(fs.readFileSync(path.join(dir, 'case.json'), 'utf8')), r.caseJson, `${r.name}: case.json`);
    t.same(JSON.parse(fs.readFileSync(path.join(dir, 'provenance.json'), 'utf8')), r.provenance, `${r.name}: provenance.json`);
    for (const [p, f] of r.tree) t.equal(fs.readFileSync(path.join(dir, 'root', p), 'utf8'), f.contents, `${r.name}: ${p}`);
  }
});
