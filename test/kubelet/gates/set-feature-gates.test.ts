import t from 'tap';
import { setFeatureGates } from '../../../src/kubelet/gates/set-feature-gates.js';
import { gateMembership, gatesFor, gateTableComplete } from '../../../src/kubelet/gates/gate-table.js';

const err = (r: ReturnType<typeof setFeatureGates>) => ('ok' in r && r.ok === false ? r.error : r);

t.test('KubeletCredentialProviders=true: fine (locked true) on 1.27, unrecognized upstream from 1.28', async (t) => {
  const r27 = setFeatureGates(27, 'upstream', { KubeletCredentialProviders: true });
  t.equal('ok' in r27 && r27.ok, true);
  for (const minor of [28, 30, 33, 36]) {
    t.equal(err(setFeatureGates(minor, 'upstream', { KubeletCredentialProviders: true })), 'unrecognized feature gate: KubeletCredentialProviders', `1.${minor}`);
    const os = setFeatureGates(minor, 'openshift', { KubeletCredentialProviders: true });
    t.ok('ok' in os && os.ok && os.warnings.includes('unrecognized feature gate: KubeletCredentialProviders'), `openshift 1.${minor} warns`);
  }
});

t.test('KubeletServiceAccountTokenForCredentialProviders is unknown before 1.33', async (t) => {
  t.equal(err(setFeatureGates(32, 'upstream', { KubeletServiceAccountTokenForCredentialProviders: true })), 'unrecognized feature gate: KubeletServiceAccountTokenForCredentialProviders');
  t.equal(err(setFeatureGates(26, 'upstream', { KubeletServiceAccountTokenForCredentialProviders: true })), 'unrecognized feature gate: KubeletServiceAccountTokenForCredentialProviders');
  const r33 = setFeatureGates(33, 'upstream', { KubeletServiceAccountTokenForCredentialProviders: true });
  t.ok('ok' in r33 && r33.ok && r33.enabled('KubeletServiceAccountTokenForCredentialProviders'));
});

t.test('DisableKubeletCloudCredentialProviders: false is locked on 1.31-1.32, unknown from 1.33, fine on 1.30', async (t) => {
  for (const minor of [31, 32]) {
    t.equal(err(setFeatureGates(minor, 'openshift', { DisableKubeletCloudCredentialProviders: false })), 'cannot set feature gate DisableKubeletCloudCredentialProviders to false, feature is locked to true');
  }
  t.equal(err(setFeatureGates(33, 'upstream', { DisableKubeletCloudCredentialProviders: false })), 'unrecognized feature gate: DisableKubeletCloudCredentialProviders');
  const os33 = setFeatureGates(33, 'openshift', { DisableKubeletCloudCredentialProviders: false });
  t.ok('ok' in os33 && os33.ok);
  const r30 = setFeatureGates(30, 'upstream', { DisableKubeletCloudCredentialProviders: false });
  t.ok('ok' in r30 && r30.ok, 'Beta on 1.29-1.30');
});

t.test('KubeletCgroupDriverFromCRI=false is locked from 1.34; DynamicResourceAllocation=false from 1.35', async (t) => {
  const r33 = setFeatureGates(33, 'upstream', { KubeletCgroupDriverFromCRI: false });
  t.ok('ok' in r33 && r33.ok && !r33.enabled('KubeletCgroupDriverFromCRI'));
  t.equal(err(setFeatureGates(34, 'upstream', { KubeletCgroupDriverFromCRI: false })), 'cannot set feature gate KubeletCgroupDriverFromCRI to false, feature is locked to true');
  const d34 = setFeatureGates(34, 'upstream', { DynamicResourceAllocation: false });
  t.ok('ok' in d34 && d34.ok, 'GA but not locked in 1.34');
  for (const minor of [35, 36]) {
    t.equal(err(setFeatureGates(minor, 'openshift', { DynamicResourceAllocation: false })), 'cannot set feature gate DynamicResourceAllocation to false, feature is locked to true');
  }
});

t.test('several bad gates: 1.31+ aggregates (inexact), unknown ends the walk', async (t) => {
  const r = setFeatureGates(34, 'upstream', { KubeletCgroupDriverFromCRI: false, NoSuchGate: true });
  t.match(r, { ok: false, inexact: true, error: '[cannot set feature gate KubeletCgroupDriverFromCRI to false, feature is locked to true, unrecognized feature gate: NoSuchGate]' });
  const old = setFeatureGates(28, 'upstream', { KubeletCredentialProviders: true, DynamicKubeletConfig: true });
  t.match(old, { ok: false });
});

t.test('1.35 dependencies are checked in SetFromMap', async (t) => {
  const r = setFeatureGates(35, 'upstream', { DRAAdminAccess: true, DynamicResourceAllocation: true });
  t.ok('ok' in r && r.ok);
  const bad = setFeatureGates(35, 'upstream', { ImageVolumeWithDigest: true, ImageVolume: false });
  t.equal(err(bad), 'ImageVolumeWithDigest is enabled, but depends on features that are disabled: [ImageVolume]');
  t.match(setFeatureGates(36, 'upstream', { ImageVolumeWithDigest: true, ImageVolume: false }), { ok: false, error: /locked to true/ });
});

t.test('uncertain membership and unverified rows give undecidable, not a verdict', async (t) => {
  t.equal(gateMembership(36, 'SidecarContainers'), 'uncertain');
  t.match(setFeatureGates(36, 'upstream', { SidecarContainers: true }), { undecidable: /SidecarContainers/ });
  t.match(setFeatureGates(30, 'upstream', { TotallyMadeUp: true }), { undecidable: /TotallyMadeUp/ });
  t.equal(err(setFeatureGates(34, 'upstream', { TotallyMadeUp: true })), 'unrecognized feature gate: TotallyMadeUp');
  t.equal(gatesFor(37), undefined);
  t.equal(gateTableComplete(34), true);
  t.equal(gateTableComplete(30), false);
});
