// packaging/openshift: the generator takes the image by digest only; the manifests parse and say
// what they must (kinds, apiVersions, the MachineConfig never writes under /etc/kubernetes nor
// replaces kubelet.service, it carries the repository's files with the image filled in, the pull
// unit is bounded and ordered before kubelet), and the podman wrapper behaves: node-check's exit
// codes pass through, podman's failures become 2, systemd is reloaded exactly when the fallback
// drop-in changed. Here podman is a stand-in; podman.test.ts runs the image with real podman.
import t from 'tap';
import { spawnSync } from 'node:child_process';
import { readdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { parse, parseAllDocuments } from 'yaml';
import { parseKubeletVersion } from '../../src/kubelet/version.js';
import { parseUnitFile } from '../../src/systemd/unit-file.js';
import { parseExecValue } from '../../src/systemd/exec-command.js';
import { parseUnitName } from '../../src/systemd/unit-name.js';
import { rulesFor } from '../../src/systemd/systemd-version.js';
import { requireTools, toolPath } from '../harness/tools.js';
import { callsOf, PRIVATE_RUN_TOOLS, runInPrivateRun, writeStub } from './sandbox.js';

const repoPath = (path: string) => fileURLToPath(new URL(`../../${path}`, import.meta.url));
const repoFile = (path: string) => readFileSync(repoPath(path), 'utf8');
const WRAPPER = 'packaging/openshift/node-check.sh';
const PULL_UNIT = 'packaging/openshift/node-check-image-pull.service';
/** What an operator passes to the generator: a pushed image, by digest. */
const DIGEST_IMAGE = `registry.example.com/openshift/node-check@sha256:${'0123456789abcdef'.repeat(4)}`;

function generate(args: readonly string[]) {
  const result = spawnSync(process.execPath, [repoPath('scripts/gen-openshift.mjs'), ...args], { encoding: 'utf8', timeout: 30_000 });
  if (result.error) throw result.error;
  return { code: result.status, stdout: result.stdout, stderr: result.stderr };
}

// The manifests are checked field by field; this is the little of their shape the test reads.
interface MachineConfigDoc {
  apiVersion: string;
  kind: string;
  metadata: { name: string; labels: Record<string, string> };
  spec: {
    config: {
      ignition: { version: string };
      storage?: { files?: { path: string; mode: number; contents: { source: string } }[] };
      systemd?: { units?: SystemdUnit[] };
    };
  };
}
interface SystemdUnit {
  name: string;
  contents?: string;
  enabled?: boolean;
  mask?: boolean;
  dropins?: { name: string; contents: string }[];
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

const generated = generate(['--image', DIGEST_IMAGE]);
const machineConfig = parse(generated.stdout) as MachineConfigDoc;
const unitsOf = (config: MachineConfigDoc) => new Map((config.spec.config.systemd?.units ?? []).map((u) => [u.name, u]));

function decodeDataUrl(source: string): string {
  const match = /^data:[^,]*;base64,(.*)$/s.exec(source);
  if (!match) throw new Error(`not a base64 data URL: ${source.slice(0, 40)}…`);
  return Buffer.from(match[1]!, 'base64').toString('utf8');
}

// The kubelet drop-ins the MCO itself ships or writes (MCO templates/worker/01-worker-kubelet/ and pkg/controller/container-runtime-config/helpers.go).
const MCO_KUBELET_DROP_INS = [
  '01-kubens.conf', '10-mco-default-env.conf', '10-mco-default-madv.conf', '10-mco-on-prem-wait-resolv.conf', '20-logging.conf',
  '20-node-env.conf', '20-aws-providerid.conf', '20-nodenet.conf', '40-kubelet-crio-image-credential-provider.conf',
];

t.test('the generator takes the image by digest, and nothing else', async (t) => {
  t.equal(generated.code, 0, generated.stderr);
  for (const [args, why] of [
    [[], /--image is required/],
    [['--image', 'registry.example.com/node-check:0.1.0'], /is not REPOSITORY@sha256:<64 hex digits> \(a tag can move/],
    [['--image', 'registry.example.com/node-check'], /is not REPOSITORY@sha256/],
    [['--image', `registry.example.com/node-check@sha256:${'0'.repeat(63)}`], /is not REPOSITORY@sha256/],
    [['--image', `Registry.example.com/Node-Check@sha256:${'0'.repeat(64)}`], /is not REPOSITORY@sha256/],
    [['--image', `node-check@sha256:${'0'.repeat(64)}`], /is not REPOSITORY@sha256/],
    [['--image', DIGEST_IMAGE, '--role', 'infra'], /--role must be worker or master/],
    [['--image', DIGEST_IMAGE, '--bogus'], /Unknown option '--bogus'/],
  ] as const) {
    const refused = generate(args);
    t.equal(refused.code, 64, `${args.join(' ') || '(no arguments)'}: usage error`);
    t.match(refused.stderr, why);
    t.match(refused.stderr, /^usage: node scripts\/gen-openshift\.mjs --image/m);
    t.notMatch(refused.stderr, /\n\s+at /, 'no stack trace');
    t.equal(refused.stdout, '', 'nothing generated');
  }
  // A tag may ride along with the digest (the digest wins); a registry port is fine.
  t.equal(generate(['--image', `registry.example.com:5000/ns/node-check:0.1.0@sha256:${'a'.repeat(64)}`]).code, 0);
});

t.test('--output writes the same MachineConfig; --role master', async (t) => {
  const dir = t.testdir();
  const output = join(dir, 'mc.yaml');
  const written = generate(['--image', DIGEST_IMAGE, '--output', output]);
  t.equal(written.code, 0, written.stderr);
  t.equal(readFileSync(output, 'utf8'), generated.stdout);
  t.same(readdirSync(dir), ['mc.yaml'], 'no temp file left behind');
  writeFileSync(output, 'old\n');
  t.equal(generate(['--image', DIGEST_IMAGE, '--output', output]).code, 0);
  t.equal(readFileSync(output, 'utf8'), generated.stdout, 'replaces an existing file');

  const unwritable = generate(['--image', DIGEST_IMAGE, '--output', join(dir, 'absent', 'mc.yaml')]);
  t.equal(unwritable.code, 73, 'an unwritable --output: 73');
  t.match(unwritable.stderr, new RegExp(`^gen-openshift: cannot write ${join(dir, 'absent', 'mc.yaml')}: ENOENT`, 'm'), 'names the file');
  t.notMatch(unwritable.stderr, /\n\s+at /, 'no stack trace');

  const master = parse(generate(['--image', DIGEST_IMAGE, '--role', 'master']).stdout) as MachineConfigDoc;
  t.equal(master.metadata.name, '99-master-node-check');
  t.equal(master.metadata.labels['machineconfiguration.openshift.io/role'], 'master');
  t.same(master.spec, machineConfig.spec, 'the same files and units as for workers');
});

t.test('the MachineConfig: kind, role, Ignition 3', async (t) => {
  t.equal(machineConfig.apiVersion, 'machineconfiguration.openshift.io/v1');
  t.equal(machineConfig.kind, 'MachineConfig');
  t.equal(machineConfig.metadata.name, '99-worker-node-check');
  t.equal(machineConfig.metadata.labels['machineconfiguration.openshift.io/role'], 'worker');
  // Merged in name order after the MCO's 01-worker-kubelet, whose kubelet.service it must not replace.
  t.ok(machineConfig.metadata.name > '01-worker-kubelet', `${machineConfig.metadata.name} sorts after 01-worker-kubelet`);
  t.match(machineConfig.spec.config.ignition.version, /^3\.\d+\.\d+$/);
});

t.test('the MachineConfig never writes under /etc/kubernetes and never replaces kubelet.service', async (t) => {
  const files = machineConfig.spec.config.storage?.files ?? [];
  const units = unitsOf(machineConfig);
  t.same(files.map((f) => f.path).sort(), ['/usr/local/bin/node-check', '/usr/local/lib/systemd/catalog/node-check.catalog'], 'exactly these files');
  for (const file of files) {
    t.notOk(file.path.startsWith('/etc/kubernetes/'), `${file.path}: not under /etc/kubernetes`);
    t.notOk(file.path.startsWith('/etc/systemd/'), `${file.path}: no unit written as a file`);
    t.ok(!file.path.startsWith('/usr/') || file.path.startsWith('/usr/local/'), `${file.path}: /usr is read-only on RHCOS, /usr/local is not`);
  }
  t.same([...units.keys()], ['node-check-image-pull.service', 'kubelet.service'], 'the pull unit, and kubelet.service');
  const kubelet = units.get('kubelet.service')!;
  t.same(Object.keys(kubelet).sort(), ['dropins', 'name'], 'no contents, enabled or mask: the MCO\'s kubelet.service stays as it is');
  t.same(kubelet.dropins?.map((d) => d.name), ['90-node-check.conf']);
  for (const dropIn of kubelet.dropins ?? []) {
    t.notOk(MCO_KUBELET_DROP_INS.includes(dropIn.name), `${dropIn.name} is not one of the MCO's drop-ins`);
    t.notMatch(dropIn.contents, /^\s*ExecStart\s*=/m, 'the drop-in does not touch ExecStart=');
    t.notMatch(dropIn.contents, /\/etc\/kubernetes/, 'nor names anything under /etc/kubernetes');
  }
  const pull = units.get('node-check-image-pull.service')!;
  t.same(Object.keys(pull).sort(), ['contents', 'enabled', 'name']);
  t.equal(pull.enabled, true, 'enabled: it runs at every boot');
});

t.test('the MachineConfig carries the repository files, with the image filled in', async (t) => {
  const files = new Map((machineConfig.spec.config.storage?.files ?? []).map((f) => [f.path, f]));
  const template = repoFile(WRAPPER);
  t.equal(template.split('@IMAGE@').length, 2, `${WRAPPER} holds @IMAGE@ once`);
  t.match(template, /^image="\$\{NODE_CHECK_IMAGE:-@IMAGE@\}"$/m, 'as the default of image=');
  const wrapper = files.get('/usr/local/bin/node-check');
  t.equal(wrapper && decodeDataUrl(wrapper.contents.source), template.replace('@IMAGE@', DIGEST_IMAGE), `${WRAPPER}, image= the digest given`);
  t.equal(wrapper?.mode, 0o755);
  const catalog = files.get('/usr/local/lib/systemd/catalog/node-check.catalog');
  t.equal(catalog && decodeDataUrl(catalog.contents.source), repoFile('systemd/node-check.catalog'), 'systemd/node-check.catalog');
  t.equal(catalog?.mode, 0o644);
  const units = unitsOf(machineConfig);
  t.equal(units.get('kubelet.service')?.dropins?.[0]?.contents, repoFile('packaging/openshift/90-node-check.conf'), 'packaging/openshift/90-node-check.conf');
  t.equal(units.get('node-check-image-pull.service')?.contents, repoFile(PULL_UNIT), PULL_UNIT);
  t.match(generated.stdout, new RegExp(`^# \`node scripts/gen-openshift\\.mjs --image ${DIGEST_IMAGE} --role worker\`$`, 'm'), 'says how it was generated');
});

t.test('the pull unit: oneshot, before kubelet, bounded, never required (systemd 239 and 252)', async (t) => {
  for (const version of [239, 252]) {
    const rules = rulesFor(version);
    const parsed = parseUnitFile(repoFile(PULL_UNIT), PULL_UNIT, rules.unitFile);
    t.same(parsed.diagnostics, [], `systemd ${version}: no diagnostics`);
    const value = (section: string, key: string) => parsed.assignments.filter((a) => a.section === section && a.key === key).map((a) => a.value);
    t.same(value('Unit', 'Before'), ['kubelet.service'], `systemd ${version}: before kubelet`);
    t.same([...value('Unit', 'Requires'), ...value('Unit', 'RequiredBy'), ...value('Install', 'RequiredBy')], [], 'nothing requires it: a failed pull never stops kubelet');
    t.same(value('Service', 'Type'), ['oneshot']);
    t.same(value('Service', 'RemainAfterExit'), ['yes']);
    const timeout = Number(value('Service', 'TimeoutStartSec')[0]);
    t.ok(timeout > 0 && timeout <= 90, `TimeoutStartSec=${timeout}: bounded`);
    t.same(value('Install', 'WantedBy'), ['multi-user.target']);
    const exec = value('Service', 'ExecStart');
    t.equal(exec.length, 1);
    const parsedExec = parseExecValue(exec[0]!, parsed.assignments.find((a) => a.key === 'ExecStart')!.source, parseUnitName('node-check-image-pull.service')!, { colonPrefix: rules.execColonPrefix });
    t.same(parsedExec.commands[0]?.words, ['/bin/bash', '/usr/local/bin/node-check', 'pull-image']);
  }
  // The wrapper's own bounds fit in TimeoutStartSec=: attempts × per-attempt budget + pauses.
  const wrapper = repoFile(WRAPPER);
  const number = (name: string) => Number(new RegExp(`^${name}="?(?:\\$\\{[A-Z_]+:-)?(\\d+)`, 'm').exec(wrapper)?.[1]);
  const [attempts, budget, pause] = [number('pull_attempts'), number('pull_budget'), number('pull_pause')];
  const worst = attempts * budget + pause * ((attempts - 1) * attempts) / 2;
  const timeout = Number(/^TimeoutStartSec=(\d+)$/m.exec(repoFile(PULL_UNIT))?.[1]);
  t.ok(worst > 0 && worst <= timeout, `the wrapper's worst case (${worst} s) fits in TimeoutStartSec=${timeout}`);
});

t.test('the pull unit passes systemd-analyze verify', async (t) => {
  if (!requireTools(t, ['systemd-analyze', 'bash'])) return;
  const verify = (text: string) => {
    const dir = t.testdir({ 'node-check-image-pull.service': text });
    const result = spawnSync(toolPath('systemd-analyze')!, ['verify', '--man=no', join(dir, 'node-check-image-pull.service')], {
      encoding: 'utf8',
      env: { ...process.env, SYSTEMD_LOG_COLOR: '0' },
      timeout: 30_000,
    });
    if (result.error) throw result.error;
    return { code: result.status, ours: result.stderr.split('\n').filter((line) => line.includes('node-check-image-pull')), stderr: result.stderr };
  };
  const shipped = verify(repoFile(PULL_UNIT));
  t.equal(shipped.code, 0, shipped.stderr);
  t.same(shipped.ours, [], 'no complaint about the unit');
  // Control: the same check sees a mistake in this file.
  t.ok(verify(repoFile(PULL_UNIT).replace('[Service]', '[Service]\nTimeoutStartSecc=5')).ours.some((line) => /Unknown key 'TimeoutStartSecc'/.test(line)), 'an unknown key is reported');
});

t.test('no placeholder organisation in the RHCOS route', async (t) => {
  // node-check-serve.yaml (the DaemonSet, test/packaging/daemonset.test.ts) is outside this route.
  const files = readdirSync(repoPath('packaging/openshift')).filter((f) => f !== 'node-check-serve.yaml').map((f) => `packaging/openshift/${f}`);
  for (const file of [...files, 'scripts/gen-openshift.mjs', 'test/packaging/podman.test.ts']) {
    t.notMatch(repoFile(file), /quay\.io\/node-check|github\.com\/node-check/, `${file}: no made-up registry or organisation`);
  }
});

// The serve manifests (DaemonSet, RBAC, Service, ServiceMonitor): test/packaging/daemonset.test.ts.

t.test('the Containerfile', async (t) => {
  t.match(repoFile('packaging/openshift/Containerfile'), /^COPY dist\/node-check\.cjs dist\/node-check\.bundle\.cjs \/usr\/lib\/node-check\/$/m, 'the Containerfile copies the launcher and the bundle');
  t.match(repoFile('packaging/openshift/Containerfile'), /^COPY LICENSE dist\/THIRD_PARTY_LICENSES \/usr\/share\/licenses\/node-check\/$/m, 'and the licence texts');
  t.match(repoFile('packaging/openshift/Containerfile'), /^ARG BASE=registry\.access\.redhat\.com\/ubi9\/nodejs-22-minimal\S*\nFROM \$\{BASE\}$/m, 'Node.js 22 by default, any base by --build-arg BASE');
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
    /** Exit code of `podman image exists` (default 0: the image is on the node). */
    readonly imageExists?: number;
    readonly env?: Readonly<Record<string, string>>;
    /** Run with $JOURNAL_STREAM naming the wrapper's stderr, as systemd does for ExecStartPre=. */
    readonly journalStream?: boolean;
  }

  const wrapper = (c: Case) => {
    // As the MachineConfig installs it: image= the digest.
    const dir = t.testdir({ stubs: {}, 'config.yaml': 'fallback: true\n', 'node-check': repoFile(WRAPPER).replace('@IMAGE@', DIGEST_IMAGE) });
    const installed = join(dir, 'node-check');
    const stubs = join(dir, 'stubs');
    const argvFile = join(dir, 'podman.argv');
    writeStub(stubs, 'podman', {
      exitCode: c.podmanExit ?? 0,
      body: `[ "$1" = image ] && exit ${c.imageExists ?? 0}\n[ "$1" = pull ] && exit 1\nfor a in "$@"; do printf '%s\\n' "$a"; done > '${argvFile}'\n${c.podman ?? ''}`,
    });
    writeStub(stubs, 'systemctl');
    writeStub(stubs, 'journalctl');
    if (c.kubeletVersion) writeStub(stubs, 'kubelet', { body: `echo '${c.kubeletVersion}'` });
    const env = {
      PATH: `${stubs}:/usr/bin:/bin`,
      NODE_CHECK_CONFIG: c.withConfig ? join(dir, 'config.yaml') : join(dir, 'absent.yaml'),
      ...c.env,
    };
    const asUnit = c.journalStream ? [toolPath('bash')!, '-c', 'JOURNAL_STREAM=$(stat -L -c %d:%i /proc/$$/fd/2) exec "$@"', 'unit'] : [];
    const result = runInPrivateRun([...asUnit, toolPath('bash')!, installed, ...c.args], { env, ...(c.before ? { setup: c.before } : {}) });
    let argv: string[] = [];
    try {
      argv = readFileSync(argvFile, 'utf8').split('\n').slice(0, -1);
    } catch {
      // podman was not run
    }
    return { code: result.code, stderr: result.stderr, argv, podman: callsOf(stubs, 'podman'), podmanCalls: callsOf(stubs, 'podman').length, systemctl: callsOf(stubs, 'systemctl'), config: join(dir, 'config.yaml') };
  };

  const verdict = wrapper({ args: ['preflight', '--no-metrics'], podmanExit: 1, kubeletVersion: 'Kubernetes v1.29.5+3e4d2b1', withConfig: true });
  t.equal(verdict.code, 1, 'node-check\'s exit code passes through');
  t.same(verdict.systemctl, [], 'nothing changed: no reload');
  const imageAt = verdict.argv.indexOf(DIGEST_IMAGE);
  t.ok(imageAt > 0, 'runs the image by the digest the MachineConfig gave');
  const options = verdict.argv.slice(0, imageAt);
  t.equal(options[0], 'run');
  for (const option of ['--rm', '--pull=never', '--net=none', '--privileged', '--pid=host']) t.ok(options.includes(option), option);
  t.equal(options[options.indexOf('--timeout') + 1], '10', 'podman stops the container after 10 s');
  t.same(verdict.podman.length, 1, 'one podman call on the way: run');
  const volumes = options.flatMap((o, i) => (o === '--volume' ? [options[i + 1]] : []));
  t.same(volumes, ['/:/host:ro', '/run:/host/run', '/run/systemd/journal:/run/systemd/journal'], 'the host read-only at /host, its /run writable at /host/run');
  const command = verdict.argv.slice(imageAt + 1);
  t.same(command, ['preflight', '--no-metrics', '--root', '/host', '--config-file', `/host${verdict.config}`, '--kubelet-version', 'Kubernetes v1.29.5+3e4d2b1']);
  t.equal(parseKubeletVersion(command[command.length - 1]!)?.minor, 29, 'node-check reads the version kubelet prints');

  const bare = wrapper({ args: [] });
  t.equal(bare.code, 0);
  t.same(bare.argv.slice(bare.argv.indexOf(DIGEST_IMAGE) + 1), ['--root', '/host'], 'no settings file, no kubelet: neither is passed');

  t.same((({ code, systemctl }) => ({ code, systemctl }))(wrapper({ args: ['preflight'], podman: writeDropIn })), { code: 0, systemctl: ['daemon-reload'] }, 'a new fallback drop-in: reload');
  t.same((({ code, systemctl }) => ({ code, systemctl }))(wrapper({ args: ['preflight'], before: writeDropIn, podman: `rm -f ${DROP_IN}`, podmanExit: 1 })), { code: 1, systemctl: ['daemon-reload'] }, 'a reverted fallback: reload');
  t.same((({ code, systemctl }) => ({ code, systemctl }))(wrapper({ args: ['preflight'], before: writeDropIn })), { code: 0, systemctl: [] }, 'a fallback kept as it is: no reload');
  t.same((({ code, systemctl }) => ({ code, systemctl }))(wrapper({ args: ['preflight'], before: writeDropIn, podman: `printf '# changed\\n' >> ${DROP_IN}` })), { code: 0, systemctl: ['daemon-reload'] }, 'a rewritten fallback: reload');

  const podmanFailed = wrapper({ args: ['preflight'], podmanExit: 125 });
  t.equal(podmanFailed.code, 2, 'podman\'s own failure is "cannot tell", never a verdict');
  t.match(podmanFailed.stderr, /^node-check: podman run .* failed \(exit 125\)$/m, 'says why, with no "<N>" on a terminal or pipe');
  const inJournal = wrapper({ args: ['preflight'], podmanExit: 125, journalStream: true });
  t.match(inJournal.stderr, /^<4>node-check: podman run .* failed \(exit 125\)$/m, 'a "<4>" prefix when stderr is the journal');
  const otherStream = wrapper({ args: ['preflight'], podmanExit: 125, env: { JOURNAL_STREAM: '1:1' } });
  t.match(otherStream.stderr, /^node-check: podman run/m, 'not when $JOURNAL_STREAM names another stream (inherited)');
  const noImage = wrapper({ args: ['preflight'], podmanExit: 125, imageExists: 1 });
  t.equal(noImage.code, 2, 'no image: "cannot tell"');
  t.match(noImage.stderr, /^node-check: image \S+ is not on this node; node-check-image-pull\.service pulls it before kubelet \(now: node-check pull-image\)$/m);
  t.notOk(noImage.podman.some((call) => call.startsWith('pull')), 'and no pull on kubelet\'s start path');
  const pulled = wrapper({ args: ['pull-image'] });
  t.same([pulled.code, pulled.podman], [0, [`image exists ${DIGEST_IMAGE}`]], 'pull-image: nothing to pull when the image is here');
  const notPulled = wrapper({ args: ['pull-image'], imageExists: 1, env: { NODE_CHECK_PULL_PAUSE: '0' } });
  t.equal(notPulled.code, 1, 'pull-image fails when the pulls do');
  t.same(notPulled.podman.filter((call) => call.startsWith('pull')), Array(3).fill(`pull --quiet ${DIGEST_IMAGE}`), 'after 3 attempts');
  t.equal(wrapper({ args: ['check'], podmanExit: 64 }).code, 64, 'usage errors pass through');
  t.equal(wrapper({ args: ['check'], podmanExit: 2 }).code, 2);

  const serve = wrapper({ args: ['serve'] });
  t.equal(serve.code, 64, 'serve is the DaemonSet\'s job');
  t.equal(serve.podmanCalls, 0);
});
