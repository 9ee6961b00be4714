// Smoke tests of the integration harness itself: each real part starts, answers, and stops.
import t from 'tap';
import { randomBytes } from 'node:crypto';
import { existsSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { ensureNodeRoot, librariesMissingForNode } from '../harness/node-root.js';
import { bootNode } from '../harness/nspawn.js';
import { nodeExporterPath, startNodeExporter } from '../harness/node-exporter.js';
import { checkMetrics } from '../harness/promtool.js';
import { requireNodes, requireTools, skipLoudly } from '../harness/tools.js';

t.test('a booted node runs real systemd and journald', async (t) => {
  if (!requireNodes(t)) return;
  const root = await ensureNodeRoot();
  t.comment(`node root ${root.built ? 'built' : 'found in cache'} in ${root.elapsedMs} ms: ${root.dir}`);
  t.same(await librariesMissingForNode(root.dir), [], "the root has every library the host's node binary links");

  const node = await bootNode({ t, files: { '/etc/node-check-test/marker': { content: 'from the files layer\n', mode: 0o600 } } });
  t.comment(`boot to ${node.bootState} in ${node.bootMs} ms`);
  t.match(node.bootState, /^(running|degraded)$/, 'systemd reports the system up');

  const version = await node.exec(['systemctl', '--version']);
  t.equal(version.exitCode, 0, 'systemctl --version exits 0');
  t.match(version.stdout, /^systemd \d+ /, 'systemctl --version names systemd');
  t.equal((await node.exec(['cat', '/proc/1/comm'])).stdout, 'systemd\n', 'PID 1 inside is systemd');

  const nodeVersion = await node.exec(['node', '-e', 'process.stdout.write(process.version)']);
  t.same(nodeVersion, { stdout: process.version, stderr: '', exitCode: 0 }, "the host's node runs inside");

  const marker = await node.exec(['stat', '-c', '%a %n', '/etc/node-check-test/marker']);
  t.equal(marker.stdout, '600 /etc/node-check-test/marker\n', 'files given to bootNode are there, with their mode');
  t.equal((await node.exec(['rm', '/etc/node-check-test/marker'])).exitCode, 0, 'and can be removed like any file');

  await node.writeFile('/etc/node-check-test/written.conf', 'key=value\n', 0o640);
  const written = await node.exec(['sh', '-c', 'stat -c %a /etc/node-check-test/written.conf; cat /etc/node-check-test/written.conf']);
  t.equal(written.stdout, '640\nkey=value\n', 'writeFile writes content and mode into the running node');

  const stdin = await node.exec(['wc', '-c'], { input: 'four' });
  t.equal(stdin.stdout.trim(), '4', 'exec passes input on stdin');
  t.equal((await node.exec(['sh', '-c', 'exit 7'])).exitCode, 7, 'exec reports the exit code');

  // The way node-check will write its entries (docs/operations.md "Journal"): logger --journald, fields on stdin.
  const messageId = randomBytes(16).toString('hex');
  const logged = await node.exec(['logger', '--journald'], {
    input: [
      'MESSAGE=harness smoke entry',
      `MESSAGE_ID=${messageId}`,
      'PRIORITY=4',
      'SYSLOG_IDENTIFIER=node-check-harness',
      'NODE_CHECK_PROBE=value with spaces',
      '',
    ].join('\n'),
  });
  t.equal(logged.exitCode, 0, 'logger --journald exits 0');
  const entries = await node.journal([`MESSAGE_ID=${messageId}`]);
  t.equal(entries.length, 1, 'journalctl finds exactly the one entry by MESSAGE_ID');
  t.match(entries[0], {
    MESSAGE: 'harness smoke entry',
    PRIORITY: '4',
    SYSLOG_IDENTIFIER: 'node-check-harness',
    NODE_CHECK_PROBE: 'value with spaces',
    _TRANSPORT: 'journal',
  }, 'the entry carries the custom fields');

  const leader = node.leaderPid;
  await node.stop();
  t.notOk(existsSync(`/proc/${leader}`), "after stop() the node's systemd is gone");
  await t.rejects(node.exec(['true']), /not running/, 'exec on a stopped node rejects');
});

t.test('nodes booted side by side do not share state', async (t) => {
  if (!requireNodes(t)) return;
  const [a, b] = await Promise.all([bootNode({ t }), bootNode({ t })]);
  t.not(a.machine, b.machine, 'machine names differ');
  const ids = await Promise.all([a, b].map((n) => n.exec(['cat', '/etc/machine-id'])));
  t.not(ids[0]?.stdout, ids[1]?.stdout, 'machine ids differ');
  await a.writeFile('/etc/only-in-a', 'a\n');
  t.equal((await b.exec(['test', '-e', '/etc/only-in-a'])).exitCode, 1, "a file written in one node is absent from the other");
  const hostCgroup = (pid: number) => readFileSync(`/proc/${pid}/cgroup`, 'utf8');
  t.not(hostCgroup(a.leaderPid), hostCgroup(b.leaderPid), 'their systemd run in different cgroups on the host');
  await a.stop();
  const state = await b.exec(['systemctl', 'is-system-running']);
  t.match(state.stdout.trim(), /^(running|degraded)$/, 'stopping one node leaves the other running');
});

t.test('node_exporter serves a textfile directory', async (t) => {
  if (nodeExporterPath() === undefined) {
    skipLoudly(t, 'prometheus-node-exporter');
    return;
  }
  const dir = t.testdir({
    'harness.prom': '# HELP nodecheck_harness_probe Harness smoke series.\n# TYPE nodecheck_harness_probe gauge\nnodecheck_harness_probe{kind="smoke"} 1\n',
  });
  const exporter = await startNodeExporter({ textfileDir: dir, t });
  const clean = await exporter.scrape();
  t.match(clean, /^nodecheck_harness_probe\{kind="smoke"\} 1$/m, 'the series from the .prom file is served');
  t.match(clean, /^node_textfile_scrape_error 0$/m, 'node_textfile_scrape_error is 0 for a clean file');

  // A file node_exporter cannot parse flips the error gauge: the assertion above can fail.
  writeFileSync(join(dir, 'broken.prom'), 'nodecheck_broken{ 1\n');
  t.match(await exporter.scrape(), /^node_textfile_scrape_error 1$/m, 'node_textfile_scrape_error is 1 with a broken file');
  await exporter.stop();
});

t.test('promtool lints an exposition', async (t) => {
  if (!requireTools(t, ['promtool'])) return;
  const clean = '# HELP nodecheck_kubelet_start_ok 1 if kubelet is predicted to start.\n# TYPE nodecheck_kubelet_start_ok gauge\nnodecheck_kubelet_start_ok 1\n';
  const ok = await checkMetrics(clean);
  t.equal(ok.exitCode, 0, `a clean exposition passes (stderr: ${ok.stderr.trim()})`);
  const bad = '# HELP nodecheck_Up_count Up.\n# TYPE nodecheck_Up_count counter\nnodecheck_Up_count 1\n';
  const lint = await checkMetrics(bad);
  t.equal(lint.exitCode, 3, 'a counter without _total is a lint finding: exit 3');
  t.match(lint.stdout + lint.stderr, /_total/, 'promtool names the problem');
});
