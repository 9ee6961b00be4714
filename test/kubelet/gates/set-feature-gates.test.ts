import t from 'tap';
import { aggregateText, setFeatureGates } from '../../../src/kubelet/gates/set-feature-gates.js';
import { gateMembership, gatesFor, gateTableComplete, lockedIfRegistered } from '../../../src/kubelet/gates/gate-table.js';

type R = ReturnType<typeof setFeatureGates>;
const errorOf = (r: R) => ('ok' in r && r.ok === false ? r.error : r);
const isOk = (r: R) => 'ok' in r && r.ok === true;

t.test('KubeletCredentialProviders=true: accepted on 1.24-1.27, unrecognized upstream from 1.28, a warning on OpenShift', async (t) => {
  for (const minor of [24, 27]) t.ok(isOk(setFeatureGates(minor, 'upstream', { KubeletCredentialProviders: true })), `1.${minor}`);
  for (const minor of [28, 30, 31, 33, 36]) {
    t.equal(errorOf(setFeatureGates(minor, 'upstream', { KubeletCredentialProviders: true })), 'unrecognized feature gate: KubeletCredentialProviders', `1.${minor}`);
    const os = setFeatureGates(minor, 'openshift', { KubeletCredentialProviders: true });
    t.ok('ok' in os && os.ok && os.warnings.includes('unrecognized feature gate: KubeletCredentialProviders'), `openshift 1.${minor}`);
  }
  // GA and locked to true in 1.27 (kube_features.go of the 1.27 cycle); false is refused there.
  t.equal(errorOf(setFeatureGates(27, 'openshift', { KubeletCredentialProviders: false })), 'cannot set feature gate KubeletCredentialProviders to false, feature is locked to true');
  // 1.26: GA, but whether it was already locked is not known.
  t.match(setFeatureGates(26, 'upstream', { KubeletCredentialProviders: false }), { undecidable: /KubeletCredentialProviders/ });
});

t.test('KubeletServiceAccountTokenForCredentialProviders: unknown before 1.33, alpha 1.33, beta on from 1.34', async (t) => {
  for (const minor of [25, 30, 32]) {
    t.equal(errorOf(setFeatureGates(minor, 'upstream', { KubeletServiceAccountTokenForCredentialProviders: true })), 'unrecognized feature gate: KubeletServiceAccountTokenForCredentialProviders', `1.${minor}`);
  }
  const r33 = setFeatureGates(33, 'upstream', { KubeletServiceAccountTokenForCredentialProviders: true });
  t.ok('ok' in r33 && r33.ok && r33.enabled('KubeletServiceAccountTokenForCredentialProviders'));
  t.same(gatesFor(33)?.get('KubeletServiceAccountTokenForCredentialProviders'), { default: false, preRelease: 'Alpha', lockToDefault: false, verified: true });
  t.same(gatesFor(34)?.get('KubeletServiceAccountTokenForCredentialProviders'), { default: true, preRelease: 'Beta', lockToDefault: false, verified: true });
});

t.test('DisableKubeletCloudCredentialProviders: false (OCP 4.15 kubelet.conf)', async (t) => {
  t.ok(isOk(setFeatureGates(28, 'upstream', { DisableKubeletCloudCredentialProviders: false })), 'alpha on 1.28');
  t.ok(isOk(setFeatureGates(30, 'openshift', { DisableKubeletCloudCredentialProviders: false })), 'beta on 1.30');
  for (const minor of [31, 32]) {
    for (const flavor of ['upstream', 'openshift'] as const) {
      t.equal(errorOf(setFeatureGates(minor, flavor, { DisableKubeletCloudCredentialProviders: false })), 'cannot set feature gate DisableKubeletCloudCredentialProviders to false, feature is locked to true', `${flavor} 1.${minor}`);
    }
  }
  t.equal(errorOf(setFeatureGates(33, 'upstream', { DisableKubeletCloudCredentialProviders: false })), 'unrecognized feature gate: DisableKubeletCloudCredentialProviders');
  t.ok(isOk(setFeatureGates(33, 'openshift', { DisableKubeletCloudCredentialProviders: false })), 'only a warning on OpenShift 1.33');
});

t.test('KubeletCgroupDriverFromCRI=false is locked from 1.34; DynamicResourceAllocation=false from 1.35', async (t) => {
  const r33 = setFeatureGates(33, 'upstream', { KubeletCgroupDriverFromCRI: false });
  t.ok('ok' in r33 && r33.ok && !r33.enabled('KubeletCgroupDriverFromCRI'));
  for (const minor of [34, 35, 36]) {
    t.equal(errorOf(setFeatureGates(minor, 'openshift', { KubeletCgroupDriverFromCRI: false })), 'cannot set feature gate KubeletCgroupDriverFromCRI to false, feature is locked to true', `1.${minor}`);
  }
  t.ok(isOk(setFeatureGates(34, 'upstream', { DynamicResourceAllocation: false })), 'GA but not locked in 1.34');
  for (const minor of [35, 36]) {
    t.equal(errorOf(setFeatureGates(minor, 'upstream', { DynamicResourceAllocation: false })), 'cannot set feature gate DynamicResourceAllocation to false, feature is locked to true', `1.${minor}`);
  }
  const ga = setFeatureGates(35, 'upstream', { DynamicResourceAllocation: true });
  t.ok('ok' in ga && ga.ok && ga.warnings.includes('Setting GA feature gate DynamicResourceAllocation=true. It will be removed in a future release.'));
  const ga36 = setFeatureGates(36, 'upstream', { DynamicResourceAllocation: true });
  t.ok('ok' in ga36 && ga36.ok && ga36.warnings.includes('"Warning: setting GA feature gate. It will be removed in a future release." featureGate="DynamicResourceAllocation" value=true'));
});

t.test('several bad gates: the printed error depends on Go map order (inexact)', async (t) => {
  // 1.31+: locked/PreAlpha errors are collected and aggregated; an unknown gate ends the walk.
  t.match(setFeatureGates(34, 'upstream', { KubeletCgroupDriverFromCRI: false, NoSuchGate: true }), {
    ok: false,
    inexact: true,
    error: '[cannot set feature gate KubeletCgroupDriverFromCRI to false, feature is locked to true, unrecognized feature gate: NoSuchGate]',
    allErrors: ['cannot set feature gate KubeletCgroupDriverFromCRI to false, feature is locked to true', 'unrecognized feature gate: NoSuchGate'],
  });
  // Before 1.31 SetFromMap returns the first error it meets.
  t.match(setFeatureGates(28, 'upstream', { KubeletCredentialProviders: true, NoSuchGate: true }), {
    ok: false,
    inexact: true,
    error: 'unrecognized feature gate: KubeletCredentialProviders',
  });
  t.equal(aggregateText(['a', 'b', 'a']), '[a, b]');
  t.equal(aggregateText(['a']), 'a');
});

t.test('1.31+: SetFromMap re-validates everything set before (enabledRaw)', async (t) => {
  // The second call (after --config) also sees the flag's gates; before 1.31 only the new map is checked.
  t.equal(errorOf(setFeatureGates(34, 'upstream', { PodLevelResources: true }, { NoSuchGate: true })), 'unrecognized feature gate: NoSuchGate');
  t.ok(isOk(setFeatureGates(30, 'upstream', { PodDeletionCost: true }, { NoSuchGate: true })));
});

t.test('1.35: gate dependencies are checked inside SetFromMap', async (t) => {
  t.ok(isOk(setFeatureGates(35, 'upstream', { DRAAdminAccess: true, DynamicResourceAllocation: true })));
  t.equal(
    errorOf(setFeatureGates(35, 'upstream', { ImageVolumeWithDigest: true, ImageVolume: false })),
    'ImageVolumeWithDigest is enabled, but depends on features that are disabled: [ImageVolume]',
  );
  t.equal(
    errorOf(setFeatureGates(35, 'openshift', { InPlacePodLevelResourcesVerticalScaling: true, PodLevelResources: false })),
    // NodeDeclaredFeatures is alpha (off) in 1.35 too; AddDependencies sorted the list.
    'InPlacePodLevelResourcesVerticalScaling is enabled, but depends on features that are disabled: [NodeDeclaredFeatures PodLevelResources]',
  );
  // Dependencies are not checked before 1.35.
  t.ok(isOk(setFeatureGates(34, 'upstream', { ProcMountType: true, UserNamespacesSupport: false })));
  // 1.36's dependency map was not read: a violation there is not a verdict.
  t.match(setFeatureGates(36, 'upstream', { DRADeviceTaintRules: true, DRADeviceTaints: false }), { undecidable: /not read/ });
});

t.test('AllAlpha/AllBeta are always registered and set the unset gates of their stage', async (t) => {
  const r = setFeatureGates(33, 'upstream', { AllAlpha: true, KubeletCrashLoopBackOffMax: false });
  t.ok('ok' in r && r.ok);
  if ('ok' in r && r.ok) {
    t.equal(r.enabled('KubeletServiceAccountTokenForCredentialProviders'), true, 'an alpha gate follows AllAlpha');
    t.equal(r.enabled('KubeletCrashLoopBackOffMax'), false, 'an explicit value wins');
    t.equal(r.enabled('KubeletSeparateDiskGC'), true, 'beta default unchanged');
  }
  t.equal(gatesFor(24)?.get('AllBeta')?.preRelease, 'Alpha');
});

t.test('membership: certain, uncertain, and outside the modelled versions', async (t) => {
  t.equal(gateMembership(36, 'SidecarContainers'), 'uncertain', 'last listed early in 1.36');
  t.equal(lockedIfRegistered(36, 'SidecarContainers'), true);
  // Uncertain but locked: refused upstream either way (unknown or locked), not knowable on OpenShift.
  t.match(setFeatureGates(36, 'upstream', { SidecarContainers: false }), { ok: false, inexact: true });
  t.match(setFeatureGates(36, 'openshift', { SidecarContainers: false }), { undecidable: /SidecarContainers/ });
  t.match(setFeatureGates(36, 'upstream', { SidecarContainers: true }), { undecidable: /SidecarContainers/ });
  t.ok(isOk(setFeatureGates(36, 'openshift', { SidecarContainers: true })), 'OpenShift starts whether or not 1.36 still has it');
  t.match(setFeatureGates(24, 'upstream', { TotallyMadeUp: true }), { undecidable: /TotallyMadeUp/ });
  t.equal(errorOf(setFeatureGates(30, 'upstream', { TotallyMadeUp: true })), 'unrecognized feature gate: TotallyMadeUp');
  t.equal(gatesFor(23), undefined);
  t.equal(gatesFor(37), undefined);
  t.match(setFeatureGates(37, 'upstream', {}), { undecidable: /outside/ });
  t.equal(gateTableComplete(24), false);
  t.equal(gateTableComplete(34), true);
  // client-go gates are registered from 1.30 (kube_features.go clientAdapter).
  t.equal(gateMembership(29, 'WatchListClient'), 'absent');
  t.equal(gateMembership(30, 'WatchListClient'), 'known');
  // generic apiserver gates come from the apiserver tags.
  t.equal(gateMembership(24, 'APIServerTracing'), 'known');
  t.equal(gateMembership(27, 'DryRun'), 'known');
  t.equal(gateMembership(28, 'DryRun'), 'absent');
});

t.test('gateFailure: the kubelet start error and finding kind', async (t) => {
  const { gateFailure } = await import('../../../src/kubelet/gates/set-feature-gates.js');
  t.same(gateFailure(setFeatureGates(34, 'upstream', { KubeletCgroupDriverFromCRI: false }), 34), {
    findingId: 'feature-gate-locked',
    kubeletError: 'failed to set feature gates from initial flags-based config: cannot set feature gate KubeletCgroupDriverFromCRI to false, feature is locked to true',
    message: 'kubelet 1.34 refuses its feature gates: cannot set feature gate KubeletCgroupDriverFromCRI to false, feature is locked to true',
    remediation: 'Remove the gate setting: kubelet 1.34 only accepts its locked value.',
    exitStatus: 1,
  });
  t.match(gateFailure(setFeatureGates(29, 'upstream', { KubeletCredentialProviders: true }), 29), {
    findingId: 'feature-gate-unknown',
    kubeletError: 'failed to set feature gates from initial flags-based config: unrecognized feature gate: KubeletCredentialProviders',
  });
  t.equal(gateFailure(setFeatureGates(29, 'openshift', { KubeletCredentialProviders: true }), 29), undefined);
});
