/**
 * Built-in modules that only some runs need, loaded at their first use instead of with the bundle
 * (start-path cost): every module loaded is time on kubelet's start path, and one first loaded after the
 * launcher sets V8's flags compiles from source (src/launcher/launcher.cjs).
 */
import { createRequire } from 'node:module';

interface LazyBuiltins {
  'node:child_process': typeof import('node:child_process');
  'node:crypto': typeof import('node:crypto');
  'node:net': typeof import('node:net');
  'node:tty': typeof import('node:tty');
}

let requireHere: NodeJS.Require | undefined;

export function lazyBuiltin<Name extends keyof LazyBuiltins>(name: Name): LazyBuiltins[Name] {
  requireHere ??= createRequire(import.meta.url);
  return requireHere(name) as LazyBuiltins[Name];
}
