// simulateStart's contract (kubelet stops at its first error): steps run in order, a step for other
// minors is skipped, the first failure ends the run, and an undecided step before it leaves the
// verdict certain but the text inexact. Plus what StartContext and binaries-in-root derive from a model.
import t from 'tap';
import type { StartCheck, StepOutcome } from '../../src/start/start-check.js';
import { StartContext, credentialFlags, flavorOf } from '../../src/start/start-context.js';
import { simulateStart, startVerdict } from '../../src/start/simulate-start.js';
import { binariesNotChecked, binaryNotInRoot } from '../../src/start/binaries-in-root.js';
import { requireTraits } from '../../src/kubelet/version.js';
import type { NodeModel } from '../../src/model/node.js';
import { OCP_416_AZURE_EXEC, OCP_ENV, PLUGIN_DIR, dir, executable, modelOf } from '../fallback/model.js';

const model = modelOf({ execStart: '/usr/bin/kubelet --v=2', files: { '/usr/bin/kubelet': executable() } });
const context = (m: NodeModel = model, minor = 30) => new StartContext(m, minor, requireTraits(minor), 'upstream');
const failure = { findingId: 'kubelet-flag-unknown' as const, message: 'm', remediation: 'r', kubeletError: 'boom' };

function check(id: string, outcome: StepOutcome, minors: readonly number[] = [30], ran?: string[]): StartCheck {
  return { id, title: id, stage: 'kubelet', appliesTo: (minor) => minors.includes(minor), run: () => (ran?.push(id), outcome) };
}

t.test('all pass: starts; findings of every step are kept', async (t) => {
  const info = { id: 'credential-flags-ignored' as const, severity: 'info' as const, message: 'n', remediation: 'none' };
  const run = simulateStart(context(), [check('a', { pass: true, findings: [info] }), check('b', { pass: true })]);
  t.same(run, { minor: 30, undecided: [], findings: [info] });
  t.equal(startVerdict(run), true);
});

t.test('the first failure ends the run; later steps do not run', async (t) => {
  const ran: string[] = [];
  const run = simulateStart(context(), [check('a', { pass: true }, [30], ran), check('b', { fail: failure }, [30], ran), check('c', { fail: { ...failure, kubeletError: 'later' } }, [30], ran)]);
  t.same(ran, ['a', 'b']);
  t.same(run.failure, { ...failure, checkId: 'b' });
  t.equal(startVerdict(run), false);
});

t.test('an undecided step before a failure: still refuses, the text is inexact', async (t) => {
  const run = simulateStart(context(), [check('a', { undecidable: 'why', path: '/etc/x' }), check('b', { fail: failure })]);
  t.same(run.undecided, [{ checkId: 'a', reason: 'why', path: '/etc/x' }]);
  t.same(run.failure, { ...failure, checkId: 'b', inexact: true });
  t.equal(startVerdict(run), false);
  const alone = simulateStart(context(), [check('a', { undecidable: 'why' }), check('b', { pass: true })]);
  t.same(alone.undecided, [{ checkId: 'a', reason: 'why' }]);
  t.equal(startVerdict(alone), null, 'cannot tell, never "starts"');
});

t.test('a step that does not model this minor is skipped', async (t) => {
  const run = simulateStart(context(model, 24), [check('only-30', { fail: failure }, [30]), check('all', { pass: true }, [24, 30])]);
  t.equal(run.failure, undefined);
  t.equal(startVerdict(run), true);
});

t.test('StartContext: the cgroup version is "not-checked" without host facts or when it was not read', async (t) => {
  t.equal(context().cgroupV2, 'not-checked');
  const host = (facts: object, notChecked: object[] = []) => context({ ...model, host: { facts, criSockets: {}, notChecked } } as unknown as NodeModel);
  t.equal(host({ cgroupVersion: 2 }).cgroupV2, true);
  t.equal(host({ cgroupVersion: 1 }).cgroupV2, false);
  t.equal(host({}).cgroupV2, undefined);
  t.equal(host({ cgroupVersion: 1 }, [{ fact: 'cgroupVersion', reason: 'statfs failed' }]).cgroupV2, 'not-checked');
});

t.test('StartContext: no kubelet in ExecStart= means an empty command line and no credential flags', async (t) => {
  const noKubelet = modelOf({ execStart: '/usr/bin/sleep infinity', files: { '/usr/bin/sleep': executable() } });
  t.equal(noKubelet.kubelet, undefined);
  t.equal(credentialFlags(noKubelet), undefined);
  t.same(context(noKubelet).flagGateRequests, {});
  t.ok('ok' in context(noKubelet).commandLine);
});

t.test('StartContext: --feature-gates occurrences merge, later wins', async (t) => {
  const m = modelOf({ execStart: '/usr/bin/kubelet --feature-gates=A=true,B=true --feature-gates=A=false', files: {} });
  t.same(context(m).flagGateRequests, { A: false, B: true });
  t.equal(context(m).configGateRequests, undefined, 'no --config and no --config-dir: no second SetFromMap');
});

t.test('credentialFlags: either flag alone registers (the other empty); neither does not', async (t) => {
  t.same(credentialFlags(modelOf({ execStart: `/usr/bin/kubelet --image-credential-provider-bin-dir=${PLUGIN_DIR}`, files: {} })), { configPath: '', binDir: PLUGIN_DIR });
  t.same(credentialFlags(modelOf({ execStart: '/usr/bin/kubelet --image-credential-provider-config=/etc/c.yaml --image-credential-provider-config=/etc/d.yaml', files: {} })), { configPath: '/etc/d.yaml', binDir: '' }, 'the last occurrence');
  t.equal(credentialFlags(modelOf({ execStart: '/usr/bin/kubelet --image-credential-provider-config=', files: {} })), undefined);
});

t.test('flavorOf: discovery\'s decision, else the node\'s own evidence', async (t) => {
  t.equal(flavorOf(model).flavor, 'upstream');
  t.equal(flavorOf(modelOf({ execStart: OCP_416_AZURE_EXEC, env: OCP_ENV, files: {} })).flavor, 'openshift', 'kubenswrapper');
  t.equal(flavorOf({ ...model, flavor: { flavor: 'openshift', source: 'flag', evidence: [] } }).flavor, 'openshift');
});

t.test('binaries-in-root: a binary whose directory a copied root lacks is not checked; a directory without it is', async (t) => {
  const copy = (files: NodeModel['files']): NodeModel => ({ ...model, root: '/srv/copy', files });
  const lacking = copy({ '/usr/bin/kubelet': { exists: false, code: 'ENOENT' }, '/usr/bin': { exists: false, code: 'ENOENT' } });
  t.equal(binaryNotInRoot(lacking, '/usr/bin/kubelet'), true);
  t.same(binariesNotChecked(lacking), [{ fact: 'execStart', reason: '/usr/bin/kubelet: --root /srv/copy has no /usr/bin, so the binary was not part of the copy and was not checked' }]);
  const present = copy({ '/usr/bin/kubelet': { exists: false, code: 'ENOENT' }, '/usr/bin': dir(['sleep']) });
  t.equal(binaryNotInRoot(present, '/usr/bin/kubelet'), false, 'the directory was copied: the binary is really missing');
  t.same(binariesNotChecked(present), []);
  t.equal(binaryNotInRoot({ ...lacking, root: '/' }, '/usr/bin/kubelet'), false, 'the live root has every directory it has');
  t.equal(binaryNotInRoot(copy({ kubelet: { exists: false, code: 'ENOENT' } }), 'kubelet'), false, 'a relative path is not about the copy');
  t.equal(binaryNotInRoot(copy({}), '/usr/bin/kubelet'), true, 'no fact recorded: discovery never looked');
});

t.test('gateEnabled after a refused SetFromMap: the value asked for, else the gate table\'s default for the minor', async (t) => {
  const TOKEN = 'KubeletServiceAccountTokenForCredentialProviders';
  const refused = (args: string, minor: number) => context(modelOf({ execStart: `/usr/bin/kubelet ${args}`, files: {} }), minor);
  const asked = refused(`--feature-gates=NoSuchGate=true,${TOKEN}=false`, 34);
  t.notOk('ok' in asked.gatesFromFlags && asked.gatesFromFlags.ok, 'upstream refuses the unknown gate');
  t.equal(asked.gateEnabled(TOKEN), false, 'asked for off');
  t.equal(refused('--feature-gates=NoSuchGate=true', 34).gateEnabled(TOKEN), true, 'beta, on by default in 1.34');
  t.equal(refused('--feature-gates=NoSuchGate=true', 33).gateEnabled(TOKEN), false, 'alpha, off by default in 1.33');
});
