/**
 * Every start rule, by step folder (src/rules/<step>/index.ts), in start order. The catalog's
 * entries for these rules (./findings.ts) and the list of host facts they read are built from it.
 */
import type { HostFactName } from '../host-facts/types.js';
import { POST_START_RULES } from '../rules/post-start/index.js';
import { RUN_RULES } from '../rules/run/index.js';

export const ALL_RULES = [...RUN_RULES, ...POST_START_RULES] as const;

/** A catalog entry of one of the rules (its id typed from the rules' own entries). */
export type RuleKind = (typeof ALL_RULES)[number]['kinds'][number];

/** The finding kinds of every rule, in the rules' order. */
export const RULE_KINDS: readonly RuleKind[] = ALL_RULES.flatMap((rule): readonly RuleKind[] => rule.kinds);

/** The host facts the rules read, each with the rules that read it. */
export function hostFactReaders(): ReadonlyMap<HostFactName, readonly string[]> {
  const readers = new Map<HostFactName, string[]>();
  for (const rule of ALL_RULES) for (const fact of rule.hostFacts ?? []) readers.set(fact, [...(readers.get(fact) ?? []), rule.id]);
  return readers;
}
