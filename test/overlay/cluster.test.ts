/**
 * The in-cluster reader against a real local HTTPS server (self-signed CA made by openssl here)
 * serving API responses of the shapes the API server returns: a Node, a MachineConfigPoolList, a
 * MachineConfig, a 403 Status, and a path that never answers. No cluster is reached.
 */
import t, { type Test } from 'tap';
import { execFileSync } from 'node:child_process';
import * as fs from 'node:fs';
import * as https from 'node:https';
import * as path from 'node:path';
import { fileURLToPath } from 'node:url';
import type { AddressInfo } from 'node:net';
import { parse as parseYaml } from 'yaml';
import { apiGet, inClusterClient, kubeletVersionOfNode, nodeKubeletVersion, nodeTarget, pendingInputs, selects, type ClusterClient } from '../../src/overlay/cluster.js';
import { checkNode } from '../../src/check-node.js';
import { execa } from 'execa';
import * as net from 'node:net';
import { requireTools, toolPath } from '../harness/tools.js';
import { PRIVATE_RUN_TOOLS } from '../packaging/sandbox.js';
import { checkClusterPending } from '../../src/serve/pending.js';
import { machineConfigYaml, rhelWorker415 } from './helpers.js';

const TOKEN = 'eyJhbGciOiJSUzI1NiJ9.test-token';

function node(name: string, labels: Record<string, string>, current: string, desired: string) {
  return {
    kind: 'Node',
    apiVersion: 'v1',
    metadata: {
      name,
      uid: '1b0c1f4e-7d1a-4a3c-9d55-0f1e2c3b4a59',
      resourceVersion: '1234567',
      labels: { 'kubernetes.io/hostname': name, 'kubernetes.io/os': 'linux', 'node.openshift.io/os_id': 'rhel', ...labels },
      annotations: {
        'machineconfiguration.openshift.io/currentConfig': current,
        'machineconfiguration.openshift.io/desiredConfig': desired,
        'machineconfiguration.openshift.io/state': 'Done',
      },
    },
    spec: { providerID: 'azure:///subscriptions/x/resourceGroups/y/providers/Microsoft.Compute/virtualMachines/' + name },
    status: { nodeInfo: { kubeletVersion: 'v1.28.7+6e2789b', osImage: 'Red Hat Enterprise Linux 8.10 (Ootpa)' } },
  };
}

function pool(name: string, selector: Record<string, string>, spec: string, status: string) {
  return {
    apiVersion: 'machineconfiguration.openshift.io/v1',
    kind: 'MachineConfigPool',
    metadata: { name, labels: { [`pools.operator.machineconfiguration.openshift.io/${name}`]: '' } },
    spec: {
      configuration: { name: spec, source: [{ apiVersion: 'machineconfiguration.openshift.io/v1', kind: 'MachineConfig', name: `00-${name}` }] },
      machineConfigSelector: { matchLabels: { 'machineconfiguration.openshift.io/role': name } },
      nodeSelector: { matchLabels: selector },
      paused: false,
    },
    status: { configuration: { name: status }, machineCount: 3, updatedMachineCount: 0 },
  };
}

const FORBIDDEN = {
  kind: 'Status',
  apiVersion: 'v1',
  metadata: {},
  status: 'Failure',
  message: 'machineconfigpools.machineconfiguration.openshift.io is forbidden: User "system:serviceaccount:node-check:node-check" cannot list resource "machineconfigpools" in API group "machineconfiguration.openshift.io" at the cluster scope',
  reason: 'Forbidden',
  details: { group: 'machineconfiguration.openshift.io', kind: 'machineconfigpools' },
  code: 403,
};

interface Served {
  client: ClusterClient;
  requests: { method: string; url: string; auth: string | undefined }[];
  routes: Map<string, { status: number; body: unknown } | 'hang'>;
}

async function serve(t: Test): Promise<Served> {
  const dir = t.testdir();
  execFileSync('openssl', ['req', '-x509', '-newkey', 'ec', '-pkeyopt', 'ec_paramgen_curve:prime256v1', '-nodes', '-keyout', path.join(dir, 'key.pem'), '-out', path.join(dir, 'cert.pem'), '-days', '1', '-subj', '/CN=127.0.0.1', '-addext', 'subjectAltName=IP:127.0.0.1'], { stdio: 'ignore' });
  const cert = fs.readFileSync(path.join(dir, 'cert.pem'));
  const requests: Served['requests'] = [];
  const routes: Served['routes'] = new Map();
  const server = https.createServer({ key: fs.readFileSync(path.join(dir, 'key.pem')), cert }, (req, res) => {
    requests.push({ method: req.method ?? '', url: req.url ?? '', auth: req.headers.authorization });
    if (req.headers.authorization !== `Bearer ${TOKEN}`) {
      res.writeHead(401, { 'Content-Type': 'application/json' }).end(JSON.stringify({ kind: 'Status', apiVersion: 'v1', status: 'Failure', message: 'Unauthorized', reason: 'Unauthorized', code: 401 }));
      return;
    }
    const route = routes.get(req.url ?? '');
    if (route === 'hang') return; // never answers
    if (!route) {
      res.writeHead(404, { 'Content-Type': 'application/json' }).end(JSON.stringify({ kind: 'Status', apiVersion: 'v1', status: 'Failure', message: `the server could not find the requested resource`, reason: 'NotFound', code: 404 }));
      return;
    }
    res.writeHead(route.status, { 'Content-Type': 'application/json' }).end(JSON.stringify(route.body));
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  t.teardown(() => {
    server.closeAllConnections();
    server.close();
  });
  const port = (server.address() as AddressInfo).port;
  return { client: { baseUrl: `https://127.0.0.1:${port}`, token: TOKEN, ca: cert, timeoutMs: 1500 }, requests, routes };
}

const MCO = '/apis/machineconfiguration.openshift.io/v1';
const WORKER = { 'node-role.kubernetes.io/worker': '' };

function standardRoutes(s: Served) {
  s.routes.set('/api/v1/nodes/worker-1', { status: 200, body: node('worker-1', WORKER, 'rendered-worker-old', 'rendered-worker-old') });
  s.routes.set(`${MCO}/machineconfigpools`, {
    status: 200,
    body: { apiVersion: 'machineconfiguration.openshift.io/v1', kind: 'MachineConfigPoolList', metadata: { resourceVersion: '42' }, items: [pool('master', { 'node-role.kubernetes.io/master': '' }, 'rendered-master-a', 'rendered-master-a'), pool('worker', WORKER, 'rendered-worker-new', 'rendered-worker-old')] },
  });
  s.routes.set(`${MCO}/machineconfigs/rendered-worker-new`, { status: 200, body: parseYaml(machineConfigYaml('rendered-worker-new')) });
}

t.test("the pool's target (spec.configuration), seen before the node updates, evaluated against the node", async (t) => {
  const s = await serve(t);
  standardRoutes(s);
  const target = await nodeTarget(s.client, 'worker-1');
  t.same(target, { node: 'worker-1', pool: 'worker', currentConfig: 'rendered-worker-old', desiredConfig: 'rendered-worker-old', poolTarget: 'rendered-worker-new' });
  const inputs = await pendingInputs(s.client, target as Exclude<typeof target, { problem: string }>);
  t.same(inputs.map((i) => ('origin' in i ? i.origin : i.dir)), ['machineconfig/rendered-worker-new', 'machineconfig/rendered-worker-old']);
  t.match(inputs[1], { error: /HTTP 404/ }, 'a config the API does not have: its error, kept');

  const root = rhelWorker415(path.join(t.testdir(), 'root'));
  s.routes.set(`${MCO}/machineconfigs/rendered-worker-old`, { status: 200, body: { apiVersion: 'machineconfiguration.openshift.io/v1', kind: 'MachineConfig', metadata: { name: 'rendered-worker-old' }, spec: { config: { ignition: { version: '3.4.0' } } } } });
  const results = await checkClusterPending({ root, unit: 'kubelet.service', kubeletVersion: '1.29.5', versionProbeTimeoutMs: 2000 }, s.client, 'worker-1');
  t.match(results, [
    { config: 'rendered-worker-new', kubeletWillStart: false, summary: 'kubelet starts now but will NOT start after applying rendered-worker-new' },
    { config: 'rendered-worker-old', kubeletWillStart: true },
  ]);
  t.ok(s.requests.every((r) => r.method === 'GET' && r.auth === `Bearer ${TOKEN}`), 'only GETs, with the token');
});

t.test('a node in a custom pool (also selected by worker) belongs to the custom pool', async (t) => {
  const s = await serve(t);
  s.routes.set('/api/v1/nodes/infra-1', { status: 200, body: node('infra-1', { ...WORKER, 'node-role.kubernetes.io/infra': '' }, 'rendered-infra-1', 'rendered-infra-1') });
  s.routes.set(`${MCO}/machineconfigpools`, { status: 200, body: { kind: 'MachineConfigPoolList', items: [pool('worker', WORKER, 'rendered-worker-2', 'rendered-worker-1'), pool('infra', { 'node-role.kubernetes.io/infra': '' }, 'rendered-infra-2', 'rendered-infra-1')] } });
  t.match(await nodeTarget(s.client, 'infra-1'), { pool: 'infra', poolTarget: 'rendered-infra-2' });
});

t.test('403, timeout, bad JSON, bad token: cannot tell, with the reason; never a crash', async (t) => {
  const s = await serve(t);
  standardRoutes(s);
  const root = rhelWorker415(path.join(t.testdir(), 'root'));
  const opts = { root, unit: 'kubelet.service', kubeletVersion: '1.29.5', versionProbeTimeoutMs: 2000 };

  s.routes.set(`${MCO}/machineconfigpools`, { status: 403, body: FORBIDDEN });
  const forbidden = await checkClusterPending(opts, s.client, 'worker-1');
  t.match(forbidden, [{ config: 'cluster', kubeletWillStart: null, summary: /HTTP 403: machineconfigpools\.machineconfiguration\.openshift\.io is forbidden/ }]);

  s.routes.set(`${MCO}/machineconfigpools`, 'hang');
  const started = Date.now();
  const hung = await checkClusterPending(opts, s.client, 'worker-1');
  t.match(hung, [{ kubeletWillStart: null, summary: /no answer within 1500 ms/ }]);
  t.ok(Date.now() - started < 5000, 'bounded');

  standardRoutes(s);
  s.routes.set(`${MCO}/machineconfigs/rendered-worker-new`, { status: 200, body: { kind: 'MachineConfig', apiVersion: 'machineconfiguration.openshift.io/v1', metadata: { name: 'rendered-worker-new' }, spec: {} } });
  const noConfig = await checkClusterPending(opts, s.client, 'worker-1');
  t.match(noConfig[0], { config: 'rendered-worker-new', kubeletWillStart: null });

  const badToken = await apiGet({ ...s.client, token: 'wrong' }, '/api/v1/nodes/worker-1');
  t.match(badToken, { ok: false, problem: /HTTP 401: Unauthorized/ });
  const wrongCa = await apiGet({ ...s.client, ca: '' }, '/api/v1/nodes/worker-1');
  t.match(wrongCa, { ok: false }, 'the server certificate must be signed by the given CA');
  t.match(await nodeTarget(s.client, '../etc'), { problem: /not a valid node name/ });
});

t.test("the kubelet version from the Node object (status.nodeInfo.kubeletVersion), read over the API", async (t) => {
  const s = await serve(t);
  standardRoutes(s);
  t.same(await nodeKubeletVersion(s.client, 'worker-1'), { version: 'v1.28.7+6e2789b' });
  t.same(s.requests.map((r) => `${r.method} ${r.url}`), ['GET /api/v1/nodes/worker-1'], 'one GET of the node, nothing else');
  t.match(await nodeKubeletVersion(s.client, 'worker-2'), { problem: /HTTP 404/ }, 'a node the API does not know');
  s.routes.set('/api/v1/nodes/worker-3', { status: 403, body: { ...FORBIDDEN, message: 'nodes "worker-3" is forbidden: User "system:serviceaccount:node-check:node-check" cannot get resource "nodes"' } });
  t.match(await nodeKubeletVersion(s.client, 'worker-3'), { problem: /HTTP 403: nodes "worker-3" is forbidden/ });
  const registering = node('worker-4', WORKER, 'a', 'a') as { status?: unknown };
  delete registering.status;
  s.routes.set('/api/v1/nodes/worker-4', { status: 200, body: registering });
  t.match(await nodeKubeletVersion(s.client, 'worker-4'), { problem: 'node worker-4 has no status.nodeInfo.kubeletVersion' });
  t.match(await nodeKubeletVersion(s.client, 'Worker_1'), { problem: /not a valid node name/ }, 'never put into a path');

  // The version as the Node gives it (with OpenShift's +build suffix) selects that minor's rules.
  const root = rhelWorker415(path.join(t.testdir(), 'root'));
  const report = await checkNode({ root, unit: 'kubelet.service', kubeletVersion: 'v1.28.7+6e2789b', versionProbeTimeoutMs: 2000 });
  t.equal(report.kubeletVersion, '1.28.7');
  t.same(report.evaluatedVersions, ['1.28']);
});

t.test('serve in a pod (the real bundle): NODE_NAME and the service account make the Node\'s kubelet version decide', async (t) => {
  if (!requireTools(t, [...PRIVATE_RUN_TOOLS, 'cp'])) return;
  const s = await serve(t);
  s.routes.set('/api/v1/nodes/worker-1', { status: 200, body: node('worker-1', WORKER, 'a', 'a') });
  const dir = t.testdir({ token: TOKEN });
  const ca = path.join(dir, 'ca.pem');
  fs.writeFileSync(ca, s.client.ca);
  // Without a version this node's answer is unknown (1.24 and 1.25 refuse its config, 1.26+ start).
  const root = fileURLToPath(new URL('../fixtures/nodes/ocp-4.16-aws-worker/root', import.meta.url));
  const port = await new Promise<number>((resolve) => {
    const probe = net.createServer().listen(0, '127.0.0.1', () => {
      const { port } = probe.address() as AddressInfo;
      probe.close(() => resolve(port));
    });
  });
  const sa = '/run/secrets/kubernetes.io/serviceaccount';
  // The pod's service account where inClusterClient reads it (/var/run is /run), in a private /run.
  const prepare = `${toolPath('mount')} -t tmpfs -o mode=0755 tmpfs /run && ${toolPath('mkdir')} -p ${sa} && ${toolPath('cp')} "${path.join(dir, 'token')}" ${sa}/token && ${toolPath('cp')} "${ca}" ${sa}/ca.crt && exec "$@"`;
  const userNamespace = process.getuid?.() === 0 ? [] : ['--map-root-user'];
  const bundlePath = fileURLToPath(new URL('../../dist/node-check.cjs', import.meta.url));
  /** `node-check serve` as the DaemonSet runs it; returns its /metrics after the first check, and its stderr. */
  const runPod = async (): Promise<{ metrics: string; stderr: string }> => {
    const child = execa(toolPath('unshare')!, [...userNamespace, '--mount', '--propagation', 'private', '/bin/sh', '-c', prepare, 'pod', process.execPath, bundlePath, 'serve', '--root', root, '--no-journal', '--listen', `127.0.0.1:${port}`, '--interval', '3600'], {
      env: { PATH: process.env.PATH ?? '', NODE_CHECK_CONFIG: '', KUBERNETES_SERVICE_HOST: '127.0.0.1', KUBERNETES_SERVICE_PORT: s.client.baseUrl.split(':').pop()!, NODE_NAME: 'worker-1' },
      extendEnv: false,
      reject: false,
      timeout: 60_000,
    });
    t.teardown(() => child.kill('SIGKILL'));
    let metrics = '';
    for (let i = 0; i < 200 && !/nodecheck_kubelet_start/.test(metrics); i++) {
      await new Promise((r) => setTimeout(r, 100));
      metrics = await fetch(`http://127.0.0.1:${port}/metrics`).then((r) => (r.ok ? r.text() : ''), () => '');
    }
    child.kill('SIGTERM');
    return { metrics, stderr: String((await child).stderr) };
  };

  const pod = await runPod();
  t.match(pod.metrics, /^nodecheck_kubelet_start_ok 1$/m, 'decided with the Node\'s 1.28: kubelet starts');
  t.match(pod.metrics, /^nodecheck_kubelet_start_unknown 0$/m);
  t.ok(s.requests.some((r) => r.url === '/api/v1/nodes/worker-1' && r.auth === `Bearer ${TOKEN}`), 'the Node was read with the pod\'s token');
  t.notMatch(pod.stderr, /kubelet version from node/, 'no complaint about the version');

  // The control: the Node cannot be read (403): every modelled version, so unknown, and the log says why.
  s.routes.set('/api/v1/nodes/worker-1', { status: 403, body: { ...FORBIDDEN, message: 'nodes "worker-1" is forbidden' } });
  const refused = await runPod();
  t.match(refused.metrics, /^nodecheck_kubelet_start_unknown 1$/m, 'without the version: cannot tell');
  t.match(String(refused.stderr), /kubelet version from node worker-1: GET \/api\/v1\/nodes\/worker-1: HTTP 403: nodes "worker-1" is forbidden; evaluating every modelled version/);
});

t.test('kubeletVersionOfNode: only a non-empty string', async (t) => {
  t.equal(kubeletVersionOfNode({ status: { nodeInfo: { kubeletVersion: ' v1.31.4 ' } } }), 'v1.31.4');
  t.equal(kubeletVersionOfNode({ status: { nodeInfo: { kubeletVersion: '' } } }), undefined);
  t.equal(kubeletVersionOfNode({ status: { nodeInfo: { kubeletVersion: 131 } } }), undefined);
  t.equal(kubeletVersionOfNode(null), undefined);
});

t.test('inClusterClient: environment and the mounted service account', async (t) => {
  const dir = t.testdir({ token: `${TOKEN}\n`, 'ca.crt': 'PEM' });
  t.match(inClusterClient({ KUBERNETES_SERVICE_HOST: '172.30.0.1', KUBERNETES_SERVICE_PORT: '443' }, 5000, dir), { baseUrl: 'https://172.30.0.1:443', token: TOKEN });
  t.match(inClusterClient({ KUBERNETES_SERVICE_HOST: 'fd02::1' }, 5000, dir), { baseUrl: 'https://[fd02::1]:443' });
  t.match(inClusterClient({}, 5000, dir), { problem: /not running in a pod/ });
  t.match(inClusterClient({ KUBERNETES_SERVICE_HOST: '172.30.0.1' }, 5000, path.join(dir, 'missing')), { problem: /ENOENT/ });
});

t.test('label selectors as metav1.LabelSelector', async (t) => {
  t.ok(selects({ matchLabels: WORKER }, WORKER));
  t.notOk(selects({ matchLabels: WORKER }, {}));
  t.notOk(selects(undefined, WORKER), 'nil selects nothing');
  t.ok(selects({}, {}), 'empty selects everything');
  t.ok(selects({ matchExpressions: [{ key: 'a', operator: 'In', values: ['x'] }, { key: 'b', operator: 'DoesNotExist' }] }, { a: 'x' }));
  t.notOk(selects({ matchExpressions: [{ key: 'a', operator: 'NotIn', values: ['x'] }] }, { a: 'x' }));
  t.notOk(selects({ matchExpressions: [{ key: 'a', operator: 'Gt', values: ['1'] }] }, { a: '2' }), 'unknown operator selects nothing');
});

t.test('packaging/openshift/node-check-in-cluster.yaml: least verbs, bound to the DaemonSet\'s service account', async (t) => {
  const { parseAllDocuments } = await import('yaml');
  const read = (p: string) => fs.readFileSync(new URL(`../../${p}`, import.meta.url), 'utf8');
  const [role, binding] = parseAllDocuments(read('packaging/openshift/node-check-in-cluster.yaml')).map((d) => d.toJS()) as [
    { kind: string; metadata: { name: string }; rules: { apiGroups: string[]; resources: string[]; verbs: string[] }[] },
    { kind: string; roleRef: { kind: string; name: string }; subjects: { kind: string; name: string; namespace: string }[] },
  ];
  t.equal(role.kind, 'ClusterRole');
  t.same(role.rules.flatMap((r) => r.resources.map((res) => `${r.apiGroups.join(',')}/${res}:${r.verbs.join(',')}`)).sort(), [
    '/nodes:get',
    'machineconfiguration.openshift.io/machineconfigpools:list',
    'machineconfiguration.openshift.io/machineconfigs:get',
  ]);
  t.same(binding.roleRef, { apiGroup: 'rbac.authorization.k8s.io', kind: 'ClusterRole', name: role.metadata.name });
  const serve = parseAllDocuments(read('packaging/openshift/node-check-serve.yaml')).map((d) => d.toJS() as { kind: string; metadata: { name: string; namespace?: string } });
  const sa = serve.find((d) => d.kind === 'ServiceAccount')!;
  t.same(binding.subjects, [{ kind: 'ServiceAccount', name: sa.metadata.name, namespace: sa.metadata.namespace }]);
});
