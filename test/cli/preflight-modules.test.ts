/**
 * What preflight (kubelet's start path) loads: no node:crypto, whose load costs milliseconds
 * there, for the client CA bundle nor for the kubeconfig's TLS material (its CA, and the client
 * certificate and key tls.X509KeyPair loads: src/go/tls/key-pair.ts, pure TypeScript).
 */
import t from 'tap';
import { createServer } from 'node:net';
import { spawn, spawnSync } from 'node:child_process';
import { cpSync, existsSync, mkdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import * as path from 'node:path';
import { fileURLToPath } from 'node:url';

const repo = fileURLToPath(new URL('../..', import.meta.url));
const bundle = path.join(repo, 'dist/node-check.cjs');
if (!existsSync(bundle)) spawnSync(process.execPath, [path.join(repo, 'scripts/build.mjs')], { stdio: 'inherit' });

t.test('preflight on the demo node (a client CA bundle, a client-certificate kubeconfig with a P-256 pair) loads no crypto module', async (t) => {
  const dir = t.testdir({ textfiles: {} });
  const preload = path.join(dir, 'modules.cjs');
  const out = path.join(dir, 'modules.json');
  writeFileSync(preload, `process.on('exit', () => require('fs').writeFileSync(${JSON.stringify(out)}, JSON.stringify(process.moduleLoadList)));\n`);
  const demo = path.join(dir, 'demo');
  cpSync(path.join(repo, 'examples/ocp-4.16-azure-rhel8-worker'), demo, { recursive: true });
  t.ok(existsSync(path.join(demo, 'etc/kubernetes/kubelet-ca.crt')), 'the demo has its client CA');
  t.match(readFileSync(path.join(demo, 'var/lib/kubelet/kubeconfig'), 'utf8'), /client-certificate: \/var\/lib\/kubelet\/pki\/kubelet-client-current.pem/, 'the kubeconfig names a client certificate');
  t.match(readFileSync(path.join(demo, 'var/lib/kubelet/pki/kubelet-client-current.pem'), 'utf8'), /BEGIN EC PRIVATE KEY/, 'and the pair is there');
  // The demo's one fault (a missing credential provider plugin) repaired, so that the answer is a
  // full "will start": every step, the key pair's included, was decided.
  const plugin = path.join(demo, 'usr/libexec/kubelet-image-credential-provider-plugins/acr-credential-provider');
  mkdirSync(path.dirname(plugin), { recursive: true });
  writeFileSync(plugin, '#!/bin/sh\n', { mode: 0o755 });
  // env -i: tap instruments the processes a test spawns (its NODE_OPTIONS loader uses crypto).
  const run = spawnSync('env', ['-i', `PATH=${process.env.PATH ?? ''}`, 'NODE_CHECK_CONFIG=', process.execPath, '-r', preload, bundle, 'preflight', '--root', demo, '--kubelet-version', '1.29.5', '--no-journal', '--textfile-dir', path.join(dir, 'textfiles')], { encoding: 'utf8' });
  t.equal(run.status, 0, `decided and predicted to start: ${run.stdout}${run.stderr}`);
  const modules = JSON.parse(readFileSync(out, 'utf8')) as string[];
  t.ok(modules.some((m) => m.includes('fs')), 'the list is read');
  const first = modules.findIndex((m) => /crypto/.test(m));
  t.same(modules.filter((m) => /crypto/.test(m)), [], first < 0 ? 'none' : `first loaded after: ${modules.slice(Math.max(0, first - 6), first).join(', ')}`);
});

// prom-client is in the bundle for serve (src/serve/registry.ts) but evaluated only when serve runs:
// its index requires node:zlib and node:https (the Pushgateway) and node:perf_hooks (the default
// metrics), none of which preflight loads otherwise. serve, loading it, is the control.
const PROM_CLIENT_MARKS = ['NativeModule zlib', 'NativeModule perf_hooks', 'NativeModule https'];

function modulesOf(dir: string, name: string): { preload: string; out: string } {
  const preload = path.join(dir, `${name}.cjs`);
  const out = path.join(dir, `${name}.json`);
  writeFileSync(preload, `process.on('exit', () => require('fs').writeFileSync(${JSON.stringify(out)}, JSON.stringify(process.moduleLoadList)));\n`);
  return { preload, out };
}

t.test('preflight does not evaluate prom-client; serve does', async (t) => {
  const dir = t.testdir({ textfiles: {} });
  const demo = path.join(repo, 'examples/ocp-4.16-azure-rhel8-worker');
  const env = ['env', '-i', `PATH=${process.env.PATH ?? ''}`, 'NODE_CHECK_CONFIG='];
  const pre = modulesOf(dir, 'preflight');
  const run = spawnSync(env[0]!, [...env.slice(1), process.execPath, '-r', pre.preload, bundle, 'preflight', '--root', demo, '--kubelet-version', '1.29.5', '--no-journal', '--textfile-dir', path.join(dir, 'textfiles')], { encoding: 'utf8' });
  t.not(run.status, 2, run.stderr);
  t.match(readFileSync(path.join(dir, 'textfiles/node-check.prom'), 'utf8'), /^nodecheck_kubelet_start_ok 0$/m, 'the textfile was written');
  const preflight = JSON.parse(readFileSync(pre.out, 'utf8')) as string[];
  t.same(preflight.filter((m) => PROM_CLIENT_MARKS.includes(m)), [], 'none of the modules prom-client loads');
  // Nor node:v8, whose heap-snapshot streams load Node's stream stack (~8 M instructions): the
  // launcher sets V8's flags through the binding (src/launcher/launcher.cjs).
  t.ok(preflight.includes('Internal Binding v8'), "V8's binding is loaded");
  t.same(preflight.filter((m) => ['NativeModule v8', 'NativeModule internal/heap_utils', 'NativeModule stream'].includes(m)), [], 'no node:v8, no stream stack');
  // Nor node:module (Node's ES module loader: src/host/builtins.ts), nor fs.rmSync's rimraf, which
  // compiles from source there (src/host/atomic-file.ts).
  t.same(preflight.filter((m) => ['NativeModule module', 'NativeModule internal/modules/esm/loader', 'NativeModule internal/fs/rimraf'].includes(m)), [], 'no node:module, no rimraf');

  const port = await new Promise<number>((resolve) => {
    const server = createServer().listen(0, '127.0.0.1', () => {
      const { port } = server.address() as { port: number };
      server.close(() => resolve(port));
    });
  });
  const srv = modulesOf(dir, 'serve');
  const child = spawn(env[0]!, [...env.slice(1), process.execPath, '-r', srv.preload, bundle, 'serve', '--root', demo, '--kubelet-version', '1.29.5', '--no-journal', '--listen', `127.0.0.1:${port}`, '--interval', '300'], { stdio: ['ignore', 'ignore', 'pipe'] });
  let stderr = '';
  child.stderr.on('data', (chunk) => (stderr += String(chunk)));
  const exited = new Promise<void>((resolve) => child.on('exit', () => resolve()));
  t.teardown(() => child.kill('SIGKILL'));
  let body = '';
  for (let i = 0; i < 100 && !/^process_cpu_seconds_total /m.test(body); i++) {
    await new Promise((r) => setTimeout(r, 100));
    body = await fetch(`http://127.0.0.1:${port}/metrics`).then((r) => r.text(), () => '');
  }
  t.match(body, /^process_cpu_seconds_total /m, "serve answered through prom-client", { stderr });
  child.kill('SIGTERM');
  await exited;
  const serve = JSON.parse(readFileSync(srv.out, 'utf8')) as string[];
  t.same(serve.filter((m) => PROM_CLIENT_MARKS.includes(m)).sort(), [...PROM_CLIENT_MARKS].sort(), 'serve loads them: the marks tell');
});
