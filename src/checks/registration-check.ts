/**
 * The failure that matters most: kubelet's credential-provider registration, in kubelet's exact
 * words. Turns a RegistrationFailure into an error finding; the start step
 * (src/start/steps/credential-providers.ts) reports it as the start failure.
 */
import type { Finding } from '../model/findings.js';
import type { CheckContext } from './check.js';
import type { RegistrationFailure } from '../credentials/registration.js';
import { installPluginRemediation } from './remediation.js';
import { CredentialFlag, lastValue } from '../kubelet/flags.js';

export function findingForFailure(failure: RegistrationFailure, context: CheckContext): Finding {
  const { configPath, binDir } = context.flags;
  const exit = failure.exitStatus === 255 ? 'exit with status 255 (klog.Fatalf)' : 'exit with status 1';
  const base = { id: failure.findingId, severity: 'error' as const, kubeletError: failure.kubeletError, ...(failure.inexact ? { inexact: true } : {}) };
  const withPath = failure.path ? { path: failure.path } : {};
  const withProvider = failure.provider ? { provider: failure.provider } : {};
  const says = (sentence: string, remediation: string): Finding => ({ ...base, ...withPath, ...withProvider, message: `${sentence} Kubelet will ${exit} at start-up.`, remediation });

  switch (failure.findingId) {
    case 'bin-dir-missing':
      if (binDir === '') return says(unsetSentence(context, CredentialFlag.binDir, 'kubelet then looks for the plugins in the empty path, which does not exist.'), `Set --${CredentialFlag.binDir} to the directory that holds the plugin binaries, or remove --${CredentialFlag.config} from kubelet's command line.${wordSplittingHint(context, CredentialFlag.binDir)}`);
      return says(`The credential provider plugin directory ${binDir} (--${CredentialFlag.binDir}) does not exist.`, context.model.kubelet ? dirRemediation(context) : '');
    case 'bin-dir-uninspectable':
      return says(`The credential provider plugin directory ${binDir} cannot be inspected.`, `Make ${binDir} a directory readable by root.`);
    case 'config-path-empty':
      return says(unsetSentence(context, CredentialFlag.config, `kubelet needs it once --${CredentialFlag.binDir} is set.`), `Set --${CredentialFlag.config} to the provider config, or remove --${CredentialFlag.binDir} from kubelet's command line.${wordSplittingHint(context, CredentialFlag.config)}`);
    case 'config-is-directory':
      return says(`The credential provider config ${configPath} is a directory, which kubelet before 1.34 cannot read.`, `Point --${CredentialFlag.config} at a single file, or run kubelet 1.34 or newer.`);
    case 'config-dir-empty':
      return says(`The credential provider config directory ${configPath} has no .json, .yaml or .yml file.`, `Add the provider config to ${configPath} with a .yaml, .yml or .json extension.`);
    case 'config-unreadable':
      return says(`The credential provider config ${failure.path ?? configPath} cannot be read.`, `Restore ${failure.path ?? configPath} (on OpenShift it comes from the machine config), or remove the credential provider flags.`);
    case 'config-decode-failed': {
      const file = failure.path ?? configPath;
      // 1.24-1.25 register no kubelet.config.k8s.io/v1 (k8s.io/kubelet v0.25.0 has no config/v1).
      const noV1 = !context.traits.configApiVersions.includes('v1') && (failure.detail ?? '').includes('for version "kubelet.config.k8s.io/v1"');
      const fix = noV1
        ? `Kubelet 1.${context.traits.minor} knows only kubelet.config.k8s.io/v1alpha1 and v1beta1: set apiVersion: kubelet.config.k8s.io/v1beta1 in ${file}, and credentialprovider.kubelet.k8s.io/v1beta1 for each provider.`
        : `Correct ${file} as the decoding error says.`;
      return says(sentence(`The credential provider config ${file} cannot be decoded: ${failure.detail ?? ''}`), fix);
    }
    case 'config-unknown-field':
      return says(sentence(`The credential provider config ${failure.path ?? configPath} has fields this kubelet does not know: ${failure.detail ?? ''}`), `Remove or correct the field in ${failure.path ?? configPath}, or run a kubelet new enough to know it.`);
    case 'config-duplicate-provider':
      return says(`The credential provider config ${configPath} names the same provider twice.`, `Remove or rename the duplicate provider in ${configPath}.`);
    case 'config-invalid':
      return says(sentence(`The credential provider config ${configPath} fails kubelet's validation: ${failure.detail ?? ''}`), `Correct the fields named in the message in ${configPath}.`);
    case 'plugin-binary-missing':
      return says(`Credential provider plugin "${failure.provider}" is missing: ${failure.path} does not exist.`, installPluginRemediation(context.model, failure.provider ?? '', failure.path ?? '', configPath));
    case 'plugin-binary-not-executable':
      return says(`Credential provider plugin "${failure.provider}" at ${failure.path} is not an executable file.`, `chmod 0755 ${failure.path} (or replace it with the plugin binary if it is a directory).`);
    case 'plugin-binary-uninspectable':
      return says(`Credential provider plugin "${failure.provider}" at ${failure.path} cannot be inspected.`, `Make ${failure.path} a regular executable file.`);
    case 'plugin-registered-twice': {
      // <=1.32: the global registry already holds the in-tree providers (traits.inTreeProviderNames).
      const inTree = context.traits.inTreeProviderNames.includes(failure.provider ?? '');
      return says(
        `Credential provider "${failure.provider}" is registered twice (${inTree ? `kubelet 1.${context.traits.minor} has a built-in provider of that name` : 'a duplicate name'}).`,
        inTree ? `Rename the plugin (and its binary) to a name other than "${failure.provider}" in ${configPath}.` : `Remove or rename the duplicate provider "${failure.provider}" in ${configPath}.`,
      );
    }
    default:
      return says(`Credential provider registration fails: ${failure.kubeletError}.`, 'See `node-check explain ' + failure.findingId + '`.');
  }
}

const isGiven = (context: CheckContext, flag: string): boolean => (context.model.kubelet ? lastValue(context.model.kubelet.flags, flag) !== undefined : false);

/** A credential flag kubelet reads as "": never given, or given an empty value (an unset variable). */
function unsetSentence(context: CheckContext, flag: string, consequence: string): string {
  const given = isGiven(context, flag);
  return `--${flag} is ${given ? 'set to an empty value' : 'not set'} on kubelet's command line: ${consequence}`;
}

/** Where an empty value came from a variable: `${VAR}` passes one word, `$VAR` splits on white space (systemd.service(5)). */
function wordSplittingHint(context: CheckContext, flag: string): string {
  return isGiven(context, flag) ? ' If the value comes from a variable, it is unset or empty in kubelet\'s environment; in ExecStart=, ${VAR} passes its value as one word while $VAR splits it on white space.' : '';
}

function dirRemediation(context: CheckContext): string {
  const providers = context.registration.plugins.map((p) => p.provider);
  const first = providers[0];
  if (first) return installPluginRemediation(context.model, first, `${context.flags.binDir}/${first}`, context.flags.configPath);
  return `Create ${context.flags.binDir} with the plugin binaries, or remove the credential provider flags from kubelet's command line.`;
}

/** Ends a sentence built around kubelet's own text, which may or may not end in a full stop. */
function sentence(text: string): string {
  return /[.!?]$/.test(text) ? text : `${text}.`;
}
