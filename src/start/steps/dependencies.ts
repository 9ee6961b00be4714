/**
 * Kubelet's step 9 (cmd/kubelet/app/server.go, 1.24-1.36): UnsecuredDependencies → InitializeTLS
 * reads tlsCipherSuites and tlsMinVersion (src/kubelet/config/tls.ts); an unknown name is
 * "failed to construct kubelet dependencies: …", exit status 1. Up to 1.35 it then loads
 * authentication.x509.clientCAFile into a cert pool (src/kubelet/node-setup/client-ca.ts
 * checkClientCaPool), before run()'s BuildAuth reads it again. The self-signed serving
 * certificate InitializeTLS may write first is not modelled (it needs a writable --cert-dir).
 */
import type { StartCheck } from '../start-check.js';
import { kubeletFails, PASS } from '../start-check.js';
import { checkTlsOptions } from '../../kubelet/config/tls.js';
import { wrapStepError } from '../../kubelet/data/start-sequence.js';
import { checkClientCaPool } from '../../kubelet/node-setup/client-ca.js';
import { nodePathKey } from '../../credentials/registration.js';

/** The newest minor whose InitializeTLS loads the client CA (certutil.NewPool; absent from v1.36.5's server.go). */
const LAST_INITIALIZE_TLS_CA_POOL = 35;

export const dependenciesStep: StartCheck = {
  id: 'kubelet-dependencies',
  title: 'Kubelet builds its dependencies (TLS cipher suites and minimum version)',
  stage: 'kubelet',
  appliesTo: () => true,
  run(context) {
    const where = context.model.kubeletConfig.configFile?.path;
    const result = checkTlsOptions(context.effectiveConfig);
    if ('undecidable' in result) return { undecidable: `node-check cannot tell whether kubelet 1.${context.minor} accepts its TLS settings: ${result.undecidable}`, ...(where ? { path: where } : {}) };
    if (result.ok) return clientCaPool(context, where);
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

function clientCaPool(context: Parameters<StartCheck['run']>[0], where: string | undefined): ReturnType<StartCheck['run']> {
  if (context.minor > LAST_INITIALIZE_TLS_CA_POOL) return PASS;
  const authentication = context.effectiveConfig['authentication'];
  const x509 = authentication && typeof authentication === 'object' ? (authentication as Record<string, unknown>)['x509'] : undefined;
  const clientCAFile = x509 && typeof x509 === 'object' ? (x509 as Record<string, unknown>)['clientCAFile'] : undefined;
  if (typeof clientCAFile !== 'string' || clientCAFile === '') return PASS;
  const ca = checkClientCaPool(clientCAFile, context.model.files[nodePathKey(clientCAFile)]);
  if ('undecidable' in ca) return { undecidable: `authentication.x509.clientCAFile: ${ca.undecidable}`, path: clientCAFile };
  if (ca.ok) return PASS;
  return kubeletFails(context, {
    findingId: 'kubelet-client-ca-invalid',
    message: `Kubelet 1.${context.minor} cannot load its client CA bundle ${clientCAFile} (authentication.x509.clientCAFile, --client-ca-file)${where ? ` (${where} or the flags)` : ''}: ${ca.error}.`,
    remediation: `Restore ${clientCAFile} with the cluster's CA certificate in PEM (kubeadm: /etc/kubernetes/pki/ca.crt; OpenShift: /etc/kubernetes/kubelet-ca.crt from the machine config), or correct clientCAFile.`,
    kubeletError: wrapStepError(context.minor, 'construct-dependencies', ca.error) ?? `failed to construct kubelet dependencies: ${ca.error}`,
    path: clientCAFile,
    ...(ca.inexact ? { inexact: true } : {}),
  });
}
