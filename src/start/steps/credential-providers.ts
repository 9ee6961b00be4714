/**
 * Kubelet's credential provider registration (NewMainKubelet → kuberuntime manager,
 * pkg/credentialprovider/plugin at the tag of every modelled minor).
 * Registration itself is replayed in src/credentials/registration.ts; this step turns its first
 * failure into the start failure, logged as `"Failed to register CRI auth plugins" err="…"`.
 */
import type { StartCheck } from '../start-check.js';
import { PASS } from '../start-check.js';
import { findingForFailure } from '../../checks/registration-check.js';
import { goQuote } from '../../go/index.js';

export const credentialProvidersStep: StartCheck = {
  id: 'credential-provider-registration',
  title: "Kubelet's credential provider registration at start-up",
  stage: 'kubelet',
  appliesTo: () => true,
  run(context) {
    const registration = context.registration;
    const flags = context.credentialFlags;
    if (!registration || !flags) return PASS;
    if (registration.undecidable) {
      return { undecidable: `node-check cannot evaluate kubelet's credential provider setup: ${registration.undecidable.reason}`, ...(registration.undecidable.path ? { path: registration.undecidable.path } : {}) };
    }
    const failure = registration.failure;
    if (!failure) return PASS;
    const finding = findingForFailure(failure, { model: context.model, traits: context.traits, flags, registration });
    return {
      fail: {
        findingId: finding.id,
        message: finding.message,
        remediation: finding.remediation,
        kubeletError: failure.kubeletError,
        logLine: failure.exitStatus === 255 ? failure.kubeletError : `"Failed to register CRI auth plugins" err=${goQuote(failure.kubeletError)}`,
        exitStatus: failure.exitStatus,
        ...(finding.path ? { path: finding.path } : {}),
        ...(finding.provider ? { provider: finding.provider } : {}),
        ...(failure.inexact ? { inexact: true } : {}),
      },
    };
  },
};
