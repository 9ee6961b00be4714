/**
 * The `yaml` package, evaluated at its first use (start-path cost): imported at the top of a
 * module, all ~70 of its files are evaluated and kept in the code cache on every run, while
 * preflight on a node whose files go-yaml-plain.ts and the JSON paths read never calls it.
 *
 * In the bundle `require('yaml')` is esbuild's own lazily evaluated copy of the package; run from
 * the sources (ES modules, the tests) it is Node's require of the same file.
 */
import type * as Yaml from 'yaml';

let loaded: typeof Yaml | undefined;

export function yamlPackage(): typeof Yaml {
  loaded ??= typeof require === 'function' ? (require('yaml') as typeof Yaml) : requireFromSources();
  return loaded;
}

// The package's node guards, for modules that call them often.
export const isAlias = ((node: unknown) => yamlPackage().isAlias(node)) as typeof Yaml.isAlias;
export const isMap = ((node: unknown) => yamlPackage().isMap(node)) as typeof Yaml.isMap;
export const isPair = ((node: unknown) => yamlPackage().isPair(node)) as typeof Yaml.isPair;
export const isScalar = ((node: unknown) => yamlPackage().isScalar(node)) as typeof Yaml.isScalar;
export const isSeq = ((node: unknown) => yamlPackage().isSeq(node)) as typeof Yaml.isSeq;

function requireFromSources(): typeof Yaml {
  const getBuiltinModule = (process as { getBuiltinModule?: (name: string) => unknown }).getBuiltinModule;
  if (typeof getBuiltinModule !== 'function') throw new Error('node-check needs Node 20.16 or later to run from its sources');
  const { createRequire } = getBuiltinModule.call(process, 'node:module') as typeof import('node:module');
  return createRequire(import.meta.url)('yaml') as typeof Yaml;
}
