// docs/kubelet-inputs.md is generated from src/catalog/inputs.ts; every field and flag has a
// status, and the fields ValidateKubeletConfiguration checks with rules node-check lacks
// (validate.ts notValidated) are undecided, so they feed the verdict.
import t from 'tap';
import { readFileSync } from 'node:fs';
import { renderKubeletInputsMarkdown } from '../../src/render/kubelet-inputs.js';
import { allConfigFields, configFieldStatus, flagStatus, undecidedInputs } from '../../src/catalog/inputs.js';
import { UNIMPLEMENTED_RULE_FIELDS, validateKubeletConfiguration } from '../../src/kubelet/config/validate.js';
import { kubeletFlagsFor } from '../../src/kubelet/command-line/flag-table.js';
import { MODELLED_MINORS } from '../../src/kubelet/data/minors.js';

t.test('docs/kubelet-inputs.md is current (regenerate with `node scripts/gen-docs.mjs`)', async (t) => {
  t.equal(readFileSync(new URL('../../docs/kubelet-inputs.md', import.meta.url), 'utf8'), renderKubeletInputsMarkdown());
});

t.test('every field and every flag of every minor is in the table', async (t) => {
  const text = renderKubeletInputsMarkdown();
  for (const { field } of allConfigFields()) t.match(text, `| \`${field}\` |`, field);
  for (const minor of MODELLED_MINORS) for (const name of kubeletFlagsFor(minor)!.keys()) t.ok(text.includes(`| \`--${name}\` |`), `--${name}`);
  t.ok(allConfigFields().length >= 120, 'the struct rows are read');
});

t.test('notValidated feeds the verdict: each such field is undecided, and a non-default value is named', async (t) => {
  for (const field of UNIMPLEMENTED_RULE_FIELDS) {
    if (field === 'featureGates') {
      t.equal(configFieldStatus(field).kind, 'modelled', 'featureGates: the gate steps');
      continue;
    }
    const status = configFieldStatus(field);
    t.ok(status.kind === 'undecided' || (status.kind === 'no-effect' && status.accepts !== undefined), `${field}: undecided, or decided only for the values it accepts`);
  }
  const config = { reservedMemory: [{ numaNode: 0, limits: { memory: '1Gi' } }], clusterDomain: 'cluster.local' };
  const result = validateKubeletConfiguration(30, config, () => false);
  t.match(result, { ok: true, notValidated: ['reservedMemory'] });
  const notValidated = 'notValidated' in result ? result.notValidated : [];
  t.same(undecidedInputs(30, config, new Map([['kubeconfig', ['/k']]])).map((i) => i.input), notValidated);
});

t.test('what real distributions set is never undecided', async (t) => {
  // OpenShift's kubelet.conf (MCO templates) and kubeadm's config.yaml, and their unit flags.
  const fields = ['staticPodPath', 'syncFrequency', 'tlsCipherSuites', 'tlsMinVersion', 'rotateCertificates', 'serverTLSBootstrap', 'authentication', 'authorization',
    'clusterDomain', 'clusterDNS', 'cgroupDriver', 'cgroupRoot', 'systemCgroups', 'maxPods', 'podPidsLimit', 'kubeAPIQPS', 'kubeAPIBurst', 'serializeImagePulls',
    'featureGates', 'memorySwap', 'containerLogMaxSize', 'systemReserved', 'logging', 'shutdownGracePeriod', 'healthzBindAddress', 'healthzPort',
    'containerRuntimeEndpoint', 'imageMaximumGCAge', 'imageMinimumGCAge', 'evictionPressureTransitionPeriod', 'cpuManagerReconcilePeriod'];
  for (const field of fields) t.not(configFieldStatus(field).kind, 'undecided', field);
  // kubeadm on systemd-resolved hosts, EKS's address, AKS's containerLogMaxFiles.
  const extra = { resolvConf: '/run/systemd/resolve/resolv.conf', address: '0.0.0.0', containerLogMaxFiles: 5, configMapAndSecretChangeDetectionStrategy: 'Watch', cpuCFSQuota: true };
  t.same(undecidedInputs(30, extra, new Map([['kubeconfig', ['/k']]])), []);
  t.same(undecidedInputs(30, { containerLogMaxFiles: 1, address: '10.1.2.3' }, new Map([['kubeconfig', ['/k']]])).map((i) => i.input), ['containerLogMaxFiles', 'address'], 'values outside what is decided');
  // OpenShift's control-plane nodes register with a taint (MCO templates/master kubelet.service).
  t.same(undecidedInputs(30, { registerWithTaints: [{ key: 'node-role.kubernetes.io/master', effect: 'NoSchedule' }] }, new Map([['kubeconfig', ['/k']], ['register-with-taints', ['node-role.kubernetes.io/master=:NoSchedule']]])), []);
  t.same(undecidedInputs(30, { registerWithTaints: [{ key: 'bad key!', effect: 'NoSchedule' }] }, new Map([['kubeconfig', ['/k']]])).map((i) => i.input), ['registerWithTaints']);
  for (const flag of ['container-runtime-endpoint', 'register-with-taints', 'kubeconfig', 'bootstrap-kubeconfig', 'config', 'node-ip', 'node-labels', 'hostname-override', 'provider-id',
    'cloud-provider', 'v', 'runtime-cgroups', 'volume-plugin-dir', 'minimum-container-ttl-duration', 'pod-infra-container-image', 'system-reserved']) {
    t.not(flagStatus(30, flag).kind, 'undecided', `--${flag}`);
  }
});
