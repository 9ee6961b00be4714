// Kubelet's config steps (4, 5, 8) and Run() (src/start/steps/kubelet-config.ts, kubelet-run.ts) on
// in-memory node models: each case is one kubelet minor and kubelet's exact error text.
import t from 'tap';
import type { NodeModel } from '../../src/model/node.js';
import { StartContext } from '../../src/start/start-context.js';
import { requireTraits } from '../../src/kubelet/version.js';
import { configDropInsStep, configFileStep, configValidationStep } from '../../src/start/steps/kubelet-config.js';
import { kubeletRunStep, postStartStep } from '../../src/start/steps/kubelet-run.js';
import { START_SEQUENCE } from '../../src/start/start-sequence.js';
import { simulateStart, startVerdict } from '../../src/start/simulate-start.js';
import { executable, modelOf } from '../fallback/model.js';

const CONF = '/etc/kubernetes/kubelet.conf';
const DIR = '/etc/kubernetes/kubelet.conf.d';
const KC = 'apiVersion: kubelet.config.k8s.io/v1beta1\nkind: KubeletConfiguration\n';

function ctx(args: string, minor: number, extra: Partial<NodeModel> = {}, env?: Record<string, string>): StartContext {
  const model = { ...modelOf({ execStart: `/usr/bin/kubelet ${args}`, files: { '/usr/bin/kubelet': executable() }, ...(env ? { env } : {}) }), ...extra };
  return new StartContext(model, minor, requireTraits(minor), 'upstream');
}
const withConf = (text: string): Partial<NodeModel> => ({ kubeletConfig: { configFile: { path: CONF, content: Buffer.from(text) } } });
const withDropIn = (text: string | { errno: string }): Partial<NodeModel> => ({
  kubeletConfig: { configDir: { path: DIR, dropIns: [{ path: `${DIR}/10.conf`, content: typeof text === 'string' ? Buffer.from(text) : text }] } },
});
const host = (facts: object, criSockets: object = {}, notChecked: { fact: string; reason: string }[] = []): Partial<NodeModel> =>
  ({ host: { facts, criSockets, notChecked } } as unknown as Partial<NodeModel>);
const failOf = (o: ReturnType<typeof configFileStep.run>) => ('fail' in o ? o.fail : undefined);

t.test('--config: an empty file and a missing file are fatal with kubelet 1.30\'s wrapping', async (t) => {
  const empty = failOf(configFileStep.run(ctx(`--config=${CONF}`, 30, withConf(''))));
  t.equal(empty?.findingId, 'kubelet-config-empty');
  t.equal(empty?.kubeletError, `failed to load kubelet config file, path: ${CONF}, error: failed to load Kubelet config file ${CONF}, error kubelet config file "${CONF}" was empty`);
  t.equal(empty?.exitStatus, 1);
  t.equal(empty?.path, CONF);
  const missing = failOf(configFileStep.run(ctx(`--config=${CONF}`, 30, { kubeletConfig: { configFile: { path: CONF, content: { errno: 'ENOENT' } } } })));
  t.equal(missing?.findingId, 'kubelet-config-unreadable');
  t.equal(missing?.kubeletError, `failed to load kubelet config file, path: ${CONF}, error: failed to load Kubelet config file ${CONF}, error failed to read kubelet config file "${CONF}", error: open ${CONF}: no such file or directory`);
  t.match(missing?.remediation, `Restore ${CONF}`);
});

t.test('--config: unknown fields are dropped with a warning, and kubelet starts', async (t) => {
  const outcome = configFileStep.run(ctx(`--config=${CONF}`, 30, withConf(`${KC}noSuchField: 1\nother: 2\n`)));
  t.ok('pass' in outcome);
  t.match(outcome.findings, [{ id: 'kubelet-config-fields-ignored', severity: 'warning', path: CONF, message: /does not know the fields "noSuchField", "other" in \/etc\/kubernetes\/kubelet\.conf/ }]);
  const one = configFileStep.run(ctx(`--config=${CONF}`, 30, withConf(`${KC}noSuchField: 1\n`)));
  t.match(one.findings?.[0]?.message, /the field "noSuchField" .* drops it and/);
  t.same(configFileStep.run(ctx('--v=2', 30)), { pass: true }, 'no --config: nothing to load');
});

t.test('--config-dir: a directory that cannot be walked is "cannot tell" (an ExecStartPre may create it)', async (t) => {
  const outcome = configDropInsStep.run(ctx(`--config-dir=${DIR}`, 30, { kubeletConfig: { configDir: { path: DIR, dropIns: [], problem: `lstat ${DIR}: no such file or directory`, missing: true } } }));
  t.same(outcome, { undecidable: `--config-dir ${DIR}: lstat ${DIR}: no such file or directory; kubelet fails unless something creates it before kubelet starts`, path: DIR });
  t.same(configDropInsStep.run(ctx('--v=2', 30)), { pass: true });
});

t.test('--config-dir that the unit\'s ExecStartPre= mkdir --parents creates: kubelet finds it empty and starts', async (t) => {
  const missingDir = { kubeletConfig: { configDir: { path: DIR, dropIns: [], problem: `lstat ${DIR}: no such file or directory`, missing: true } } };
  const created = (dirs: string[]) => (c: StartContext) => ({ ...c.model, service: { ...c.model.service, preStartDirectories: dirs } });
  const withService = (dirs: string[], minor: number, env?: Record<string, string>) => {
    const base = ctx(`--config-dir=${DIR}`, minor, missingDir);
    return new StartContext({ ...created(dirs)(base), ...(env ? { kubeletEnvironment: env } : {}) }, minor, requireTraits(minor), 'upstream');
  };
  t.same(configDropInsStep.run(withService([DIR], 34)), { pass: true }, 'OpenShift 4.21+: ExecStartPre=/bin/mkdir --parents /etc/openshift/kubelet.conf.d');
  t.same(configDropInsStep.run(withService([`${DIR}/`], 34)), { pass: true }, 'the same directory written with a trailing slash');
  t.ok('undecidable' in configDropInsStep.run(withService(['/etc/other'], 34)), 'another directory: still cannot tell');
  const alpha = failOf(configDropInsStep.run(withService([DIR], 29)));
  t.equal(alpha?.findingId, 'kubelet-config-dropin-env-missing', '1.29 still needs KUBELET_CONFIG_DROPIN_DIR_ALPHA for the (empty) directory');
});

t.test('--config-dir on 1.28 without KUBELET_CONFIG_DROPIN_DIR_ALPHA is fatal; with it the drop-in is merged', async (t) => {
  const without = failOf(configDropInsStep.run(ctx(`--config-dir=${DIR}`, 28, withDropIn(`${KC}maxPods: 10\n`))));
  t.equal(without?.findingId, 'kubelet-config-dropin-env-missing');
  t.equal(without?.kubeletError, `flag ${DIR} specified but environment variable KUBELET_CONFIG_DROPIN_DIR_ALPHA not set, cannot start kubelet`, 'server.go v1.28.15 RunE, unwrapped');
  t.notOk(without?.inexact, 'read at the tag');
  t.equal(without?.exitStatus, 1);
  const withEnv = configDropInsStep.run(ctx(`--config-dir=${DIR}`, 28, { ...withDropIn(`${KC}maxPods: 10\n`), kubeletEnvironment: { KUBELET_CONFIG_DROPIN_DIR_ALPHA: '' } }));
  t.ok('undecidable' in withEnv, '1.28\'s first merge implementation is not modelled: never a guess');
  t.equal('undecidable' in withEnv && withEnv.path, DIR);
  const recent = ctx(`--config-dir=${DIR} --max-pods=20`, 30, withDropIn(`${KC}maxPods: 10\nfailSwapOn: false\n`));
  t.same(configDropInsStep.run(recent), { pass: true }, '1.30 needs no variable');
  t.equal(recent.effectiveConfig['failSwapOn'], false, 'the drop-in\'s value reaches the configuration kubelet validates');
  t.equal(recent.effectiveConfig['maxPods'], 20, 'and the flags win over it');
});

t.test('--config-dir: a drop-in without kind is fatal, naming the drop-in', async (t) => {
  const bad = failOf(configDropInsStep.run(ctx(`--config-dir=${DIR}`, 30, withDropIn('maxPods: 10\n'))));
  t.equal(bad?.findingId, 'kubelet-config-dropin-invalid');
  t.equal(bad?.path, `${DIR}/10.conf`);
  t.equal(bad?.kubeletError, `failed to merge kubelet configs: failed to walk through kubelet dropin directory "${DIR}": failed to load kubelet dropin file, path: ${DIR}/10.conf, error: Object 'Kind' is missing in 'maxPods: 10\n'`);
  const unreadable = failOf(configDropInsStep.run(ctx(`--config-dir=${DIR}`, 30, withDropIn({ errno: 'EACCES' }))));
  t.equal(unreadable?.findingId, 'kubelet-config-dropin-invalid', 'an unreadable drop-in is fatal too');
  t.match(unreadable?.kubeletError, `failed to merge kubelet configs: failed to walk through kubelet dropin directory "${DIR}": failed to load kubelet dropin file, path: ${DIR}/10.conf, error: failed to read drop-in kubelet config file "${DIR}/10.conf", error: open ${DIR}/10.conf: `);
});

t.test('validation: --reserved-cpus over the file is refused with ValidateKubeletConfiguration\'s text', async (t) => {
  const flag = failOf(configValidationStep.run(ctx(`--config=${CONF} --reserved-cpus=abc`, 30, withConf(`${KC}reservedSystemCPUs: "0-1"\n`))));
  t.equal(flag?.findingId, 'kubelet-config-validation');
  t.match(flag?.kubeletError, /^failed to validate kubelet configuration, error: invalid configuration: unable to parse reservedSystemCPUs \(--reserved-cpus\) abc, error: strconv\.Atoi: parsing "abc": invalid syntax, path: /);
  t.equal(flag?.path, CONF);
  const file = failOf(configValidationStep.run(ctx(`--config=${CONF}`, 30, withConf(`${KC}reservedSystemCPUs: "3-1"\n`))));
  t.match(file?.kubeletError, 'unable to parse reservedSystemCPUs (--reserved-cpus) 3-1, error: invalid range "3-1" (3 > 1)');
  t.same(configValidationStep.run(ctx(`--config=${CONF}`, 30, withConf(`${KC}reservedSystemCPUs: "0-1"\n`))), { pass: true });
});

t.test('Run(): --cloud-provider per minor', async (t) => {
  const unknown = failOf(kubeletRunStep.run(ctx('--cloud-provider=foo', 28)));
  t.equal(unknown?.findingId, 'cloud-provider-unknown');
  t.equal(unknown?.kubeletError, 'failed to run Kubelet: unknown cloud provider "foo"');
  t.equal(unknown?.logLine, '"command failed" err="failed to run Kubelet: unknown cloud provider \\"foo\\""');
  // 1.32-1.33 refuse in run() itself, unwrapped (the real 1.33.13: test/oracle/verdicts/1.33.json,
  // generated/flag-cloud-provider-aws); 1.34+ in NewMainKubelet.
  const refusedInRun = failOf(kubeletRunStep.run(ctx('--cloud-provider=aws', 33)));
  t.equal(refusedInRun?.kubeletError, 'failed to run Kubelet: cloud provider "aws" was specified, but built-in cloud providers are disabled. Please set --cloud-provider=external and migrate to an external cloud provider');
  const disabled = failOf(kubeletRunStep.run(ctx('--cloud-provider=aws', 34)));
  t.equal(disabled?.kubeletError, 'failed to run Kubelet: failed to create kubelet: cloud provider "aws" was specified, but built-in cloud providers are disabled. Please set --cloud-provider=external and migrate to an external cloud provider');
  t.same(kubeletRunStep.run(ctx('--cloud-provider=external', 33)), { pass: true });
  t.ok('undecidable' in kubeletRunStep.run(ctx('--cloud-provider=gce', 28)), 'an in-tree provider initialises against the cloud');
});

t.test('Run(): an in-tree --cloud-provider is a host fact (the machine\'s DMI on "/", notChecked elsewhere)', async (t) => {
  const absent = { code: 'ENOENT' };
  const noSwap = { swaps: { present: false } };
  const ec2 = host({ ...noSwap, cloudMachine: { hypervisorUuid: absent, productUuid: { text: 'ec2a0b1c-0000-0000-0000-000000000000\n' }, boardAssetTag: absent, productName: { text: 'm5.large\n' } } });
  const laptop = host({ ...noSwap, cloudMachine: { hypervisorUuid: absent, productUuid: { text: '4c4c4544-0000\n' }, boardAssetTag: absent, productName: { text: 'ThinkPad\n' } } });
  for (const minor of [24, 25, 26]) t.same(kubeletRunStep.run(ctx('--cloud-provider=aws', minor, ec2)), { pass: true }, `1.${minor} on EC2: the AWS provider initialises`);
  const off = kubeletRunStep.run(ctx('--cloud-provider=aws', 26, laptop));
  t.ok('undecidable' in off, 'not shown: still cannot tell (the metadata service is not asked)');
  t.match('undecidable' in off && off.undecidable, 'the machine does not show that cloud');
  t.equal(failOf(kubeletRunStep.run(ctx('--cloud-provider=aws', 27, ec2)))?.findingId, 'cloud-provider-unknown', '1.27 links no AWS provider, whatever the machine');
  const gce = host({ ...noSwap, cloudMachine: { productName: { text: 'Google Compute Engine\n' } } });
  t.same(kubeletRunStep.run(ctx('--cloud-provider=gce', 28, gce)), { pass: true }, '1.28 (DisableCloudProviders off) on GCE');
  t.ok('undecidable' in kubeletRunStep.run(ctx('--cloud-provider=gce', 28, ec2)), 'gce on an EC2 machine');
  t.ok('undecidable' in kubeletRunStep.run(ctx('--cloud-provider=azure', 28, ec2)), 'azure has no offline test in its source');
  const other = host({}, {}, ['swaps', 'criSocket', 'cloudMachine'].map((fact) => ({ fact, reason: '--root /x is not the running system' })));
  t.same(kubeletRunStep.run(ctx('--cloud-provider=aws', 24, other)), { pass: true }, 'another root: listed in notChecked, the rest decided');
  t.same(kubeletRunStep.run(ctx('--cloud-provider=azure', 28, other)), { pass: true }, 'as for every in-tree provider');
});

t.test('Run(): --kube-reserved parsed by parseResourceList', async (t) => {
  const flag = failOf(kubeletRunStep.run(ctx('--kube-reserved=cpu=abc', 30)));
  t.equal(flag?.findingId, 'kube-reserved-unparsable');
  t.equal(flag?.kubeletError, 'failed to run Kubelet: --kube-reserved value failed to parse: failed to parse quantity "abc" for "cpu" resource: quantities must match the regular expression \'^([+-]?[0-9.]+)([eEinumkKMGTP]*[-+]?[0-9]*)$\'');
  const file = failOf(kubeletRunStep.run(ctx(`--config=${CONF}`, 30, withConf(`${KC}kubeReserved:\n  gpu: "1"\n`))));
  t.equal(file?.kubeletError, 'failed to run Kubelet: --kube-reserved value failed to parse: cannot reserve "gpu" resource');
  t.equal(file?.path, CONF);
});

t.test('Run(): host facts on the live root (swap, CRI socket, online CPUs), in kubelet\'s order', async (t) => {
  const swap = { present: true, lines: ['Filename Type Size Used Priority', '/swapfile file 100 0 -2'] };
  const swapOn = failOf(kubeletRunStep.run(ctx('--v=2', 30, host({ swaps: swap, cgroupVersion: 2 }))));
  t.equal(swapOn?.findingId, 'host-swap-on');
  t.equal(swapOn?.kubeletError, 'failed to run Kubelet: running with swap on is not supported, please disable swap! or set --fail-swap-on flag to false. /proc/swaps contained: [Filename Type Size Used Priority /swapfile file 100 0 -2]');
  t.same(kubeletRunStep.run(ctx('--fail-swap-on=false', 30, host({ swaps: swap, cgroupVersion: 2 }))), { pass: true }, '--fail-swap-on=false');
  t.same(kubeletRunStep.run(ctx('--v=2', 30, host({ swaps: swap }, {}, [{ fact: 'swaps', reason: 'not the live root' }]))), { pass: true }, 'a fact not checked never changes the answer');

  const endpoint = 'unix:///run/containerd/containerd.sock';
  const cri = failOf(kubeletRunStep.run(ctx(`--container-runtime-endpoint=${endpoint}`, 30, host({ swaps: { present: false } }, { [endpoint]: { kind: 'missing', endpoint, path: '/run/containerd/containerd.sock' } }))));
  t.equal(cri?.findingId, 'host-cri-socket-missing');
  t.match(cri?.kubeletError, `failed to run Kubelet: validate service connection: validate CRI v1 runtime API for endpoint "${endpoint}": rpc error: code = Unavailable desc = connection error: desc = "transport: Error while dialing: dial unix /run/containerd/containerd.sock: connect: no such file or directory"`);

  const cpus = failOf(kubeletRunStep.run(ctx('--reserved-cpus=0-7', 30, host({ onlineCpus: '0-3', swaps: { present: false } }))));
  t.equal(cpus?.kubeletError, 'failed to run Kubelet: reserved-cpus: 0-7 is not a subset of online-cpus: 0-3');
  t.notOk(cpus?.inexact);
  const both = failOf(kubeletRunStep.run(ctx('--reserved-cpus=0-7', 30, host({ onlineCpus: '0-3', swaps: swap }))));
  t.equal(both?.findingId, 'host-reserved-cpus-offline', '--reserved-cpus is checked before swap');
  const undecidedFirst = failOf(kubeletRunStep.run(ctx('--v=2', 30, host({ swaps: swap }, {}, []))));
  t.equal(undecidedFirst?.findingId, 'host-swap-on');
});

t.test('after start: protectKernelDefaults with a kernel tunable kubelet would have to change', async (t) => {
  const sysctls = { 'vm/overcommit_memory': { value: 0 }, 'vm/panic_on_oom': { value: 0 }, 'kernel/panic': { value: 10 }, 'kernel/panic_on_oops': { value: 1 }, 'kernel/keys/root_maxkeys': { value: 1000000 }, 'kernel/keys/root_maxbytes': { value: 25000000 } };
  const outcome = failOf(postStartStep.run(ctx('--protect-kernel-defaults=true', 30, host({ sysctls }))));
  t.equal(outcome?.findingId, 'host-kernel-tunables');
  t.match(outcome?.kubeletError, /vm\/overcommit_memory/);
  t.notOk(outcome?.logLine, 'not a "command failed" line: the container manager fails after start');
  t.same(postStartStep.run(ctx('--v=2', 30, host({ sysctls }))), { pass: true }, 'protectKernelDefaults is off by default');
  const partial = postStartStep.run(ctx('--protect-kernel-defaults=true', 30, host({ sysctls: { 'vm/overcommit_memory': { value: 1 } } })));
  t.ok('undecidable' in partial, 'a tunable not read is "cannot tell"');
});

t.test('the whole sequence: the first failure in kubelet\'s order decides', async (t) => {
  const run = simulateStart(ctx(`--config=${CONF} --cloud-provider=foo`, 28, withConf(`${KC}reservedSystemCPUs: "3-1"\n`)), START_SEQUENCE);
  t.equal(run.failure?.checkId, 'kubelet-config-validation', 'validation comes before Run()');
  t.equal(startVerdict(run), false);
  const ok = simulateStart(ctx(`--config=${CONF}`, 30, withConf(KC)), START_SEQUENCE);
  t.equal(startVerdict(ok), true, ok.undecided.map((u) => u.reason).join('; '));
});

t.test('validation from the flags alone names no file', async (t) => {
  const flags = failOf(configValidationStep.run(ctx('--reserved-cpus=abc', 30)));
  t.equal(flags?.findingId, 'kubelet-config-validation');
  t.equal(flags?.path, undefined);
  t.equal(flags?.message, 'Kubelet 1.30 refuses its configuration: invalid configuration: unable to parse reservedSystemCPUs (--reserved-cpus) abc, error: strconv.Atoi: parsing "abc": invalid syntax.');
  t.equal(flags?.remediation, 'Correct the fields named in the message (flags in the unit).');
});

t.test('--config: a file of another kind is refused as invalid, with the config remediation', async (t) => {
  const wrong = failOf(configFileStep.run(ctx(`--config=${CONF}`, 30, withConf('apiVersion: v1\nkind: ConfigMap\n'))));
  t.equal(wrong?.findingId, 'kubelet-config-invalid');
  t.match(wrong?.kubeletError, `failed to load kubelet config file, path: ${CONF}, error: `);
  t.equal(wrong?.remediation, `Correct ${CONF}: it must be a KubeletConfiguration (apiVersion: kubelet.config.k8s.io/v1beta1) in YAML or JSON.`);
});
