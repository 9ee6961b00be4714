/**
 * The Go type of kubelet.config.k8s.io/v1beta1 KubeletConfiguration for one kubelet minor, as the
 * typed decoder of src/credentials/typed-decode.ts models it. Built from the struct table that
 * scripts/generate/kubelet-config-fields.mjs extracts from kubernetes/kubelet
 * config/v1beta1/types.go per tag. Types of other packages are only checked for their JSON kind
 * (their own fields are not modelled); metav1.Duration is modelled (ParseDuration errors).
 */
import type { GoField, GoType } from '../../credentials/typed-decode.js';
import { KUBELET_CONFIG_STRING_TYPES, KUBELET_CONFIG_STRUCTS } from '../data/kubelet-config-fields.js';

const STRING: GoType = { kind: 'string', name: 'string' };

/** Types of other packages: reflect's name and the JSON kind they decode from. */
const FOREIGN: Readonly<Record<string, GoType>> = {
  'metav1.Duration': { kind: 'duration' },
  'metav1.Time': { kind: 'opaque', name: 'v1.Time', json: 'string' },
  'v1.Taint': { kind: 'opaque', name: 'v1.Taint', json: 'object' },
  'v1.NodeConfigSource': { kind: 'opaque', name: 'v1.NodeConfigSource', json: 'object' },
  'v1.ResourceList': { kind: 'opaque', name: 'v1.ResourceList', json: 'object' },
  'logsapi.LoggingConfiguration': { kind: 'opaque', name: 'v1.LoggingConfiguration', json: 'object' },
  'componentbaseconfigv1alpha1.LoggingConfiguration': { kind: 'opaque', name: 'v1alpha1.LoggingConfiguration', json: 'object' },
  'tracingapi.TracingConfiguration': { kind: 'opaque', name: 'v1.TracingConfiguration', json: 'object' },
};

const cache = new Map<number, GoType>();

/** v1beta1.KubeletConfiguration of kubelet 1.<minor>; undefined for a minor not modelled. */
export function kubeletConfigurationType(minor: number): GoType | undefined {
  const structs = KUBELET_CONFIG_STRUCTS[minor];
  const strings = KUBELET_CONFIG_STRING_TYPES[minor];
  if (!structs || !strings) return undefined;
  const cached = cache.get(minor);
  if (cached) return cached;
  const building = new Map<string, GoType>();
  const typeOf = (expr: string): GoType => {
    if (expr.startsWith('*')) return { kind: 'ptr', elem: typeOf(expr.slice(1)) };
    if (expr.startsWith('[]')) return { kind: 'slice', elem: typeOf(expr.slice(2)) };
    if (expr.startsWith('map[string]')) return { kind: 'map', elem: typeOf(expr.slice('map[string]'.length)) };
    switch (expr) {
      case 'string': return STRING;
      case 'bool': return { kind: 'bool' };
      case 'int32': return { kind: 'int', name: 'int32', bits: 32 };
      case 'int64': return { kind: 'int', name: 'int64', bits: 64 };
      case 'float64': return { kind: 'float', name: 'float64' };
    }
    if (strings.includes(expr)) return { kind: 'string', name: `v1beta1.${expr}` };
    const foreign = FOREIGN[expr];
    if (foreign) return foreign;
    const fields = structs[expr];
    if (fields) return structType(expr, fields);
    return { kind: 'unmodelled' };
  };
  const structType = (name: string, list: readonly (readonly [string, string, string])[]): GoType => {
    const done = building.get(name);
    if (done) return done;
    const fields: GoField[] = [];
    const type: GoType = { kind: 'struct', pkg: 'v1beta1', name, fields };
    building.set(name, type);
    for (const [json, , expr] of list) {
      if (json === '' && expr === 'metav1.TypeMeta') {
        fields.push({ json: 'kind', type: STRING }, { json: 'apiVersion', type: STRING });
      } else if (json !== '') {
        fields.push({ json, type: typeOf(expr) });
      }
    }
    return type;
  };
  const root = structType('KubeletConfiguration', structs.KubeletConfiguration ?? []);
  cache.set(minor, root);
  return root;
}
