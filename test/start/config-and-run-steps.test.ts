// Kubelet's config steps (4, 5, 8) (src/start/steps/kubelet-config.ts) on in-memory node models; Run()'s
// rules are tested beside them in test/rules/run/: each case is one kubelet minor and kubelet's exact error text.
import t from 'tap';
import type { NodeModel } from '../../src/model/node.js';
import { StartContext } from '../../src/start/start-context.js';
import { requireTraits } from '../../src/kubelet/version.js';
import { configDropInsStep, configFileStep, configValidationStep } from '../../src/start/steps/kubelet-config.js';
import { START_SEQUENCE } from '../../src/start/start-sequence.js';
import { simulateStart, startVerdict } from '../../src/start/simulate-start.js';
import { refusalOf, startContext, withConfig } from '../helpers/start-context.js';

const CONF = '/etc/kubernetes/kubelet.conf';
const DIR = '/etc/kubernetes/kubelet.conf.d';
const KC = 'apiVersion: kubelet.config.k8s.io/v1beta1\nkind: KubeletConfiguration\n';

const ctx = startContext;
const withConf = (text: string): Partial<NodeModel> => withConfig(CONF, text);
const withDropIn = (text: string | { errno: string }): Partial<NodeModel> => ({
  kubeletConfig: { configDir: { path: DIR, dropIns: [{ path: `${DIR}/10.conf`, content: typeof text === 'string' ? Buffer.from(text) : text }] } },
});
const failOf = refusalOf;

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
