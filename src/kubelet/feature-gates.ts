/**
 * Where kubelet's feature gates are written: --feature-gates (cliflag.MapStringBool) and the
 * `featureGates` map of a KubeletConfiguration. What kubelet does with them, per version, is in
 * src/kubelet/gates/ (the gate table and SetFromMap) and src/start/start-context.ts (precedence).
 */

export type FeatureGates = Readonly<Record<string, boolean>>;

export const TOKEN_GATE = 'KubeletServiceAccountTokenForCredentialProviders';

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
