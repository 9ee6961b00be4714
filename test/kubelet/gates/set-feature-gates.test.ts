import t from 'tap';
import { setFeatureGates } from '../../../src/kubelet/gates/set-feature-gates.js';
import { gatesFor } from '../../../src/kubelet/gates/gate-table.js';
import { NEXT_MINOR } from '../../../src/kubelet/data/minors.js';

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
  // 1.26: GA and already locked (pkg/features/kube_features.go at v1.26.15).
  t.equal(errorOf(setFeatureGates(26, 'upstream', { KubeletCredentialProviders: false })), 'cannot set feature gate KubeletCredentialProviders to false, feature is locked to true');
});

t.test('KubeletServiceAccountTokenForCredentialProviders: unknown before 1.33, alpha 1.33, beta on from 1.34', async (t) => {
  for (const minor of [25, 30, 32]) {
    t.equal(errorOf(setFeatureGates(minor, 'upstream', { KubeletServiceAccountTokenForCredentialProviders: true })), 'unrecognized feature gate: KubeletServiceAccountTokenForCredentialProviders', `1.${minor}`);
  }
  const r33 = setFeatureGates(33, 'upstream', { KubeletServiceAccountTokenForCredentialProviders: true });
  t.ok('ok' in r33 && r33.ok && r33.enabled('KubeletServiceAccountTokenForCredentialProviders'));
  t.same(gatesFor(33)?.get('KubeletServiceAccountTokenForCredentialProviders'), { default: false, preRelease: 'Alpha', lockToDefault: false });
  t.same(gatesFor(34)?.get('KubeletServiceAccountTokenForCredentialProviders'), { default: true, preRelease: 'Beta', lockToDefault: false });
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
});

t.test('1.31+: SetFromMap re-validates everything set before (enabledRaw)', async (t) => {
  // The second call (after --config) also sees the flag's gates; before 1.31 only the new map is checked.
  t.equal(errorOf(setFeatureGates(34, 'upstream', { PodLevelResources: true }, { NoSuchGate: true })), 'unrecognized feature gate: NoSuchGate');
  t.ok(isOk(setFeatureGates(30, 'upstream', { PodDeletionCost: true }, { NoSuchGate: true })));
});

t.test('1.35: gate dependencies are checked inside SetFromMap', async (t) => {
  t.ok(isOk(setFeatureGates(35, 'upstream', { DRAAdminAccess: true, DynamicResourceAllocation: true })));
  // ImageVolumeWithDigest is registered from 1.36 (not in pkg/features at v1.35.8).
  t.equal(errorOf(setFeatureGates(35, 'upstream', { ImageVolumeWithDigest: true })), 'unrecognized feature gate: ImageVolumeWithDigest');
  t.equal(
    errorOf(setFeatureGates(35, 'upstream', { DRADeviceTaints: true, DynamicResourceAllocation: false })),
    'cannot set feature gate DynamicResourceAllocation to false, feature is locked to true',
    'a lock is reported before dependencies',
  );
  t.equal(
    errorOf(setFeatureGates(35, 'openshift', { InPlacePodLevelResourcesVerticalScaling: true, PodLevelResources: false })),
    // NodeDeclaredFeatures is alpha (off) in 1.35 too; AddDependencies sorted the list.
    'InPlacePodLevelResourcesVerticalScaling is enabled, but depends on features that are disabled: [NodeDeclaredFeatures PodLevelResources]',
  );
  // Dependencies are not checked before 1.35.
  t.ok(isOk(setFeatureGates(34, 'upstream', { ProcMountType: true, UserNamespacesSupport: false })));
  // 1.36's own dependency map (pkg/features/kube_features.go at v1.36.5).
  t.equal(
    errorOf(setFeatureGates(36, 'upstream', { DRADeviceTaintRules: true, DRADeviceTaints: false })),
    'DRADeviceTaintRules is enabled, but depends on features that are disabled: [DRADeviceTaints]',
  );
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

t.test('registration read from each tag: every gate of a minor is decided', async (t) => {
  // GA and locked in 1.33-1.36 (pkg/features/kube_features.go at v1.36.5): false refused, true a warning.
  t.equal(errorOf(setFeatureGates(36, 'upstream', { SidecarContainers: false })), 'cannot set feature gate SidecarContainers to false, feature is locked to true');
  t.equal(errorOf(setFeatureGates(36, 'openshift', { SidecarContainers: false })), 'cannot set feature gate SidecarContainers to false, feature is locked to true');
  t.ok(isOk(setFeatureGates(36, 'upstream', { SidecarContainers: true })));
  for (const minor of [24, 30]) t.equal(errorOf(setFeatureGates(minor, 'upstream', { TotallyMadeUp: true })), 'unrecognized feature gate: TotallyMadeUp', `1.${minor}`);
  t.equal(gatesFor(23), undefined);
  t.equal(gatesFor(NEXT_MINOR), undefined, '1.NEXT_MINOR is read but not modelled');
  t.match(setFeatureGates(NEXT_MINOR, 'upstream', {}), { undecidable: /outside/ });
  // client-go gates are registered from 1.30 (kube_features.go clientAdapter).
  t.notOk(gatesFor(29)?.has('WatchListClient'));
  t.ok(gatesFor(30)?.has('WatchListClient'));
  // generic apiserver gates (k8s.io/apiserver/pkg/features init()).
  t.ok(gatesFor(24)?.has('APIServerTracing'));
  t.ok(gatesFor(27)?.has('DryRun'));
  t.notOk(gatesFor(28)?.has('DryRun'));
});

t.test('gates a minor registers are decided (kops on 1.24 and 1.30)', async (t) => {
  // pkg/features/kube_features.go at v1.24.17: CSIMigrationAWS Beta (default true), InTreePluginAWSUnregister Alpha.
  t.ok(isOk(setFeatureGates(24, 'upstream', { CSIMigrationAWS: true, InTreePluginAWSUnregister: true })));
  t.same(gatesFor(24)?.get('CSIMigrationAWS'), { default: true, preRelease: 'Beta', lockToDefault: false });
  // v1.30.14: InTreePluginAWSUnregister still registered (Alpha); gone in 1.31.
  t.ok(isOk(setFeatureGates(30, 'upstream', { InTreePluginAWSUnregister: true })));
  t.equal(errorOf(setFeatureGates(31, 'upstream', { InTreePluginAWSUnregister: true })), 'unrecognized feature gate: InTreePluginAWSUnregister');
  // v1.25.16: CSIMigrationAWS GA and locked to true.
  t.equal(errorOf(setFeatureGates(25, 'upstream', { CSIMigrationAWS: false })), 'cannot set feature gate CSIMigrationAWS to false, feature is locked to true');
  // ExpandPersistentVolumes: GA, not locked, registered up to 1.26 (v1.26.15).
  t.ok(isOk(setFeatureGates(26, 'upstream', { ExpandPersistentVolumes: true })));
  t.equal(errorOf(setFeatureGates(27, 'upstream', { ExpandPersistentVolumes: true })), 'unrecognized feature gate: ExpandPersistentVolumes');
});

t.test("OpenShift's kubelet takes its gates from the fork (MicroShift's vendored openshift/kubernetes)", async (t) => {
  // NodeLogQuery: default true in the fork (4.14-4.16 Alpha, 4.17+ Beta), false upstream until 1.36.
  for (let minor = 27; minor <= 35; minor++) {
    t.equal(gatesFor(minor, 'openshift')?.get('NodeLogQuery')?.default, true, `openshift 1.${minor}`);
    t.equal(gatesFor(minor, 'upstream')?.get('NodeLogQuery')?.default, false, `upstream 1.${minor}`);
  }
  // Gates only the fork registers (pkg/features/openshift_features.go, 4.16+).
  t.ok(gatesFor(29, 'openshift')?.has('RouteExternalCertificate'));
  t.notOk(gatesFor(29, 'upstream')?.has('RouteExternalCertificate'));
  t.equal(errorOf(setFeatureGates(29, 'upstream', { RouteExternalCertificate: true })), 'unrecognized feature gate: RouteExternalCertificate');
  t.ok(isOk(setFeatureGates(29, 'openshift', { RouteExternalCertificate: true })));
  t.ok([...gatesFor(29, 'openshift')!.keys()].includes('RouteExternalCertificate'), 'walked with the fork-only gates');
  // A gate upstream registers that the fork does not (4.16 at 1.29.1): unknown there, only a warning.
  t.notOk(gatesFor(29, 'openshift')?.has('KubeletPodResourcesGetAllocatable'));
  // No OpenShift release with kubelet 1.24 was read (MicroShift starts at 4.12 = 1.25): upstream's
  // gates, an unknown one only warns, a value upstream locks cannot be told.
  t.equal(gatesFor(24, 'openshift'), undefined);
  t.ok(isOk(setFeatureGates(24, 'openshift', { NoSuchGate: true, CSIMigrationAWS: true })));
  t.match(setFeatureGates(24, 'openshift', { EfficientWatchResumption: false }), { undecidable: /not read/ });
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
