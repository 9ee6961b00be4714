/**
 * Kubelet's start steps 1 and 1b (cmd/kubelet/app/server.go, 1.24-1.37): the command line is
 * parsed with pflag against this minor's flag set (src/kubelet/command-line/), and a word that is
 * not a flag is refused; step 3, ValidateKubeletFlags (node labels; OpenShift's carry accepts its
 * node-role labels). Both exit with status 1.
 */
import type { StartCheck, StepOutcome } from '../start-check.js';
import { kubeletFails, PASS } from '../start-check.js';
import type { StartContext } from '../start-context.js';
import type { CommandLineFinding, CommandLineVerdict } from '../../kubelet/command-line/findings.js';
import { flagValidationFinding } from '../../kubelet/command-line/findings.js';
import { flagOrigin } from '../argument-origin.js';

export const commandLineStep: StartCheck = {
  id: 'kubelet-command-line',
  title: 'Kubelet parses its command line (unknown flags, bad values, stray words)',
  stage: 'kubelet',
  appliesTo: () => true,
  run(context) {
    const verdict = context.commandLine;
    if ('ok' in verdict) {
      if (verdict.value.exitsEarly) {
        return { undecidable: `kubelet's command line asks for --${verdict.value.exitsEarly}: kubelet prints it and exits without starting` };
      }
      return PASS;
    }
    return outcome(context, verdict);
  },
};

export const flagValidationStep: StartCheck = {
  id: 'kubelet-flag-validation',
  title: 'ValidateKubeletFlags (restricted --node-labels)',
  stage: 'kubelet',
  appliesTo: () => true,
  run(context) {
    const parsed = context.commandLine;
    if (!('ok' in parsed)) return PASS; // step 1 decided already
    const verdict = flagValidationFinding(parsed.value, context.minor, context.flavor);
    return 'ok' in verdict ? PASS : outcome(context, verdict);
  },
};

function outcome(context: StartContext, verdict: Exclude<CommandLineVerdict<unknown>, { ok: true }>): StepOutcome {
  if ('undecidable' in verdict) return { undecidable: verdict.undecidable, ...execStartPath(context) };
  const finding: CommandLineFinding = verdict;
  // The file that holds the flag (an env file such as kubeadm-flags.env, a drop-in) and its variable.
  const origin = finding.flag !== undefined ? flagOrigin(context.model, finding.flag) : undefined;
  return kubeletFails(context, {
    findingId: finding.findingId,
    message: origin ? `${finding.message} (--${finding.flag!.replace(/^-+/, '')} comes from ${origin.sentence})` : finding.message,
    remediation: origin?.variable ? `${finding.remediation} It is set through $${origin.variable}: edit ${origin.path}.` : finding.remediation,
    kubeletError: finding.kubeletError,
    exitStatus: finding.exitStatus,
    ...(origin ? { path: origin.path } : execStartPath(context)),
    ...(finding.inexact ? { inexact: true } : {}),
  });
}

function execStartPath(context: StartContext): { path?: string } {
  const source = context.model.service.execStart?.source;
  return source ? { path: source.file } : {};
}
