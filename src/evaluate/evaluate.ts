/**
 * Evaluation: a pure function from a NodeModel to a Report. For each kubelet minor in question
 * (the known one, or every modelled one when the version is unknown) it replays kubelet's start
 * (src/start/) and runs the credential warning checks, then merges what the minors say: when they
 * all agree that is the answer, otherwise the answer is "unknown" and each finding names the
 * versions it holds for. A version outside the modelled range gets no answer at all.
 */
import type { Finding } from '../model/findings.js';
import type { NodeModel } from '../model/node.js';
import type { FallbackStatus, ProviderStatus, Report } from '../model/report.js';
import { CHECKS } from '../checks/index.js';
import type { CheckContext } from '../checks/check.js';
import type { RegistrationResult } from '../credentials/registration.js';
import type { FlavorDecision, KubeletFlavor } from '../kubelet/flavor.js';
import {
  describeMinors,
  formatVersion,
  isModelledMinor,
  MODELLED_MINORS,
  parseKubeletVersion,
  requireTraits,
  type KubeletTraits,
} from '../kubelet/version.js';
import { contextFindings, cannotDecide } from './context-findings.js';
import { credentialFlags, flavorOf, StartContext } from '../start/start-context.js';
import { withOwnersWays } from './owner-fix.js';
import { nextMinorWarnings } from './next-minors.js';
import { simulateStart, startVerdict, type StartSimulation } from '../start/simulate-start.js';
import { START_SEQUENCE } from '../start/start-sequence.js';
import { binariesNotChecked } from '../start/binaries-in-root.js';
import { hostInputsNotChecked } from '../start/steps/undecided-inputs.js';
import { checkSystemdPreconditions } from '../systemd-preconditions/check-systemd.js';
import { failureToFinding, isFailure } from '../systemd-preconditions/outcome.js';

export { credentialFlags } from '../start/start-context.js';

export interface EvaluateOptions {
  readonly fallback?: FallbackStatus;
  /**
   * false: no warnings of what the next minors would refuse (src/evaluate/next-minors.ts).
   * preflight's: it answers whether kubelet starts now, on kubelet's start path, where replaying
   * three more minors cost ~7 % of its instructions; `check` and `serve` warn before an upgrade.
   */
  readonly upgradeWarnings?: boolean;
}

interface VersionVerdict {
  readonly minor: number;
  readonly willStart: boolean | null;
  readonly simulation: StartSimulation;
  readonly registration?: RegistrationResult;
  readonly findings: readonly Finding[];
  readonly notChecked: readonly { readonly fact: string; readonly reason: string }[];
}

export function evaluate(model: NodeModel, options: EvaluateOptions = {}): Report {
  const fallback = options.fallback ?? { enabled: false, active: false };
  const version = model.kubeletVersion ? parseKubeletVersion(model.kubeletVersion.text) : undefined;
  const flavor = flavorOf(model);
  const findings: Finding[] = [...contextFindings(model, version, fallback)];
  const flags = credentialFlags(model);
  const modelled = !version || isModelledMinor(version.minor);
  const minors = version ? (modelled ? [version.minor] : []) : MODELLED_MINORS;
  const base = {
    schemaVersion: 1 as const,
    kubeletVersion: version ? formatVersion(version) : null,
    kubeletVersionSource: version ? model.kubeletVersion!.source : ('unknown' as const),
    evaluatedVersions: minors.map((m) => `1.${m}`),
    kubeletFlavor: flavorSection(flavor),
    fallback,
    notChecked: [...(model.host?.notChecked ?? []), ...binariesNotChecked(model)],
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

  const notLoaded = unitNotLoaded(model);
  if (notLoaded) return { ...base, kubeletWillStart: false, kubelet: kubeletSection([]), findings: withOwnersWays(model, orderBySeverity([notLoaded, ...findings])) };

  const undecided = findings.some((f) => f.id === 'cannot-decide');
  if (undecided || !model.kubelet || !modelled) {
    return { ...base, kubeletWillStart: null, kubelet: kubeletSection([]), findings: withOwnersWays(model, orderBySeverity(findings)) };
  }

  const verdicts = minors.map((minor): VersionVerdict => {
    const traits = requireTraits(minor); // every minor here is modelled (isModelledMinor)
    const { context, simulation, willStart } = evaluateStart(model, traits, flavor.flavor);
    const registration = context.registration;
    const failure = simulation.failure ? [failureFinding(simulation)] : [];
    return {
      minor,
      willStart,
      simulation,
      registration,
      findings: [...failure, ...simulation.findings, ...credentialWarnings(context, traits, registration)],
      notChecked: hostInputsNotChecked(context),
    };
  });

  findings.unshift(...mergeAcrossVersions(verdicts));
  // A known minor: what the next minors would refuse, so that an upgrade does not find out first.
  if (options.upgradeWarnings !== false && version && verdicts.length === 1 && verdicts[0]!.willStart !== null) {
    findings.push(...nextMinorWarnings(model, version.minor, flavor.flavor, verdicts[0]!.findings.filter((f) => f.severity === 'error')));
  }
  const undecidedStep = verdicts.find((v) => v.willStart === null)?.simulation.undecided[0];
  const answers = new Set(verdicts.map((v) => v.willStart));
  const kubeletWillStart = answers.size === 1 ? verdicts[0]!.willStart : null;
  if (kubeletWillStart === null) {
    if (undecidedStep) findings.unshift(cannotDecide(`${undecidedStep.reason}.`.replace(/\.\.$/, '.'), 'step', undecidedStep.path));
    if (answers.size > 1) {
      const say = (answer: boolean | null) => describeMinors(verdicts.filter((v) => v.willStart === answer).map((v) => v.minor));
      const parts = [
        answers.has(false) ? `kubelet ${say(false)} will refuse to start` : '',
        answers.has(true) ? `kubelet ${say(true)} will start` : '',
        answers.has(null) ? `for kubelet ${say(null)} node-check cannot tell` : '',
      ].filter(Boolean);
      findings.unshift(cannotDecide(`Without the kubelet version the answer differs: ${parts.join(', ')}.`, 'versions-disagree'));
    }
  }
  const hostInputs = [...new Map(verdicts.flatMap((v) => v.notChecked).map((n) => [n.fact, n])).values()];
  return { ...base, notChecked: [...base.notChecked, ...hostInputs], kubeletWillStart, kubelet: kubeletSection(providerStatuses(verdicts)), findings: withOwnersWays(model, orderBySeverity(findings)) };
}

/** Kubelet's start on this node for one modelled minor: what `check` reports and the fallback plans from. */
export interface StartEvaluation {
  /** What kubelet derives on its way up (its registration, its gates), as the steps read it. */
  readonly context: StartContext;
  readonly simulation: StartSimulation;
  /** true: starts; false: refuses; null: cannot tell. */
  readonly willStart: boolean | null;
}

export function evaluateStart(model: NodeModel, traits: KubeletTraits, flavor: KubeletFlavor = flavorOf(model).flavor): StartEvaluation {
  const context = new StartContext(model, traits.minor, traits, flavor);
  const simulation = simulateStart(context, START_SEQUENCE);
  return { context, simulation, willStart: startVerdict(simulation) };
}

/** A masked or refused unit: systemd refuses to start it whatever kubelet would do (no version matters). */
function unitNotLoaded(model: NodeModel): Finding | undefined {
  if (model.service.load.state === 'loaded') return undefined;
  const failure = checkSystemdPreconditions({ service: model.service, files: model.files }).find(isFailure);
  return failure ? { ...failureToFinding(failure), kubeletLogLine: failure.kubeletError } : undefined;
}

function flavorSection(decision: FlavorDecision): Report['kubeletFlavor'] {
  return { name: decision.flavor, source: decision.source, evidence: decision.evidence };
}

/** The deciding failure as an error finding, in kubelet's words. */
function failureFinding(simulation: StartSimulation): Finding {
  const failure = simulation.failure!;
  return {
    id: failure.findingId,
    severity: 'error',
    message: failure.message,
    ...(failure.path ? { path: failure.path } : {}),
    ...(failure.provider ? { provider: failure.provider } : {}),
    remediation: failure.remediation,
    kubeletError: failure.kubeletError,
    ...(failure.logLine ? { kubeletLogLine: failure.logLine } : {}),
    ...(failure.inexact ? { inexact: true } : {}),
  };
}

/** The credential checks: warnings about plugins and configs that pass start-up (registration is a start step). */
function credentialWarnings(context: StartContext, traits: KubeletTraits, registration: RegistrationResult | undefined): Finding[] {
  const flags = context.credentialFlags;
  if (!registration || !flags || registration.undecidable) return [];
  const checkContext: CheckContext = { model: context.model, traits, flags, registration };
  return CHECKS.filter((c) => c.appliesTo(traits)).flatMap((c) => c.run(checkContext));
}

/** One finding per distinct (id, path, message, kubeletError), naming the versions when several were evaluated. */
function mergeAcrossVersions(verdicts: readonly VersionVerdict[]): Finding[] {
  const merged = new Map<string, { finding: Finding; minors: number[] }>();
  for (const verdict of verdicts) {
    for (const finding of verdict.findings) {
      const key = findingKey(finding);
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

/**
 * What makes two findings the same: id, path, provider, message and kubeletError. Each field is
 * written with its length first, so that no two different findings share a key (a JSON array of
 * them did the same, at several times the cost for 1,000 providers' findings).
 */
export function findingKey(finding: Finding): string {
  return keyField(finding.id) + keyField(finding.path) + keyField(finding.provider) + keyField(finding.message) + keyField(finding.kubeletError);
}

const keyField = (value: string | undefined) => (value === undefined ? '-' : `${value.length}:${value}`);

function providerStatuses(verdicts: readonly VersionVerdict[]): ProviderStatus[] {
  const byName = new Map<string, { binary: string; results: boolean[] }>();
  for (const verdict of verdicts) {
    for (const plugin of verdict.registration?.plugins ?? []) {
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

