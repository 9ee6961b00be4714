/** The plan that takes a fallback away again. Pure. */
import { emptyPlan, type FallbackPlan } from './plan-types.js';
import { dropInDir, dropInPath, FALLBACK_STATE_PATH, FILTERED_CONFIG_DIR, filteredConfigPath } from './paths.js';
import type { FallbackState } from './state.js';

/** Removes everything a fallback of `unit` may have left, in a crash-safe order; harmless when nothing is there. */
export function planRevert(input: { readonly unit: string; readonly existing?: FallbackState; readonly reason?: string }): FallbackPlan {
  const { unit, existing } = input;
  // The record is global; it belongs to this revert only when it records this unit (or is absent).
  const ownsRecord = !existing || existing.unit === unit;
  return {
    ...emptyPlan(unit, 'revert', input.reason ?? (existing ? `Fallback for ${unit} reverted on request.` : `No fallback for ${unit} is recorded; leftovers, if any, are removed.`)),
    removes: [
      dropInPath(unit),
      filteredConfigPath(unit),
      `${FILTERED_CONFIG_DIR}/`,
      `${dropInDir(unit)}/`,
      ...(ownsRecord ? [FALLBACK_STATE_PATH] : []),
    ],
    removedProviders: existing?.removedProviders ?? [],
  };
}

