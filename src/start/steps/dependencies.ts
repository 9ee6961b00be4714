/**
 * Kubelet's step 9 (cmd/kubelet/app/server.go, 1.24-1.37): UnsecuredDependencies → InitializeTLS
 * reads tlsCipherSuites and tlsMinVersion (src/kubelet/config/tls.ts); an unknown name is
 * "failed to construct kubelet dependencies: …", exit status 1. Up to 1.35 InitializeTLS then loads
 * authentication.x509.clientCAFile with client-go's cert.NewPool (util/cert/io.go: os.ReadFile,
 * then "error creating pool from %s: %s" around ParseCertsPEM's error), wrapped as "unable to load
 * client CA file %s: %w"; from 1.36 the pool is built in NewMainKubelet (pkg/kubelet/kubelet.go),
 * after BuildAuth has read the same file (src/rules/run/client-ca.ts). The self-signed serving
 * certificate InitializeTLS may write first is not modelled (it needs a writable --cert-dir).
 */
import type { StartCheck } from '../start-check.js';
import { kubeletFails, PASS } from '../start-check.js';
import { checkTlsOptions } from '../../kubelet/config/tls.js';
import { wrapStepError } from '../../kubelet/data/start-sequence.js';
import { checkClientCaFile } from '../../kubelet/node-setup/client-ca.js';
import { nodePathKey } from '../../credentials/registration.js';
import { goQuote } from '../../go/quote.js';
import { clientCaFileOf, NEWEST_MINOR_CLIENT_CA_IN_INITIALIZE_TLS } from '../../rules/run/client-ca.js';

/** BuildAuth's wording of a CA bundle error (dynamiccertificates) in cert.NewPool's. */
function newPoolError(path: string, dynamicError: string): string {
  const name = goQuote(`client-ca-bundle::${path}`);
  if (dynamicError === `missing content for CA bundle ${name}`) return `error creating pool from ${path}: data does not contain any valid RSA or ECDSA certificates`;
  const prefix = `error loading CA bundle for ${name}: `;
  return dynamicError.startsWith(prefix) ? `error creating pool from ${path}: ${dynamicError.slice(prefix.length)}` : dynamicError;
}

export const dependenciesStep: StartCheck = {
  id: 'kubelet-dependencies',
  title: 'Kubelet builds its dependencies (TLS cipher suites and minimum version, the client CA up to 1.35)',
  stage: 'kubelet',
  appliesTo: () => true,
  run(context) {
    const where = context.model.kubeletConfig.configFile?.path;
    const result = checkTlsOptions(context.effectiveConfig);
    if ('undecidable' in result) return { undecidable: `node-check cannot tell whether kubelet 1.${context.minor} accepts its TLS settings: ${result.undecidable}`, ...(where ? { path: where } : {}) };
    if (result.ok) {
      const clientCAFile = clientCaFileOf(context.effectiveConfig);
      if (!clientCAFile || context.minor > NEWEST_MINOR_CLIENT_CA_IN_INITIALIZE_TLS) return PASS;
      const ca = checkClientCaFile(context.minor, clientCAFile, context.model.files[nodePathKey(clientCAFile)], context.model.kubeletEnvironment['GODEBUG']);
      if ('undecidable' in ca) return { undecidable: `authentication.x509.clientCAFile: ${ca.undecidable}`, path: clientCAFile };
      if (ca.ok) return PASS;
      const error = `unable to load client CA file ${clientCAFile}: ${newPoolError(clientCAFile, ca.error)}`;
      return kubeletFails(context, {
        findingId: 'kubelet-client-ca-invalid',
        message: `Kubelet 1.${context.minor} cannot load its client CA bundle ${clientCAFile} (authentication.x509.clientCAFile, --client-ca-file): ${error}.`,
        remediation: `Restore ${clientCAFile} with the cluster's CA certificate in PEM (kubeadm: /etc/kubernetes/pki/ca.crt; OpenShift: /etc/kubernetes/kubelet-ca.crt from the machine config), or correct clientCAFile.`,
        kubeletError: wrapStepError(context.minor, 'construct-dependencies', error) ?? `failed to construct kubelet dependencies: ${error}`,
        path: clientCAFile,
        ...(ca.inexact ? { inexact: true } : {}),
      });
    }
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
