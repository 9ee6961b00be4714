/**
 * A root other than the live "/" is often a copy of a node's configuration (/etc, /var/lib/kubelet)
 * without its binaries. A binary whose directory the root does not have at all was not copied, so
 * node-check cannot say it is missing: it is "not checked" (like the host facts) and never changes
 * the answer. A directory that exists without the binary is a real 203/EXEC.
 */
import { posix } from 'node:path';
import type { NodeModel } from '../model/node.js';
import { factFor } from '../credentials/registration.js';

export function binaryNotInRoot(model: NodeModel, path: string): boolean {
  // Discovery records every ExecStart= binary; a model without it never looked (nothing to say).
  if (!(path in model.files)) return true;
  if (model.root === '/' || !path.startsWith('/')) return false;
  const dir = factFor(model.files, posix.dirname(path));
  return !dir.exists && dir.code === 'ENOENT';
}

/**
 * ExecStart='s binary, kubelet's, and the interpreter ("#!" or ELF loader) of each that exists:
 * a root that carries a wrapper script (MCO's /usr/local/bin/kubenswrapper) but no /bin did not
 * copy /bin/sh, which is as unknown as a binary the root lacks.
 */
export function spawnedPaths(model: NodeModel): string[] {
  const binaries = [model.service.execStart?.path, model.kubelet?.kubeletPath].filter((p): p is string => p !== undefined);
  const interpreters = binaries.map((p) => {
    const fact = model.files[p];
    return fact?.exists ? (fact.elf?.interpreter ?? fact.shebang) : undefined;
  });
  return [...new Set([...binaries, ...interpreters].filter((p): p is string => p !== undefined))];
}

/** The ExecStart= binaries (and their interpreters) this root does not carry, as notChecked entries. */
export function binariesNotChecked(model: NodeModel): { fact: string; reason: string }[] {
  return spawnedPaths(model)
    .filter((path) => binaryNotInRoot(model, path) && !factFor(model.files, path).exists)
    .map((path) => ({ fact: 'execStart', reason: `${path}: --root ${model.root} has no ${posix.dirname(path)}, so the binary was not part of the copy and was not checked` }));
}
