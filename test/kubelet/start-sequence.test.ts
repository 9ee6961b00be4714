import t from 'tap';
import { aggregateError } from '../../src/kubernetes/aggregate.js';
import {
  CONFIG_OBJECT_RENDERING,
  fatalLine,
  formatFatalLine,
  klogValue,
  startSequence,
  startSteps,
  stepIndex,
  wrapStepError,
} from '../../src/kubelet/data/start-sequence.js';
import { MODELLED_MINORS, NEXT_MINOR } from '../../src/kubelet/data/minors.js';

t.test('only the modelled minors have a sequence, never a neighbour', async (t) => {
  t.equal(startSequence(23), undefined);
  t.equal(startSequence(NEXT_MINOR), undefined);
  t.equal(formatFatalLine(23, 'x'), undefined);
  t.equal(formatFatalLine(NEXT_MINOR, 'x'), undefined);
  t.equal(wrapStepError(NEXT_MINOR, 'parse-flags', 'unknown flag: --x'), undefined);
  for (const m of MODELLED_MINORS) t.ok(startSequence(m), `1.${m}`);
});

t.test('the fatal line: 1.24 prints "Error: …", 1.25+ logs "command failed" (cli.Run)', async (t) => {
  // kubernetes/website #33640 (v1.24.0), kubespray #8924 (v1.24.1)
  t.equal(
    formatFatalLine(24, 'failed to parse kubelet flag: unknown flag: --network-plugin'),
    'Error: failed to parse kubelet flag: unknown flag: --network-plugin',
  );
  t.equal(startSequence(25)!.fatalLine, 'klog-command-failed');
  // voxpupuli/puppet-k8s #64 (1.27): run.go:74] "command failed" err="failed to parse kubelet flag: unknown flag: --container-runtime"
  t.equal(
    formatFatalLine(27, 'failed to parse kubelet flag: unknown flag: --container-runtime'),
    '"command failed" err="failed to parse kubelet flag: unknown flag: --container-runtime"',
  );
  t.equal(startSequence(30)!.klogCaller, 'run.go:74');
  t.equal(startSequence(31)!.klogCaller, 'run.go:72');
  t.equal(startSequence(24)!.klogCaller, undefined);
});

t.test('1.24 lines after flag parsing are not pinned (kubernetes #110690 / #110917)', async (t) => {
  t.equal(fatalLine(24, 'unknown command x', 'stray-argument')!.inexact, false);
  t.equal(fatalLine(24, 'failed to run Kubelet: x', 'run:cri')!.inexact, true);
  t.equal(fatalLine(28, 'failed to run Kubelet: x', 'run:cri')!.inexact, false);
});

t.test("klog's multi-line value: =<, each line after a tab, then \" >\" (as the real kubelet 1.31.14 writes it)", async (t) => {
  t.same(fatalLine(28, 'a\nb'), { text: '"command failed" err=<\n\ta\n\tb\n >', inexact: false });
  t.equal(fatalLine(31, 'a\n')!.text, '"command failed" err=<\n\ta\n >', 'a trailing line break adds no line');
  t.equal(klogValue('one "line"'), '="one \\"line\\""');
});

t.test('validate-config: aggregate, %s of the config object, klog quoting — a real journal line', async (t) => {
  const inner = aggregateError([
    'invalid configuration: systemReservedCgroup (--system-reserved-cgroup) must be specified when "system-reserved" contained in enforceNodeAllocatable (--enforce-node-allocatable)',
    'invalid configuration: kubeReservedCgroup (--kube-reserved-cgroup) must be specified when "kube-reserved" contained in enforceNodeAllocatable (--enforce-node-allocatable)',
  ]);
  const err = wrapStepError(31, 'validate-config', inner)!;
  t.equal(
    formatFatalLine(31, err),
    '"command failed" err="failed to validate kubelet configuration, error: [invalid configuration: systemReservedCgroup (--system-reserved-cgroup) must be specified when \\"system-reserved\\" contained in enforceNodeAllocatable (--enforce-node-allocatable), invalid configuration: kubeReservedCgroup (--kube-reserved-cgroup) must be specified when \\"kube-reserved\\" contained in enforceNodeAllocatable (--enforce-node-allocatable)], path: &TypeMeta{Kind:,APIVersion:,}"',
  );
  // 1.35 cgroup v1 refusal (one error: no brackets)
  t.equal(
    wrapStepError(35, 'validate-config', aggregateError(['kubelet is configured to not run on a host using cgroup v1. cgroup v1 support is unsupported and will be removed in a future release'])),
    'failed to validate kubelet configuration, error: kubelet is configured to not run on a host using cgroup v1. cgroup v1 support is unsupported and will be removed in a future release, path: &TypeMeta{Kind:,APIVersion:,}',
  );
  t.equal(CONFIG_OBJECT_RENDERING, '&TypeMeta{Kind:,APIVersion:,}');
  t.equal(aggregateError(['a', 'a']), 'a');
  t.equal(aggregateError(['a', 'b', 'a']), '[a, b]');
});

t.test('load-config changed argument order in 1.28 (PR #119390)', async (t) => {
  const inner = 'failed to read kubelet config file "/etc/kubernetes/kubelet.conf", error: open /etc/kubernetes/kubelet.conf: no such file or directory';
  t.equal(
    wrapStepError(27, 'load-config', inner, '/etc/kubernetes/kubelet.conf'),
    `failed to load kubelet config file, error: ${inner}, path: /etc/kubernetes/kubelet.conf`,
  );
  t.equal(
    wrapStepError(28, 'load-config', inner, '/etc/kubernetes/kubelet.conf'),
    `failed to load kubelet config file, path: /etc/kubernetes/kubelet.conf, error: ${inner}`,
  );
});

t.test('step order per minor', async (t) => {
  t.notOk(startSteps(27)!.includes('merge-dropins'));
  t.ok(startSteps(28)!.includes('dropin-env-check'));
  t.ok(startSteps(29)!.includes('dropin-env-check'));
  t.notOk(startSteps(30)!.includes('dropin-env-check'));
  t.ok(startSteps(36)!.includes('merge-dropins'));
  t.equal(wrapStepError(28, 'dropin-env-check', '/etc/kubelet.d'), 'flag /etc/kubelet.d specified but environment variable KUBELET_CONFIG_DROPIN_DIR_ALPHA not set, cannot start kubelet', 'server.go v1.28.15: returned unwrapped');
  t.ok(startSteps(25)!.includes('dynamic-config-gate'));
  t.notOk(startSteps(26)!.includes('dynamic-config-gate'));
  t.ok(startSteps(30)!.includes('run:cloud-init'));
  t.ok(startSteps(33)!.includes('run:cloud-init'), 'run() still refuses a built-in provider there up to 1.33');
  t.notOk(startSteps(34)!.includes('run:cloud-init'));
  for (const m of MODELLED_MINORS) {
    // gates from flags before ValidateKubeletFlags; validation before anything in Run().
    t.ok(stepIndex(m, 'gates-from-flags')! < stepIndex(m, 'validate-flags')!, `1.${m} gates before flag validation`);
    if (m >= 25) t.ok(stepIndex(m, 'init-logging')! < stepIndex(m, 'validate-config')!, `1.${m} logging before validation`);
    t.ok(stepIndex(m, 'validate-config')! < stepIndex(m, 'run:system-reserved')!);
    t.ok(stepIndex(m, 'run:kube-reserved')! < stepIndex(m, 'run:system-reserved')!);
    t.ok(stepIndex(m, 'run:system-reserved')! < stepIndex(m, 'run:node-ip')!);
    t.ok(stepIndex(m, 'run:node-ip')! < stepIndex(m, 'run:create-kubelet')!);
  }
  t.equal(stepIndex(27, 'merge-dropins'), undefined);
  t.ok(stepIndex(24, 'validate-config')! < stepIndex(24, 'init-logging')!, '1.24 validated before setting up logging');
  t.ok(stepIndex(24, 'dynamic-config-gate')! < stepIndex(24, 'init-logging')!);
  t.ok(stepIndex(25, 'validate-config')! < stepIndex(25, 'dynamic-config-gate')!);
});

t.test('1.24 logging setup failure is logged by kubelet itself, not returned to cobra', async (t) => {
  t.same(fatalLine(24, 'invalid format "text2"', 'init-logging'), { text: '"Failed to initialize logging" err="invalid format \\"text2\\""', inexact: false });
  t.equal(wrapStepError(25, 'init-logging', 'x'), 'initialize logging: x');
  t.equal(
    wrapStepError(24, 'dynamic-config-gate', ''),
    'cannot set feature gate DynamicKubeletConfig to true, feature is locked to false',
  );
});

t.test('run steps are wrapped in "failed to run Kubelet: " and create-kubelet once more', async (t) => {
  t.equal(
    wrapStepError(30, 'run:create-kubelet', 'x'),
    'failed to run Kubelet: failed to create kubelet: x',
  );
  t.equal(
    wrapStepError(30, 'run:lock-file', 'resource temporarily unavailable', '/var/run/kubelet.lock'),
    'failed to run Kubelet: unable to acquire file lock on "/var/run/kubelet.lock": resource temporarily unavailable',
  );
  t.equal(wrapStepError(26, 'stray-argument', '$KUBELET_EXTRA'), 'unknown command $KUBELET_EXTRA');
  // kubernetes/cloud-provider-gcp #398 (kubelet 1.26): run.go:74] "command failed" err="failed to run Kubelet: cannot create certificate signing request: …"
  const inner =
    'cannot create certificate signing request: certificatesigningrequests.certificates.k8s.io is forbidden: User "kubelet" cannot create resource "certificatesigningrequests" in API group "certificates.k8s.io" at the cluster scope';
  t.equal(
    formatFatalLine(26, wrapStepError(26, 'run:client-config', inner)!),
    '"command failed" err="failed to run Kubelet: cannot create certificate signing request: certificatesigningrequests.certificates.k8s.io is forbidden: User \\"kubelet\\" cannot create resource \\"certificatesigningrequests\\" in API group \\"certificates.k8s.io\\" at the cluster scope"',
  );
  t.equal(wrapStepError(33, 'gates-from-config', 'unrecognized feature gate: Foo'), 'failed to set feature gates from initial flags-based config: unrecognized feature gate: Foo');
});
