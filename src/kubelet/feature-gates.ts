/**
 * Where kubelet's feature gates are written: --feature-gates (cliflag.MapStringBool) and the
 * `featureGates` map of a KubeletConfiguration. What kubelet does with them, per version, is in
 * src/kubelet/gates/ (the gate table and SetFromMap) and src/start/start-context.ts (precedence).
 */
import { goParseBool } from '../go/strconv.js';

export const TOKEN_GATE = 'KubeletServiceAccountTokenForCredentialProviders';

/** cliflag.MapStringBool.Set: "A=true,B=false"; values as strconv.ParseBool. */
export function parseFeatureGateFlag(value: string): { gates: Record<string, boolean>; invalid: string[] } {
  const gates: Record<string, boolean> = {};
  const invalid: string[] = [];
  for (const part of value.split(',')) {
    const item = part.trim();
    if (item === '') continue;
    const eq = item.indexOf('=');
    const parsed = eq === -1 ? undefined : goBool(item.slice(eq + 1).trim());
    if (parsed === undefined) invalid.push(item);
    else gates[item.slice(0, eq).trim()] = parsed;
  }
  return { gates, invalid };
}

function goBool(text: string): boolean | undefined {
  const parsed = goParseBool(text);
  return parsed.ok ? parsed.value : undefined;
}
