/**
 * Findings about the inputs rather than kubelet's rules: whether the unit could be read, whether
 * kubelet and its version were found, and whether credential providers are configured at all.
 */
import type { Finding } from '../model/findings.js';
import type { NodeModel } from '../model/node.js';
import type { FallbackStatus } from '../model/report.js';
import { CredentialFlag, lastValue } from '../kubelet/flags.js';
import { isModelledMinor, NEWEST_MODELLED_MINOR, OLDEST_MODELLED_MINOR, type KubeletVersion } from '../kubelet/version.js';

/**
 * Why node-check cannot tell, each with its own way out (explain cannot-decide lists them): the
 * unit, the version (unreadable, or one node-check does not model), versions that disagree, and a
 * step whose input node-check cannot settle (a rule it does not model, a fact of another machine,
 * a remote source, a bound it hit: the message names it).
 */
export type UndecidedCause = 'unit' | 'in-process' | 'version-unreadable' | 'version-unmodelled' | 'versions-disagree' | 'step' | 'budget';

const WAY_OUT: Record<UndecidedCause, string> = {
  unit: 'Check --root and --unit, and the file named in the message.',
  'in-process': 'node-check reads kubelet\'s command line from a systemd unit; a kubelet run inside another program is not modelled (docs/unverified.md).',
  'version-unreadable': 'Pass --kubelet-version X.Y.Z as `kubelet --version` prints it.',
  'version-unmodelled': 'Upgrade node-check to a release that models this kubelet; it never applies a neighbouring version\'s rules.',
  'versions-disagree': 'Pass --kubelet-version X.Y.Z (or --openshift-version 4.N): the answer depends on the version.',
  step: 'The message names the input node-check cannot settle: change it to a value node-check models, or read docs/unverified.md for what would settle it.',
  budget: 'Give preflight a longer --timeout (or timeoutSeconds in the settings file), or run `node-check check` by hand to see what takes long.',
};

export function cannotDecide(message: string, cause: UndecidedCause, path?: string): Finding {
  return {
    id: 'cannot-decide',
    severity: 'warning',
    message,
    ...(path ? { path } : {}),
    remediation: `${WAY_OUT[cause]} node-check exits 2 until it can tell.`,
  };
}

export function contextFindings(model: NodeModel, version: KubeletVersion | undefined, fallback?: FallbackStatus): Finding[] {
  const findings: Finding[] = [];
  const { service } = model;
  // A unit systemd does not load is refused whatever else holds: evaluate says so.
  const notLoaded = service.load.state !== 'loaded';
  if (fallback?.active) findings.push(fallbackActive(fallback));
  const hosted = model.inProcessKubelet;
  if (hosted && !model.kubelet && !notLoaded) {
    return [...findings, cannotDecide(`${hosted.distribution} runs kubelet inside kubelite (${hosted.unit}, as ${hosted.evidence} shows), not from a kubelet command line in ${service.unitName}; its arguments are in ${hosted.kubeletArgs}, and node-check does not model kubelite.`, 'in-process', hosted.evidence)];
  }

  for (const diagnostic of service.diagnostics) {
    const where = diagnostic.file ? `${diagnostic.file}${diagnostic.line ? `:${diagnostic.line}` : ''}: ` : '';
    if (diagnostic.severity === 'fatal' && notLoaded) continue;
    if (diagnostic.severity === 'fatal') {
      findings.push(cannotDecide(`${where}${diagnostic.message}`, 'unit', diagnostic.file));
    } else {
      findings.push({
        id: 'unit-problem',
        severity: 'warning',
        message: `${where}${diagnostic.message}`,
        ...(diagnostic.file ? { path: diagnostic.file } : {}),
        remediation: `Correct ${diagnostic.file ?? 'the unit'}${diagnostic.line ? ` line ${diagnostic.line}` : ''}, then run \`systemctl daemon-reload\`.`,
      });
    }
  }
  if (findings.some((f) => f.id === 'cannot-decide') || notLoaded) return findings;

  if (!service.execStart) {
    return [...findings, cannotDecide(`${service.unitName} has no ExecStart= (in ${service.fragmentPath ?? 'any unit file'} or its drop-ins), so there is no kubelet command line to check.`, 'unit', service.fragmentPath)];
  }
  if (!model.kubelet) {
    const where = `${service.execStart.source.file}:${service.execStart.source.line}`;
    return [...findings, cannotDecide(`ExecStart= of ${service.unitName} (${where}) does not run kubelet: ${JSON.stringify(service.execStart.argv.slice(0, 3).join(' '))}.`, 'unit', service.execStart.source.file)];
  }

  // Flags without values and stray words are kubelet's start step 1 (src/start/steps/command-line.ts).
  const { flags } = model.kubelet;
  const configured = (lastValue(flags, CredentialFlag.config) ?? '') !== '' || (lastValue(flags, CredentialFlag.binDir) ?? '') !== '';
  // Under the fallback the flags are gone on purpose; the fallback-active warning says so.
  // An argv cut short where execve would refuse it (E2BIG, the systemd step) says nothing about flags.
  if (!configured && !fallback?.active && !service.execStart.argvTooLarge) {
    findings.push({
      id: 'credential-providers-not-configured',
      severity: 'info',
      message: `Kubelet runs without --${CredentialFlag.config} and --${CredentialFlag.binDir}, so no credential provider can stop it from starting.`,
      remediation: 'Nothing to do.',
    });
  }

  if (!version && model.kubeletVersion) {
    // A version was given (or printed by the binary) but is not one node-check can read: no rules apply.
    findings.push(cannotDecide(`"${model.kubeletVersion.text}" (${model.kubeletVersion.source === 'flag' ? '--kubelet-version' : 'kubelet --version'}) is not a kubelet version node-check can read, so it cannot tell which rules apply.`, 'version-unreadable'));
  } else if (!version) {
    findings.push({
      id: 'kubelet-version-unknown',
      severity: 'info',
      message: `The kubelet version is unknown${model.kubeletVersion ? ` ("${model.kubeletVersion.text}" is not a version)` : model.kubeletVersionProblem ? ` (${model.kubeletVersionProblem})` : ''}; every kubelet 1.${OLDEST_MODELLED_MINOR}-1.${NEWEST_MODELLED_MINOR} was evaluated.`,
      remediation: 'Pass --kubelet-version X.Y.Z.',
    });
  } else if (!isModelledMinor(version.minor)) {
    // Never a neighbour's rules: a newer kubelet may have removed a flag or locked a gate.
    findings.push(cannotDecide(`Kubelet ${version.raw} is outside the versions node-check models (1.${OLDEST_MODELLED_MINOR}-1.${NEWEST_MODELLED_MINOR}), so no rules were applied and node-check cannot tell whether it will start.`, 'version-unmodelled'));
  }

  return findings;
}

/** Loud on purpose: kubelet is up, but pulls that need the removed providers fail. */
function fallbackActive(fallback: FallbackStatus): Finding {
  const removed = fallback.removedProviders?.length ? fallback.removedProviders.map((p) => `"${p}"`).join(', ') : 'its credential providers';
  return {
    id: 'fallback-active',
    severity: 'warning',
    message: `Kubelet runs under the node-check fallback${fallback.since ? ` since ${fallback.since}` : ''} without ${removed}: image pulls that need ${fallback.removedProviders?.length === 1 ? 'it' : 'them'} fail. ${fallback.reason ?? ''}`.trim(),
    ...(fallback.dropInPath ? { path: fallback.dropInPath } : {}),
    ...(fallback.removedProviders?.length === 1 ? { provider: fallback.removedProviders[0] } : {}),
    remediation: 'Install the missing plugin; the next kubelet start (or `node-check fallback revert` and `systemctl restart kubelet`) restores the full configuration.',
  };
}
