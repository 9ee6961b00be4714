// `npm run bench`: start-up cost of the shipped bundle, as a ratio to `node -e 0` measured in the
// same run (the machines are noisy; absolute times mean little). Interleaves the commands so that
// drift hits all of them alike, and reports medians.
import { spawnSync } from 'node:child_process';
import { existsSync } from 'node:fs';
import { fileURLToPath } from 'node:url';

const here = (p) => fileURLToPath(new URL(p, import.meta.url));
const bundle = here('../dist/node-check.cjs');
if (!existsSync(bundle)) spawnSync(process.execPath, [here('./build.mjs')], { stdio: 'inherit' });
const demo = here('../examples/ocp-4.16-azure-rhel8-worker');
const runs = Number(process.env.BENCH_RUNS ?? 30);

const commands = {
  'node -e 0': ['-e', '0'],
  'node-check --version': [bundle, '--version'],
  'check (demo, text)': [bundle, 'check', '--root', demo, '--kubelet-version', '1.28.7'],
  'check (demo, json, all versions)': [bundle, 'check', '--root', demo, '--output', 'json'],
  'preflight (demo, no sinks)': [bundle, 'preflight', '--root', demo, '--kubelet-version', '1.28.7', '--no-journal', '--no-metrics'],
};

const samples = Object.fromEntries(Object.keys(commands).map((name) => [name, []]));
for (let i = 0; i < runs; i++) {
  for (const [name, args] of Object.entries(commands)) {
    const start = process.hrtime.bigint();
    spawnSync(process.execPath, args, { stdio: 'ignore' });
    samples[name].push(Number(process.hrtime.bigint() - start) / 1e6);
  }
}
const median = (xs) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)];
const baseline = median(samples['node -e 0']);
console.log(`${runs} runs each, interleaved; median wall time and ratio to \`node -e 0\`\n`);
for (const [name, xs] of Object.entries(samples)) {
  const m = median(xs);
  console.log(`${name.padEnd(36)} ${m.toFixed(1).padStart(7)} ms   ×${(m / baseline).toFixed(2)}`);
}
