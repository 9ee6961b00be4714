/**
 * The result of one check of a node: what `check --output json` prints (docs/json.md), and what
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
  /** api: the Node object's status.nodeInfo.kubeletVersion (serve in a pod, which cannot run the host's kubelet). */
  readonly kubeletVersionSource: 'flag' | 'binary' | 'api' | 'unknown';
  /** Upstream's kubelet or OpenShift's (their start-up differs), and what decided it. */
  readonly kubeletFlavor: {
    readonly name: 'upstream' | 'openshift';
    readonly source: 'flag' | 'node' | 'default';
    readonly evidence: readonly string[];
  };
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
  /**
   * Host facts node-check did not examine, with why: all of them for a root other than the live
   * "/" (they belong to the machine node-check runs on). They never change kubeletWillStart.
   */
  readonly notChecked: readonly { readonly fact: string; readonly reason: string }[];
  /** Present when --machine-config / --overlay was given: the answer is about the node after applying them. */
  readonly upgrade?: UpgradeSection;
  /** --verbose only: where the inputs came from (src/evaluate/provenance.ts). */
  readonly provenance?: Provenance;
  /** Present when --ignore (or `ignore:` in the settings) named finding ids (src/evaluate/ignore.ts). */
  readonly ignored?: IgnoredSection;
}

export interface Provenance {
  /** Node paths whose contents node-check read. */
  readonly filesRead: readonly string[];
  /** Node paths only looked at (stat, directory listing). */
  readonly pathsExamined: readonly string[];
  /** "file:line" of the ExecStart= systemd runs (the last one, after resets). */
  readonly execStart: string | null;
  /** Each variable of kubelet's environment and the assignment that won: "file:line" of Environment=, or the EnvironmentFile=. */
  readonly environment: readonly { readonly name: string; readonly from: string }[];
  /** The --config file, the --config-dir drop-ins in kubelet's order, and the file that set each field last. */
  readonly kubeletConfig: {
    readonly file: string | null;
    readonly dropIns: readonly string[];
    readonly fields: readonly { readonly field: string; readonly from: string }[];
  };
  readonly kubeletVersion: { readonly source: 'flag' | 'binary' | 'openshift-version' | 'unknown'; readonly detail: string };
}

/** Findings demoted by --ignore, as kubeadm's --ignore-preflight-errors does. */
export interface IgnoredSection {
  /** The ids asked for, in order. */
  readonly ids: readonly string[];
  /** How many findings of the report carry `ignored: true`. */
  readonly findings: number;
  /**
   * True when the prediction is "will not start" or "cannot tell" and every finding behind it is
   * ignored: the exit code is then 0. `kubeletWillStart` itself never changes.
   */
  readonly verdictIgnored: boolean;
}

/** What was laid over the node and what it changed. `kubeletWillStart` above is the "after" answer. */
export interface UpgradeSection {
  /** In the order applied. name = metadata.name of a MachineConfig, else the file or directory. */
  readonly sources: readonly { readonly name: string; readonly kind: 'machine-config' | 'ignition' | 'directory'; readonly origin: string }[];
  /** Paths on the node whose result differs from the node now (new, different or removed). */
  readonly changedPaths: readonly string[];
  /** The changed paths that decided the answer: named by a finding; the credential provider config, plugin directory, plugins and kubelet --config files read for it; the unit, drop-ins and environment files when kubelet's command line changed. */
  readonly decidingPaths: readonly string[];
  /** Written paths whose contents node-check cannot tell (remote source, undecodable); they decide nothing unless read. */
  readonly unknownPaths: readonly string[];
  /** One sentence naming what was applied, e.g. "kubelet starts now but will NOT start after applying rendered-worker-5d2e" (the line for the upgrade ticket). */
  readonly summary: string;
  readonly before: { readonly kubeletWillStart: boolean | null };
  readonly after: { readonly kubeletWillStart: boolean | null };
  /** Where the kubelet version came from when it was derived from --openshift-version. */
  readonly openshiftVersion?: { readonly openshift: string; readonly kubeletMinor: string; readonly verified: boolean };
}

/**
 * docs/operations.md "Exit codes". Never 200-243 (systemd's). `internal` (EX_SOFTWARE) is a bug in node-check, never
 * an answer; a command stopped by SIGTERM/SIGINT exits 143/130 (docs/operations.md).
 */
export const ExitCode = {
  willStart: 0,
  willFail: 1,
  unknown: 2,
  usage: 64,
  /** EX_NOINPUT (sysexits.h): --root, a --machine-config file or an --overlay directory does not exist. */
  noInput: 66,
  internal: 70,
  /** EX_TEMPFAIL (sysexits.h): serve's --listen address is in use, by a program that may let go of it. */
  addressInUse: 75,
  sigint: 130,
  sigterm: 143,
} as const;

export function exitCodeFor(report: Pick<Report, 'kubeletWillStart'> & { readonly ignored?: Pick<IgnoredSection, 'verdictIgnored'> }): number {
  if (report.ignored?.verdictIgnored) return ExitCode.willStart;
  if (report.kubeletWillStart === null) return ExitCode.unknown;
  return report.kubeletWillStart ? ExitCode.willStart : ExitCode.willFail;
}
