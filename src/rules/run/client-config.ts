/**
 * The API client: buildKubeletClientConfig in run() (cmd/kubelet/app/server.go, after the cloud
 * provider and the node name, before BuildAuth): --kubeconfig, --bootstrap-kubeconfig, certificate
 * rotation and the client certificate store in --cert-dir. The decision is
 * src/kubelet/node-setup/kubeconfig.ts (through the Go TLS ports of the minor's Go builds).
 */
import type { FindingKind } from '../../catalog/findings.js';
import { MODELLED_RANGE } from '../../kubelet/data/minors.js';
import { nodePathKey } from '../../credentials/registration.js';
import { checkClientConfig, DEFAULT_CERT_DIR } from '../../kubelet/node-setup/kubeconfig.js';
import { oncePerOwner } from '../../lib/memo.js';
import type { FileTable } from '../../model/node.js';
import { cannotTell, PASS } from '../../model/verdict.js';
import { runFails, type Rule } from '../rule.js';

const KINDS = [
  {
    id: 'kubelet-kubeconfig-invalid',
    title: 'Kubelet cannot build its API client from --kubeconfig / --bootstrap-kubeconfig',
    severity: 'error',
    versions: `all (${MODELLED_RANGE})`,
    messageId: '5b0e7d3c2f6a4e81a9c4d2b7f10e6a39',
    meaning:
      'With --kubeconfig set, run() loads it before it connects to the container runtime. A missing file ("invalid kubeconfig: stat …: no such file or directory"; with rotateCertificates "unable to load kubeconfig: …"), one that does not parse, has no current context or names a missing CA or client certificate file exits with status 1. With --bootstrap-kubeconfig, a kubeconfig without an unexpired client certificate sends kubelet to the bootstrap kubeconfig, and a missing one exits ("unable to load bootstrap kubeconfig: stat …").',
    fix: 'Restore the kubeconfig (and the client certificate it names, /var/lib/kubelet/pki/kubelet-client-current.pem) as the node had it, or the bootstrap kubeconfig, or correct --kubeconfig / --bootstrap-kubeconfig.',
  },
] as const satisfies readonly FindingKind[];

/**
 * buildKubeletClientConfig's answer per node (its files), inputs and minor (whose Go builds parse
 * the TLS material): asked again by the same check, it is not recomputed.
 */
const clientConfigOf = oncePerOwner((files: FileTable, input: string) => {
  const [kubeconfig, bootstrapKubeconfig, rotateCertificates, certDir, minor, godebug] = JSON.parse(input) as [string, string, boolean, string, number, string | null];
  return checkClientConfig({ kubeconfig, bootstrapKubeconfig, rotateCertificates, certDir, now: new Date(), minor, ...(godebug === null ? {} : { godebug }) }, (path) => files[nodePathKey(path)]);
});

export const clientConfigRule: Rule<typeof KINDS> = {
  id: 'run/client-config',
  step: 'run:client-config',
  kinds: KINDS,
  inputs: { fields: { rotateCertificates: 'run() buildKubeletClientConfig: bootstrap.LoadClientConfig and the client certificate manager (kubelet-kubeconfig-invalid)' }, flags: { kubeconfig: 'run() buildKubeletClientConfig (kubelet-kubeconfig-invalid)', 'bootstrap-kubeconfig': 'run() buildKubeletClientConfig: bootstrap.LoadClientConfig / LoadClientCert (kubelet-kubeconfig-invalid)', 'cert-dir': 'run() buildKubeletClientConfig: the client certificate store (kubelet-kubeconfig-invalid); the serving certificate (InitializeTLS) only when tlsCertFile is unset' } },
  decide(context) {
    const flag = (name: string) => context.flag(name) ?? '';
    const client = clientConfigOf(context.model.files, JSON.stringify([flag('kubeconfig'), flag('bootstrap-kubeconfig'), context.effectiveConfig['rotateCertificates'] === true, flag('cert-dir') || DEFAULT_CERT_DIR, context.minor, context.model.kubeletEnvironment['GODEBUG'] ?? null]));
    if ('undecidable' in client) return cannotTell(`kubelet's API client: ${client.undecidable}`, client.path);
    if (client.ok) return PASS;
    return runFails(context, client.error, {
      findingId: 'kubelet-kubeconfig-invalid',
      message: `Kubelet 1.${context.minor} cannot build its API client from ${client.path}: ${client.error}.`,
      remediation: `Restore ${client.path} as the node had it (kubeadm: /etc/kubernetes/kubelet.conf and /var/lib/kubelet/pki; EKS: /var/lib/kubelet/kubeconfig; OpenShift: /var/lib/kubelet/kubeconfig, or /etc/kubernetes/kubeconfig to bootstrap), or correct --kubeconfig / --bootstrap-kubeconfig.`,
      path: client.path,
      ...(client.inexact ? { inexact: true } : {}),
    });
  },
};
