/**
 * A check as preflight and serve run it: the fallback first when asked (it decides from the unit
 * without node-check's own drop-in), then the check of the unit as systemd will run it, with the
 * fallback's status. `check` uses checkNode directly plus the same status.
 */
import type { Settings } from './settings.js';
import type { CliIo } from './cli/io.js';
import type { Report } from './model/report.js';
import { checkNode } from './check-node.js';
import { RootFs } from './host/root-fs.js';
import { fallbackStatus, readFallbackState } from './fallback/state.js';
import { escapeUnprintable } from './render/printable.js';

export interface RunOptions {
  /** Apply, keep or revert the fallback before checking (preflight --fallback, serve --auto-restore). */
  readonly applyFallback: boolean;
  /** Milliseconds left in the caller's budget. */
  readonly timeoutMs: () => number;
  /** Where to say that the fallback could not be applied: one `<N>`-prefixed line each, untrusted text escaped (it lands in the journal line by line). */
  readonly warn?: (text: string) => void;
  /** false: no next-minor warnings (preflight, src/evaluate/evaluate.ts EvaluateOptions). */
  readonly upgradeWarnings?: boolean;
}

export async function runNodeCheck(settings: Settings, options: RunOptions): Promise<Report> {
  let knownVersion = settings.kubeletVersion;
  if (options.applyFallback) {
    try {
      // Loaded only with the fallback enabled: its lock, plan and writers are not on the default start path (start-path cost).
      const { applyNodeFallback } = await import('./fallback/node-fallback.js');
      const outcome = await applyNodeFallback({ root: settings.root, unit: settings.unit, kubeletVersion: settings.kubeletVersion, timeoutMs: options.timeoutMs() });
      // The version was just asked of kubelet; do not ask twice on kubelet's start path.
      knownVersion ??= outcome.model?.kubeletVersion?.text;
      if (!outcome.result.ok) options.warn?.(`<4>node-check: fallback ${outcome.plan.action} incomplete: ${escapeUnprintable(outcome.result.problems.join('; '))}\n`);
      else if (outcome.plan.action === 'refuse') options.warn?.(`<5>node-check: fallback not applied: ${escapeUnprintable(outcome.plan.reason)}\n`);
    } catch (error) {
      options.warn?.(`<4>node-check: fallback not evaluated: ${escapeUnprintable((error as Error).message)}\n`);
    }
  }
  const reading = readFallbackState(new RootFs(settings.root), { unit: settings.unit });
  const report = await checkNode({
    root: settings.root,
    unit: settings.unit,
    kubeletVersion: knownVersion,
    kubeletFlavor: settings.kubeletFlavor,
    versionProbeTimeoutMs: Math.min(2000, options.timeoutMs()),
    fallback: fallbackStatus(reading, settings.fallback),
    verbose: settings.verbose,
    ...(options.upgradeWarnings === false ? { upgradeWarnings: false } : {}),
  });
  if (knownVersion !== undefined && settings.kubeletVersion === undefined && report.kubeletVersion) {
    const provenance = report.provenance && { ...report.provenance, kubeletVersion: { source: 'binary' as const, detail: 'asked of kubelet (`kubelet --version`) before the fallback was planned' } };
    return { ...report, kubeletVersionSource: 'binary', ...(provenance ? { provenance } : {}) };
  }
  return report;
}

/**
 * serve --auto-restore: while kubelet runs under the fallback, revert it as soon as the plugin is
 * back, and restart kubelet so that it picks up its full configuration. Returns the new report,
 * or undefined when nothing changed.
 */
export async function autoRestore(settings: Settings, report: Report, io: CliIo): Promise<Report | undefined> {
  const { applyNodeFallback } = await import('./fallback/node-fallback.js');
  const outcome = await applyNodeFallback({ root: settings.root, unit: settings.unit, kubeletVersion: settings.kubeletVersion, timeoutMs: settings.timeoutSeconds * 1000 });
  if (outcome.plan.action !== 'revert' || !outcome.result.ok) return undefined;
  io.stderr(`<5>node-check: credential providers are back (${escapeUnprintable(report.fallback.removedProviders?.join(', ') ?? '')}); fallback reverted\n`);
  if (new RootFs(settings.root).isHostRoot) {
    const { execa } = await import('execa');
    const restart = await execa('systemctl', ['try-restart', settings.unit], { reject: false, timeout: settings.timeoutSeconds * 1000 });
    if (restart.exitCode !== 0) io.stderr(`<4>node-check: systemctl try-restart ${settings.unit} failed: ${String(restart.stderr).trim()}\n`);
  }
  return runNodeCheck(settings, { applyFallback: false, timeoutMs: () => settings.timeoutSeconds * 1000 });
}
