/**
 * Finding kinds of the credential-provider engine, wired into the catalog (../findings.ts).
 * credential-flags-ignored: RegistrationResult.flagsIgnored (src/credentials/registration.ts).
 */
import type { FindingKind } from '../findings.js';

export const CREDENTIALS_KINDS = [
  {
    id: 'credential-flags-ignored',
    title: 'Kubelet ignores the credential provider flags (KubeletCredentialProviders is off)',
    severity: 'info',
    versions: '1.24-1.25',
    messageId: '239de2234d8e466796186cb14e9fde54',
    meaning:
      'Kubelet 1.24 and 1.25 register credential provider plugins only while the feature gate KubeletCredentialProviders (beta, on by default) is on. With it off, kubelet logs "Flags --image-credential-provider-config or --image-credential-provider-bin-dir were set but the feature gate was disabled, these flags will be ignored", starts, and pulls images without the plugins (pkg/kubelet/kuberuntime/kuberuntime_manager.go).',
    fix: 'Remove KubeletCredentialProviders=false from --feature-gates and the kubelet config file if the plugins are wanted; before upgrading to 1.26-1.27 remove it anyway (the gate is locked on there) and from 1.28 remove any setting of it (the gate no longer exists).',
  },
] as const satisfies readonly FindingKind[];
