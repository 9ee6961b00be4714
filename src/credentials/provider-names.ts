/**
 * Every providers[].name in a credential provider config file, read leniently: any document,
 * YAML or JSON, broken or not. Discovery uses it to know which plugin binaries to inspect, even
 * in files kubelet would reject. Never throws.
 */
import { isMap, isScalar, isSeq, yamlPackage } from '../host/yaml-package.js';
import type { Node as YamlNode } from 'yaml';
import { nestingProblem } from '../limits/nesting.js';
import type { GoJson } from '../go/json.js';
import { yamlToGoJson } from './go-yaml.js';
import { isJsonBuffer } from './decode.js';

export function providerNamesIn(data: Buffer | string): string[] {
  return providerEntriesIn(data).names;
}

/**
 * The names, and how many entries the providers lists hold (duplicates and nameless ones too),
 * so that discovery can refuse a config too large to evaluate within the budget.
 */
export function providerEntriesIn(data: Buffer | string): { names: string[]; entries: number } {
  const names = new Set<string>(); // a Set: 200,000 names with Array.includes took 97 s (test/hostile/budget.test.ts)
  let entries = 0;
  // The file as kubelet decodes it (go-yaml, first document): the conversion is kept for the
  // decoding that follows, so a large provider list is parsed once (start-path cost).
  if (typeof data !== 'string' && !isJsonBuffer(data)) {
    const converted = yamlToGoJson(data, { capitalisedMapKeyError: false });
    if (converted.ok) {
      const providers = member(converted.value, 'providers');
      if (providers?.kind === 'array') {
        for (const provider of providers.items) {
          const name = member(provider, 'name');
          if (name?.kind === 'string' && name.value !== '') names.add(name.value);
        }
        return { names: [...names], entries: providers.items.length };
      }
    }
  }
  try {
    const text = typeof data === 'string' ? data : data.toString('utf8');
    // The `yaml` package aborts the process on deep nesting; such a file names no providers.
    if (nestingProblem(text) !== undefined) return { names: [], entries: 0 };
    for (const doc of yamlPackage().parseAllDocuments(text, { schema: 'failsafe', uniqueKeys: false, prettyErrors: false })) {
      const providers = valueOf(doc.contents, 'providers');
      if (!isSeq(providers)) continue;
      entries += providers.items.length;
      for (const provider of providers.items) {
        const name = valueOf(provider as YamlNode | null, 'name');
        if (!isScalar(name)) continue;
        const text = typeof name.value === 'string' ? name.value : name.source;
        if (typeof text === 'string' && text !== '') names.add(text);
      }
    }
  } catch {
    // A file the parser cannot read at all names no providers.
  }
  return { names: [...names], entries };
}

/** The value of the last `key` member of a JSON object (duplicate keys: the last one wins). */
function member(value: GoJson, key: string): GoJson | undefined {
  if (value.kind !== 'object') return undefined;
  let found: GoJson | undefined;
  for (const m of value.members) if (m.key === key) found = m.value;
  return found;
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
