/**
 * Evaluation: a pure function from a NodeModel to a Report. Runs every check for each kubelet
 * version in question (the known one, or every modelled one when the version is unknown) and
 * merges what the versions say: when they all agree that is the answer, otherwise the answer is
 * "unknown" and each finding names the versions it holds for.
 */
import type { Finding } from '../model/findings.js';
import type { NodeModel } from '../model/node.js';
import type { FallbackStatus, ProviderStatus, Report } from '../model/report.js';
import { CHECKS } from '../checks/index.js';
import type { CheckContext, CredentialFlags } from '../checks/check.js';
import { simulateRegistration, type RegistrationResult } from '../credentials/registration.js';
import { CredentialFlag, lastValue } from '../kubelet/flags.js';
import { effectiveFeatureGates, TOKEN_GATE } from '../kubelet/feature-gates.js';
import {
  describeMinors,
  formatVersion,
  MODELLED_MINORS,
  NEWEST_MODELLED_MINOR,
  OLDEST_MODELLED_MINOR,
  parseKubeletVersion,
  requireTraits,
  type KubeletTraits,
} from '../kubelet/version.js';
import { contextFindings, cannotDecide } from './context-findings.js';

export interface EvaluateOptions {
  readonly fallback?: FallbackStatus;
}

interface VersionVerdict {
  readonly minor: number;
  readonly registration: RegistrationResult;
  readonly findings: readonly Finding[];
}

export function evaluate(model: NodeModel, options: EvaluateOptions = {}): Report {
  const fallback = options.fallback ?? { enabled: false, active: false };
  const version = model.kubeletVersion ? parseKubeletVersion(model.kubeletVersion.text) : undefined;
  const findings: Finding[] = [...contextFindings(model, version, fallback)];
  const flags = credentialFlags(model);
  const minors = version ? [clampMinor(version.minor)] : MODELLED_MINORS;
  const base = {
    schemaVersion: 1 as const,
    kubeletVersion: version ? formatVersion(version) : null,
    kubeletVersionSource: version ? model.kubeletVersion!.source : ('unknown' as const),
    evaluatedVersions: minors.map((m) => `1.${m}`),
    fallback,
  };
  const kubeletSection = (providers: readonly ProviderStatus[]) => ({
    unit: model.service.unitName,
    unitFile: model.service.fragmentPath ?? null,
    dropIns: model.service.dropInPaths,
    argv: model.service.execStart?.argv ?? [],
    credentialProviderConfig: flags?.configPath || null,
    credentialProviderBinDir: flags?.binDir || null,
    providers,
  });

  const undecided = findings.some((f) => f.id === 'cannot-decide');
  if (undecided || !model.kubelet) {
    return { ...base, kubeletWillStart: null, kubelet: kubeletSection([]), findings };
  }
  if (!flags) {
    return { ...base, kubeletWillStart: true, kubelet: kubeletSection([]), findings };
  }

  const verdicts = minors.map((minor): VersionVerdict => {
    const traits = requireTraits(minor); // minors are clamped to the modelled range above
    const registration = simulateRegistration({ ...flags, files: model.files, traits, tokenGateEnabled: tokenGateEnabled(model, traits) });
    const context: CheckContext = { model, traits, flags, registration };
    return { minor, registration, findings: CHECKS.filter((c) => c.appliesTo(traits)).flatMap((c) => c.run(context)) };
  });

  const undecidable = verdicts.find((v) => v.registration.undecidable)?.registration.undecidable;
  if (undecidable) {
    findings.unshift(cannotDecide(`node-check cannot evaluate kubelet's credential provider setup: ${undecidable.reason}.`, undecidable.path));
    return { ...base, kubeletWillStart: null, kubelet: kubeletSection(providerStatuses(verdicts)), findings };
  }

  const failing = verdicts.filter((v) => v.registration.failure);
  const kubeletWillStart = failing.length === 0 ? true : failing.length === verdicts.length ? false : null;
  findings.unshift(...mergeAcrossVersions(verdicts));
  if (kubeletWillStart === null) {
    findings.unshift(cannotDecide(
      `Without the kubelet version the answer differs: kubelet ${describeMinors(failing.map((v) => v.minor))} will refuse to start, kubelet ${describeMinors(verdicts.filter((v) => !v.registration.failure).map((v) => v.minor))} will start.`,
    ));
  }
  return { ...base, kubeletWillStart, kubelet: kubeletSection(providerStatuses(verdicts)), findings: orderBySeverity(findings) };
}

/** The two flags, or undefined when kubelet registers no providers (both absent or empty). */
export function credentialFlags(model: NodeModel): CredentialFlags | undefined {
  if (!model.kubelet) return undefined;
  const configPath = lastValue(model.kubelet.flags, CredentialFlag.config) ?? '';
  const binDir = lastValue(model.kubelet.flags, CredentialFlag.binDir) ?? '';
  return configPath === '' && binDir === '' ? undefined : { configPath, binDir };
}

/** Whether KubeletServiceAccountTokenForCredentialProviders is on for this kubelet version (defaults, --config, --config-dir, --feature-gates). */
export function tokenGateEnabled(model: NodeModel, traits: KubeletTraits): boolean {
  const { configFile, configDir } = model.kubeletConfig;
  const dropInsApply = traits.configDir === 'supported' || (traits.configDir === 'alpha-env' && 'KUBELET_CONFIG_DROPIN_DIR_ALPHA' in model.kubeletEnvironment);
  const gates = effectiveFeatureGates(traits, {
    configFile: configFile?.featureGates,
    configDropIns: dropInsApply ? (configDir?.dropIns ?? []).flatMap((d) => (d.featureGates ? [d.featureGates] : [])) : [],
    flagValues: model.kubelet?.flags.occurrences.get('feature-gates') ?? [],
  });
  return gates[TOKEN_GATE] === true;
}

function clampMinor(minor: number): number {
  return Math.min(Math.max(minor, OLDEST_MODELLED_MINOR), NEWEST_MODELLED_MINOR);
}

/** One finding per distinct (id, path, message, kubeletError), naming the versions when several were evaluated. */
function mergeAcrossVersions(verdicts: readonly VersionVerdict[]): Finding[] {
  const merged = new Map<string, { finding: Finding; minors: number[] }>();
  for (const verdict of verdicts) {
    for (const finding of verdict.findings) {
      const key = JSON.stringify([finding.id, finding.path, finding.provider, finding.message, finding.kubeletError]);
      const entry = merged.get(key) ?? { finding, minors: [] };
      entry.minors.push(verdict.minor);
      merged.set(key, entry);
    }
  }
  return [...merged.values()].map(({ finding, minors }) => {
    if (verdicts.length === 1) return finding;
    const versions = describeMinors(minors);
    const message = minors.length === verdicts.length ? finding.message : `Kubelet ${versions}: ${finding.message}`;
    return { ...finding, message, versions };
  });
}

function providerStatuses(verdicts: readonly VersionVerdict[]): ProviderStatus[] {
  const byName = new Map<string, { binary: string; results: boolean[] }>();
  for (const verdict of verdicts) {
    for (const plugin of verdict.registration.plugins) {
      const entry = byName.get(plugin.provider) ?? { binary: plugin.binary, results: [] };
      entry.results.push(plugin.failure === null);
      byName.set(plugin.provider, entry);
    }
  }
  return [...byName].map(([name, { binary, results }]) => ({
    name,
    binary,
    pluginOk: results.every(Boolean) ? true : results.some(Boolean) ? null : false,
  }));
}

const SEVERITY_ORDER = { error: 1, warning: 2, info: 3 } as const;

/** Errors first, then warnings, then info; "cannot decide" heads the list because it is the answer. */
function orderBySeverity(findings: readonly Finding[]): Finding[] {
  const rank = (f: Finding) => (f.id === 'cannot-decide' ? 0 : SEVERITY_ORDER[f.severity]);
  return [...findings].sort((a, b) => rank(a) - rank(b));
}
