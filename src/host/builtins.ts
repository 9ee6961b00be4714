/**
 * Built-in modules that only some runs need, loaded at their first use instead of with the bundle
 * (start-path cost): every module loaded is time on kubelet's start path, and one first loaded after the
 * launcher sets V8's flags compiles from source (src/launcher/launcher.cjs).
 */

interface LazyBuiltins {
  'node:child_process': typeof import('node:child_process');
  'node:crypto': typeof import('node:crypto');
  'node:net': typeof import('node:net');
  'node:tty': typeof import('node:tty');
}

let requireHere: ((name: string) => unknown) | undefined;

/**
 * Through process.getBuiltinModule (Node 20.16), or in the bundle (CommonJS) its `require`, on
 * older Node 20: never node:module's createRequire, whose import loads Node's ES module loader
 * on the start path (~1 M instructions of preflight's).
 */
function builtinLoader(): (name: string) => unknown {
  const getBuiltinModule = (process as { getBuiltinModule?: (name: string) => unknown }).getBuiltinModule;
  if (typeof getBuiltinModule === 'function') return (name) => getBuiltinModule.call(process, name);
  if (typeof require === 'function') return require;
  throw new Error('node-check needs Node 20.16 or later to run from its sources');
}

export function lazyBuiltin<Name extends keyof LazyBuiltins>(name: Name): LazyBuiltins[Name] {
  requireHere ??= builtinLoader();
  return requireHere(name) as LazyBuiltins[Name];
}
