/**
 * Kubelet's start steps 2 and 6 (cmd/kubelet/app/server.go, 1.24-1.37): SetFromMap with the
 * flag-based configuration's feature gates, and again once --config and --config-dir are merged
 * (src/kubelet/gates/: an unknown gate is fatal upstream and a warning on OpenShift; a locked gate
 * set to the other value, a PreAlpha gate, and from 1.35 a gate whose dependencies are off, are
 * fatal everywhere). Both calls print `failed to set feature gates from initial flags-based config: …`.
 */
import type { Finding } from '../../model/findings.js';
import type { StartCheck, StepOutcome } from '../start-check.js';
import { kubeletFails } from '../start-check.js';
import type { StartContext } from '../start-context.js';
import { gateFailure, type SetFeatureGatesResult } from '../../kubelet/gates/set-feature-gates.js';

export const gatesFromFlagsStep: StartCheck = {
  id: 'feature-gates-from-flags',
  title: 'Feature gates from --feature-gates',
  stage: 'kubelet',
  appliesTo: () => true,
  run: (context) => outcome(context, context.gatesFromFlags, '--feature-gates'),
};

export const gatesFromConfigStep: StartCheck = {
  id: 'feature-gates-from-config',
  title: 'Feature gates from --config, --config-dir and --feature-gates',
  stage: 'kubelet',
  appliesTo: () => true,
  run(context) {
    const result = context.gatesFromConfig;
    if (!result) return { pass: true };
    const step = outcome(context, result, context.model.kubeletConfig.configFile?.path ?? context.model.kubeletConfig.configDir?.path);
    // From 1.32 decoding the config file defaults it (pkg/kubelet/apis/config/v1beta1/defaults.go
    // SetDefaults_KubeletConfiguration at v1.32.13..v1.37.2), which sets its gates on a copy of the
    // global gate and panics on SetFromMap's error ("panic: failed to merge global and in-flight
    // KubeletConfiguration while setting defaults, error: unrecognized feature gate: …"), exit 2,
    // before the "command failed" line of the flags-based case (the real 1.34.12 and 1.37.2:
    // test/oracle/verdicts/1.3{4,7}.json, generated/gate-config-unknown; 1.31.14 exits 1). The
    // recorder does not take a panic's line, so the words are node-check's, marked inexact (docs/unverified.md).
    if (context.minor >= FIRST_MINOR_DEFAULTING_PANICS && 'fail' in step && step.fail.findingId === 'feature-gate-unknown') return { ...step, fail: { ...step.fail, inexact: true, exitStatus: 2 } };
    return step;
  },
};

const FIRST_MINOR_DEFAULTING_PANICS = 32;

function outcome(context: StartContext, result: SetFeatureGatesResult, where: string | undefined): StepOutcome {
  if ('undecidable' in result) return { undecidable: `node-check cannot tell whether kubelet 1.${context.minor} accepts its feature gates: ${result.undecidable}` };
  if (result.ok) {
    const ignored = result.warnings.filter((w) => w.startsWith(UNRECOGNIZED)).map((w) => w.slice(UNRECOGNIZED.length));
    return { pass: true, findings: ignored.length > 0 ? [ignoredGates(context, ignored, where)] : [] };
  }
  const failure = gateFailure(result, context.minor)!;
  return kubeletFails(context, {
    findingId: failure.findingId,
    message: `Kubelet 1.${context.minor} refuses its feature gates${where ? ` (${where})` : ''}: ${result.error}.`,
    remediation: failure.remediation,
    kubeletError: failure.kubeletError,
    ...(where?.startsWith('/') ? { path: where } : {}),
    ...(failure.inexact ? { inexact: true } : {}),
  });
}

const UNRECOGNIZED = 'unrecognized feature gate: ';

/**
 * OpenShift's kubelet logs `unrecognized feature gate: X` and goes on (openshift/kubernetes carry).
 * MCO writes cluster-wide gates into kubelet.conf on purpose, so this is normal there: one note.
 */
function ignoredGates(context: StartContext, gates: readonly string[], where: string | undefined): Finding {
  const shown = gates.length > 5 ? `${gates.slice(0, 5).join(', ')} and ${gates.length - 5} more` : gates.join(', ');
  return {
    id: 'feature-gate-unknown-ignored',
    severity: 'info',
    message: `OpenShift's kubelet 1.${context.minor} does not know ${gates.length === 1 ? 'the feature gate' : `${gates.length} feature gates`} ${shown}${where ? ` (${where})` : ''}; it logs "unrecognized feature gate" and ignores ${gates.length === 1 ? 'it' : 'them'}. An upstream kubelet would refuse to start.`,
    ...(where?.startsWith('/') ? { path: where } : {}),
    remediation: 'Nothing to do on OpenShift (the machine-config operator writes cluster-wide gates into kubelet.conf); elsewhere remove them.',
  };
}
