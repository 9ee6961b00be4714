/**
 * `serve --machine-config FILE|DIR` (issue 9, item 5): a configuration waiting to be applied is
 * re-evaluated against this node on every check, and exported as
 * nodecheck_pending_config_kubelet_start_ok{config="<name>"}: 1 kubelet would start after it,
 * 0 it would not, absent when node-check cannot tell (then ..._unknown is 1), so that the alert
 * "this configuration will stop kubelet on this node" never fires on a guess.
 */
import * as fs from 'node:fs';
import * as posix from 'node:path/posix';
import { checkNode } from '../check-node.js';
import type { FallbackStatus } from '../model/report.js';
import { escapeUnprintable } from '../render/printable.js';
import { readOverlayInputs } from './read-inputs.js';

/** At most this many pending configs (label values stay bounded). */
export const MAX_PENDING_CONFIGS = 32;
const CONFIG_FILE = /\.(ya?ml|json|ign)$/;

export interface PendingResult {
  /** metadata.name of the MachineConfig, else the file name. */
  readonly config: string;
  readonly origin: string;
  readonly kubeletWillStart: boolean | null;
  readonly summary: string;
}

/** The config files an argument names: the file itself, or a directory's *.yaml/*.yml/*.json/*.ign (sorted, not recursive). */
export function pendingConfigFiles(args: readonly string[]): string[] {
  const files: string[] = [];
  for (const arg of args) {
    let st: fs.Stats | undefined;
    try {
      st = fs.statSync(arg);
    } catch {
      files.push(arg); // reported as unreadable by the check
      continue;
    }
    if (!st.isDirectory()) {
      files.push(arg);
      continue;
    }
    let names: string[] = [];
    try {
      names = fs.readdirSync(arg).filter((n) => CONFIG_FILE.test(n) && !n.startsWith('.')).sort();
    } catch {
      files.push(arg);
      continue;
    }
    files.push(...names.map((n) => posix.join(arg, n)));
  }
  return files.slice(0, MAX_PENDING_CONFIGS);
}

export async function checkPendingConfigs(options: {
  readonly root: string;
  readonly unit: string;
  readonly kubeletVersion?: string;
  readonly versionProbeTimeoutMs: number;
  readonly fallback?: FallbackStatus;
  readonly configs: readonly string[];
}): Promise<PendingResult[]> {
  const results: PendingResult[] = [];
  for (const file of pendingConfigFiles(options.configs)) {
    const inputs = readOverlayInputs([{ kind: 'machine-config', value: file }]);
    const report = await checkNode({
      root: options.root,
      unit: options.unit,
      ...(options.kubeletVersion !== undefined ? { kubeletVersion: options.kubeletVersion } : {}),
      versionProbeTimeoutMs: options.versionProbeTimeoutMs,
      ...(options.fallback ? { fallback: options.fallback } : {}),
      overlays: inputs,
    });
    results.push({
      config: report.upgrade?.sources[0]?.name ?? posix.basename(file),
      origin: file,
      kubeletWillStart: report.kubeletWillStart,
      summary: report.upgrade?.summary ?? '',
    });
  }
  return results;
}

/** The exposition of the pending configs' answers (gauges, no timestamps, bounded labels). */
export async function renderPendingMetrics(results: readonly PendingResult[]): Promise<string> {
  if (results.length === 0) return '';
  const { Registry, Gauge } = await import('prom-client');
  const registry = new Registry();
  const ok = new Gauge({
    name: 'nodecheck_pending_config_kubelet_start_ok',
    help: '1 if kubelet is predicted to start after the pending configuration is applied, 0 if it will not; absent when node-check cannot tell.',
    labelNames: ['config'],
    registers: [registry],
  });
  const unknown = new Gauge({
    name: 'nodecheck_pending_config_kubelet_start_unknown',
    help: '1 if node-check cannot tell whether kubelet would start after the pending configuration, else 0.',
    labelNames: ['config'],
    registers: [registry],
  });
  const seen = new Map<string, boolean | null>();
  for (const r of results) {
    const config = [...escapeUnprintable(r.config)].slice(0, 253).join('');
    const previous = seen.get(config);
    // Two files with one name: keep the worse answer (false < null < true).
    const worse = previous === undefined ? r.kubeletWillStart : previous === false || r.kubeletWillStart === false ? false : previous === null || r.kubeletWillStart === null ? null : true;
    seen.set(config, worse);
  }
  let any = false;
  for (const [config, answer] of seen) {
    if (answer !== null) {
      ok.set({ config }, answer ? 1 : 0);
      any = true;
    }
    unknown.set({ config }, answer === null ? 1 : 0);
  }
  if (!any) registry.removeSingleMetric('nodecheck_pending_config_kubelet_start_ok');
  return registry.metrics();
}
