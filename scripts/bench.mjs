// `npm run bench`: node-check's cost on kubelet's start path, as ratios to `node -e 0` measured in
// the same run (the machines are noisy; absolute times mean little). Every figure is the median
// (and min, max) of alternating pairs: `node -e 0`, then the command, so drift hits both alike.
// Peak RSS comes from GNU time (`/usr/bin/time -f %M`) when it is installed. Scaling figures are
// ratios to the same node with one provider / one drop-in, on roots generated into a temp dir.
// The serve soak re-checks as fast as it can (NODE_CHECK_SOAK_INTERVAL_MS) and samples VmRSS and
// CPU time from /proc after 100 and after BENCH_SOAK (10,000) checks; node_exporter (Debian's
// prometheus-node-exporter, when installed) is sampled the same way after as many scrapes.
// BENCH_ONLY=soak (or =start) runs one part.
import { spawn, spawnSync } from 'node:child_process';
import { cpSync, existsSync, mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { createServer } from 'node:net';
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

/** VmRSS (KiB) and user+system CPU (ms) of a running process, from /proc. */
function sample(pid) {
  const rss = Number(/VmRSS:\s+(\d+)/.exec(readFileSync(`/proc/${pid}/status`, 'utf8'))[1]);
  const fields = readFileSync(`/proc/${pid}/stat`, 'utf8').replace(/^.*\) /s, '').split(' ');
  const cpuMs = ((Number(fields[11]) + Number(fields[12])) * 1000) / 100; // utime, stime in USER_HZ (100)
  return { rss, cpuMs };
}

const freePort = () => new Promise((resolve) => {
  const server = createServer().listen(0, '127.0.0.1', () => {
    const { port } = server.address();
    server.close(() => resolve(port));
  });
});

/** serve on `root`, re-checking back to back: samples after `early` and after `late` checks. */
async function soakServe(root, early, late) {
  // As for the other commands, serve runs once first so that it starts from its code cache (the
  // launcher writes serve's after 3 s).
  const warm = spawn(process.execPath, [bin, 'serve', '--root', root, '--kubelet-version', '1.29.5', '--no-journal', '--listen', `127.0.0.1:${await freePort()}`], { stdio: 'ignore' });
  await new Promise((resolve) => setTimeout(resolve, 4000));
  warm.kill('SIGTERM');
  await new Promise((resolve) => warm.once('exit', resolve));
  const port = await freePort();
  const child = spawn(process.execPath, [bin, 'serve', '--root', root, '--kubelet-version', '1.29.5', '--no-journal', '--listen', `127.0.0.1:${port}`],
    { env: { ...process.env, NODE_CHECK_SOAK_INTERVAL_MS: '1' }, stdio: ['ignore', 'ignore', 'pipe'] });
  const samples = {};
  let rest = '';
  try {
    await new Promise((resolve, reject) => {
      child.on('exit', (code) => reject(new Error(`serve exited (${code}) before ${late} checks`)));
      child.stderr.on('data', (chunk) => {
        const lines = (rest + chunk).split('\n');
        rest = lines.pop();
        for (const line of lines) {
          const n = Number(/soak: (\d+) checks/.exec(line)?.[1]);
          if (n === early || n === late) samples[n] = sample(child.pid);
          if (n === late) resolve();
        }
      });
    });
  } finally {
    child.kill('SIGKILL');
  }
  return { early: samples[early], late: samples[late] };
}

/** node_exporter with its default collectors, scraped `late` times: samples after `early` and `late` scrapes. */
async function soakNodeExporter(early, late) {
  const binary = ['/usr/bin/prometheus-node-exporter', '/usr/bin/node_exporter', '/usr/local/bin/node_exporter'].find((p) => existsSync(p));
  if (!binary) return undefined;
  const port = await freePort();
  const child = spawn(binary, [`--web.listen-address=127.0.0.1:${port}`, `--collector.textfile.directory=${textfileDir}`], { stdio: 'ignore' });
  const samples = {};
  try {
    for (let attempt = 0; ; attempt++) {
      try {
        await (await fetch(`http://127.0.0.1:${port}/metrics`)).text();
        break;
      } catch (error) {
        if (attempt > 100) throw error;
        await new Promise((r) => setTimeout(r, 100));
      }
    }
    for (let n = 1; n <= late; n++) {
      await (await fetch(`http://127.0.0.1:${port}/metrics`)).text();
      if (n === early || n === late) samples[n] = sample(child.pid);
    }
  } finally {
    child.kill('SIGKILL');
  }
  return { early: samples[early], late: samples[late] };
}

const preflight = (root) => [bin, 'preflight', '--root', root, '--kubelet-version', '1.29.5', '--textfile-dir', textfileDir, '--no-journal'];

const only = process.env.BENCH_ONLY;
let nodeRss;
try {
  console.log(`node-check ${pairs} alternating pairs each; median (min–max) ratio${gnuTime ? '; peak RSS from GNU time' : '; no GNU time: no RSS figures'}\n`);
  if (gnuTime) {
    const rss = [];
    for (let i = 0; i < pairs; i++) rss.push(run(['-e', '0']).rss);
    nodeRss = rss.sort((a, b) => a - b)[rss.length >> 1];
    console.log(`node -e 0: peak RSS ${(nodeRss / 1024).toFixed(1)} MiB (median)\n`);
  }
  const rows = only === 'soak' ? [] : [
    ['--version', [bin, '--version']],
    ['preflight (demo, 1.29.5, textfile, no journal)', preflight(demo)],
    ['check (demo, every modelled version)', [bin, 'check', '--root', demo, '--output', 'json']],
  ];
  for (const [name, args] of rows) {
    const r = ratios(args);
    console.log(`${name.padEnd(50)} wall ${stats(r.wall)}   RSS ${stats(r.rss)}`);
  }

  if (only !== 'soak') console.log('\nscaling, as ratios to the same node with one provider / no extra drop-in:');
  const one = preflight(generatedRoot('one', {}));
  const scaling = only === 'soak' ? [] : [
    ['1,000 providers', generatedRoot('providers', { providers: 1000 })],
    ['200 drop-ins', generatedRoot('dropins', { dropIns: 200 })],
    ['5 MB provider config', generatedRoot('big', { bigConfigBytes: 5 * 1024 * 1024 })],
  ];
  for (const [name, root] of scaling) {
    const r = ratios(preflight(root), one);
    console.log(`${name.padEnd(50)} wall ${stats(r.wall)}`);
  }

  if (only !== 'start') {
    const early = 100;
    const late = Number(process.env.BENCH_SOAK ?? 10_000);
    const mib = (kib) => `${(kib / 1024).toFixed(1)} MiB`;
    const vsNode = (kib) => (nodeRss ? ` (×${(kib / nodeRss).toFixed(2)} node -e 0)` : '');
    console.log(`\nserve, re-checking back to back (demo node, 1.29.5); VmRSS from /proc:`);
    const serve = await soakServe(generatedRoot('serve', {}), early, late);
    console.log(`after ${early} checks ${mib(serve.early.rss)}${vsNode(serve.early.rss)}; after ${late} ${mib(serve.late.rss)}${vsNode(serve.late.rss)}; ` +
      `growth ×${(serve.late.rss / serve.early.rss).toFixed(3)}; CPU per re-check ${((serve.late.cpuMs - serve.early.cpuMs) / (late - early)).toFixed(1)} ms`);
    const exporter = await soakNodeExporter(early, late);
    if (exporter) {
      console.log(`node_exporter (all default collectors), after ${early} scrapes ${mib(exporter.early.rss)}; after ${late} ${mib(exporter.late.rss)}; ` +
        `CPU per scrape ${((exporter.late.cpuMs - exporter.early.cpuMs) / (late - early)).toFixed(1)} ms`);
      console.log(`1,000 nodes: serve ${(serve.late.rss / 1024 / 1024 * 1000).toFixed(1)} GiB, node_exporter ${(exporter.late.rss / 1024 / 1024 * 1000).toFixed(1)} GiB`);
    } else {
      console.log('node_exporter: not installed (apt-get install prometheus-node-exporter), no comparison');
    }
  }
} finally {
  rmSync(work, { recursive: true, force: true });
}
