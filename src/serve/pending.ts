/**
 * `serve --machine-config FILE|DIR`: a configuration waiting to be applied is
 * re-evaluated against this node on every check, and exported as
 * nodecheck_pending_config_kubelet_start_ok{config="<name>"}: 1 kubelet would start after it,
 * 0 it would not, absent when node-check cannot tell (then ..._unknown is 1), so that the alert
 * "this configuration will stop kubelet on this node" never fires on a guess.
 */
import { type Stats, readdirSync, statSync } from 'node:fs';
import { posix } from 'node:path';
import { checkNode, type OverlayInput } from '../check-node.js';
import type { FallbackStatus } from '../model/report.js';
import { escapeUnprintable } from '../render/printable.js';
import type { GaugeFamily } from '../sinks/exposition.js';
import { readOverlayInputs } from '../overlay/read-inputs.js';
import { nodeTarget, pendingInputs, type ClusterClient } from '../overlay/cluster.js';

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
    let st: Stats | undefined;
    try {
      st = statSync(arg);
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
      names = readdirSync(arg).filter((n) => CONFIG_FILE.test(n) && !n.startsWith('.')).sort();
    } catch {
      files.push(arg);
      continue;
    }
    files.push(...names.map((n) => posix.join(arg, n)));
  }
  return files.slice(0, MAX_PENDING_CONFIGS);
}

export interface PendingCheckOptions {
  readonly root: string;
  readonly unit: string;
  readonly kubeletVersion?: string;
  readonly versionProbeTimeoutMs: number;
  readonly fallback?: FallbackStatus;
}

/** serve --machine-config FILE|DIR: each file is one pending config. */
export async function checkPendingConfigs(options: PendingCheckOptions & { readonly configs: readonly string[] }): Promise<PendingResult[]> {
  const files = pendingConfigFiles(options.configs);
  return checkPendingInputs(options, readOverlayInputs(files.map((value) => ({ kind: 'machine-config' as const, value }))));
}

/** Each input (a file read, or a MachineConfig from the API) evaluated on its own against the node. */
export async function checkPendingInputs(options: PendingCheckOptions, inputs: readonly OverlayInput[]): Promise<PendingResult[]> {
  const results: PendingResult[] = [];
  for (const input of inputs.slice(0, MAX_PENDING_CONFIGS)) {
    const report = await checkNode({
      root: options.root,
      unit: options.unit,
      ...(options.kubeletVersion !== undefined ? { kubeletVersion: options.kubeletVersion } : {}),
      versionProbeTimeoutMs: options.versionProbeTimeoutMs,
      ...(options.fallback ? { fallback: options.fallback } : {}),
      overlays: [input],
    });
    const origin = input.kind === 'directory' ? input.dir : input.origin;
    results.push({
      config: report.upgrade?.sources[0]?.name ?? posix.basename(origin),
      origin,
      kubeletWillStart: report.kubeletWillStart,
      summary: report.upgrade?.summary ?? '',
    });
  }
  return results;
}

/** The families of the pending configs' answers (gauges, bounded labels), for serve's /metrics. */
export function pendingFamilies(results: readonly PendingResult[]): GaugeFamily[] {
  if (results.length === 0) return [];
  const seen = new Map<string, boolean | null>();
  for (const r of results) {
    const config = [...escapeUnprintable(r.config)].slice(0, 253).join('');
    const previous = seen.get(config);
    // Two files with one name: keep the worse answer (false < null < true).
    const worse = previous === undefined ? r.kubeletWillStart : previous === false || r.kubeletWillStart === false ? false : previous === null || r.kubeletWillStart === null ? null : true;
    seen.set(config, worse);
  }
  const answers = [...seen];
  const definite = answers.filter(([, answer]) => answer !== null);
  return [
    ...(definite.length > 0 ? [{
      name: 'nodecheck_pending_config_kubelet_start_ok',
      help: '1 if kubelet is predicted to start after the pending configuration is applied, 0 if it will not; absent when node-check cannot tell.',
      samples: definite.map(([config, answer]) => ({ labels: { config }, value: answer ? 1 : 0 })),
    }] : []),
    {
      name: 'nodecheck_pending_config_kubelet_start_unknown',
      help: '1 if node-check cannot tell whether kubelet would start after the pending configuration, else 0.',
      samples: answers.map(([config, answer]) => ({ labels: { config }, value: answer === null ? 1 : 0 })),
    },
  ];
}

/**
 * serve --in-cluster: the node's pool's target rendered config (and the node's desiredConfig when
 * different), read from the API and evaluated against this node. When the API cannot be read, one
 * result with config "cluster" that node-check cannot tell (the metric's _unknown is 1).
 */
export async function checkClusterPending(options: PendingCheckOptions, client: ClusterClient | { problem: string }, nodeName: string): Promise<PendingResult[]> {
  const cannotTell = (problem: string): PendingResult[] => [{ config: 'cluster', origin: 'cluster', kubeletWillStart: null, summary: `node-check cannot tell which configuration this node is going to: ${problem}` }];
  if ('problem' in client) return cannotTell(client.problem);
  const target = await nodeTarget(client, nodeName);
  if ('problem' in target) return cannotTell(target.problem);
  const inputs = await pendingInputs(client, target);
  if (inputs.length === 0) return cannotTell(`node ${nodeName} is in no MachineConfigPool with a spec.configuration`);
  return checkPendingInputs(options, inputs);
}
