/** serve --machine-config: a pending configuration re-evaluated against the node, exported as a metric, re-checked on change. */
import t from 'tap';
import { spawn, spawnSync } from 'node:child_process';
import * as fs from 'node:fs';
import * as path from 'node:path';
import { fileURLToPath } from 'node:url';
import { checkPendingConfigs, pendingConfigFiles, pendingFamilies } from '../../src/serve/pending.js';
import { renderGauges } from '../../src/sinks/exposition.js';
import { checkMetrics } from '../harness/promtool.js';
import { toolPath } from '../harness/tools.js';
import { machineConfigYaml, rhelWorker415, treeDigest } from '../overlay/helpers.js';

t.test('each file of a directory is one pending config, named by its MachineConfig', async (t) => {
  const dir = t.testdir({ configs: { 'a.yaml': machineConfigYaml('rendered-worker-new'), 'b.json': '{"kind":"List","apiVersion":"v1"}', 'notes.txt': 'x', '.hidden.yaml': 'x' } });
  const root = rhelWorker415(path.join(dir, 'root'));
  const configs = path.join(dir, 'configs');
  t.same(pendingConfigFiles([configs]), [path.join(configs, 'a.yaml'), path.join(configs, 'b.json')]);
  const results = await checkPendingConfigs({ root, unit: 'kubelet.service', kubeletVersion: '1.29.5', versionProbeTimeoutMs: 2000, configs: [configs] });
  t.match(results, [
    { config: 'rendered-worker-new', kubeletWillStart: false, summary: 'kubelet starts now but will NOT start after applying rendered-worker-new' },
    { config: 'b.json', kubeletWillStart: null },
  ]);
  const text = renderGauges(pendingFamilies(results));
  t.match(text, 'nodecheck_pending_config_kubelet_start_ok{config="rendered-worker-new"} 0');
  t.notMatch(text, 'nodecheck_pending_config_kubelet_start_ok{config="b.json"}', 'absent when node-check cannot tell');
  t.match(text, 'nodecheck_pending_config_kubelet_start_unknown{config="b.json"} 1');
  if (toolPath('promtool')) {
    const linted = await checkMetrics(text);
    t.equal(linted.exitCode, 0, `promtool check metrics: ${linted.stdout}${linted.stderr}`);
  }
  t.same(pendingFamilies([]), [], 'no pending config, no family');
});

t.test('node-check serve --machine-config DIR: the metric, and a re-check when the file changes', async (t) => {
  const repo = fileURLToPath(new URL('../..', import.meta.url));
  spawnSync(process.execPath, [path.join(repo, 'scripts/build.mjs')], { stdio: 'inherit' });
  const dir = t.testdir({ configs: { 'target.yaml': machineConfigYaml('rendered-worker-next') } });
  const root = rhelWorker415(path.join(dir, 'root'));
  const digest = treeDigest(root);
  const port = 20000 + Math.floor(Math.random() * 20000);
  const child = spawn(process.execPath, [path.join(repo, 'dist/node-check.cjs'), 'serve', '--root', root, '--listen', `127.0.0.1:${port}`, '--interval', '3600', '--kubelet-version', '1.29.5', '--no-journal', '--machine-config', path.join(dir, 'configs')], {
    env: { PATH: process.env.PATH ?? '', NODE_CHECK_CONFIG: '' },
    stdio: ['ignore', 'ignore', 'pipe'],
  });
  let stderr = '';
  child.stderr.on('data', (chunk) => (stderr += String(chunk)));
  t.teardown(() => {
    child.kill('SIGTERM');
  });
  const metrics = async (want: RegExp): Promise<string> => {
    for (let i = 0; i < 100; i++) {
      try {
        const response = await fetch(`http://127.0.0.1:${port}/metrics`);
        const text = await response.text();
        if (response.ok && want.test(text)) return text;
      } catch {
        // not listening yet
      }
      await new Promise((r) => setTimeout(r, 100));
    }
    throw new Error(`no metrics matching ${want}; stderr: ${stderr}`);
  };
  const first = await metrics(/nodecheck_pending_config_kubelet_start_ok/);
  t.equal(treeDigest(root), digest, 'serve wrote nothing under the root');
  t.match(first, 'nodecheck_pending_config_kubelet_start_ok{config="rendered-worker-next"} 0');
  t.match(first, 'nodecheck_kubelet_start_ok 1', 'the node itself is fine now');
  t.match(stderr, 'kubelet starts now but will NOT start after applying rendered-worker-next');

  // The plugin arrives (the RPM is installed), and the pending file is rewritten (a watched path).
  fs.writeFileSync(path.join(root, '/usr/libexec/kubelet-image-credential-provider-plugins/acr-credential-provider'), '#!/bin/sh\n', { mode: 0o755 });
  const digestWithPlugin = treeDigest(root);
  fs.writeFileSync(path.join(dir, 'configs/target.yaml'), machineConfigYaml('rendered-worker-next'));
  const second = await metrics(/nodecheck_pending_config_kubelet_start_ok\{config="rendered-worker-next"\} 1/);
  t.match(second, 'nodecheck_pending_config_kubelet_start_ok{config="rendered-worker-next"} 1');
  child.kill('SIGTERM');
  await new Promise((r) => child.once('exit', r));
  t.equal(treeDigest(root), digestWithPlugin, 'still nothing written under the root');
});
