// Writes systemd/node-check.catalog (the journal message catalog) from the finding catalog
// (src/catalog/findings.ts); test/sinks/journal-catalog.test.ts fails when the committed file
// differs, so MESSAGE_IDs, `explain` and `journalctl -x` never drift apart.
import { build } from 'esbuild';
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';

const root = fileURLToPath(new URL('..', import.meta.url));
// The start rules the catalog is built from reach CommonJS packages (yaml) that require Node's
// built-ins: an ESM bundle gives them a require.
const NODE_REQUIRE = "import { createRequire } from 'node:module'; const require = createRequire(import.meta.url);";
const dir = mkdtempSync(join(tmpdir(), 'node-check-catalog-'));
try {
  const outfile = join(dir, 'journal-catalog.mjs');
  await build({ entryPoints: [join(root, 'src/sinks/journal-catalog.ts')], outfile, bundle: true, platform: 'node', format: 'esm', logLevel: 'warning', banner: { js: NODE_REQUIRE } });
  const { renderJournalCatalog } = await import(pathToFileURL(outfile).href);
  mkdirSync(join(root, 'systemd'), { recursive: true });
  writeFileSync(join(root, 'systemd/node-check.catalog'), renderJournalCatalog());
  console.log('wrote systemd/node-check.catalog');
} finally {
  rmSync(dir, { recursive: true, force: true });
}
