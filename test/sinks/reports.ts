// Reports for the sink tests, shaped as the check engine produces them (messages in the words of
// src/checks/registration-check.ts), so the sinks are tested without discovering a node.
import type { Finding } from '../../src/model/findings.js';
import type { Report } from '../../src/model/report.js';
import { MODELLED_RANGE } from '../../src/kubelet/data/minors.js';

export const BIN_DIR = '/usr/libexec/kubelet-image-credential-provider-plugins';
export const CONFIG = '/etc/kubernetes/credential-providers/acr-credential-provider.yaml';

export function report(overrides: Partial<Report> = {}): Report {
  return {
    schemaVersion: 1,
    kubeletWillStart: true,
    kubeletVersion: '1.29.6',
    kubeletVersionSource: 'flag',
    evaluatedVersions: ['1.29'],
    kubeletFlavor: { name: 'upstream', source: 'default', evidence: [] },
    kubelet: {
      unit: 'kubelet.service',
      unitFile: '/etc/systemd/system/kubelet.service',
      dropIns: [],
      argv: ['/usr/bin/kubelet', `--image-credential-provider-bin-dir=${BIN_DIR}`, `--image-credential-provider-config=${CONFIG}`],
      credentialProviderConfig: CONFIG,
      credentialProviderBinDir: BIN_DIR,
      providers: [{ name: 'acr-credential-provider', binary: `${BIN_DIR}/acr-credential-provider`, pluginOk: true }],
    },
    findings: [],
    fallback: { enabled: false, active: false },
    notChecked: [],
    ...overrides,
  };
}

export function missingPlugin(provider: string, binDir = BIN_DIR): Finding {
  const path = `${binDir}/${provider}`;
  return {
    id: 'plugin-binary-missing',
    severity: 'error',
    message: `Credential provider plugin "${provider}" is missing: ${path} does not exist. Kubelet will exit with status 1 at start-up.`,
    path,
    provider,
    remediation: `Install the package that ships ${path}, or remove provider "${provider}" from ${CONFIG}.`,
    kubeletError: `plugin binary executable ${path} did not exist`,
  };
}

/**
 * The OpenShift 4.16 RHEL worker: acr-credential-provider is not installed yet
 * (test/fixtures/nodes/ocp-4.16-azure-rhel8-worker-acr-missing).
 */
export function acrMissing(): Report {
  return report({
    kubeletWillStart: false,
    kubelet: { ...report().kubelet, providers: [{ name: 'acr-credential-provider', binary: `${BIN_DIR}/acr-credential-provider`, pluginOk: false }] },
    findings: [missingPlugin('acr-credential-provider')],
  });
}

/** The kubelet version is unknown and the versions disagree. */
export function unknownVersion(): Report {
  return report({
    kubeletWillStart: null,
    kubeletVersion: null,
    kubeletVersionSource: 'unknown',
    evaluatedVersions: ['1.26', '1.27', '1.28', '1.29', '1.30', '1.31', '1.32', '1.33', '1.34', '1.35'],
    kubelet: { ...report().kubelet, providers: [{ name: 'acr-credential-provider', binary: `${BIN_DIR}/acr-credential-provider`, pluginOk: null }] },
    findings: [
      {
        id: 'cannot-decide',
        severity: 'warning',
        message: 'Without the kubelet version the answer differs: kubelet 1.30-1.35 will refuse to start, kubelet 1.26-1.29 will start.',
        remediation: 'Check --root and --unit, and the file named in the message; node-check exits 2 until it can tell.',
      },
      {
        id: 'plugin-binary-not-executable',
        severity: 'error',
        message: `Kubelet 1.30-1.35: Credential provider plugin "acr-credential-provider" at ${BIN_DIR}/acr-credential-provider is not an executable file. Kubelet will exit with status 1 at start-up.`,
        path: `${BIN_DIR}/acr-credential-provider`,
        provider: 'acr-credential-provider',
        remediation: `chmod 0755 ${BIN_DIR}/acr-credential-provider (or replace it with the plugin binary if it is a directory).`,
        kubeletError: 'error inspecting binary executable : exec: "/usr/libexec/kubelet-image-credential-provider-plugins/acr-credential-provider": permission denied',
        versions: '1.30-1.35',
      },
      {
        id: 'kubelet-version-unknown',
        severity: 'info',
        message: `The kubelet version is unknown; every kubelet ${MODELLED_RANGE} was evaluated.`,
        remediation: 'Pass --kubelet-version X.Y.Z.',
      },
    ],
  });
}

/** Kubelet started under the fallback, without acr-credential-provider. */
export function fallbackActive(): Report {
  return report({
    kubeletWillStart: true,
    kubelet: { ...report().kubelet, providers: [{ name: 'acr-credential-provider', binary: `${BIN_DIR}/acr-credential-provider`, pluginOk: false }] },
    fallback: {
      enabled: true,
      active: true,
      reason: 'plugin acr-credential-provider is missing',
      since: '2026-11-30T04:00:00Z',
      removedProviders: ['acr-credential-provider'],
      dropInPath: '/run/systemd/system/kubelet.service.d/90-node-check-fallback.conf',
    },
  });
}

/** No credential provider flags: the only thing to say is an info finding. */
export function notConfigured(): Report {
  return report({
    kubelet: { ...report().kubelet, credentialProviderConfig: null, credentialProviderBinDir: null, providers: [] },
    findings: [
      {
        id: 'credential-providers-not-configured',
        severity: 'info',
        message: 'Kubelet runs without --image-credential-provider-config and --image-credential-provider-bin-dir, so no credential provider can stop it from starting.',
        remediation: 'Nothing to do.',
      },
    ],
  });
}

/** Untrusted text a hostile or broken config could put into provider names and paths. */
export const HOSTILE_PROVIDER = 'evil\nMESSAGE_ID=00000000000000000000000000000000\nPRIORITY=0\n\nNODE_CHECK_FINDING_ID=forged\r_SYSTEMD_UNIT=sshd.service\u0000NUL=cut\u2028\u202eSEP';
export const HOSTILE_DIR = '/opt/MESSAGE_ID=ffffffffffffffffffffffffffffffff/x=y\nMESSAGE=forged message';

export function hostile(): Report {
  const finding = missingPlugin(HOSTILE_PROVIDER, HOSTILE_DIR);
  return report({
    kubeletWillStart: false,
    kubelet: { ...report().kubelet, providers: [{ name: HOSTILE_PROVIDER, binary: finding.path!, pluginOk: false }] },
    findings: [finding],
  });
}
