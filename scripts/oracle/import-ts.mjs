// Imports one of this repository's TypeScript modules from a plain `node` script (the oracle's
// scripts run outside tap): esbuild bundles it, with what it imports from src/, into a temporary
// ES module.
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { build } from 'esbuild';

export async function importTs(entry) {
  const dir = mkdtempSync(join(tmpdir(), 'node-check-oracle-'));
  try {
    const outfile = join(dir, 'module.mjs');
    await build({ entryPoints: [entry], bundle: true, platform: 'node', format: 'esm', target: 'node20', outfile, logLevel: 'error', banner: { js: "import { createRequire as __createRequire } from 'node:module'; const require = __createRequire(import.meta.url);" } });
    return await import(pathToFileURL(outfile).href);
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}
