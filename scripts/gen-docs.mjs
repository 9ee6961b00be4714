// Writes docs/findings.md from the finding catalog (src/catalog/findings.ts) and
// docs/kubelet-inputs.md from src/catalog/inputs.ts (every kubelet flag and KubeletConfiguration
// field per minor, with what node-check decides about it); test/docs/findings.test.ts and
// test/docs/kubelet-inputs.test.ts fail when a committed file differs, so `explain`, the start
// rules and the docs never drift apart.
import { build } from 'esbuild';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';

const root = fileURLToPath(new URL('..', import.meta.url));
// The start rules the catalog is built from reach CommonJS packages (yaml) that require Node's
// built-ins: an ESM bundle gives them a require.
const NODE_REQUIRE = "import { createRequire } from 'node:module'; const require = createRequire(import.meta.url);";
const dir = mkdtempSync(join(tmpdir(), 'node-check-docs-'));
const DOCS = [
  { entry: 'src/render/explain.ts', render: 'renderFindingsMarkdown', out: 'docs/findings.md' },
  { entry: 'src/render/kubelet-inputs.ts', render: 'renderKubeletInputsMarkdown', out: 'docs/kubelet-inputs.md' },
];
try {
  for (const [i, doc] of DOCS.entries()) {
    const outfile = join(dir, `doc-${i}.mjs`);
    await build({ entryPoints: [join(root, doc.entry)], outfile, bundle: true, platform: 'node', format: 'esm', logLevel: 'warning', banner: { js: NODE_REQUIRE } });
    const module = await import(pathToFileURL(outfile).href);
    writeFileSync(join(root, doc.out), module[doc.render]());
    console.log(`wrote ${doc.out}`);
  }
} finally {
  rmSync(dir, { recursive: true, force: true });
}
