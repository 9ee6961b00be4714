// `npm run bench`: node-check's cost on kubelet's start path, as ratios to `node -e 0` measured in
// the same run (the machines are noisy; absolute times mean little). Every figure is the median
// (and min, max) of alternating pairs: `node -e 0`, then the command, so drift hits both alike.
// Peak RSS comes from GNU time (`/usr/bin/time -f %M`) when it is installed. Scaling figures are
// ratios to the same node with one provider / one drop-in, on roots generated into a temp dir.
import { spawnSync } from 'node:child_process';
import { cpSync, existsSync, mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';

const here = (p) => fileURLToPath(new URL(p, import.meta.url));
const bin = here('../dist/node-check.cjs');
if (!existsSync(bin)) spawnSync(process.execPath, [here('./build.mjs')], { stdio: 'inherit' });
const demo = here('../examples/ocp-4.16-azure-rhel8-worker');
const pairs = Number(process.env.BENCH_PAIRS ?? 15);
const gnuTime = existsSync('/usr/bin/time') ? '/usr/bin/time' : undefined;
const work = mkdtempSync(join(tmpdir(), 'node-check-bench-'));
const textfileDir = join(work, 'textfile');
mkdirSync(textfileDir);

/** One run: wall ms and peak RSS KiB (undefined without GNU time). */
function run(args) {
  const argv = gnuTime ? ['-f', '%M', process.execPath, ...args] : args;
  const start = process.hrtime.bigint();
  const result = spawnSync(gnuTime ?? process.execPath, argv, { encoding: 'utf8' });
  const ms = Number(process.hrtime.bigint() - start) / 1e6;
  const rss = gnuTime ? Number(result.stderr.trim().split('\n').pop()) : undefined;
  return { ms, rss };
}

/** Alternating pairs of `baseline` and `args`: the ratios of each pair. */
function ratios(args, baseline = ['-e', '0']) {
  run(args); // warm the code cache and the page cache
  const wall = [];
  const rss = [];
  for (let i = 0; i < pairs; i++) {
    const a = run(baseline);
    const b = run(args);
    wall.push(b.ms / a.ms);
    if (a.rss && b.rss) rss.push(b.rss / a.rss);
  }
  return { wall, rss };
}

const stats = (xs) => {
  const s = [...xs].sort((a, b) => a - b);
  return s.length ? `×${s[Math.floor(s.length / 2)].toFixed(2)} (${s[0].toFixed(2)}–${s[s.length - 1].toFixed(2)})` : 'n/a';
};

/** The demo node with N providers (plugins present) and N kubelet drop-ins of the ExecStart. */
function generatedRoot(name, { providers = 1, dropIns = 0, bigConfigBytes = 0 }) {
  const root = join(work, name);
  cpSync(demo, root, { recursive: true });
  const binDir = join(root, 'usr/libexec/kubelet-image-credential-provider-plugins');
  mkdirSync(binDir, { recursive: true });
  const entries = [];
  for (let i = 0; i < providers; i++) {
    const provider = i === 0 ? 'acr-credential-provider' : `p${i}`;
    writeFileSync(join(binDir, provider), '#!/bin/sh\n', { mode: 0o755 });
    entries.push(`  - name: ${provider}\n    apiVersion: credentialprovider.kubelet.k8s.io/v1\n    defaultCacheDuration: "10m"\n    matchImages: ["*.azurecr.io"]\n`);
  }
  const padding = bigConfigBytes > 0 ? `# ${'x'.repeat(bigConfigBytes)}\n` : '';
  writeFileSync(join(root, 'etc/kubernetes/credential-providers/acr-credential-provider.yaml'),
    `${padding}apiVersion: kubelet.config.k8s.io/v1\nkind: CredentialProviderConfig\nproviders:\n${entries.join('')}`);
  for (let i = 0; i < dropIns; i++) {
    writeFileSync(join(root, `etc/systemd/system/kubelet.service.d/50-bench-${String(i).padStart(4, '0')}.conf`), `[Service]\nEnvironment="BENCH_${i}=${'v'.repeat(64)}"\n`);
  }
  return root;
}

const preflight = (root) => [bin, 'preflight', '--root', root, '--kubelet-version', '1.29.5', '--textfile-dir', textfileDir, '--no-journal'];

try {
  console.log(`node-check ${pairs} alternating pairs each; median (min–max) ratio${gnuTime ? '; peak RSS from GNU time' : '; no GNU time: no RSS figures'}\n`);
  const rows = [
    ['--version', [bin, '--version']],
    ['preflight (demo, 1.29.5, textfile, no journal)', preflight(demo)],
    ['check (demo, every modelled version)', [bin, 'check', '--root', demo, '--output', 'json']],
  ];
  for (const [name, args] of rows) {
    const r = ratios(args);
    console.log(`${name.padEnd(50)} wall ${stats(r.wall)}   RSS ${stats(r.rss)}`);
  }

  console.log('\nscaling, as ratios to the same node with one provider / no extra drop-in:');
  const one = preflight(generatedRoot('one', {}));
  const scaling = [
    ['1,000 providers', generatedRoot('providers', { providers: 1000 })],
    ['200 drop-ins', generatedRoot('dropins', { dropIns: 200 })],
    ['5 MB provider config', generatedRoot('big', { bigConfigBytes: 5 * 1024 * 1024 })],
  ];
  for (const [name, root] of scaling) {
    const r = ratios(preflight(root), one);
    console.log(`${name.padEnd(50)} wall ${stats(r.wall)}`);
  }
} finally {
  rmSync(work, { recursive: true, force: true });
}
