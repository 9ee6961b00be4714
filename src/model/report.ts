/**
 * The result of one check of a node: what `check --output json` prints (DESIGN §4.3), and what
 * the text renderer, the journal, the metrics and the fallback planner consume.
 */
import type { Finding } from './findings.js';

export interface ProviderStatus {
  readonly name: string;
  /** Node path of the plugin binary kubelet would look up. */
  readonly binary: string;
  /** Would this plugin pass kubelet's start-up check? null when it differs between possible versions. */
  readonly pluginOk: boolean | null;
}

export interface FallbackStatus {
  readonly enabled: boolean;
  readonly active: boolean;
  /** Why the fallback is active (the providers it removed and the reason), when active. */
  readonly reason?: string;
  /** ISO 8601 time the fallback was applied, when active. */
  readonly since?: string;
  readonly removedProviders?: readonly string[];
  readonly dropInPath?: string;
}

export interface Report {
  readonly schemaVersion: 1;
  /** true: kubelet is predicted to start; false: it will refuse; null: node-check cannot tell. */
  readonly kubeletWillStart: boolean | null;
  readonly kubeletVersion: string | null;
  readonly kubeletVersionSource: 'flag' | 'binary' | 'unknown';
  /** The kubelet minors whose rules were applied, e.g. ["1.28"], or all modelled ones when unknown. */
  readonly evaluatedVersions: readonly string[];
  readonly kubelet: {
    readonly unit: string;
    readonly unitFile: string | null;
    readonly dropIns: readonly string[];
    readonly argv: readonly string[];
    readonly credentialProviderConfig: string | null;
    readonly credentialProviderBinDir: string | null;
    readonly providers: readonly ProviderStatus[];
  };
  readonly findings: readonly Finding[];
  readonly fallback: FallbackStatus;
}

/**
 * DESIGN §4.2. Never 200-243 (systemd's). `internal` (EX_SOFTWARE) is a bug in node-check, never
 * an answer; a command stopped by SIGTERM/SIGINT exits 143/130 (docs/operations.md).
 */
export const ExitCode = {
  willStart: 0,
  willFail: 1,
  unknown: 2,
  usage: 64,
  internal: 70,
  sigint: 130,
  sigterm: 143,
} as const;

export function exitCodeFor(report: Pick<Report, 'kubeletWillStart'>): number {
  if (report.kubeletWillStart === null) return ExitCode.unknown;
  return report.kubeletWillStart ? ExitCode.willStart : ExitCode.willFail;
}
