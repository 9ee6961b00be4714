/**
 * Kubelet's step 9 (cmd/kubelet/app/server.go, 1.24-1.37): UnsecuredDependencies → InitializeTLS
 * reads tlsCipherSuites and tlsMinVersion (src/kubelet/config/tls.ts); an unknown name is
 * "failed to construct kubelet dependencies: …", exit status 1. The self-signed serving
 * certificate InitializeTLS may write first is not modelled (it needs a writable --cert-dir).
 */
import type { StartCheck } from '../start-check.js';
import { kubeletFails, PASS } from '../start-check.js';
import { checkTlsOptions } from '../../kubelet/config/tls.js';
import { wrapStepError } from '../../kubelet/data/start-sequence.js';

export const dependenciesStep: StartCheck = {
  id: 'kubelet-dependencies',
  title: 'Kubelet builds its dependencies (TLS cipher suites and minimum version)',
  stage: 'kubelet',
  appliesTo: () => true,
  run(context) {
    const where = context.model.kubeletConfig.configFile?.path;
    const result = checkTlsOptions(context.effectiveConfig);
    if ('undecidable' in result) return { undecidable: `node-check cannot tell whether kubelet 1.${context.minor} accepts its TLS settings: ${result.undecidable}`, ...(where ? { path: where } : {}) };
    if (result.ok) return PASS;
    const flag = result.field === 'tlsCipherSuites' ? '--tls-cipher-suites' : '--tls-min-version';
    return kubeletFails(context, {
      findingId: 'kubelet-tls-option-unknown',
      message: `Kubelet 1.${context.minor} does not know a TLS setting in ${result.field} (${flag})${where ? ` (${where} or the flags)` : ''}: ${result.error}.`,
      remediation: result.field === 'tlsCipherSuites'
        ? 'Use Go crypto/tls cipher suite names (e.g. TLS_ECDHE_RSA_WITH_AES_128_GCM_SHA256) in tlsCipherSuites or --tls-cipher-suites.'
        : 'Set tlsMinVersion (or --tls-min-version) to VersionTLS12 or VersionTLS13 (VersionTLS10 and VersionTLS11 are also accepted).',
      kubeletError: wrapStepError(context.minor, 'construct-dependencies', result.error) ?? `failed to construct kubelet dependencies: ${result.error}`,
      ...(where ? { path: where } : {}),
    });
  },
};
