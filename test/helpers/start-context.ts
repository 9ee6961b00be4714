// A StartContext for one kubelet minor over an in-memory node model (test/fallback/model.ts): the
// kubelet command line, an optional --config file, host facts. For the start steps and rules.
import type { NodeModel } from '../../src/model/node.js';
import type { Refusal, Verdict } from '../../src/model/verdict.js';
import { StartContext } from '../../src/start/start-context.js';
import { requireTraits } from '../../src/kubelet/version.js';
import { executable, modelOf } from '../fallback/model.js';

export function startContext(args: string, minor: number, extra: Partial<NodeModel> = {}, env?: Record<string, string>): StartContext {
  const model = { ...modelOf({ execStart: `/usr/bin/kubelet ${args}`, files: { '/usr/bin/kubelet': executable() }, ...(env ? { env } : {}) }), ...extra };
  return new StartContext(model, minor, requireTraits(minor), 'upstream');
}

/** A --config file at `path` with this text. */
export const withConfig = (path: string, text: string): Partial<NodeModel> => ({ kubeletConfig: { configFile: { path, content: Buffer.from(text) } } });

/** Host facts as discovery reads them on the live root (`notChecked` for another root). */
export const withHost = (facts: object, criSockets: object = {}, notChecked: { fact: string; reason: string }[] = []): Partial<NodeModel> =>
  ({ host: { facts, criSockets, notChecked } } as unknown as Partial<NodeModel>);

export const refusalOf = (verdict: Verdict): Refusal | undefined => ('fail' in verdict ? verdict.fail : undefined);

export const KUBELET_CONFIG_HEADER = 'apiVersion: kubelet.config.k8s.io/v1beta1\nkind: KubeletConfiguration\n';
