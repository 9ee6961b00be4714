// Inputs kubelet refuses before "Started kubelet" that used to pass silently: logging.format,
// TLS names, --exit-on-lock-contention without --lock-file, the client CA bundle, evictionHard.
// Each is checked in kubelet's start order (the whole START_SEQUENCE) with kubelet's text per
// minor, and once end to end on a copy of a healthy kubeadm root (check --root … --output json).
import t from 'tap';
import * as fs from 'node:fs';
import * as path from 'node:path';
import { fileURLToPath } from 'node:url';
import { execa } from 'execa';
import type { NodeModel, PathFact } from '../../src/model/node.js';
import { StartContext } from '../../src/start/start-context.js';
import { requireTraits } from '../../src/kubelet/version.js';
import { START_SEQUENCE } from '../../src/start/start-sequence.js';
import { simulateStart, startVerdict } from '../../src/start/simulate-start.js';
import { checkLogging } from '../../src/kubelet/config/logging.js';
import { checkClientCaFile } from '../../src/kubelet/node-setup/client-ca.js';
import { executable, modelOf } from '../fallback/model.js';

const CONF = '/var/lib/kubelet/config.yaml';
const CA = '/etc/kubernetes/pki/ca.crt';
const KC = 'apiVersion: kubelet.config.k8s.io/v1beta1\nkind: KubeletConfiguration\ncontainerRuntimeEndpoint: unix:///run/containerd/containerd.sock\n';
const repo = (p: string) => fileURLToPath(new URL(`../../${p}`, import.meta.url));
const PEM = fs.readFileSync(repo('test/fixtures/nodes/kubeadm-debian-ecr/root/etc/kubernetes/pki/ca.crt'));

const fileFact = (data: Buffer): PathFact => ({ exists: true, type: 'file', mode: 0o644, uid: 0, gid: 0, content: { ok: true, data } });

function run(args: string, minor: number, config: string, files: Record<string, PathFact> = {}) {
  const base = modelOf({ execStart: `/usr/bin/kubelet --config=${CONF} ${args}`, files: { '/usr/bin/kubelet': executable(), ...files } });
  const model: NodeModel = { ...base, kubeletConfig: { configFile: { path: CONF, content: Buffer.from(KC + config) } } };
  return simulateStart(new StartContext(model, minor, requireTraits(minor), 'upstream'), START_SEQUENCE);
}

t.test('logging.format bogus: 1.25+ at init-logging, before validation; 1.24 inside validation', async (t) => {
  for (const minor of [25, 30, 36]) {
    const sim = run('', minor, 'logging:\n  format: bogus\nport: 70000\n');
    t.equal(startVerdict(sim), false, `1.${minor}`);
    t.equal(sim.failure?.findingId, 'kubelet-logging-invalid', 'logging fails before the bad port is validated');
    t.equal(sim.failure?.kubeletError, 'initialize logging: logging.format: Invalid value: "bogus": Unsupported log format');
    t.equal(sim.failure?.logLine, '"command failed" err="initialize logging: logging.format: Invalid value: \\"bogus\\": Unsupported log format"');
  }
  const flag = run('--logging-format=bogus', 30, '');
  t.equal(flag.failure?.kubeletError, 'initialize logging: logging.format: Invalid value: "bogus": Unsupported log format', '--logging-format is the same field');
  const old = run('', 24, 'logging:\n  format: bogus\n');
  t.equal(old.failure?.findingId, 'kubelet-config-validation');
  t.equal(old.failure?.kubeletError, 'failed to validate kubelet configuration, error: logging.format: Invalid value: "bogus": Unsupported log format, path: &TypeMeta{Kind:,APIVersion:,}');
  for (const format of ['text', 'json', '']) t.equal(startVerdict(run('', 30, `logging:\n  format: "${format}"\n`)), true, `format ${JSON.stringify(format)} starts`);
  const jsonOff = run('--feature-gates=LoggingBetaOptions=false', 30, 'logging:\n  format: json\n');
  t.equal(jsonOff.failure?.kubeletError, 'initialize logging: logging.format: Forbidden: Log format json is disabled, see LoggingBetaOptions feature');
});

t.test('logging: what is modelled and what is undecided', async (t) => {
  const on = () => true;
  const kubeadm = { logging: { flushFrequency: 0, verbosity: 0, options: { json: { infoBufferSize: '0' }, text: { infoBufferSize: '0' } } } };
  t.same(checkLogging(30, kubeadm, on, new Set()), { ok: true }, 'kubeadm\'s written defaults');
  t.same(checkLogging(30, { logging: { format: 'json', vmodule: [{ filePattern: 'x', verbosity: 2 }] } }, on, new Set()), { ok: false, errors: ['logging.vmodule: Forbidden: Only supported for text log format'], inexact: true });
  t.match(checkLogging(30, { logging: { options: { json: { splitStream: true } } } }, on, new Set()), { undecidable: /logging\.options\.json/ });
  t.match(checkLogging(25, { logging: { format: 'json' } }, on, new Set(['log-dir'])), { undecidable: /--log-dir/ }, 'klog flags with a non-text format on 1.25');
  t.same(checkLogging(26, { logging: { format: 'json' } }, on, new Set(['log-dir'])), { ok: true }, '1.26+ has no klog flags to honour');
});

t.test('tlsMinVersion and --tls-cipher-suites: InitializeTLS, after validation', async (t) => {
  const version = run('', 30, 'tlsMinVersion: VersionTLS99\n');
  t.equal(version.failure?.findingId, 'kubelet-tls-option-unknown');
  t.equal(version.failure?.kubeletError, 'failed to construct kubelet dependencies: unknown tls version "VersionTLS99"');
  const suites = run('--tls-cipher-suites=TLS_ECDHE_RSA_WITH_AES_128_GCM_SHA256,BOGUS', 24, 'tlsMinVersion: VersionTLS99\n');
  t.equal(suites.failure?.kubeletError, "failed to construct kubelet dependencies: Cipher suite BOGUS not supported or doesn't exist", 'cipher suites are read before the version');
  const before = run('', 30, 'tlsMinVersion: VersionTLS99\nport: 70000\n');
  t.equal(before.failure?.findingId, 'kubelet-config-validation', 'validation comes first');
  const openshift = run('', 36, 'tlsMinVersion: VersionTLS12\ntlsCipherSuites: [TLS_ECDHE_ECDSA_WITH_CHACHA20_POLY1305_SHA256, TLS_ECDHE_RSA_WITH_CHACHA20_POLY1305, TLS_AES_128_GCM_SHA256]\n');
  t.equal(startVerdict(openshift), true, 'Go\'s names, the legacy CHACHA20 names and TLS 1.3 names are known');
});

t.test('--exit-on-lock-contention without --lock-file', async (t) => {
  for (const minor of [24, 30, 36]) {
    const sim = run('--exit-on-lock-contention', minor, '');
    t.equal(sim.failure?.findingId, 'kubelet-lock-file-missing', `1.${minor}`);
    t.equal(sim.failure?.kubeletError, 'failed to run Kubelet: cannot exit on lock file contention: no lock file specified');
  }
  t.equal(startVerdict(run('--exit-on-lock-contention=false', 30, '')), true);
  const locked = run('--exit-on-lock-contention --lock-file=/var/run/lock/kubelet.lock', 30, '');
  t.equal(startVerdict(locked), null, 'creating and locking the file is not modelled');
  t.match(locked.undecided, [{ reason: /--lock-file \/var\/run\/lock\/kubelet\.lock/ }]);
});

t.test('the client CA bundle: garbage, empty, missing are fatal, at InitializeTLS up to 1.35, at BuildAuth from 1.36; a certificate passes', async (t) => {
  const conf = `authentication:\n  x509:\n    clientCAFile: ${CA}\n`;
  const garbage = run('', 36, conf, { [CA]: fileFact(Buffer.from('not a certificate\n')) });
  t.equal(garbage.failure?.findingId, 'kubelet-client-ca-invalid');
  t.equal(garbage.failure?.kubeletError, `failed to run Kubelet: error loading CA bundle for "client-ca-bundle::${CA}": data does not contain any valid RSA or ECDSA certificates`);
  t.equal(garbage.failure?.path, CA);
  const empty = run('', 36, conf, { [CA]: fileFact(Buffer.alloc(0)) });
  t.equal(empty.failure?.kubeletError, `failed to run Kubelet: missing content for CA bundle "client-ca-bundle::${CA}"`);
  const missing = run('', 36, conf, { [CA]: { exists: false, code: 'ENOENT' } });
  t.equal(missing.failure?.kubeletError, `failed to run Kubelet: open ${CA}: no such file or directory`);
  // Up to 1.35 InitializeTLS loads it first, with cert.NewPool (as the real kubelet 1.31.14 prints it).
  const initializeTls = (data: PathFact) => run('', 30, conf, { [CA]: data }).failure?.kubeletError;
  t.equal(initializeTls({ exists: false, code: 'ENOENT' }), `failed to construct kubelet dependencies: unable to load client CA file ${CA}: open ${CA}: no such file or directory`);
  t.equal(initializeTls(fileFact(Buffer.alloc(0))), `failed to construct kubelet dependencies: unable to load client CA file ${CA}: error creating pool from ${CA}: data does not contain any valid RSA or ECDSA certificates`);
  t.equal(initializeTls(fileFact(Buffer.from('not a certificate\n'))), `failed to construct kubelet dependencies: unable to load client CA file ${CA}: error creating pool from ${CA}: data does not contain any valid RSA or ECDSA certificates`);
  t.equal(startVerdict(run('', 30, conf, { [CA]: fileFact(PEM) })), true);
  t.equal(startVerdict(run(`--client-ca-file=${CA}`, 30, '', { [CA]: fileFact(Buffer.from('x')) })), false, '--client-ca-file is the same field');
  t.equal(startVerdict(run('', 30, conf)), null, 'a path discovery did not read is "cannot tell"');
  const broken = PEM.toString().replace(/\n[A-Za-z0-9+/]{10}/, '\nAAAAAAAAAA');
  t.match(checkClientCaFile(30, CA, fileFact(Buffer.from(broken))), { ok: false, error: /^error loading CA bundle for "client-ca-bundle::.*": x509: / }, 'a damaged certificate: refused in Go\'s words');
  t.match(checkClientCaFile(30, 'ca.crt', fileFact(PEM)), { undecidable: /relative/ });
  t.match(checkClientCaFile(30, CA, { exists: false, code: 'EACCES' }), { undecidable: /EACCES/ }, 'kubelet runs as root');
});

t.test('evictionHard: ParseThresholdConfig in run()', async (t) => {
  const bogus = run('', 30, 'evictionHard:\n  memory.available: bogus\n');
  t.equal(bogus.failure?.findingId, 'kubelet-eviction-hard-invalid');
  t.equal(bogus.failure?.kubeletError, "failed to run Kubelet: quantities must match the regular expression '^([+-]?[0-9.]+)([eEinumkKMGTP]*[-+]?[0-9]*)$'");
  const flag = run('--eviction-hard=memory.available<200%', 30, '');
  t.equal(flag.failure?.kubeletError, 'failed to run Kubelet: eviction percentage threshold memory.available must be <= 100%: 200%');
  t.equal(startVerdict(run('--experimental-allocatable-ignore-eviction', 30, 'evictionHard:\n  memory.available: bogus\n')), true, 'skipped with --experimental-allocatable-ignore-eviction');
});

t.test('end to end: a healthy kubeadm root, then its CA bundle replaced with garbage', async (t) => {
  const root = t.testdir();
  fs.cpSync(repo('test/fixtures/nodes/kubeadm-debian-ecr/root'), root, { recursive: true, verbatimSymlinks: true });
  const cli = repo('dist/node-check.cjs');
  const check = () => execa('node', [cli, 'check', '--root', root, '--kubelet-version', '1.30.0', '--output', 'json'], { reject: false });
  const healthy = await check();
  t.equal(JSON.parse(healthy.stdout).kubeletWillStart, true, healthy.stdout.slice(0, 400));
  fs.writeFileSync(path.join(root, CA), 'garbage\n');
  const bad = await check();
  const report = JSON.parse(bad.stdout) as { kubeletWillStart: boolean; findings: { id: string; path?: string }[] };
  t.equal(report.kubeletWillStart, false);
  t.match(report.findings, [{ id: 'kubelet-client-ca-invalid', path: CA }]);
  t.equal(bad.exitCode, 1);
});

t.test('an input no rule decides, set to a non-default value, is "cannot tell", naming it, its file and line', async (t) => {
  const sim = run('', 30, 'maxPods: 110\nmemoryManagerPolicy: Static\n');
  t.equal(startVerdict(sim), null);
  t.match(sim.undecided, [{ checkId: 'kubelet-undecided-inputs', path: CONF, reason: new RegExp(`memoryManagerPolicy \\(${CONF}:5\\)`) }]);
  t.equal(startVerdict(run('', 30, 'cpuManagerPolicy: ""\nregisterNode: null\n')), true, 'zero and null values are the defaults');
  const flag = run('--seccomp-default', 30, '');
  t.equal(startVerdict(flag), null);
  t.match(flag.undecided[0]?.reason, /--seccomp-default \(\/etc\/systemd\/system\/kubelet\.service:20\)/, 'a flag: the ExecStart= line');
  t.equal(startVerdict(run('--experimental-mounter-path=/home/kubernetes/containerized_mounter/mounter', 30, '')), true, '--experimental-mounter-path is stored for later mounts: decided');
  t.equal(startVerdict(run('--register-schedulable=true', 33, '')), true, '--register-schedulable is read when the node registers, after start: decided');
  const failing = run('--seccomp-default --exit-on-lock-contention', 30, '');
  t.equal(startVerdict(failing), false, 'a later refusal still decides');
  t.equal(failing.failure?.inexact, true, 'its text is then inexact');
  t.match(run('', 30, 'containerLogMaxFiles: 1\n').undecided, [{ reason: /containerLogMaxFiles/ }], 'a no-effect field outside the values it is decided for');
  t.match(run('', 30, 'authorization:\n  mode: Webhook\n').undecided, [{ reason: /authorization\.mode/ }], 'Webhook without --kubeconfig: no API client');
  t.equal(startVerdict(run('--kubeconfig=/etc/kubernetes/kubelet.conf', 30, 'authorization:\n  mode: Webhook\n')), true);
});

t.test('--tls-cipher-suites is split as pflag does: a space after a comma is part of the name', async (t) => {
  const sim = run('"--tls-cipher-suites=TLS_AES_128_GCM_SHA256, TLS_AES_256_GCM_SHA384"', 30, '');
  t.equal(sim.failure?.kubeletError, "failed to construct kubelet dependencies: Cipher suite  TLS_AES_256_GCM_SHA384 not supported or doesn't exist");
});

t.test('address: a host fact; kubeletCgroups: decided for an absolute path (kubespray writes both)', async (t) => {
  const { evaluate } = await import('../../src/evaluate/evaluate.js');
  const config = `authentication:\n  x509:\n    clientCAFile: ${CA}\naddress: "10.0.0.11"\nkubeletCgroups: /system.slice/kubelet.service\n`;
  const base = modelOf({ execStart: `/usr/bin/kubelet --config=${CONF} --kubeconfig=/etc/kubernetes/kubelet.conf`, files: { '/usr/bin/kubelet': executable(), [CA]: fileFact(PEM) } });
  const withConfig = (root: string, extra = ''): NodeModel => ({ ...base, root, kubeletConfig: { configFile: { path: CONF, content: Buffer.from(KC + config + extra) } }, kubeletVersion: { text: '1.34.0', source: 'flag' } });
  const other = evaluate(withConfig('/copy'));
  t.equal(other.kubeletWillStart, true, 'another root: the listen address is not checked and changes no answer');
  t.match(other.notChecked, [{ fact: 'address', reason: /whether the machine has the address kubelet listens on \(address "10\.0\.0\.11"\)/ }]);
  const live = evaluate(withConfig('/'));
  t.equal(live.kubeletWillStart, null, 'the live root: whether this machine has 10.0.0.11 is not read, so cannot tell');
  t.match(live.findings.find((f) => f.id === 'cannot-decide')?.message, /address .*not "10\.0\.0\.11"/);
  t.notMatch(live.findings.map((f) => f.message).join(' '), /kubeletCgroups/, 'an absolute kubeletCgroups is decided');
  const relative = evaluate({ ...withConfig('/copy'), kubeletConfig: { configFile: { path: CONF, content: Buffer.from(KC + `authentication:\n  x509:\n    clientCAFile: ${CA}\nkubeletCgroups: kubelet.slice\n`) } } });
  t.equal(relative.kubeletWillStart, null, 'a relative kubeletCgroups is not decided');
  const universal = evaluate({ ...withConfig('/'), kubeletConfig: { configFile: { path: CONF, content: Buffer.from(KC + `authentication:\n  x509:\n    clientCAFile: ${CA}\naddress: 0.0.0.0\n`) } } });
  t.equal(universal.notChecked.some((n) => n.fact === 'address'), false, '0.0.0.0 is decided: nothing left unchecked');
});
