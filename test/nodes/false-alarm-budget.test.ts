/**
 * The false-alarm budget: every healthy node root generated from a distribution's own files
 * (test/fixtures/generated/<distribution>/<name>/, see test/fixtures/README.md) is checked at the
 * kubelet minor it runs with, with the flavour node-check decides from the node's evidence, and
 * must answer kubeletWillStart true. A failure names the root and every error finding. The
 * README's "False-alarm budget" line states the count and the minors; this test keeps it true.
 */
import * as fs from 'node:fs';
import * as path from 'node:path';
import { fileURLToPath } from 'node:url';
import t from 'tap';
import { checkNode } from '../../src/check-node.js';

const here = path.dirname(fileURLToPath(import.meta.url));
const generated = path.resolve(here, '../fixtures/generated');
const readme = fs.readFileSync(path.resolve(here, '../../README.md'), 'utf8');

interface GeneratedCase {
  readonly unit: string;
  /** `nodeCheck`: node-check's documented answer where it cannot match kubelet (test/fixtures/README.md). */
  readonly expect: Readonly<Record<string, { readonly kubeletWillStart: boolean; readonly findingId?: string; readonly nodeCheck?: { readonly kubeletWillStart: null; readonly why: string } }>>;
}

const roots = fs
  .readdirSync(generated, { withFileTypes: true })
  .filter((d) => d.isDirectory())
  .flatMap((d) => fs.readdirSync(path.join(generated, d.name)).map((name) => path.join(generated, d.name, name)))
  .filter((dir) => fs.existsSync(path.join(dir, 'case.json')))
  .sort();

const healthy: { dir: string; minor: string; unit: string }[] = [];
const broken: { dir: string; minor: string; unit: string; findingId: string }[] = [];
const documented: { dir: string; minor: string; unit: string; why: string }[] = [];
for (const dir of roots) {
  const spec = JSON.parse(fs.readFileSync(path.join(dir, 'case.json'), 'utf8')) as GeneratedCase;
  for (const [minor, want] of Object.entries(spec.expect)) {
    if (want.kubeletWillStart && want.nodeCheck) documented.push({ dir, minor, unit: spec.unit, why: want.nodeCheck.why });
    else if (want.kubeletWillStart) healthy.push({ dir, minor, unit: spec.unit });
    else broken.push({ dir, minor, unit: spec.unit, findingId: want.findingId ?? '' });
  }
}

t.ok(healthy.length > 0, 'generated healthy roots exist');

const name = (dir: string) => path.relative(generated, dir);

for (const { dir, minor, unit } of healthy) {
  t.test(`${name(dir)} @${minor} starts`, async (t) => {
    const report = await checkNode({ root: path.join(dir, 'root'), unit, kubeletVersion: `${minor}.0` });
    const errors = report.findings.filter((f) => f.severity === 'error' || (report.kubeletWillStart === null && f.severity === 'warning'));
    t.equal(report.kubeletWillStart, true, `${name(dir)} @${minor}: ${errors.map((f) => `${f.id}: ${f.message}`).join(' | ') || 'no finding'}`);
  });
}

// Where node-check documents that it cannot match kubelet: "cannot tell", never kubelet's opposite.
for (const { dir, minor, unit, why } of documented) {
  t.test(`${name(dir)} @${minor} starts; node-check cannot tell (${why})`, async (t) => {
    const report = await checkNode({ root: path.join(dir, 'root'), unit, kubeletVersion: `${minor}.0` });
    t.equal(report.kubeletWillStart, null, `${name(dir)} @${minor}: the documented answer`);
  });
}

for (const { dir, minor, unit, findingId } of broken) {
  t.test(`${name(dir)} @${minor} is refused for its broken part`, async (t) => {
    const report = await checkNode({ root: path.join(dir, 'root'), unit, kubeletVersion: `${minor}.0` });
    t.equal(report.kubeletWillStart, false, `${name(dir)} @${minor}: kubeletWillStart`);
    t.equal(report.findings.find((f) => f.severity === 'error')?.id, findingId, `${name(dir)} @${minor}: first error finding`);
  });
}

t.test('the README states the budget', async (t) => {
  const minors = [...new Set(healthy.map((h) => h.minor))].sort((a, b) => Number(a.split('.')[1]) - Number(b.split('.')[1]));
  const line = `False-alarm budget: ${healthy.length} generated healthy setups, kubelet ${minors[0]}–${minors[minors.length - 1]} (${minors.length} minors)`;
  t.ok(readme.includes(line), `README.md says "${line}"`);
});
