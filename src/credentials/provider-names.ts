/**
 * Every providers[].name in a credential provider config file, read leniently: any document,
 * YAML or JSON, broken or not. Discovery uses it to know which plugin binaries to inspect, even
 * in files kubelet would reject. Never throws.
 */
import { isMap, isScalar, isSeq, parseAllDocuments } from 'yaml';
import type { Node as YamlNode } from 'yaml';
import { nestingProblem } from '../limits/nesting.js';

export function providerNamesIn(data: Buffer | string): string[] {
  const names: string[] = [];
  try {
    const text = typeof data === 'string' ? data : data.toString('utf8');
    // The `yaml` package aborts the process on deep nesting; such a file names no providers.
    if (nestingProblem(text) !== undefined) return names;
    for (const doc of parseAllDocuments(text, { schema: 'failsafe', uniqueKeys: false, prettyErrors: false })) {
      const providers = valueOf(doc.contents, 'providers');
      if (!isSeq(providers)) continue;
      for (const provider of providers.items) {
        const name = valueOf(provider as YamlNode | null, 'name');
        if (!isScalar(name)) continue;
        const text = typeof name.value === 'string' ? name.value : name.source;
        if (typeof text === 'string' && text !== '' && !names.includes(text)) names.push(text);
      }
    }
  } catch {
    // A file the parser cannot read at all names no providers.
  }
  return names;
}

/** The value of the last `key` entry of a mapping (duplicate keys: the last one wins, as in go-yaml). */
function valueOf(node: YamlNode | null | undefined, key: string): YamlNode | null | undefined {
  if (!node || !isMap(node)) return undefined;
  let found: YamlNode | null | undefined;
  for (const pair of node.items) {
    const k = pair.key as YamlNode | null;
    if (k && isScalar(k) && k.value === key) found = pair.value as YamlNode | null;
  }
  return found;
}
