/**
 * Effective kubelet feature gates, in kubelet's precedence (cmd/kubelet/app/server.go):
 * version defaults, then `featureGates` of the --config file, then each --config-dir drop-in
 * (JSON merge patch, so keys merge), then --feature-gates (the flag wins per key; keys it does not
 * mention are kept). Only KubeletServiceAccountTokenForCredentialProviders matters for credential
 * providers today; the model is general so the next gate costs one table row.
 */
import type { KubeletTraits } from './version.js';

export type FeatureGates = Readonly<Record<string, boolean>>;

export const TOKEN_GATE = 'KubeletServiceAccountTokenForCredentialProviders';

/** Defaults that matter to credential providers, per version (research §1.2). */
export function defaultFeatureGates(traits: KubeletTraits): FeatureGates {
  return traits.tokenGateDefault === undefined ? {} : { [TOKEN_GATE]: traits.tokenGateDefault };
}

export interface FeatureGateSources {
  readonly configFile?: FeatureGates;
  /** In the order kubelet merges them. */
  readonly configDropIns: readonly FeatureGates[];
  /** Each --feature-gates occurrence, in order. */
  readonly flagValues: readonly string[];
}

export function effectiveFeatureGates(traits: KubeletTraits, sources: FeatureGateSources): FeatureGates {
  const gates: Record<string, boolean> = { ...defaultFeatureGates(traits) };
  Object.assign(gates, sources.configFile ?? {});
  // --config-dir only exists from 1.28 and needs KUBELET_CONFIG_DROPIN_DIR_ALPHA on 1.28-1.29;
  // the caller drops the drop-ins when they do not apply.
  for (const dropIn of sources.configDropIns) Object.assign(gates, dropIn);
  for (const value of sources.flagValues) Object.assign(gates, parseFeatureGateFlag(value).gates);
  return gates;
}

/** cliflag.MapStringBool.Set: "A=true,B=false"; values as strconv.ParseBool. */
export function parseFeatureGateFlag(value: string): { gates: Record<string, boolean>; invalid: string[] } {
  const gates: Record<string, boolean> = {};
  const invalid: string[] = [];
  for (const part of value.split(',')) {
    const item = part.trim();
    if (item === '') continue;
    const eq = item.indexOf('=');
    const parsed = eq === -1 ? undefined : parseGoBool(item.slice(eq + 1).trim());
    if (parsed === undefined) invalid.push(item);
    else gates[item.slice(0, eq).trim()] = parsed;
  }
  return { gates, invalid };
}

function parseGoBool(text: string): boolean | undefined {
  if (['1', 't', 'T', 'TRUE', 'true', 'True'].includes(text)) return true;
  if (['0', 'f', 'F', 'FALSE', 'false', 'False'].includes(text)) return false;
  return undefined;
}

/** `featureGates` of a decoded KubeletConfiguration document; non-boolean values are ignored. */
export function featureGatesOf(document: unknown): FeatureGates | undefined {
  if (!document || typeof document !== 'object') return undefined;
  const raw = (document as Record<string, unknown>)['featureGates'];
  if (!raw || typeof raw !== 'object' || Array.isArray(raw)) return undefined;
  const gates: Record<string, boolean> = {};
  for (const [name, value] of Object.entries(raw as Record<string, unknown>)) {
    if (typeof value === 'boolean') gates[name] = value;
  }
  return gates;
}
