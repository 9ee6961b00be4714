// Writes dist/completion/node-check.bash and dist/completion/_node-check from the built CLI itself
// (`node-check completion bash|zsh`), so the packaged scripts are the ones the command prints.
// Run by scripts/build.mjs after the bundle is written.
import { execFileSync } from 'node:child_process';
import { mkdirSync, writeFileSync } from 'node:fs';

const dist = new URL('../dist/', import.meta.url);
const cli = new URL('node-check.cjs', dist).pathname;
mkdirSync(new URL('completion/', dist), { recursive: true });
for (const [shell, file] of [['bash', 'node-check.bash'], ['zsh', '_node-check']]) {
  writeFileSync(new URL(`completion/${file}`, dist), execFileSync(process.execPath, [cli, 'completion', shell], { encoding: 'utf8' }));
}
