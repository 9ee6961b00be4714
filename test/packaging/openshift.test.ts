// packaging/openshift: the manifests parse and say what they must (kinds, apiVersions, the
// MachineConfig never writes under /etc/kubernetes nor replaces kubelet.service, it carries the
// repository's files unchanged), and the podman wrapper behaves: node-check's exit codes pass
// through, podman's failures become 2, systemd is reloaded exactly when the fallback drop-in
// changed. Nothing here runs podman, builds the image or talks to a cluster (README.md there).
import t from 'tap';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { parse, parseAllDocuments } from 'yaml';
import { parseKubeletVersion } from '../../src/kubelet/version.js';
import { requireTools, toolPath } from '../harness/tools.js';
import { callsOf, PRIVATE_RUN_TOOLS, runInPrivateRun, writeStub } from './sandbox.js';

const repoPath = (path: string) => fileURLToPath(new URL(`../../${path}`, import.meta.url));
const repoFile = (path: string) => readFileSync(repoPath(path), 'utf8');
const VERSION = (JSON.parse(repoFile('package.json')) as { version: string }).version;
const IMAGE = `quay.io/node-check/node-check:${VERSION}`;
const WRAPPER = 'packaging/openshift/node-check.sh';
const REGENERATE = 'regenerate with `node scripts/gen-openshift.mjs`';

// The manifests are checked field by field; this is the little of their shape the test reads.
interface MachineConfigDoc {
  apiVersion: string;
  kind: string;
  metadata: { name: string; labels: Record<string, string> };
  spec: {
    config: {
      ignition: { version: string };
      storage?: { files?: { path: string; mode: number; contents: { source: string } }[] };
      systemd?: { units?: { name: string; contents?: string; enabled?: boolean; mask?: boolean; dropins?: { name: string; contents: string }[] }[] };
    };
  };
}
interface Doc {
  apiVersion: string;
  kind: string;
  metadata: { name: string; namespace?: string; labels?: Record<string, string> };
}
interface Container {
  image: string;
  args: string[];
  ports: { name: string; containerPort: number }[];
  volumeMounts: { name: string; mountPath: string; readOnly?: boolean }[];
}
interface DaemonSetDoc extends Doc {
  spec: {
    selector: { matchLabels: Record<string, string> };
    template: { spec: { serviceAccountName: string; containers: Container[]; volumes: { name: string; hostPath?: { path: string } }[] } };
  };
}
interface RoleBindingDoc extends Doc {
  roleRef: { kind: string; name: string };
  subjects: { kind: string; name: string; namespace: string }[];
}
interface ServiceDoc extends Doc {
  spec: { selector: Record<string, string>; ports: { name: string; port: number; targetPort: string }[] };
}
interface ServiceMonitorDoc extends Doc {
  spec: { selector: { matchLabels: Record<string, string> }; endpoints: { port: string; path: string }[] };
}

const machineConfig = parse(repoFile('packaging/openshift/99-worker-node-check.machineconfig.yaml')) as MachineConfigDoc;

function decodeDataUrl(source: string): string {
  const match = /^data:[^,]*;base64,(.*)$/s.exec(source);
  if (!match) throw new Error(`not a base64 data URL: ${source.slice(0, 40)}…`);
  return Buffer.from(match[1]!, 'base64').toString('utf8');
}

// The kubelet drop-ins the MCO itself ships or writes (research/openshift.md §1.5).
const MCO_KUBELET_DROP_INS = [
  '01-kubens.conf', '10-mco-default-env.conf', '10-mco-default-madv.conf', '10-mco-on-prem-wait-resolv.conf', '20-logging.conf',
  '20-node-env.conf', '20-aws-providerid.conf', '20-nodenet.conf', '40-kubelet-crio-image-credential-provider.conf',
];

t.test('the MachineConfig: kind, role, Ignition 3', async (t) => {
  t.equal(machineConfig.apiVersion, 'machineconfiguration.openshift.io/v1');
  t.equal(machineConfig.kind, 'MachineConfig');
  t.equal(machineConfig.metadata.labels['machineconfiguration.openshift.io/role'], 'worker');
  // Merged in name order after the MCO's 01-worker-kubelet, whose kubelet.service it must not replace.
  t.ok(machineConfig.metadata.name > '01-worker-kubelet', `${machineConfig.metadata.name} sorts after 01-worker-kubelet`);
  t.match(machineConfig.spec.config.ignition.version, /^3\.\d+\.\d+$/);
});

t.test('the MachineConfig never writes under /etc/kubernetes and never replaces kubelet.service', async (t) => {
  const files = machineConfig.spec.config.storage?.files ?? [];
  const units = machineConfig.spec.config.systemd?.units ?? [];
  t.same(files.map((f) => f.path).sort(), ['/usr/local/bin/node-check', '/usr/local/lib/systemd/catalog/node-check.catalog'], 'exactly these files');
  for (const file of files) {
    t.notOk(file.path.startsWith('/etc/kubernetes/'), `${file.path}: not under /etc/kubernetes`);
    t.notOk(file.path.startsWith('/etc/systemd/'), `${file.path}: no unit written as a file`);
    t.ok(!file.path.startsWith('/usr/') || file.path.startsWith('/usr/local/'), `${file.path}: /usr is read-only on RHCOS, /usr/local is not`);
  }
  t.same(units.map((u) => u.name), ['kubelet.service'], 'only kubelet.service is named');
  const kubelet = units[0]!;
  t.same(Object.keys(kubelet).sort(), ['dropins', 'name'], 'no contents, enabled or mask: the MCO\'s kubelet.service stays as it is');
  t.same(kubelet.dropins?.map((d) => d.name), ['90-node-check.conf']);
  for (const dropIn of kubelet.dropins ?? []) {
    t.notOk(MCO_KUBELET_DROP_INS.includes(dropIn.name), `${dropIn.name} is not one of the MCO's drop-ins`);
    t.notMatch(dropIn.contents, /^\s*ExecStart\s*=/m, 'the drop-in does not touch ExecStart=');
    t.notMatch(dropIn.contents, /\/etc\/kubernetes/, 'nor names anything under /etc/kubernetes');
  }
});

t.test('the MachineConfig carries the repository files unchanged (' + REGENERATE + ')', async (t) => {
  const files = new Map((machineConfig.spec.config.storage?.files ?? []).map((f) => [f.path, f]));
  const wrapper = files.get('/usr/local/bin/node-check');
  t.equal(wrapper && decodeDataUrl(wrapper.contents.source), repoFile(WRAPPER), WRAPPER);
  t.equal(wrapper?.mode, 0o755);
  const catalog = files.get('/usr/local/lib/systemd/catalog/node-check.catalog');
  t.equal(catalog && decodeDataUrl(catalog.contents.source), repoFile('systemd/node-check.catalog'), 'systemd/node-check.catalog');
  t.equal(catalog?.mode, 0o644);
  t.equal(machineConfig.spec.config.systemd?.units?.[0]?.dropins?.[0]?.contents, repoFile('packaging/openshift/90-node-check.conf'), 'packaging/openshift/90-node-check.conf');
});

t.test('the serve manifests: kinds, apiVersions and how they fit together', async (t) => {
  const documents = parseAllDocuments(repoFile('packaging/openshift/node-check-serve.yaml'));
  for (const document of documents) t.same(document.errors, [], 'parses');
  const docs = documents.map((d) => d.toJS() as Doc);
  t.same(docs.map((d) => `${d.apiVersion} ${d.kind}`), [
    'v1 Namespace',
    'v1 ServiceAccount',
    'rbac.authorization.k8s.io/v1 RoleBinding',
    'apps/v1 DaemonSet',
    'v1 Service',
    'monitoring.coreos.com/v1 ServiceMonitor',
  ]);
  const namespace = docs[0]!.metadata.name;
  for (const doc of docs.slice(1)) t.equal(doc.metadata.namespace, namespace, `${doc.kind} in ${namespace}`);
  const [, serviceAccount, binding, daemonSet, service, monitor] = docs as [Doc, Doc, RoleBindingDoc, DaemonSetDoc, ServiceDoc, ServiceMonitorDoc];

  const pod = daemonSet.spec.template.spec;
  const container = pod.containers[0]!;
  t.equal(pod.serviceAccountName, serviceAccount.metadata.name);
  t.same(binding.subjects.map((s) => s.name), [pod.serviceAccountName], 'the SCC binding is for that service account');
  t.equal(binding.roleRef.name, 'system:openshift:scc:privileged');
  t.equal(container.image, IMAGE, 'the image tag is the package version');
  t.same(container.args.slice(0, 3), ['serve', '--root', '/host']);
  t.equal(container.args[container.args.indexOf('--listen') + 1], '0.0.0.0:9847', 'listens on the pod IP');
  t.notOk(container.args.includes('--auto-restore'), 'no auto-restore: the host is read-only here');
  const hostVolume = pod.volumes.find((v) => v.hostPath?.path === '/');
  t.ok(hostVolume, 'the host root is a volume');
  t.same(container.volumeMounts.map(({ name, mountPath, readOnly }) => ({ name, mountPath, readOnly })), [{ name: hostVolume?.name, mountPath: '/host', readOnly: true }], 'mounted read-only at /host, and nothing else of the host');

  t.same(service.spec.selector, daemonSet.spec.selector.matchLabels, 'the Service selects the DaemonSet\'s pods');
  t.equal(service.spec.ports[0]?.targetPort, container.ports[0]?.name);
  t.same(monitor.spec.selector.matchLabels, service.metadata.labels, 'the ServiceMonitor selects the Service');
  t.equal(monitor.spec.endpoints[0]?.port, service.spec.ports[0]?.name);
  t.equal(monitor.spec.endpoints[0]?.path, '/metrics');
});

t.test('the image the wrapper runs is the package version', async (t) => {
  t.match(repoFile(WRAPPER), new RegExp(`^image="\\$\\{NODE_CHECK_IMAGE:-${IMAGE.replace(/[.]/g, '\\.')}\\}"$`, 'm'));
  t.match(repoFile('packaging/openshift/Containerfile'), /^COPY dist\/node-check\.cjs dist\/node-check\.bundle\.cjs \/usr\/lib\/node-check\/$/m, 'the Containerfile copies the launcher and the bundle');
});

t.test('the wrapper: podman arguments, exit codes, and a reload only when the fallback changed', async (t) => {
  if (!requireTools(t, ['bash', 'timeout', 'cksum', ...PRIVATE_RUN_TOOLS])) return;
  const DROP_IN = '/run/systemd/system/kubelet.service.d/99-node-check-fallback.conf';
  const mkdir = toolPath('mkdir')!;
  const writeDropIn = `${mkdir} -p ${DROP_IN.replace(/\/[^/]*$/, '')} && printf '[Service]\\nExecStart=\\nExecStart=/usr/bin/kubelet\\n' > ${DROP_IN}`;

  interface Case {
    readonly args: readonly string[];
    /** Shell run by the podman stand-in (node-check in the container); PATH has coreutils. */
    readonly podman?: string;
    readonly podmanExit?: number;
    /** Shell run before the wrapper, e.g. a fallback already in place. */
    readonly before?: string;
    readonly kubeletVersion?: string;
    readonly withConfig?: boolean;
  }
  const wrapper = (c: Case) => {
    const dir = t.testdir({ stubs: {}, 'config.yaml': 'fallback: true\n' });
    const stubs = join(dir, 'stubs');
    const argvFile = join(dir, 'podman.argv');
    writeStub(stubs, 'podman', { exitCode: c.podmanExit ?? 0, body: `for a in "$@"; do printf '%s\\n' "$a"; done > '${argvFile}'\n${c.podman ?? ''}` });
    writeStub(stubs, 'systemctl');
    writeStub(stubs, 'journalctl');
    if (c.kubeletVersion) writeStub(stubs, 'kubelet', { body: `echo '${c.kubeletVersion}'` });
    const env = {
      PATH: `${stubs}:/usr/bin:/bin`,
      NODE_CHECK_CONFIG: c.withConfig ? join(dir, 'config.yaml') : join(dir, 'absent.yaml'),
    };
    const result = runInPrivateRun([toolPath('bash')!, repoPath(WRAPPER), ...c.args], { env, ...(c.before ? { setup: c.before } : {}) });
    let argv: string[] = [];
    try {
      argv = readFileSync(argvFile, 'utf8').split('\n').slice(0, -1);
    } catch {
      // podman was not run
    }
    return { code: result.code, stderr: result.stderr, argv, podmanCalls: callsOf(stubs, 'podman').length, systemctl: callsOf(stubs, 'systemctl'), config: join(dir, 'config.yaml') };
  };

  const verdict = wrapper({ args: ['preflight', '--no-metrics'], podmanExit: 1, kubeletVersion: 'Kubernetes v1.29.5+3e4d2b1', withConfig: true });
  t.equal(verdict.code, 1, 'node-check\'s exit code passes through');
  t.same(verdict.systemctl, [], 'nothing changed: no reload');
  const imageAt = verdict.argv.indexOf(IMAGE);
  t.ok(imageAt > 0, 'runs the versioned image');
  const options = verdict.argv.slice(0, imageAt);
  t.equal(options[0], 'run');
  for (const option of ['--rm', '--net=none', '--privileged', '--pid=host']) t.ok(options.includes(option), option);
  const volumes = options.flatMap((o, i) => (o === '--volume' ? [options[i + 1]] : []));
  t.same(volumes, ['/:/host:ro', '/run:/host/run', '/run/systemd/journal:/run/systemd/journal'], 'the host read-only at /host, its /run writable at /host/run');
  const command = verdict.argv.slice(imageAt + 1);
  t.same(command, ['preflight', '--no-metrics', '--root', '/host', '--config-file', `/host${verdict.config}`, '--kubelet-version', 'Kubernetes v1.29.5+3e4d2b1']);
  t.equal(parseKubeletVersion(command[command.length - 1]!)?.minor, 29, 'node-check reads the version kubelet prints');

  const bare = wrapper({ args: [] });
  t.equal(bare.code, 0);
  t.same(bare.argv.slice(bare.argv.indexOf(IMAGE) + 1), ['--root', '/host'], 'no settings file, no kubelet: neither is passed');

  t.same((({ code, systemctl }) => ({ code, systemctl }))(wrapper({ args: ['preflight'], podman: writeDropIn })), { code: 0, systemctl: ['daemon-reload'] }, 'a new fallback drop-in: reload');
  t.same((({ code, systemctl }) => ({ code, systemctl }))(wrapper({ args: ['preflight'], before: writeDropIn, podman: `rm -f ${DROP_IN}`, podmanExit: 1 })), { code: 1, systemctl: ['daemon-reload'] }, 'a reverted fallback: reload');
  t.same((({ code, systemctl }) => ({ code, systemctl }))(wrapper({ args: ['preflight'], before: writeDropIn })), { code: 0, systemctl: [] }, 'a fallback kept as it is: no reload');
  t.same((({ code, systemctl }) => ({ code, systemctl }))(wrapper({ args: ['preflight'], before: writeDropIn, podman: `printf '# changed\\n' >> ${DROP_IN}` })), { code: 0, systemctl: ['daemon-reload'] }, 'a rewritten fallback: reload');

  const podmanFailed = wrapper({ args: ['preflight'], podmanExit: 125 });
  t.equal(podmanFailed.code, 2, 'podman\'s own failure is "cannot tell", never a verdict');
  t.match(podmanFailed.stderr, /^<4>node-check: podman run .* failed \(exit 125\)$/m);
  t.equal(wrapper({ args: ['check'], podmanExit: 64 }).code, 64, 'usage errors pass through');
  t.equal(wrapper({ args: ['check'], podmanExit: 2 }).code, 2);

  const serve = wrapper({ args: ['serve'] });
  t.equal(serve.code, 64, 'serve is the DaemonSet\'s job');
  t.equal(serve.podmanCalls, 0);
});
