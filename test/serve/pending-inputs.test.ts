// Pending configurations without a cluster or a node: which files an argument names, the metric
// for several answers (the worse one wins, never a guess), and the in-cluster path's refusals that
// need no API call (no client, a name that is not a valid object name).
import t from 'tap';
import * as fs from 'node:fs';
import * as path from 'node:path';
import { checkClusterPending, MAX_PENDING_CONFIGS, pendingConfigFiles, pendingFamilies, type PendingResult } from '../../src/serve/pending.js';
import { renderGauges } from '../../src/sinks/exposition.js';

/** The pending families as text (serve renders the same through prom-client: test/sinks/textfile-prom-client.test.ts). */
const renderPendingMetrics = async (results: readonly PendingResult[]): Promise<string> => renderGauges(pendingFamilies(results));
import { nodeTarget, pendingInputs, selects, type ClusterClient } from '../../src/overlay/cluster.js';

const CLIENT: ClusterClient = { baseUrl: 'https://127.0.0.1:1', token: 't', ca: 'PEM', timeoutMs: 200 };
const OPTIONS = { root: '/nonexistent', unit: 'kubelet.service', versionProbeTimeoutMs: 100 };
const result = (config: string, kubeletWillStart: boolean | null): PendingResult => ({ config, origin: config, kubeletWillStart, summary: '' });

t.test('pendingConfigFiles: a file as given, a missing path as given (the check reports it), at most 32', async (t) => {
  const dir = t.testdir({ 'one.yml': 'x', many: Object.fromEntries(Array.from({ length: 40 }, (_, i) => [`c${String(i).padStart(2, '0')}.ign`, '{}'])) });
  t.same(pendingConfigFiles([path.join(dir, 'one.yml'), path.join(dir, 'missing.yaml')]), [path.join(dir, 'one.yml'), path.join(dir, 'missing.yaml')]);
  const many = pendingConfigFiles([path.join(dir, 'many')]);
  t.equal(many.length, MAX_PENDING_CONFIGS);
  t.equal(many[0], path.join(dir, 'many', 'c00.ign'));
  t.equal(many[31], path.join(dir, 'many', 'c31.ign'), 'sorted by name');
  t.ok(fs.existsSync(many[0]!));
});

t.test('pendingFamilies: nothing for no configs; _ok only for decided answers; the worse answer per name', async (t) => {
  t.equal(await renderPendingMetrics([]), '');
  const text = await renderPendingMetrics([result('a', true), result('a', false), result('b', true), result('b', null), result('c', true), result('c', true), result('d', null)]);
  t.match(text, /^nodecheck_pending_config_kubelet_start_ok\{config="a"\} 0$/m, 'false beats true');
  t.notMatch(text, /start_ok\{config="b"\}/, 'null beats true: no _ok sample');
  t.match(text, /^nodecheck_pending_config_kubelet_start_unknown\{config="b"\} 1$/m);
  t.match(text, /^nodecheck_pending_config_kubelet_start_ok\{config="c"\} 1$/m);
  t.match(text, /^nodecheck_pending_config_kubelet_start_unknown\{config="c"\} 0$/m);
  t.match(text, /^nodecheck_pending_config_kubelet_start_unknown\{config="d"\} 1$/m);
  const none = await renderPendingMetrics([result('x', null)]);
  t.notMatch(none, /nodecheck_pending_config_kubelet_start_ok/, 'no decided answer: the _ok metric is absent altogether');
  t.match(none, /^nodecheck_pending_config_kubelet_start_unknown\{config="x"\} 1$/m);
});

t.test('checkClusterPending without a client, or with a bad node name, is one "cannot tell" result', async (t) => {
  const noClient = await checkClusterPending(OPTIONS, { problem: 'KUBERNETES_SERVICE_HOST is not set: not running in a pod' }, 'worker-0');
  t.same(noClient, [{ config: 'cluster', origin: 'cluster', kubeletWillStart: null, summary: 'node-check cannot tell which configuration this node is going to: KUBERNETES_SERVICE_HOST is not set: not running in a pod' }]);
  const badName = await checkClusterPending(OPTIONS, CLIENT, 'Worker_0');
  t.equal(badName[0]?.kubeletWillStart, null);
  t.equal(badName[0]?.summary, 'node-check cannot tell which configuration this node is going to: node name "Worker_0" is not a valid node name');
});

t.test('nodeTarget refuses a name that is not a node name before any request', async (t) => {
  t.same(await nodeTarget(CLIENT, ''), { problem: 'node name "" is not a valid node name' });
  t.same(await nodeTarget(CLIENT, 'a/b'), { problem: 'node name "a/b" is not a valid node name' });
  t.same(await nodeTarget(CLIENT, '-a'), { problem: 'node name "-a" is not a valid node name' });
});

t.test('pendingInputs: no names, no requests; an invalid name is an input error, not a request', async (t) => {
  t.same(await pendingInputs(CLIENT, { node: 'worker-0' }), []);
  t.same(await pendingInputs(CLIENT, { node: 'worker-0', poolTarget: '', desiredConfig: '' }), []);
  t.same(await pendingInputs(CLIENT, { node: 'worker-0', poolTarget: 'Rendered_X', desiredConfig: 'Rendered_X' }), [{ kind: 'machine-config', origin: 'machineconfig/Rendered_X', error: 'not a valid object name' }], 'one name once');
});

t.test('label selectors: Exists, In/NotIn on a missing key, matchLabels and expressions together', async (t) => {
  t.ok(selects({ matchExpressions: [{ key: 'node-role.kubernetes.io/worker', operator: 'Exists' }] }, { 'node-role.kubernetes.io/worker': '' }));
  t.notOk(selects({ matchExpressions: [{ key: 'node-role.kubernetes.io/infra', operator: 'Exists' }] }, { 'node-role.kubernetes.io/worker': '' }));
  t.notOk(selects({ matchExpressions: [{ key: 'a', operator: 'In', values: ['x'] }] }, {}), 'In needs the key');
  t.ok(selects({ matchExpressions: [{ key: 'a', operator: 'NotIn', values: ['x'] }] }, {}), 'NotIn holds without the key');
  t.notOk(selects({ matchExpressions: [{ key: 'b', operator: 'DoesNotExist' }] }, { b: '' }));
  t.notOk(selects({ matchLabels: { a: 'x' }, matchExpressions: [{ key: 'b', operator: 'Exists' }] }, { a: 'x' }), 'every requirement must hold');
  t.notOk(selects({ matchLabels: { a: 'x' } }, { a: 'y' }));
});
