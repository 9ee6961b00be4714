// Bundles the CLI into one file, the form node-check ships in (DESIGN §6: preflight is on
// kubelet's start path, and an unbundled node_modules tree costs ~100 ms more per start).
import { build } from 'esbuild';
import { chmodSync, readFileSync } from 'node:fs';

const { version } = JSON.parse(readFileSync(new URL('../package.json', import.meta.url), 'utf8'));
const outfile = new URL('../dist/node-check.mjs', import.meta.url).pathname;

await build({
  entryPoints: [new URL('../src/cli/main.ts', import.meta.url).pathname],
  outfile,
  bundle: true,
  platform: 'node',
  format: 'esm',
  target: 'node20',
  minify: true,
  legalComments: 'none',
  define: { NODE_CHECK_VERSION: JSON.stringify(version) },
  // execa's cross-spawn uses require(); ESM bundles need a real one.
  banner: {
    js: "#!/usr/bin/env node\nimport{createRequire as __ncRequire}from'node:module';const require=__ncRequire(import.meta.url);",
  },
  logLevel: 'warning',
});
chmodSync(outfile, 0o755);
