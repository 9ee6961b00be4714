// The start steps (src/start/steps/) run on in-memory node models, one kubelet minor at a time,
// as evaluate runs them: each asserts the step's outcome and kubelet's (or systemd's) exact text.
import t from 'tap';
import type { NodeModel, PathFact } from '../../src/model/node.js';
import { StartContext } from '../../src/start/start-context.js';
import { requireTraits } from '../../src/kubelet/version.js';
import type { KubeletFlavor } from '../../src/kubelet/flavor.js';
import { START_SEQUENCE } from '../../src/start/start-sequence.js';
import { simulateStart, startVerdict } from '../../src/start/simulate-start.js';
import { systemdStep } from '../../src/start/steps/systemd.js';
import { commandLineStep, flagValidationStep } from '../../src/start/steps/command-line.js';
import { gatesFromConfigStep, gatesFromFlagsStep } from '../../src/start/steps/feature-gates.js';
import { configDropInsStep, configFileStep, configValidationStep } from '../../src/start/steps/kubelet-config.js';
import { kubeletRunStep } from '../../src/start/steps/kubelet-run.js';
import { executable, modelOf } from '../fallback/model.js';

const KUBELET = '/usr/bin/kubelet';

function context(args: string, minor: number, extra: Partial<NodeModel> = {}, files: Record<string, PathFact> = { [KUBELET]: executable() }, flavor: KubeletFlavor = 'upstream'): StartContext {
  const model = { ...modelOf({ execStart: `${KUBELET} ${args}`, files }), ...extra };
  return new StartContext(model, minor, requireTraits(minor), flavor);
}

t.test('systemd: a missing ExecStart= binary on the live root is 203/EXEC with systemd\'s lines', async (t) => {
  const ctx = context('--v=2', 30, {}, { [KUBELET]: { exists: false, code: 'ENOENT' } });
  const outcome = systemdStep.run(ctx);
  t.ok('fail' in outcome);
  if (!('fail' in outcome)) return;
  t.equal(outcome.fail.exitStatus, 203);
  t.equal(outcome.fail.path, KUBELET);
  t.match(outcome.fail.kubeletError, /^kubelet\.service: Failed (to locate executable|at step EXEC spawning) \/usr\/bin\/kubelet: No such file or directory$/);
  t.equal(outcome.fail.logLine, outcome.fail.kubeletError, 'systemd\'s journal line is the text itself');
  const run = simulateStart(ctx, START_SEQUENCE);
  t.equal(run.failure?.checkId, 'systemd-preconditions', 'systemd refuses before any kubelet step');
  t.equal(startVerdict(run), false);
});

t.test('systemd: a binary that is not executable is EACCES (Permission denied)', async (t) => {
  const outcome = systemdStep.run(context('--v=2', 30, {}, { [KUBELET]: executable(0o644) }));
  t.ok('fail' in outcome && outcome.fail.kubeletError.endsWith('/usr/bin/kubelet: Permission denied'));
  t.equal('fail' in outcome && outcome.fail.exitStatus, 203);
});

t.test('systemd: a model whose discovery never looked at the binary says nothing about it', async (t) => {
  // binaries-in-root.ts: discovery records every ExecStart= binary; a model without it never looked.
  t.same(systemdStep.run(context('--v=2', 30, {}, { '/usr/bin/other': executable() })), { pass: true });
});

t.test('systemd: a binary outside a copied --root is not checked', async (t) => {
  const ctx = context('--v=2', 30, { root: '/tmp/copy' }, { [KUBELET]: { exists: false, code: 'ENOENT' }, '/usr/bin': { exists: false, code: 'ENOENT' } });
  t.same(systemdStep.run(ctx), { pass: true });
});

t.test('command line: --version makes kubelet print and exit, which is not a start', async (t) => {
  const outcome = commandLineStep.run(context('--version', 30));
  t.ok('undecidable' in outcome);
  t.match('undecidable' in outcome && outcome.undecidable, /--version: kubelet prints it and exits without starting/);
  const help = commandLineStep.run(context('--help', 30));
  t.match('undecidable' in help && help.undecidable, /--help/);
});

t.test('command line: a bad int32 value fails with pflag\'s and strconv\'s text, naming the ExecStart= file', async (t) => {
  const err = 'failed to parse kubelet flag: invalid argument "abc" for "--max-pods" flag: strconv.ParseInt: parsing "abc": invalid syntax';
  const outcome = commandLineStep.run(context('--max-pods=abc', 30));
  t.ok('fail' in outcome);
  if (!('fail' in outcome)) return;
  t.equal(outcome.fail.kubeletError, err);
  t.equal(outcome.fail.findingId, 'kubelet-flag-bad-value');
  t.equal(outcome.fail.exitStatus, 1);
  t.equal(outcome.fail.path, '/etc/systemd/system/kubelet.service');
  t.equal(outcome.fail.logLine, `"command failed" err=${JSON.stringify(err)}`);
  t.same(flagValidationStep.run(context('--max-pods=abc', 30)), { pass: true }, 'flag validation leaves it to step 1');
});

t.test('flag validation: a restricted kubernetes.io label is refused upstream, exempt on OpenShift', async (t) => {
  const outcome = flagValidationStep.run(context('--node-labels=node-role.kubernetes.io/master=', 30));
  t.ok('fail' in outcome);
  if ('fail' in outcome) {
    t.equal(outcome.fail.findingId, 'kubelet-flag-validation');
    t.equal(outcome.fail.exitStatus, 1);
    t.match(outcome.fail.kubeletError, /^failed to validate kubelet flags: unknown 'kubernetes\.io' or 'k8s\.io' labels specified with --node-labels: \[node-role\.kubernetes\.io\/master\]\n--node-labels in the 'kubernetes\.io' namespace must begin with an allowed prefix \(kubelet\.kubernetes\.io, node\.kubernetes\.io\) or be in the specifically allowed set \(beta\.kubernetes\.io\/arch, /);
  }
  t.same(commandLineStep.run(context('--node-labels=node-role.kubernetes.io/master=', 30)), { pass: true }, 'pflag accepts it');
  t.same(flagValidationStep.run(context('--node-labels=node-role.kubernetes.io/master=', 30, {}, undefined, 'openshift')), { pass: true });
});

t.test('feature gates: an unknown gate is fatal upstream, a note on OpenShift', async (t) => {
  const upstream = gatesFromFlagsStep.run(context('--feature-gates=NoSuchGate=true', 30));
  t.ok('fail' in upstream);
  if ('fail' in upstream) {
    t.equal(upstream.fail.kubeletError, 'failed to set feature gates from initial flags-based config: unrecognized feature gate: NoSuchGate');
    t.equal(upstream.fail.exitStatus, 1);
    t.match(upstream.fail.message, 'Kubelet 1.30 refuses its feature gates (--feature-gates): unrecognized feature gate: NoSuchGate.');
    t.notOk(upstream.fail.path, '--feature-gates is not a file');
  }
  const openshift = gatesFromFlagsStep.run(context('--feature-gates=NoSuchGate=true', 30, {}, undefined, 'openshift'));
  t.ok('pass' in openshift);
  t.equal(openshift.findings?.length, 1);
  t.match(openshift.findings?.[0], { id: 'feature-gate-unknown-ignored', severity: 'info', message: /does not know the feature gate NoSuchGate \(--feature-gates\); it logs "unrecognized feature gate" and ignores it\./ });
  const many = gatesFromFlagsStep.run(context('--feature-gates=A1=true,A2=true,A3=true,A4=true,A5=true,A6=true,A7=false', 30, {}, undefined, 'openshift'));
  t.match(many.findings?.[0]?.message, /does not know 7 feature gates .* and 2 more \(--feature-gates\); .* ignores them\./);
});

t.test('feature gates from config: nothing to do without --config or --config-dir', async (t) => {
  t.same(gatesFromConfigStep.run(context('--v=2', 30)), { pass: true });
});

t.test('systemd: a required EnvironmentFile= that is missing stops the unit before kubelet (result \'resources\')', async (t) => {
  const base = modelOf({ execStart: `${KUBELET} --v=2`, files: { [KUBELET]: executable() } });
  const envFile = (errno?: string, optional = false) => ({ path: '/etc/kubernetes/kubelet.env', optional, loaded: false, source: { file: '/etc/systemd/system/kubelet.service', line: 7 }, ...(errno ? { errno } : {}) });
  const withEnv = (ref: ReturnType<typeof envFile>) => new StartContext({ ...base, service: { ...base.service, environmentFiles: [ref] } }, 30, requireTraits(30), 'upstream');
  const missing = systemdStep.run(withEnv(envFile('ENOENT')));
  t.ok('fail' in missing);
  if ('fail' in missing) {
    t.equal(missing.fail.kubeletError, 'kubelet.service: Failed to load environment files: No such file or directory');
    t.equal(missing.fail.logLine, missing.fail.kubeletError);
    t.equal(missing.fail.path, '/etc/kubernetes/kubelet.env');
    t.equal(missing.fail.exitStatus, 1, 'no process ran: not 203');
  }
  t.same(systemdStep.run(withEnv(envFile('ENOENT', true))), { pass: true }, 'EnvironmentFile=- never fails');
  const unknown = systemdStep.run(withEnv(envFile()));
  t.ok('undecidable' in unknown, 'node-check could not read it: cannot tell');
  t.equal('undecidable' in unknown && unknown.path, '/etc/kubernetes/kubelet.env');
  const copied = new StartContext({ ...base, root: '/srv/copy', files: { [KUBELET]: { exists: false, code: 'ENOENT' }, '/usr/bin': { exists: false, code: 'ENOENT' } }, service: { ...base.service, environmentFiles: [envFile('ENOENT')] } }, 30, requireTraits(30), 'upstream');
  t.ok('fail' in systemdStep.run(copied), 'an environment file is checked even when the binary was not copied');
});

t.test('systemd: a unit that does not run kubelet still gets its ExecStart= binary checked', async (t) => {
  const sleep = modelOf({ execStart: '/usr/bin/sleep infinity', files: { '/usr/bin/sleep': { exists: false, code: 'ENOENT' } } });
  const outcome = systemdStep.run(new StartContext(sleep, 30, requireTraits(30), 'upstream'));
  t.equal('fail' in outcome && outcome.fail.exitStatus, 203);
  t.equal('fail' in outcome && outcome.fail.path, '/usr/bin/sleep');
});

t.test('feature gates from --config / --config-dir: the file\'s unknown gate fails, naming the file', async (t) => {
  const conf = '/etc/kubernetes/kubelet.conf';
  const kc = 'apiVersion: kubelet.config.k8s.io/v1beta1\nkind: KubeletConfiguration\nfeatureGates:\n  NoSuchGate: true\n';
  const fromFile = context(`--config=${conf}`, 30, { kubeletConfig: { configFile: { path: conf, content: Buffer.from(kc) } } });
  t.same(gatesFromFlagsStep.run(fromFile), { pass: true, findings: [] }, 'the flags alone are fine');
  const outcome = gatesFromConfigStep.run(fromFile);
  t.ok('fail' in outcome);
  if ('fail' in outcome) {
    t.equal(outcome.fail.kubeletError, 'failed to set feature gates from initial flags-based config: unrecognized feature gate: NoSuchGate');
    t.equal(outcome.fail.path, conf);
    t.equal(outcome.fail.message, `Kubelet 1.30 refuses its feature gates (${conf}): unrecognized feature gate: NoSuchGate.`);
    t.equal(outcome.fail.logLine, '"command failed" err="failed to set feature gates from initial flags-based config: unrecognized feature gate: NoSuchGate"');
  }
  // From 1.32 the config file's defaulting panics on the gate (exit 2; the real 1.34.12 did), before 1.32 exit 1.
  const exitAt = (minor: number) => {
    const o = gatesFromConfigStep.run(context(`--config=${conf}`, minor, { kubeletConfig: { configFile: { path: conf, content: Buffer.from(kc) } } }));
    return 'fail' in o ? [o.fail.exitStatus, o.fail.inexact === true] : undefined;
  };
  t.same([exitAt(31), exitAt(32), exitAt(34)], [[1, false], [2, true], [2, true]]);
  const dir = '/etc/kubernetes/kubelet.conf.d';
  const fromDir = context(`--config-dir=${dir}`, 30, { kubeletConfig: { configDir: { path: dir, dropIns: [{ path: `${dir}/10.conf`, content: Buffer.from(kc) }] } } });
  const dirOutcome = gatesFromConfigStep.run(fromDir);
  t.equal('fail' in dirOutcome && dirOutcome.fail.path, dir, 'without --config the directory is named');
  const openshift = context(`--config=${conf}`, 30, { kubeletConfig: { configFile: { path: conf, content: Buffer.from(kc) } } }, undefined, 'openshift');
  t.match(gatesFromConfigStep.run(openshift).findings, [{ id: 'feature-gate-unknown-ignored', path: conf }]);
  t.equal(openshift.gateEnabled('NoSuchGate'), false, 'an ignored gate is not on');
});

t.test('feature gates from --config on 1.32+: decoding panics (SetDefaults_KubeletConfiguration), exit 2', async (t) => {
  const conf = '/etc/kubernetes/kubelet.conf';
  const kc = 'apiVersion: kubelet.config.k8s.io/v1beta1\nkind: KubeletConfiguration\nfeatureGates:\n  NoSuchGate: true\n';
  const at = (minor: number) => gatesFromConfigStep.run(context(`--config=${conf}`, minor, { kubeletConfig: { configFile: { path: conf, content: Buffer.from(kc) } } }));
  const panics = at(34);
  t.ok('fail' in panics);
  if ('fail' in panics) {
    // pkg/kubelet/apis/config/v1beta1/defaults.go v1.34.12:71; the real 1.34.12 binary's first line.
    t.equal(panics.fail.kubeletError, 'failed to merge global and in-flight KubeletConfiguration while setting defaults, error: unrecognized feature gate: NoSuchGate');
    t.equal(panics.fail.logLine, 'panic: failed to merge global and in-flight KubeletConfiguration while setting defaults, error: unrecognized feature gate: NoSuchGate');
    t.equal(panics.fail.exitStatus, 2);
    t.equal(panics.fail.inexact, true, 'the trace follows and the oracle reads no panic line');
  }
  const before = at(31);
  t.equal('fail' in before && before.fail.kubeletError, 'failed to set feature gates from initial flags-based config: unrecognized feature gate: NoSuchGate', '1.31 defaults.go sets no gates');
  t.equal('fail' in before && before.fail.exitStatus, 1);
});
