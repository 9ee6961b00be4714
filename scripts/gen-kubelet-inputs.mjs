// Writes docs/kubelet-inputs.md from src/kubelet/inputs.ts (every kubelet flag and
// KubeletConfiguration field per minor, with what node-check decides about it);
// test/docs/kubelet-inputs.test.ts fails when the committed file differs.
import { build } from 'esbuild';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';

const root = fileURLToPath(new URL('..', import.meta.url));
const dir = mkdtempSync(join(tmpdir(), 'node-check-inputs-'));
try {
  const outfile = join(dir, 'inputs.mjs');
  await build({ entryPoints: [join(root, 'src/render/kubelet-inputs.ts')], outfile, bundle: true, platform: 'node', format: 'esm', logLevel: 'warning' });
  const { renderKubeletInputsMarkdown } = await import(pathToFileURL(outfile).href);
  writeFileSync(join(root, 'docs/kubelet-inputs.md'), renderKubeletInputsMarkdown());
  console.log('wrote docs/kubelet-inputs.md');
} finally {
  rmSync(dir, { recursive: true, force: true });
}
