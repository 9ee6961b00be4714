/**
 * The client CA bundle (authentication.x509.clientCAFile, --client-ca-file) as BuildAuth reads it
 * in run() from 1.36 (cmd/kubelet/app/server.go at v1.36.5); up to 1.35 InitializeTLS has loaded
 * the same file before run() (src/start/steps/dependencies.ts, with cert.NewPool's words). The
 * decision is src/kubelet/node-setup/client-ca.ts (the Go pem and x509 ports per Go release).
 */
import type { FindingKind } from '../../catalog/findings.js';
import { nodePathKey } from '../../credentials/registration.js';
import { MODELLED_RANGE } from '../../kubelet/data/minors.js';
import { checkClientCaFile } from '../../kubelet/node-setup/client-ca.js';
import { cannotTell, PASS } from '../../model/verdict.js';
import { runFails, type Rule } from '../rule.js';

const KINDS = [
  {
    id: 'kubelet-client-ca-invalid',
    title: 'The client CA bundle (authentication.x509.clientCAFile) cannot be loaded',
    severity: 'error',
    versions: `all (${MODELLED_RANGE})`,
    messageId: '014a828e0c0046b9aa44f9739d4aca9e',
    meaning:
      'Kubelet loads the CA bundle it authenticates clients with before it connects to the container runtime. A missing file, an empty one ("missing content for CA bundle …") or one without a PEM certificate ("error loading CA bundle for \\"client-ca-bundle::P\\": data does not contain any valid RSA or ECDSA certificates") or with a certificate Go\'s x509.ParseCertificate refuses (a DER encoding error, or from 1.32 a negative serial number: "x509: negative serial number") exits with status 1, every restart.',
    fix: 'Restore the cluster CA certificate in PEM at that path (kubeadm: /etc/kubernetes/pki/ca.crt; OpenShift: /etc/kubernetes/kubelet-ca.crt), or correct clientCAFile / --client-ca-file.',
  },
] as const satisfies readonly FindingKind[];

/** The newest minor whose InitializeTLS loads the client CA (cmd/kubelet/app/server.go at v1.35.8). */
export const NEWEST_MINOR_CLIENT_CA_IN_INITIALIZE_TLS = 35;

/** authentication.x509.clientCAFile, or undefined when it is unset or empty. */
export function clientCaFileOf(config: Readonly<Record<string, unknown>>): string | undefined {
  const authentication = config['authentication'];
  const x509 = authentication && typeof authentication === 'object' ? (authentication as Record<string, unknown>)['x509'] : undefined;
  const file = x509 && typeof x509 === 'object' ? (x509 as Record<string, unknown>)['clientCAFile'] : undefined;
  return typeof file === 'string' && file !== '' ? file : undefined;
}

export const clientCaRule: Rule<typeof KINDS> = {
  id: 'run/client-ca',
  step: 'run:auth',
  kinds: KINDS,
  decide(context) {
    const clientCAFile = clientCaFileOf(context.effectiveConfig);
    if (!clientCAFile || context.minor <= NEWEST_MINOR_CLIENT_CA_IN_INITIALIZE_TLS) return PASS;
    const ca = checkClientCaFile(context.minor, clientCAFile, context.model.files[nodePathKey(clientCAFile)], context.model.kubeletEnvironment['GODEBUG']);
    if ('undecidable' in ca) return cannotTell(`authentication.x509.clientCAFile: ${ca.undecidable}`, clientCAFile);
    if (ca.ok) return PASS;
    return runFails(context, ca.error, {
      findingId: 'kubelet-client-ca-invalid',
      message: `Kubelet 1.${context.minor} cannot load its client CA bundle ${clientCAFile} (authentication.x509.clientCAFile, --client-ca-file): ${ca.error}.`,
      remediation: `Restore ${clientCAFile} with the cluster's CA certificate in PEM (kubeadm: /etc/kubernetes/pki/ca.crt; OpenShift: /etc/kubernetes/kubelet-ca.crt from the machine config), or correct clientCAFile.`,
      path: clientCAFile,
      ...(ca.inexact ? { inexact: true } : {}),
    });
  },
};
