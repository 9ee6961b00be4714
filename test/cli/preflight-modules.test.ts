/**
 * What preflight (kubelet's start path) loads: no node:crypto for the client CA bundle, whose load
 * costs milliseconds there. The kubeconfig's TLS material (tls.X509KeyPair: a client certificate
 * and its key, a CA) is still parsed by OpenSSL, which loads node:crypto (docs/unverified.md), so
 * the node here authenticates with a token and skips TLS verification: only the CA bundle's path
 * is measured.
 */
import t from 'tap';
import { spawnSync } from 'node:child_process';
import { cpSync, existsSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import * as path from 'node:path';
import { fileURLToPath } from 'node:url';

const repo = fileURLToPath(new URL('../..', import.meta.url));
const bundle = path.join(repo, 'dist/node-check.cjs');
if (!existsSync(bundle)) spawnSync(process.execPath, [path.join(repo, 'scripts/build.mjs')], { stdio: 'inherit' });

t.test('preflight on the demo node, whose kubelet config names a client CA bundle, loads no crypto module for it', async (t) => {
  const dir = t.testdir({ textfiles: {} });
  const preload = path.join(dir, 'modules.cjs');
  const out = path.join(dir, 'modules.json');
  writeFileSync(preload, `process.on('exit', () => require('fs').writeFileSync(${JSON.stringify(out)}, JSON.stringify(process.moduleLoadList)));\n`);
  const demo = path.join(dir, 'demo');
  cpSync(path.join(repo, 'examples/ocp-4.16-azure-rhel8-worker'), demo, { recursive: true });
  t.ok(existsSync(path.join(demo, 'etc/kubernetes/kubelet-ca.crt')), 'the demo has its client CA');
  const tokenKubeconfig = 'apiVersion: v1\nkind: Config\nclusters:\n- name: c\n  cluster:\n    server: https://api.fixture.example:6443\n    insecure-skip-tls-verify: true\ncontexts:\n- name: x\n  context:\n    cluster: c\n    user: u\ncurrent-context: x\nusers:\n- name: u\n  user:\n    token: fixture-token\n';
  for (const file of ['var/lib/kubelet/kubeconfig', 'etc/kubernetes/kubeconfig']) writeFileSync(path.join(demo, file), tokenKubeconfig);
  rmSync(path.join(demo, 'var/lib/kubelet/pki'), { recursive: true, force: true });
  // env -i: tap instruments the processes a test spawns (its NODE_OPTIONS loader uses crypto).
  const run = spawnSync('env', ['-i', `PATH=${process.env.PATH ?? ''}`, 'NODE_CHECK_CONFIG=', process.execPath, '-r', preload, bundle, 'preflight', '--root', demo, '--kubelet-version', '1.29.5', '--no-journal', '--textfile-dir', path.join(dir, 'textfiles')], { encoding: 'utf8' });
  t.not(run.status, 2, run.stderr);
  const modules = JSON.parse(readFileSync(out, 'utf8')) as string[];
  t.ok(modules.some((m) => m.includes('fs')), 'the list is read');
  const first = modules.findIndex((m) => /crypto/.test(m));
  t.same(modules.filter((m) => /crypto/.test(m)), [], first < 0 ? 'none' : `first loaded after: ${modules.slice(Math.max(0, first - 6), first).join(', ')}`);
});
