// Writes docs/findings.md from the finding catalog (src/catalog/findings.ts); test/docs/findings.test.ts
// fails when the committed file differs, so `explain` and the docs never drift apart.
import { build } from 'esbuild';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';

const root = fileURLToPath(new URL('..', import.meta.url));
const dir = mkdtempSync(join(tmpdir(), 'node-check-docs-'));
try {
  const outfile = join(dir, 'explain.mjs');
  await build({ entryPoints: [join(root, 'src/render/explain.ts')], outfile, bundle: true, platform: 'node', format: 'esm', logLevel: 'warning' });
  const { renderFindingsMarkdown } = await import(pathToFileURL(outfile).href);
  writeFileSync(join(root, 'docs/findings.md'), renderFindingsMarkdown());
  console.log('wrote docs/findings.md');
} finally {
  rmSync(dir, { recursive: true, force: true });
}
