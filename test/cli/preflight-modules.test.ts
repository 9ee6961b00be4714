/**
 * What preflight (kubelet's start path) loads: no node:crypto, whose load costs milliseconds
 * there, for the client CA bundle nor for the kubeconfig's TLS material (its CA, and the client
 * certificate and key tls.X509KeyPair loads: src/go/tls/key-pair.ts, pure TypeScript).
 */
import t from 'tap';
import { spawnSync } from 'node:child_process';
import { cpSync, existsSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
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
