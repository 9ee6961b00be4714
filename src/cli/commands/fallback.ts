/**
 * `node-check fallback status|apply|revert` (docs/fallback.md).
 *
 * Exit codes: 0 done (or nothing to do), 1 refused because kubelet would still fail (or the
 * fallback could not be written), 2 undecidable (or another node-check holds the lock), 64 usage.
 * `apply` is an explicit request, so it does not need `fallback: true` in the settings; that
 * setting only lets preflight apply it on its own.
 */
import type { Settings } from '../../settings.js';
import type { CliIo } from '../io.js';
import { ExitCode } from '../../model/report.js';
import { RootFs } from '../../host/root-fs.js';
import { LockBusyError, LockUnavailableError } from '../../fallback/lock.js';
import { FALLBACK_ACTIONS } from '../options.js';
import { applyNodeFallback, discoverWithoutFallback, planNodeFallback, revertNodeFallback, type NodeFallbackOptions, type NodeFallbackOutcome } from '../../fallback/node-fallback.js';
import { planFallbackForNode, type FallbackPlan } from '../../fallback/plan.js';
import { readFallbackState, type FallbackStateReading } from '../../fallback/state.js';
import { escapeUnprintable } from '../../render/printable.js';

export { FALLBACK_ACTIONS } from '../options.js';

export async function runFallback(settings: Settings, io: CliIo, args: Record<string, unknown>): Promise<number> {
  const action = args['action'] ?? (Array.isArray(args['_']) ? args['_'][1] : undefined);
  if (args['dry-run'] === true) {
    if (action !== 'apply' && action !== 'revert') {
      io.stderr('node-check: --dry-run goes with fallback apply or fallback revert\n');
      return ExitCode.usage;
    }
    return runFallbackDryRun(settings, io, action);
  }
  switch (action) {
    case 'status':
      return runFallbackStatus(settings, io);
    case 'apply':
      return runFallbackApply(settings, io);
    case 'revert':
      return runFallbackRevert(settings, io);
    default:
      io.stderr(`node-check: fallback needs one of ${FALLBACK_ACTIONS.join(', ')}${action === undefined ? '' : ` (got "${String(action)}")`}\n`);
      return ExitCode.usage;
  }
}

export async function runFallbackStatus(settings: Settings, io: CliIo): Promise<number> {
  const reading = readFallbackState(new RootFs(settings.root), { unit: settings.unit });
  if (settings.output === 'json') {
    io.stdout(`${JSON.stringify({ schemaVersion: 1, ...statusJson(reading) }, null, 2)}\n`);
  } else {
    io.stdout(statusText(reading));
  }
  return 0;
}

export async function runFallbackApply(settings: Settings, io: CliIo): Promise<number> {
  return withOutcome(settings, io, () => applyNodeFallback(options(settings)));
}

export async function runFallbackRevert(settings: Settings, io: CliIo): Promise<number> {
  const code = await withOutcome(settings, io, () => revertNodeFallback(options(settings)));
  if (code !== 0) return code;
  // Say so when kubelet's own configuration is still going to fail: the admin asked, but should know.
  const model = await discoverWithoutFallback(options(settings));
  const plan = planFallbackForNode({ model, now: new Date() });
  if (plan.action === 'apply') io.stderr(`node-check: warning: kubelet will refuse to start without the fallback. ${plan.reason}\n`);
  return code;
}

async function withOutcome(settings: Settings, io: CliIo, run: () => Promise<NodeFallbackOutcome>): Promise<number> {
  let outcome: NodeFallbackOutcome;
  try {
    outcome = await run();
  } catch (error) {
    // Nothing was changed: the lock could not even be created (a read-only or full /run, a symlink).
    if (error instanceof LockUnavailableError) {
      io.stderr(`node-check: fallback FAILED, nothing changed: ${error.message}\n`);
      return ExitCode.willFail;
    }
    if (!(error instanceof LockBusyError)) throw error;
    io.stderr(`node-check: ${error.message}\n`);
    return ExitCode.unknown;
  }
  const { plan, result, reading } = outcome;
  if (settings.output === 'json') {
    const json = {
      schemaVersion: 1,
      action: plan.action,
      ...(plan.refusal ? { refusal: plan.refusal } : {}),
      reason: plan.reason,
      removedProviders: plan.removedProviders,
      keptProviders: plan.keptProviders,
      ...(plan.argv ? { argv: plan.argv } : {}),
      changed: result.changed,
      reloaded: result.reloaded,
      ok: result.ok,
      problems: [...reading.problems, ...result.problems],
      fallback: statusJson(readFallbackState(new RootFs(settings.root), { unit: settings.unit })),
    };
    io.stdout(`${JSON.stringify(json, null, 2)}\n`);
  } else {
    io.stdout(outcomeText(plan, outcome, settings));
  }
  if (plan.action === 'refuse') return plan.refusal === 'undecidable' ? ExitCode.unknown : ExitCode.willFail;
  return result.ok ? 0 : ExitCode.willFail;
}

/** --dry-run: the plan, files and contents, and nothing written (not even the lock). */
export async function runFallbackDryRun(settings: Settings, io: CliIo, action: 'apply' | 'revert'): Promise<number> {
  const plan = await planNodeFallback(options(settings), action);
  // Contents are shown whole, as `check -o json` shows kubelet's argv: they hold what the unit holds.
  const writes = plan.writes.map((w) => ({ path: w.path, mode: `0${w.mode.toString(8)}`, content: w.content }));
  if (settings.output === 'json') {
    io.stdout(`${JSON.stringify({ schemaVersion: 1, dryRun: true, action: plan.action, ...(plan.refusal ? { refusal: plan.refusal } : {}), reason: plan.reason, removedProviders: plan.removedProviders, keptProviders: plan.keptProviders, ...(plan.argv ? { argv: plan.argv } : {}), writes, removes: plan.removes }, null, 2)}\n`);
  } else {
    const lines = [`node-check: dry run, nothing written: fallback ${action} would ${DRY_RUN_VERB[plan.action]} (${plan.unit}).`, plan.reason];
    if (plan.removedProviders.length > 0 && plan.action !== 'none' && plan.action !== 'refuse') lines.push(`Credential providers ${plan.action === 'revert' ? 'restored' : 'left out'}: ${plan.removedProviders.join(', ')}.`);
    for (const write of writes) {
      lines.push(`  would write ${write.path} (mode ${write.mode})`);
      lines.push(...write.content.replace(/\n$/, '').split('\n').map((line) => `    | ${line}`));
    }
    for (const path of plan.removes) lines.push(`  would remove ${path}`);
    if ((plan.writes.length > 0 || plan.removes.length > 0) && new RootFs(settings.root).isHostRoot) lines.push('  would run systemctl daemon-reload');
    // Each line escaped on its own: contents come from the node's files (provider names, paths).
    io.stdout(`${lines.map(escapeUnprintable).join('\n')}\n`);
  }
  if (plan.action === 'refuse') return plan.refusal === 'undecidable' ? ExitCode.unknown : ExitCode.willFail;
  return 0;
}

const DRY_RUN_VERB: Record<FallbackPlan['action'], string> = {
  apply: 'apply it',
  keep: 'keep it as it is',
  revert: 'revert it',
  none: 'do nothing',
  refuse: 'refuse',
};

function options(settings: Settings): NodeFallbackOptions {
  return {
    root: settings.root,
    unit: settings.unit,
    ...(settings.kubeletVersion ? { kubeletVersion: settings.kubeletVersion } : {}),
    timeoutMs: settings.timeoutSeconds * 1000,
    lock: { waitMs: Math.min(settings.timeoutSeconds * 1000, 20_000) },
  };
}

const HEADLINE: Record<FallbackPlan['action'], string> = {
  apply: 'fallback applied',
  keep: 'fallback already in place, unchanged',
  revert: 'fallback reverted',
  none: 'no fallback needed',
  refuse: 'fallback refused',
};

function outcomeText(plan: FallbackPlan, outcome: NodeFallbackOutcome, settings: Settings): string {
  const { result, reading } = outcome;
  // Writes that failed are not "applied" (test/hostile/write-destinations.test.ts): say what did not happen.
  const headline = result.ok ? HEADLINE[plan.action] : `fallback ${plan.action} FAILED, not completed`;
  const lines = [`node-check: ${headline} (${plan.unit}).`, plan.reason];
  if (plan.removedProviders.length > 0 && plan.action !== 'none' && plan.action !== 'refuse') {
    lines.push(`Credential providers ${plan.action === 'revert' ? 'restored' : 'left out'}: ${plan.removedProviders.join(', ')}.`);
  }
  if (plan.keptProviders.length > 0) lines.push(`Credential providers kept: ${plan.keptProviders.join(', ')}.`);
  for (const path of result.changed) lines.push(`  changed ${path}`);
  if (result.reloaded) lines.push('systemd reloaded (systemctl daemon-reload).');
  if (plan.action === 'revert' && result.changed.length > 0) {
    lines.push(`A running kubelet keeps the fallback command line until it restarts (systemctl restart ${plan.unit}).`);
  }
  else if (result.changed.length > 0 && !new RootFs(settings.root).isHostRoot) lines.push(`systemd not reloaded: ${settings.root} is not the live root.`);
  for (const problem of reading.problems) lines.push(`note: ${problem}`);
  for (const problem of result.problems) lines.push(`${result.ok ? 'note' : 'error'}: ${problem}`);
  return `${lines.join('\n')}\n`;
}

function statusJson(reading: FallbackStateReading) {
  const { state } = reading;
  return {
    active: reading.active,
    intact: reading.intact,
    ...(state
      ? {
          unit: state.unit,
          since: state.since,
          reason: state.reason,
          removedProviders: state.removedProviders,
          dropInPath: state.dropInPath,
          ...(state.filteredConfigPath ? { filteredConfigPath: state.filteredConfigPath } : {}),
        }
      : {}),
    problems: reading.problems,
  };
}

function statusText(reading: FallbackStateReading): string {
  const { state } = reading;
  const lines: string[] = [];
  if (!reading.active || !state) {
    lines.push('Fallback: not active.');
  } else {
    lines.push(`Fallback: ACTIVE for ${state.unit} since ${state.since}.`);
    lines.push(`Why: ${state.reason}`);
    lines.push(`Removed credential providers: ${state.removedProviders.length > 0 ? state.removedProviders.join(', ') : '(unknown)'}; image pulls that need them fail.`);
    lines.push(`Drop-in: ${state.dropInPath}`);
    if (state.filteredConfigPath) lines.push(`Filtered provider config: ${state.filteredConfigPath}`);
    lines.push('Revert with: node-check fallback revert');
  }
  for (const problem of reading.problems) lines.push(`note: ${problem}`);
  return `${lines.join('\n')}\n`;
}
