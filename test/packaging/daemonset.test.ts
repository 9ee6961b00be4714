// packaging/openshift/node-check-serve.yaml: every document parses, and the DaemonSet is what an
// OpenShift add-on must be: host paths read-only and only those kubelet's start
// reads, node-check on the pod's loopback behind kube-rbac-proxy with the service CA's
// certificate, system-node-critical, Linux nodes, every taint tolerated, RBAC for the proxy's
// reviews and the Node read, a ServiceMonitor that gives each series a `node` label.
// The host mounts are also checked by effect: node-check reading a node through only these
// mounts (laid out as the runtime would) answers exactly as it does reading the whole root.
// Nothing here talks to a cluster.
import t from 'tap';
import * as fs from 'node:fs';
import * as path from 'node:path';
import { fileURLToPath } from 'node:url';
import { parseAllDocuments, parse as parseYaml } from 'yaml';
import { checkNode } from '../../src/check-node.js';

const repoPath = (p: string) => fileURLToPath(new URL(`../../${p}`, import.meta.url));
const MANIFEST = 'packaging/openshift/node-check-serve.yaml';

// Manifests are read field by field: a loose type, the assertions are the contract.
type Doc = Record<string, any>;

const documents = parseAllDocuments(fs.readFileSync(repoPath(MANIFEST), 'utf8'));
const docs = documents.map((d) => d.toJS() as Doc);
const find = (kind: string, name?: string): Doc => {
  const doc = docs.find((d) => d.kind === kind && (name === undefined || d.metadata?.name === name));
  if (!doc) throw new Error(`${MANIFEST}: no ${kind}${name ? ` ${name}` : ''}`);
  return doc;
};
const daemonSet = find('DaemonSet');
const pod = daemonSet.spec.template.spec;
const container = (name: string): Doc => pod.containers.find((c: Doc) => c.name === name);
const nodeCheck = container('node-check');
const proxy = container('kube-rbac-proxy');
const argValue = (args: string[], flag: string): string | undefined => {
  const joined = args.find((a) => a.startsWith(`${flag}=`));
  if (joined) return joined.slice(flag.length + 1);
  const i = args.indexOf(flag);
  return i >= 0 ? args[i + 1] : undefined;
};
const CLUSTER_SCOPED = new Set(['Namespace', 'ClusterRole', 'ClusterRoleBinding']);

t.test('every document parses, cluster-scoped kinds aside everything is in the namespace', async (t) => {
  for (const document of documents) t.same(document.errors, [], 'parses');
  t.same(docs.map((d) => `${d.apiVersion} ${d.kind}`).filter((k) => !/Role|ServiceAccount|Secret|ConfigMap/.test(k)), [
    'v1 Namespace',
    'apps/v1 DaemonSet',
    'v1 Service',
    'monitoring.coreos.com/v1 ServiceMonitor',
  ]);
  const namespace = find('Namespace').metadata.name;
  for (const doc of docs.filter((d) => !CLUSTER_SCOPED.has(d.kind))) t.equal(doc.metadata.namespace, namespace, `${doc.kind} ${doc.metadata.name} in ${namespace}`);
  for (const doc of docs.filter((d) => CLUSTER_SCOPED.has(d.kind))) t.notOk(doc.metadata.namespace, `${doc.kind} ${doc.metadata.name} is cluster-scoped`);
});

t.test('the DaemonSet: every Linux node, every taint, node-critical priority, no host namespaces', async (t) => {
  t.equal(pod.priorityClassName, 'system-node-critical');
  t.same(pod.nodeSelector, { 'kubernetes.io/os': 'linux' });
  t.same(pod.tolerations, [{ operator: 'Exists' }], 'tolerates every taint');
  for (const field of ['hostNetwork', 'hostPID', 'hostIPC']) t.notOk(pod[field], `no ${field}`);
  for (const c of pod.containers as Doc[]) {
    t.notOk(c.securityContext?.privileged, `${c.name} is not privileged`);
    t.equal(c.securityContext?.allowPrivilegeEscalation, false, `${c.name}: no privilege escalation`);
    t.same(c.securityContext?.capabilities?.drop, ['ALL'], `${c.name} drops every capability`);
    t.equal(c.securityContext?.readOnlyRootFilesystem, true, `${c.name}: read-only root filesystem`);
    for (const port of c.ports ?? []) t.notOk(port.hostPort, `${c.name}: no hostPort`);
  }
  t.equal(nodeCheck.image, 'NODE_CHECK_IMAGE', 'the image is filled in at install (by digest), never a made-up registry');
  t.match(fs.readFileSync(repoPath(MANIFEST), 'utf8'), /sed "s\|NODE_CHECK_IMAGE\|[^"]*@\$\(cat [^)]*digest\)\|"/, 'the manifest says how');
  t.match(fs.readFileSync(repoPath('packaging/openshift/README.md'), 'utf8'), /sed "s\|NODE_CHECK_IMAGE\|/, 'and so does the install section');
  t.notMatch(pod.containers.map((c: Doc) => c.image).join(' '), /quay\.io\/node-check/, 'no placeholder organisation');
  t.same(nodeCheck.args.slice(0, 3), ['serve', '--root', '/host']);
  t.notOk(nodeCheck.args.includes('--auto-restore'), 'no auto-restore: the host is read-only here');
  t.same(nodeCheck.env, [{ name: 'NODE_NAME', valueFrom: { fieldRef: { fieldPath: 'spec.nodeName' } } }], 'NODE_NAME from the downward API, for the Node\'s kubelet version');
});

t.test('host paths: each mounted once, read-only, never Bidirectional; nothing but the host paths node-check reads', async (t) => {
  const hostVolumes = (pod.volumes as Doc[]).filter((v) => v.hostPath);
  const mounts = (pod.containers as Doc[]).flatMap((c) => (c.volumeMounts ?? []).map((m: Doc) => ({ ...m, container: c.name })));
  for (const volume of hostVolumes) {
    const users = mounts.filter((m) => m.name === volume.name);
    t.same(users.map((m) => m.container), ['node-check'], `${volume.hostPath.path}: only node-check mounts it`);
    for (const m of users) {
      t.equal(m.readOnly, true, `${volume.hostPath.path} read-only`);
      t.not(m.mountPropagation, 'Bidirectional', `${volume.hostPath.path}: no mounts back to the host`);
      t.match(m.mountPath, /^\/host\//, `${volume.hostPath.path} under /host`);
    }
    t.not(volume.hostPath.type, 'DirectoryOrCreate', `${volume.hostPath.path}: never created on the host`);
    t.not(volume.hostPath.type, 'FileOrCreate', `${volume.hostPath.path}: never created on the host`);
  }
  t.same(hostVolumes.map((v) => v.hostPath.path).sort(), ['/bin', '/etc', '/lib', '/lib64', '/run', '/sbin', '/usr', '/usr/local'], 'the trees kubelet\'s start reads; not / (no /var/lib/kubelet pod secrets, no /root, no /home)');
});

t.test('metrics: node-check on the pod loopback, kube-rbac-proxy with the service CA certificate in front', async (t) => {
  const listen = argValue(nodeCheck.args, '--listen');
  t.match(listen, /^127\.0\.0\.1:\d+$/, 'node-check listens on 127.0.0.1 only');
  t.notOk(nodeCheck.ports, 'node-check exposes no port');
  t.equal(argValue(proxy.args, '--upstream'), `http://${listen}/`, 'the proxy forwards to that loopback address');
  const secure = argValue(proxy.args, '--secure-listen-address')!;
  t.ok(secure, 'the proxy listens with TLS');
  t.notOk(argValue(proxy.args, '--insecure-listen-address'), 'and never in clear');
  const proxyPort = proxy.ports.find((p: Doc) => p.containerPort === Number(secure.split(':').pop()));
  t.ok(proxyPort, 'the TLS port is the container port');

  const service = find('Service');
  const secretName = service.metadata.annotations['service.beta.openshift.io/serving-cert-secret-name'];
  t.ok(secretName, 'the service CA issues the serving certificate');
  const tlsVolume = (pod.volumes as Doc[]).find((v) => v.secret?.secretName === secretName)!;
  t.ok(tlsVolume, 'its Secret is a volume');
  const tlsMount = (proxy.volumeMounts as Doc[]).find((m) => m.name === tlsVolume.name)!;
  t.equal(argValue(proxy.args, '--tls-cert-file'), `${tlsMount.mountPath}/tls.crt`);
  t.equal(argValue(proxy.args, '--tls-private-key-file'), `${tlsMount.mountPath}/tls.key`);
  t.same(service.spec.selector, daemonSet.spec.selector.matchLabels, 'the Service selects the DaemonSet\'s pods');
  t.same(service.spec.ports.map((p: Doc) => p.targetPort), [proxyPort.name], 'the Service reaches the proxy only');

  for (const probe of [nodeCheck.readinessProbe, nodeCheck.livenessProbe]) {
    t.same([probe.httpGet.port, probe.httpGet.scheme, probe.httpGet.path], [proxyPort.name, 'HTTPS', '/healthz'], 'probes reach /healthz through the proxy');
  }
  t.equal(argValue(proxy.args, '--ignore-paths'), '/healthz', 'only /healthz skips authorization');

  // Authorization: a namespaced get on services/metrics of this Service, granted to the scraper only.
  const configMap = (pod.volumes as Doc[]).find((v) => v.configMap)!;
  const configMount = (proxy.volumeMounts as Doc[]).find((m) => m.name === configMap.name)!;
  t.equal(argValue(proxy.args, '--config-file'), `${configMount.mountPath}/config.yaml`);
  const proxyConfig = parseYaml(find('ConfigMap', configMap.configMap.name).data['config.yaml']) as Doc;
  t.same(proxyConfig.authorization.resourceAttributes, { namespace: service.metadata.namespace, apiVersion: 'v1', resource: 'services', subresource: 'metrics', name: service.metadata.name });
  const readerRole = find('Role', 'node-check-metrics-reader');
  t.same(readerRole.rules, [{ apiGroups: [''], resources: ['services/metrics'], resourceNames: [service.metadata.name], verbs: ['get'] }]);
  const readerBinding = docs.find((d) => d.kind === 'RoleBinding' && d.roleRef.name === readerRole.metadata.name)!;
  t.same(readerBinding.subjects, [{ kind: 'ServiceAccount', name: 'node-check-metrics-reader', namespace: service.metadata.namespace }]);
});

t.test('RBAC: the proxy\'s token and access reviews, get on nodes, the SCC; bound to the DaemonSet\'s service account', async (t) => {
  const sa = pod.serviceAccountName;
  t.ok(docs.find((d) => d.kind === 'ServiceAccount' && d.metadata.name === sa), 'the service account exists');
  const boundTo = (kind: string, roleName: string) => docs.find((d) => d.kind === kind && d.roleRef?.name === roleName && d.subjects?.some((s: Doc) => s.kind === 'ServiceAccount' && s.name === sa));
  t.ok(boundTo('ClusterRoleBinding', 'system:auth-delegator'), 'system:auth-delegator: create tokenreviews and subjectaccessreviews');
  t.ok(boundTo('RoleBinding', 'system:openshift:scc:privileged'), 'the SCC that allows spc_t and hostPath');
  const nodeReader = find('ClusterRole', 'node-check-node-reader');
  t.same(nodeReader.rules, [{ apiGroups: [''], resources: ['nodes'], verbs: ['get'] }], 'get on nodes, nothing else');
  t.ok(boundTo('ClusterRoleBinding', nodeReader.metadata.name));
});

t.test('the ServiceMonitor: HTTPS to the proxy, the service CA, the scraper\'s token, a node label', async (t) => {
  const service = find('Service');
  const monitor = find('ServiceMonitor');
  t.same(monitor.spec.selector.matchLabels, service.metadata.labels, 'selects the Service');
  const [endpoint] = monitor.spec.endpoints as Doc[];
  t.equal(endpoint!.port, service.spec.ports[0].name);
  t.equal(endpoint!.scheme, 'https');
  t.equal(endpoint!.path, '/metrics');
  t.equal(endpoint!.tlsConfig.serverName, `${service.metadata.name}.${service.metadata.namespace}.svc`, 'the name on the service CA\'s certificate');
  t.same(endpoint!.tlsConfig.ca, { configMap: { name: 'openshift-service-ca.crt', key: 'service-ca.crt' } });
  t.notOk(endpoint!.bearerTokenFile ?? endpoint!.tlsConfig.caFile, 'no files: user workload monitoring refuses them');
  const tokenSecret = find('Secret', endpoint!.authorization.credentials.name);
  t.equal(tokenSecret.type, 'kubernetes.io/service-account-token');
  t.equal(tokenSecret.metadata.annotations['kubernetes.io/service-account.name'], 'node-check-metrics-reader', 'the token of the account allowed to read the metrics');
  t.same(endpoint!.relabelings, [{ sourceLabels: ['__meta_kubernetes_pod_node_name'], targetLabel: 'node', action: 'replace' }], 'every series carries the node, which the alerts use');
});

// ---- The mounts by effect ----------------------------------------------------------------------

/** Resolves a host path inside `root` as the host's kernel would (symlinks followed, absolute ones from root). */
function resolveInRoot(root: string, nodePath: string, depth = 0): string | undefined {
  if (depth > 40) return undefined;
  let resolved = '/';
  const parts = nodePath.split('/').filter(Boolean);
  for (let i = 0; i < parts.length; i++) {
    const next = path.posix.join(resolved, parts[i]!);
    let stat: fs.Stats;
    try {
      stat = fs.lstatSync(path.join(root, next));
    } catch {
      return undefined;
    }
    if (stat.isSymbolicLink()) {
      const target = fs.readlinkSync(path.join(root, next));
      const joined = path.posix.join(target.startsWith('/') ? '/' : resolved, target, ...parts.slice(i + 1));
      return resolveInRoot(root, joined, depth + 1);
    }
    resolved = next;
  }
  return resolved;
}

/**
 * The pod's /host: each hostPath volume's directory (resolved on the host, as a bind mount is)
 * copied to its mountPath, in mountPath order as the runtime mounts them. A hostPath the node
 * lacks is left out (on a real node the pod would not start, which is loud).
 */
function podView(root: string, view: string, skip: readonly string[] = []): string {
  const volumes = new Map((pod.volumes as Doc[]).filter((v) => v.hostPath).map((v) => [v.name, v.hostPath.path as string]));
  const mounts = (nodeCheck.volumeMounts as Doc[]).filter((m) => volumes.has(m.name)).sort((a, b) => a.mountPath.localeCompare(b.mountPath));
  fs.mkdirSync(view, { recursive: true });
  for (const m of mounts) {
    const hostPath = volumes.get(m.name)!;
    if (skip.includes(hostPath)) continue;
    const source = resolveInRoot(root, hostPath);
    if (source === undefined || !fs.statSync(path.join(root, source)).isDirectory()) continue;
    const destination = resolveInRoot(view, m.mountPath.replace(/^\/host/, '')) ?? m.mountPath.replace(/^\/host/, '');
    fs.rmSync(path.join(view, destination), { recursive: true, force: true });
    fs.mkdirSync(path.dirname(path.join(view, destination)), { recursive: true });
    fs.cpSync(path.join(root, source), path.join(view, destination), { recursive: true, verbatimSymlinks: true });
  }
  return view;
}

/** An RHCOS-shaped root: /usr/local -> ../var/usrlocal, /bin and /lib64 links into /usr, a kubelet, its wrapper and the ELF loader. */
function rhcosRoot(fixture: string, root: string): string {
  fs.cpSync(fixture, root, { recursive: true, verbatimSymlinks: true });
  const write = (p: string, content: string | Buffer, mode = 0o755) => {
    fs.mkdirSync(path.dirname(path.join(root, p)), { recursive: true });
    fs.writeFileSync(path.join(root, p), content, { mode });
  };
  write('var/usrlocal/bin/kubenswrapper', '#!/bin/bash\nexec "$@"\n');
  write('usr/bin/bash', fs.readFileSync(process.execPath).subarray(0, 8192));
  write('usr/bin/kubelet', fs.readFileSync(process.execPath).subarray(0, 8192));
  write('usr/bin/mkdir', fs.readFileSync(process.execPath).subarray(0, 8192));
  const interp = elfInterpreter(fs.readFileSync(process.execPath).subarray(0, 8192));
  if (interp) write(`usr${interp}`, 'loader');
  fs.symlinkSync('../var/usrlocal', path.join(root, 'usr/local'));
  for (const link of ['bin', 'sbin', 'lib', 'lib64']) fs.symlinkSync(`usr/${link}`, path.join(root, link));
  fs.mkdirSync(path.join(root, 'usr/sbin'), { recursive: true });
  fs.mkdirSync(path.join(root, 'usr/lib64'), { recursive: true });
  fs.mkdirSync(path.join(root, 'usr/lib'), { recursive: true });
  fs.mkdirSync(path.join(root, 'run/systemd/system'), { recursive: true });
  return root;
}

/** PT_INTERP of a 64-bit little-endian ELF head, e.g. /lib64/ld-linux-x86-64.so.2. */
function elfInterpreter(head: Buffer): string | undefined {
  if (head.readUInt32BE(0) !== 0x7f454c46 || head[4] !== 2) return undefined;
  const phoff = Number(head.readBigUInt64LE(32));
  const phentsize = head.readUInt16LE(54);
  for (let i = 0; i < head.readUInt16LE(56); i++) {
    const o = phoff + i * phentsize;
    if (head.readUInt32LE(o) === 3) {
      const offset = Number(head.readBigUInt64LE(o + 8));
      const size = Number(head.readBigUInt64LE(o + 32));
      return head.subarray(offset, offset + size - 1).toString('latin1');
    }
  }
  return undefined;
}

async function answer(root: string, kubeletVersion: string) {
  const report = await checkNode({ root, unit: 'kubelet.service', kubeletVersion, versionProbeTimeoutMs: 2000 });
  // notChecked too: a path outside the copy is "not checked" rather than missing, which must not happen either.
  return { kubeletWillStart: report.kubeletWillStart, findings: report.findings.map((f) => f.id).sort(), notChecked: report.notChecked.map((n) => n.fact).sort() };
}

const FIXTURES = repoPath('test/fixtures/nodes');
const OPENSHIFT_FIXTURES = fs.readdirSync(FIXTURES).filter((name) => name.startsWith('ocp-'));

t.test('through only these mounts node-check answers as it does on the whole root (OpenShift fixture nodes)', async (t) => {
  t.ok(OPENSHIFT_FIXTURES.length >= 5, 'OpenShift fixtures found');
  for (const name of OPENSHIFT_FIXTURES) {
    const fixture = path.join(FIXTURES, name, 'root');
    const version = (JSON.parse(fs.readFileSync(path.join(FIXTURES, name, 'case.json'), 'utf8')) as { nodeKubeletVersion?: string }).nodeKubeletVersion ?? '1.29.6';
    const view = podView(fixture, path.join(t.testdir(), name));
    t.same(await answer(view, version), await answer(fixture, version), name);
  }
});

t.test('an RHCOS-shaped root (links into /usr, /usr/local -> /var/usrlocal): same answer, and each link mount matters', async (t) => {
  const dir = t.testdir();
  const fixture = path.join(FIXTURES, 'ocp-4.16-aws-worker', 'root');
  const root = rhcosRoot(fixture, path.join(dir, 'root'));
  const whole = await answer(root, '1.29.6');
  t.equal(whole.kubeletWillStart, true, 'the whole root: kubelet starts');
  t.same(await answer(podView(root, path.join(dir, 'view')), '1.29.6'), whole, 'the pod\'s view answers the same');
  t.notOk(whole.notChecked.includes('execStart'), 'ExecStart (kubenswrapper) was checked');
  // Control: without the /usr/local mount, kubenswrapper (ExecStart) is out of sight; the comparison can fail.
  const noUsrLocal = await answer(podView(root, path.join(dir, 'view-no-usr-local'), ['/usr/local']), '1.29.6');
  t.ok(noUsrLocal.notChecked.includes('execStart'), 'without /usr/local: ExecStart not checked');
  t.notSame(noUsrLocal, whole);
});
