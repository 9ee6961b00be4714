/**
 * Kubelet's serving certificate (tlsCertFile / tlsPrivateKeyFile, or the pair in --cert-dir) as
 * NewMainKubelet loads it from 1.31, after the runtime and image managers (pkg/kubelet/kubelet.go).
 * The decision is src/kubelet/node-setup/serving-cert.ts.
 */
import type { FindingKind } from '../../catalog/findings.js';
import { NEWEST_MODELLED_MINOR } from '../../kubelet/data/minors.js';
import { nodePathKey } from '../../credentials/registration.js';
import { goSprintf, RUN_WRAP, wrapStepError } from '../../kubelet/data/start-sequence.js';
import { DEFAULT_CERT_DIR } from '../../kubelet/node-setup/kubeconfig.js';
import { checkServingCert } from '../../kubelet/node-setup/serving-cert.js';
import { cannotTell, PASS } from '../../model/verdict.js';
import { kubeletFails, type Rule } from '../rule.js';

const KINDS = [
  {
    id: 'kubelet-serving-cert-invalid',
    title: 'The serving certificate (tlsCertFile, --tls-cert-file) cannot be loaded',
    severity: 'error',
    versions: `1.31-1.${NEWEST_MODELLED_MINOR} (ReloadKubeletServerCertificateFile)`,
    messageId: '6a3e9f2d0c8b47d5a1f7e4b3c92d8e10',
    meaning:
      'From 1.31, NewMainKubelet loads tlsCertFile and tlsPrivateKeyFile before "Started kubelet"; a missing file exits with status 1 ("failed to run Kubelet: failed to create kubelet: failed to initialize file based certificate manager: unable to set up dynamic certificate manager for kubelet server cert files: open …"). Before 1.31 the files are read when the server starts, after "Started kubelet".',
    fix: 'Restore the certificate and key, or unset tlsCertFile and tlsPrivateKeyFile so kubelet writes a self-signed pair in --cert-dir, or use serverTLSBootstrap.',
  },
] as const satisfies readonly FindingKind[];

export const servingCertRule: Rule<typeof KINDS> = {
  id: 'run/serving-cert',
  step: 'run:create-kubelet',
  kinds: KINDS,
  inputs: { fields: { tlsCertFile: 'NewMainKubelet\'s file based certificate manager, 1.31+ (kubelet-serving-cert-invalid); before 1.31 read after "Started kubelet"', tlsPrivateKeyFile: 'NewMainKubelet\'s file based certificate manager, 1.31+ (kubelet-serving-cert-invalid); before 1.31 read after "Started kubelet"' } },
  decide(context) {
    const serving = checkServingCert({
      minor: context.minor,
      certDir: context.flag('cert-dir') || DEFAULT_CERT_DIR,
      tlsCertFile: context.configString('tlsCertFile') ?? '',
      tlsPrivateKeyFile: context.configString('tlsPrivateKeyFile') ?? '',
      serverTLSBootstrap: context.effectiveConfig['serverTLSBootstrap'] === true,
      gateEnabled: (gate) => context.gateEnabled(gate),
      godebug: context.model.kubeletEnvironment['GODEBUG'],
      now: new Date(),
    }, (path) => context.model.files[nodePathKey(path)]);
    if ('undecidable' in serving) return cannotTell(`kubelet's serving certificate: ${serving.undecidable}`, serving.path);
    if (serving.ok) return PASS;
    return kubeletFails(context, {
      findingId: 'kubelet-serving-cert-invalid',
      kubeletError: wrapStepError(context.minor, 'run:create-kubelet', serving.error) ?? goSprintf(RUN_WRAP, serving.error),
      message: `Kubelet 1.${context.minor} cannot load its serving certificate (tlsCertFile / tlsPrivateKeyFile, --tls-cert-file / --tls-private-key-file): ${serving.error}.`,
      remediation: 'Restore the serving certificate and key at those paths, or unset tlsCertFile and tlsPrivateKeyFile (kubelet then writes a self-signed pair in --cert-dir), or use serverTLSBootstrap.',
      path: serving.path,
      ...(serving.inexact ? { inexact: true } : {}),
    });
  },
};
