/** Finding kinds for kubelet feature gates (src/kubelet/gates/set-feature-gates.ts). */
import type { FindingKind } from '../findings.js';

export const GATES_KINDS = [
  {
    id: 'feature-gate-unknown',
    title: 'A feature gate this kubelet does not know is set',
    severity: 'error',
    versions: 'upstream kubelet, all (1.24+)',
    messageId: '65f32d13877f49208b37a90788d9a036',
    meaning:
      'Kubelet applies --feature-gates, the --config featureGates and --config-dir drop-ins with component-base SetFromMap, which refuses a name it does not register: "failed to set feature gates from initial flags-based config: unrecognized feature gate: X", exit status 1. Gates are removed a few releases after they go GA (e.g. KubeletCredentialProviders from 1.28).',
    fix: 'Remove the gate from the kubelet flags and config (or from the KubeletConfig that renders them), or run a kubelet that still has it.',
  },
  {
    id: 'feature-gate-unknown-ignored',
    title: 'An unknown feature gate is set (OpenShift kubelet only warns)',
    severity: 'info',
    versions: 'OpenShift kubelet, all',
    messageId: '528bc660583f44f9911a273eceaed5ee',
    meaning:
      'OpenShift\'s kubelet carries a component-base patch that logs "unrecognized feature gate: X" as a warning and goes on; the setting has no effect. An upstream kubelet would refuse to start with the same config.',
    fix: 'Remove the stale gate so the config stays portable.',
  },
  {
    id: 'feature-gate-locked',
    title: 'A feature gate locked to its default is set to the other value',
    severity: 'error',
    versions: 'all (1.24+), upstream and OpenShift',
    messageId: 'a32b38f8ac7d4deb8d0486fd0463cb0e',
    meaning:
      'GA (and some deprecated) gates are LockToDefault; SetFromMap refuses the other value: "cannot set feature gate X to false, feature is locked to true", exit status 1 (e.g. DisableKubeletCloudCredentialProviders=false on 1.31-1.32, KubeletCgroupDriverFromCRI=false on 1.34+, DynamicResourceAllocation=false on 1.35+).',
    fix: 'Remove the gate setting (the locked value is the only one this kubelet allows).',
  },
  {
    id: 'feature-gate-prealpha',
    title: 'A feature gate is set that is not available at this kubelet\'s version',
    severity: 'error',
    versions: '1.31+ (versioned gates)',
    messageId: '3fdc03197102449c8e0daf74617e8a07',
    meaning:
      'A gate whose first version is later than the emulated version is PreAlpha; SetFromMap refuses it: "cannot set feature gate X to V, feature is PreAlpha at emulated version 1.NN" (1.35+: ", min compatibility version 1.MM").',
    fix: 'Remove the gate setting or upgrade kubelet.',
  },
  {
    id: 'feature-gate-dependency',
    title: 'A feature gate is enabled while a gate it depends on is disabled',
    severity: 'error',
    versions: '1.35+',
    messageId: '3b7b0d69dab3433cab4fe80a95edf544',
    meaning:
      'From 1.35 SetFromMap checks gate dependencies: "X is enabled, but depends on features that are disabled: [D]", exit status 1 (AllAlpha=true alone can trip it).',
    fix: 'Enable the dependencies too, or disable the dependent gate.',
  },
] as const satisfies readonly FindingKind[];
