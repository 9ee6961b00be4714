/**
 * The fallback plan (docs/fallback.md): when kubelet would refuse to start only because of its
 * credential providers, start it on a configuration without the failing ones. Pure: decides from
 * the NodeModel and returns the files to write and remove as data; apply.ts does the I/O.
 *
 * The model must describe the unit *without* node-check's own drop-in (discover with it hidden,
 * see hiding-root-fs.ts): the question is always whether the node's own configuration works.
 * The decision reads the evaluation `check` reports (evaluateStart: kubelet's start replayed, its
 * credential provider registration with the gates kubelet sets), never a simulation of its own.
 * Every plan that changes anything is verified before it is returned: the drop-in is read back
 * with systemd's rules (v239 and v252), its argv with kubelet's flag rules, and the same
 * evaluation runs on the node as the plan leaves it. Only when kubelet would then start is it
 * `apply`.
 */
import { posix } from 'node:path';
import type { NodeModel, PathFact } from '../model/node.js';
import { evaluateStart } from '../evaluate/evaluate.js';
import { contextFindings } from '../evaluate/context-findings.js';
import { nodePathKey, type PluginCheck, type RegistrationFailure } from '../credentials/registration.js';
import type { CredentialProvider } from '../credentials/types.js';
import { CredentialFlag, locateKubelet, parseKubeletFlags, type KubeletFlags } from '../kubelet/flags.js';
import { describeMinors, MODELLED_MINORS, parseKubeletVersion, traitsFor, type KubeletTraits } from '../kubelet/version.js';
import { parseExecValue } from '../systemd/exec-command.js';
import { expandArgv } from '../systemd/env-expand.js';
import { parseUnitFile } from '../systemd/unit-file.js';
import { rulesFor } from '../systemd/systemd-version.js';
import { parseUnitName } from '../systemd/unit-name.js';
import { rewriteExecStart, type CredentialFlagChange, type ExecRewrite } from './exec-rewrite.js';
import { filterProviderConfig } from './filter-config.js';
import { DROP_IN_NAME, dropInPath, FALLBACK_STATE_PATH, filteredConfigPath } from './paths.js';
import { commentSafe, dropInHeader, fallbackDigest, serializeFallbackState, type FallbackState } from './state.js';
import { emptyPlan, type FallbackPlan, type FallbackRefusal, type FallbackWrite } from './plan-types.js';
import { planRevert } from './revert-plan.js';
import type { StartSimulation } from '../start/simulate-start.js';
import { credentialProvidersStep } from '../start/steps/credential-providers.js';

export type { FallbackAction, FallbackPlan, FallbackRefusal, FallbackWrite } from './plan-types.js';
export { planRevert } from './revert-plan.js';

export interface FallbackPlanInput {
  /** The node as it is without node-check's drop-in. */
  readonly model: NodeModel;
  /** The kubelet version in question; when unknown, see planFallbackForNode. */
  readonly traits: KubeletTraits;
  readonly now: Date;
  readonly existing?: FallbackState;
}

const PLUGIN_FAILURES = new Set(['plugin-binary-missing', 'plugin-binary-not-executable', 'plugin-binary-uninspectable']);
/** The state record: no secrets (names, reasons, paths), readable by a non-root `node-check check`. */
const FILE_MODE = 0o644;
/**
 * The filtered config and the drop-in carry what their sources carry: a provider's env: values,
 * the ExecStart with its flags and environment (a --bootstrap-token, say). Those sources are often
 * 0600; a copy must never grant more (pinned by test/hostile/secrets-and-names.test.ts), and root (systemd, kubelet) is the only
 * reader, so 0600 always.
 */
const SECRET_MODE = 0o600;

export function planFallback(input: FallbackPlanInput): FallbackPlan {
  const { model, traits, existing } = input;
  const unit = model.service.unitName;
  const refuse = (refusal: FallbackRefusal, reason: string): FallbackPlan => ({
    ...emptyPlan(unit, 'refuse', reason),
    refusal,
    ...(existing ? { state: existing } : {}),
  });

  if (existing && existing.unit !== unit) {
    return refuse('conflict', `A fallback for ${existing.unit} is in place; revert it first (node-check fallback revert --unit ${existing.unit}).`);
  }
  const ownDropIn = model.service.dropInPaths.find((path) => posix.basename(path) === DROP_IN_NAME);
  if (ownDropIn) {
    return refuse('conflict', `${unit} was read with ${ownDropIn} in place; the plan must see the unit without node-check's drop-in.`);
  }
  const undecided = contextFindings(model, model.kubeletVersion ? parseKubeletVersion(model.kubeletVersion.text) : undefined).find((f) => f.id === 'cannot-decide');
  if (undecided) return refuse('undecidable', undecided.message);
  if (!model.kubelet || !model.service.execStart) return refuse('undecidable', `No kubelet command line was found in ${unit}.`);
  const start = evaluateStart(model, traits);
  const unrelated = unrelatedFailure(start.simulation);
  if (unrelated) return refuse(unrelated.refusal, unrelated.refusal === 'not-credential'
    ? `Kubelet would not start for a reason the fallback cannot change: ${unrelated.reason}.`
    : `node-check cannot tell whether kubelet gets as far as its credential providers: ${unrelated.reason}.`);

  const flags = start.context.credentialFlags;
  const registration = start.context.registration;
  const settled = (why: string): FallbackPlan =>
    existing ? planRevert({ unit, existing, reason: `${why}; the fallback is no longer needed.` }) : emptyPlan(unit, 'none', `${why}; no fallback is needed.`);
  if (!flags || !registration) return settled('Kubelet runs without credential provider flags');
  if (registration.undecidable) return refuse('undecidable', `node-check cannot evaluate kubelet's credential provider setup: ${registration.undecidable.reason}.`);
  if (registration.flagsIgnored) return settled('Kubelet ignores its credential provider flags (the KubeletCredentialProviders feature gate is off)');
  const failure = registration.failure;
  if (!failure) return settled('Kubelet starts with its own credential provider configuration');

  const overriding = laterDropInName(model);
  if (overriding) {
    return refuse('conflict', `ExecStart= comes from ${overriding}, which systemd applies after ${DROP_IN_NAME}; a fallback drop-in would have no effect.`);
  }

  const allProviders = unique((registration.config?.providers ?? []).map((p) => p.name));
  const failedPlugins = registration.plugins.filter((p) => p.failure !== null);
  const failed = unique(failedPlugins.map((p) => p.provider));
  const kept = allProviders.filter((name) => !failed.includes(name));
  const onlyPlugins = PLUGIN_FAILURES.has(failure.findingId);
  const cause = onlyPlugins ? describePlugins(failedPlugins) : describeFailure(failure);
  const flagsText = `--${CredentialFlag.config} and --${CredentialFlag.binDir}`;
  const context: BuildContext = { input, flags, originalProviders: registration.config?.providers ?? [] };

  const attempts: string[] = [];
  if (onlyPlugins && kept.length > 0) {
    const reason =
      `Kubelet would refuse to start: ${cause}. It is started with ${filteredConfigPath(unit)}, a copy of ${flags.configPath} without ${failed.join(', ')}; ` +
      `image pulls that need ${failed.join(', ')} fail until ${failed.length > 1 ? 'they are' : 'it is'} installed.`;
    const built = buildPlan(context, { kind: 'filter', drop: failed, kept }, reason);
    if ('plan' in built) return built.plan;
    attempts.push(`without ${failed.join(', ')}: ${built.problem}`);
  }
  const reason = onlyPlugins && kept.length === 0
    ? `Kubelet would refuse to start: ${cause}. No other credential provider is configured, so kubelet is started without ${flagsText}; image pulls that need ${failed.join(', ')} fail until the plugin is installed.`
    : `Kubelet would refuse to start: ${cause}${attempts.length > 0 ? `, and ${attempts[0]}` : ''}. No credential provider can be registered this way, so kubelet is started without ${flagsText}; ` +
      `image pulls that need a credential provider${allProviders.length > 0 ? ` (${allProviders.join(', ')})` : ''} fail until this is fixed.`;
  const built = buildPlan(context, { kind: 'drop-both', drop: allProviders }, reason);
  if ('plan' in built) return built.plan;
  attempts.push(`without the credential flags: ${built.problem}`);
  return refuse('would-still-fail', `Kubelet would refuse to start: ${cause}. The fallback would not help: ${attempts.join('; ')}.`);
}

/**
 * The plan for a node whose kubelet version may be unknown: with a known version, that version's
 * plan; otherwise one plan per modelled version, acted on only when they all agree.
 */
export function planFallbackForNode(input: { readonly model: NodeModel; readonly now: Date; readonly existing?: FallbackState }): FallbackPlan {
  const { model } = input;
  const version = model.kubeletVersion ? parseKubeletVersion(model.kubeletVersion.text) : undefined;
  const minors = version ? [version.minor] : MODELLED_MINORS;
  const plans = minors.map((minor) => {
    const traits = traitsFor(minor);
    if (!traits) {
      const unmodelled: FallbackPlan = { ...emptyPlan(model.service.unitName, 'refuse', `Kubelet 1.${minor} is not modelled; node-check cannot plan a fallback for it.`), refusal: 'undecidable', ...(input.existing ? { state: input.existing } : {}) };
      return { minor, plan: unmodelled };
    }
    return { minor, plan: planFallback({ ...input, traits }) };
  });
  const first = plans[0]!.plan;
  const signature = (plan: FallbackPlan) => JSON.stringify([plan.action, plan.refusal, plan.writes, plan.removes]);
  if (plans.every((p) => signature(p.plan) === signature(first))) return first;
  if (plans.every((p) => p.plan.action === 'refuse')) return first;

  // Grouped by what differs (the same signature the decision compares), so the reason says why.
  const groups = new Map<string, { action: string; minors: number[] }>();
  for (const { minor, plan } of plans) {
    const key = signature(plan);
    groups.set(key, { action: plan.action, minors: [...(groups.get(key)?.minors ?? []), minor] });
  }
  const byVersion = [...groups.values()].map((g) => `kubelet ${describeMinors(g.minors)}: ${g.action}`).join('; ');
  return {
    ...emptyPlan(model.service.unitName, 'refuse', `The kubelet version is unknown and the fallback depends on it (${byVersion}); pass --kubelet-version.`),
    refusal: 'undecidable',
    ...(input.existing ? { state: input.existing } : {}),
  };
}

interface BuildContext {
  readonly input: FallbackPlanInput;
  readonly flags: { readonly configPath: string; readonly binDir: string };
  readonly originalProviders: readonly CredentialProvider[];
}

type Candidate =
  | { readonly kind: 'filter'; readonly drop: readonly string[]; readonly kept: readonly string[] }
  | { readonly kind: 'drop-both'; readonly drop: readonly string[] };

function buildPlan(context: BuildContext, candidate: Candidate, reason: string): { plan: FallbackPlan } | { problem: string } {
  const { input, flags } = context;
  const { model, traits, existing } = input;
  const unit = model.service.unitName;
  const configPath = filteredConfigPath(unit);

  let files = model.files;
  let filtered: FallbackWrite | undefined;
  if (candidate.kind === 'filter') {
    const result = filterProviderConfig({ files, configPath: flags.configPath, traits, drop: new Set(candidate.drop) });
    if ('problem' in result) return result;
    filtered = { path: configPath, content: result.content, mode: SECRET_MODE };
    files = { ...files, [nodePathKey(configPath)]: writtenFileFact(result.content) };
  }
  const change: CredentialFlagChange = candidate.kind === 'filter' ? { kind: 'point-config', configPath } : { kind: 'drop-both' };
  const rewrite = rewriteExecStart(model.service, change);
  if ('problem' in rewrite) return rewrite;

  const since = existing?.since ?? input.now.toISOString();
  const dropIn: FallbackWrite = { path: dropInPath(unit), content: dropInText(unit, since, candidate.drop, reason, rewrite), mode: SECRET_MODE };
  const readBack = verifyDropIn(model, dropIn.content, rewrite);
  if (readBack) return { problem: readBack };
  const kubeletView = verifyKubeletArgs(model, rewrite.argv, change);
  if ('problem' in kubeletView) return kubeletView;

  // The node as the plan leaves it, judged by the same evaluation as the node itself.
  const after = evaluateStart({ ...model, files, kubelet: kubeletView.kubelet }, traits);
  const registration = after.context.registration;
  if (registration?.undecidable) return { problem: registration.undecidable.reason };
  if (after.simulation.failure) return { problem: `kubelet would still refuse: ${after.simulation.failure.kubeletError}` };
  if (after.willStart === null) return { problem: `node-check cannot tell whether kubelet would start: ${after.simulation.undecided[0]!.reason}` };
  if (change.kind === 'point-config') {
    const expected = context.originalProviders.filter((p) => !candidate.drop.includes(p.name));
    if (canonical(registration?.config?.providers ?? []) !== canonical(expected)) return { problem: `${configPath} would not decode to the remaining providers as written` };
  }

  const written = [...(filtered ? [filtered] : []), dropIn];
  const state: FallbackState = {
    since,
    reason,
    removedProviders: candidate.drop,
    dropInPath: dropIn.path,
    ...(filtered ? { filteredConfigPath: filtered.path } : {}),
    unit,
    digest: fallbackDigest(written),
  };
  const kept = candidate.kind === 'filter' ? candidate.kept : [];
  const common = { unit, reason, removedProviders: candidate.drop, keptProviders: kept, argv: rewrite.argv };
  if (existing?.digest !== undefined && existing.digest === state.digest) {
    return { plan: { ...common, action: 'keep', writes: [], removes: [], state: existing } };
  }
  const stale = existing?.filteredConfigPath && !filtered ? [existing.filteredConfigPath] : [];
  return {
    plan: {
      ...common,
      action: 'apply',
      writes: [{ path: FALLBACK_STATE_PATH, content: serializeFallbackState(state), mode: FILE_MODE }, ...written],
      removes: stale,
      state,
    },
  };
}

/** The drop-in: who wrote it, when and why, then ExecStart= reset and re-declared. */
function dropInText(unit: string, since: string, removed: readonly string[], reason: string, rewrite: ExecRewrite): string {
  const lines = [
    ...dropInHeader(unit, since, removed),
    ...wrapComment(`Why: ${reason}`),
    ...(rewrite.frozenWords.length > 0
      ? wrapComment(`Written out as literal arguments because they carried credential flags: ${rewrite.frozenWords.join(' ')}.`)
      : []),
    '# Written by node-check (fallback apply or preflight). It lives in /run and is gone at reboot;',
    '# `node-check fallback revert` removes it now. Do not edit: node-check rewrites it.',
    '[Service]',
    'ExecStart=',
    ...rewrite.lines,
  ];
  return `${lines.join('\n')}\n`;
}

/** Comment lines of at most ~100 columns; no control characters, and never a trailing backslash (systemd 239 would continue the line). */
function wrapComment(text: string): string[] {
  const clean = commentSafe(text);
  const lines: string[] = [];
  let line = '#';
  for (const word of clean.split(' ').filter(Boolean)) {
    if (line.length > 1 && line.length + word.length + 1 > 100) {
      lines.push(line);
      line = '#';
    }
    line += ` ${word}`;
  }
  if (line.length > 1) lines.push(line);
  return lines;
}

/**
 * Reads the drop-in back as the node's systemd would (252 and 239 when its version is unknown):
 * exactly `ExecStart=` and the new command in [Service], which parses to the argv the rewrite
 * intended. Undefined when all is well.
 */
function verifyDropIn(model: NodeModel, text: string, rewrite: ExecRewrite): string | undefined {
  const unitName = parseUnitName(model.service.unitName);
  if (!unitName) return `${model.service.unitName} is not a unit name`;
  const original = model.service.execStart!;
  const versions = model.service.systemdVersion === undefined ? [252, 239] : [model.service.systemdVersion];
  for (const version of versions) {
    const rules = rulesFor(version);
    const parsed = parseUnitFile(text, dropInPath(model.service.unitName), rules.unitFile);
    const keys = parsed.assignments.map((a) => `${a.section}/${a.key}`);
    if (parsed.stopped || parsed.diagnostics.length > 0 || keys.join(',') !== 'Service/ExecStart,Service/ExecStart' || parsed.assignments[0]!.value !== '') {
      return `systemd ${version} would not read the drop-in as one ExecStart= reset and one command`;
    }
    const exec = parseExecValue(parsed.assignments[1]!.value, parsed.assignments[1]!.source, unitName, { colonPrefix: rules.execColonPrefix, systemdVersion: version });
    const command = exec.commands[0];
    if (exec.kind === 'refused' || exec.commands.length !== 1 || !command || exec.diagnostics.length > 0) {
      return `systemd ${version} would not accept the new ExecStart= (${exec.kind === 'refused' ? exec.refusal : (exec.diagnostics[0]?.message ?? 'not one command')})`;
    }
    if (command.prefixes !== original.prefixes || (original.path !== undefined && command.path !== original.path)) {
      return `systemd ${version} would run a different executable`;
    }
    const argv = command.noEnvExpand ? command.words : expandArgv(command.words, new Map(Object.entries(model.service.environment))).argv;
    if (!sameList(argv, rewrite.argv)) return `systemd ${version} would pass a different argv than intended`;
  }
  return undefined;
}

/**
 * Kubelet's view of the new argv: the same wrapper and kubelet, every other flag unchanged, the
 * credential flags as intended. Returns the new invocation when all is well.
 */
function verifyKubeletArgs(model: NodeModel, argv: readonly string[], change: CredentialFlagChange): { kubelet: NonNullable<NodeModel['kubelet']> } | { problem: string } {
  const before = model.kubelet!;
  const after = locateKubelet(argv);
  if (!after || after.kubeletPath !== before.kubeletPath || !sameList(after.wrapper, before.wrapper)) return { problem: 'the new command line would not run the same kubelet' };
  const parsed = parseKubeletFlags(after.args);
  if (!sameList(parsed.positional, before.flags.positional) || !sameList(parsed.missingValue, before.flags.missingValue)) {
    return { problem: 'kubelet would read the remaining arguments differently' };
  }
  const names = new Set([...before.flags.occurrences.keys(), ...parsed.occurrences.keys()]);
  for (const name of names) {
    const expected = expectedOccurrences(name, before.flags, change);
    if (!sameList(parsed.occurrences.get(name) ?? [], expected)) return { problem: `kubelet would read --${name} differently` };
  }
  return { kubelet: { ...before, ...after, flags: parsed } };
}

function expectedOccurrences(name: string, before: KubeletFlags, change: CredentialFlagChange): readonly string[] {
  if (name === CredentialFlag.config) return change.kind === 'point-config' ? [change.configPath] : [];
  if (name === CredentialFlag.binDir && change.kind === 'drop-both') return [];
  return before.occurrences.get(name) ?? [];
}

/**
 * What stops kubelet before its credential providers, whatever its credential flags say: the
 * evaluated start up to registration. The fallback only ever removes credential providers.
 */
function unrelatedFailure(start: StartSimulation): { refusal: 'not-credential' | 'undecidable'; reason: string } | undefined {
  if (start.failure && start.failure.checkId !== credentialProvidersStep.id) return { refusal: 'not-credential', reason: start.failure.kubeletError };
  const undecided = start.undecided.find((step) => step.checkId !== credentialProvidersStep.id);
  return undecided ? { refusal: 'undecidable', reason: undecided.reason } : undefined;
}

/** A drop-in applied after ours (by file name, across directories) that sets ExecStart= itself. */
function laterDropInName(model: NodeModel): string | undefined {
  const source = model.service.execStart?.source.file;
  if (!source || !model.service.dropInPaths.includes(source)) return undefined;
  const name = posix.basename(source);
  return Buffer.compare(Buffer.from(name), Buffer.from(DROP_IN_NAME)) > 0 ? source : undefined;
}

function describePlugins(plugins: readonly PluginCheck[]): string {
  const state = (check: PluginCheck) =>
    check.failure?.findingId === 'plugin-binary-missing' ? 'does not exist' : check.failure?.findingId === 'plugin-binary-not-executable' ? 'is not executable' : 'cannot be inspected';
  return plugins.map((check) => `the plugin ${check.binary} of credential provider ${check.provider} ${state(check)}`).join(', and ');
}

/** A failure in words that do not depend on the kubelet version (plans for several versions must agree). */
function describeFailure(failure: RegistrationFailure): string {
  const path = failure.path ?? '';
  switch (failure.findingId) {
    case 'bin-dir-missing':
      return path ? `the plugin directory ${path} does not exist` : 'no plugin directory is given';
    case 'bin-dir-uninspectable':
      return `the plugin directory ${path} cannot be inspected`;
    case 'config-path-empty':
      return 'no credential provider config is given';
    case 'config-is-directory':
      return `the credential provider config ${path} is a directory`;
    case 'config-unreadable':
      return `the credential provider config ${path} cannot be read`;
    case 'config-dir-empty':
      return `the credential provider config directory ${path} holds no configuration files`;
    case 'config-unknown-field':
    case 'config-decode-failed':
      return `the credential provider config ${path} cannot be decoded`;
    case 'config-invalid':
      return `the credential provider config ${path} is invalid`;
    case 'config-duplicate-provider':
      return `the credential provider config ${path} names a provider twice`;
    case 'plugin-registered-twice':
      return `credential provider ${failure.provider ?? ''} would be registered twice`;
    default:
      return `credential provider registration fails (${failure.findingId})`;
  }
}

function writtenFileFact(content: string): PathFact {
  return { exists: true, type: 'file', mode: SECRET_MODE, uid: 0, gid: 0, content: { ok: true, data: Buffer.from(content, 'utf8') } };
}

function canonical(providers: readonly CredentialProvider[]): string {
  return JSON.stringify(providers, (_key, value: unknown) => (typeof value === 'bigint' ? value.toString() : value));
}

function sameList(a: readonly string[], b: readonly string[]): boolean {
  return a.length === b.length && a.every((x, i) => x === b[i]);
}

function unique(names: readonly string[]): string[] {
  return [...new Set(names)];
}
