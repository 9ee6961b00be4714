/**
 * The fallback for one node, end to end: discover the unit without node-check's own drop-in, read
 * the record, plan, and (under the lock) apply. What `fallback apply|revert`, preflight and serve
 * share; the rules live in plan.ts, the writing in apply.ts.
 */
import { discoverNode } from '../discover/discover-node.js';
import { RootFs } from '../host/root-fs.js';
import type { NodeModel } from '../model/node.js';
import { applyPlan, type ApplyResult } from './apply.js';
import { HidingRootFs } from './hiding-root-fs.js';
import { withLock, type LockOptions } from './lock.js';
import { dropInPath } from './paths.js';
import { planFallbackForNode, planRevert, type FallbackPlan } from './plan.js';
import { readFallbackState, type FallbackStateReading } from './state.js';

export interface NodeFallbackOptions {
  readonly root: string;
  readonly unit: string;
  readonly kubeletVersion?: string;
  /** Bound on each external command (kubelet --version, systemctl). */
  readonly timeoutMs: number;
  readonly now?: Date;
  readonly lock?: LockOptions;
}

export interface NodeFallbackOutcome {
  readonly model?: NodeModel;
  readonly reading: FallbackStateReading;
  readonly plan: FallbackPlan;
  readonly result: ApplyResult;
}

/** The node as it is without the fallback drop-in: the configuration the plan must judge. */
export function discoverWithoutFallback(options: NodeFallbackOptions): Promise<NodeModel> {
  return discoverNode({
    root: options.root,
    unit: options.unit,
    kubeletVersion: options.kubeletVersion,
    versionProbeTimeoutMs: Math.min(options.timeoutMs, 2000),
    rootFs: new HidingRootFs(options.root, [dropInPath(options.unit)]),
  });
}

/** Plans from the node's own configuration and applies the plan (apply, keep, revert, or nothing). */
export function applyNodeFallback(options: NodeFallbackOptions): Promise<NodeFallbackOutcome> {
  return withLock(options.root, async () => {
    const now = options.now ?? new Date();
    const model = await discoverWithoutFallback(options);
    const reading = readFallbackState(new RootFs(options.root), { unit: options.unit, now });
    const plan = planFallbackForNode({ model, now, ...(reading.state ? { existing: reading.state } : {}) });
    const result = await applyPlan(plan, applyOptions(options));
    return { model, reading, plan, result };
  }, options.lock);
}

/**
 * `fallback apply|revert --dry-run`: the plan the command would carry out, made the same way but
 * without the lock (which is a file under /run) and without writing anything.
 */
export async function planNodeFallback(options: NodeFallbackOptions, action: 'apply' | 'revert'): Promise<FallbackPlan> {
  const now = options.now ?? new Date();
  const reading = readFallbackState(new RootFs(options.root), { unit: options.unit, now });
  const existing = reading.state ? { existing: reading.state } : {};
  if (action === 'revert') return planRevert({ unit: options.unit, ...existing });
  return planFallbackForNode({ model: await discoverWithoutFallback(options), now, ...existing });
}

/** Removes the fallback of the unit, whatever the node says (idempotent). */
export function revertNodeFallback(options: NodeFallbackOptions): Promise<NodeFallbackOutcome> {
  return withLock(options.root, async () => {
    const reading = readFallbackState(new RootFs(options.root), { unit: options.unit, ...(options.now ? { now: options.now } : {}) });
    const plan = planRevert({ unit: options.unit, ...(reading.state ? { existing: reading.state } : {}) });
    const result = await applyPlan(plan, applyOptions(options));
    return { reading, plan, result };
  }, options.lock);
}

function applyOptions(options: NodeFallbackOptions) {
  return { root: options.root, reload: new RootFs(options.root).isHostRoot, timeoutMs: options.timeoutMs };
}
