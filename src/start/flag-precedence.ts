/**
 * kubeletConfigFlagPrecedence (cmd/kubelet/app/server.go, 1.24-1.37): once --config and
 * --config-dir are merged, kubelet parses its command line again into that configuration, so a
 * flag bound to a KubeletConfiguration field wins over the file. Map flags (cliflag.MapStringString,
 * MapStringBool) replace the file's map on their first Set and merge their later ones; kubelet
 * then adds back the file's feature gates the flags did not name. Values were checked by step 1.
 *
 * Types whose config rendering node-check does not model (taints, reserved memory, klog's vmodule,
 * quantities, the static-pod URL header) are left as the file has them; a flag of such a type set
 * on the command line is an undecided input (src/catalog/inputs.ts).
 */
import type { KubeletConfigObject } from '../kubelet/config/index.js';
import { kubeletFlagsFor } from '../kubelet/command-line/flag-table.js';
import { goParseBool, goParseInt } from '../go/strconv.js';
import { parseFeatureGateFlag } from '../kubelet/feature-gates.js';

export function applyFlagPrecedence(minor: number, config: KubeletConfigObject, occurrences: ReadonlyMap<string, readonly string[]>): KubeletConfigObject {
  const table = kubeletFlagsFor(minor);
  if (!table) return config;
  const result: Record<string, unknown> = { ...config };
  for (const [name, values] of occurrences) {
    const spec = table.get(name);
    if (!spec?.configField || values.length === 0) continue;
    const value = convert(spec.type, values);
    if (value === undefined) continue;
    // A nested field (logging.format, authentication.x509.clientCAFile) is set inside copies of its parents.
    const path = spec.configField.split('.');
    let parent: Record<string, unknown> = result;
    for (const key of path.slice(0, -1)) {
      const child = parent[key];
      parent = parent[key] = child && typeof child === 'object' && !Array.isArray(child) ? { ...(child as Record<string, unknown>) } : {};
    }
    parent[path[path.length - 1]!] = value;
  }
  const fileGates = config['featureGates'];
  if (occurrences.has('feature-gates') && fileGates && typeof fileGates === 'object') {
    result['featureGates'] = { ...(fileGates as Record<string, unknown>), ...(result['featureGates'] as Record<string, unknown>) };
  }
  return result;
}

function convert(type: string, values: readonly string[]): unknown {
  const last = values[values.length - 1]!;
  switch (type) {
    case 'bool':
    case 'goBool': {
      const parsed = goParseBool(last);
      return parsed.ok ? parsed.value : undefined;
    }
    case 'string':
    case 'ip':
    case 'duration':
      // Durations stay Go duration strings, as in a decoded KubeletConfiguration.
      return last;
    case 'int32':
    case 'int':
    case 'int64':
    case 'verbosity': {
      // pflag's int flags: strconv.ParseInt(s, 0, 64), so "010" is 8 and "1_000" is 1000.
      const parsed = goParseInt(last, 0, 64);
      return parsed.ok ? Number(parsed.value) : undefined;
    }
    case 'float64': {
      const n = Number(last.trim());
      return Number.isNaN(n) ? undefined : n;
    }
    case 'stringSlice':
      // pflag's readAsCSV (encoding/csv, TrimLeadingSpace off): "a, b" is "a" and " b". Quotes
      // never get here (the command-line step leaves them undecided).
      return values.flatMap((v) => (v === '' ? [] : v.split(',')));
    case 'mapStringBool': {
      const merged: Record<string, boolean> = {};
      for (const v of values) Object.assign(merged, parseFeatureGateFlag(v).gates);
      return merged;
    }
    case 'mapStringString':
      return pairs(values, ',', '=');
    case 'mapStringStringNoSplit':
      return pairs(values, undefined, '=');
    case 'langleMapStringString':
      return pairs(values, ',', '<');
    default:
      return undefined;
  }
}

function pairs(values: readonly string[], itemSeparator: string | undefined, keySeparator: string): Record<string, string> {
  const map: Record<string, string> = {};
  for (const value of values) {
    for (const item of itemSeparator ? value.split(itemSeparator) : [value]) {
      const s = item.trim();
      const at = s.indexOf(keySeparator);
      if (at > 0) map[s.slice(0, at).trim()] = s.slice(at + 1).trim();
    }
  }
  return map;
}
