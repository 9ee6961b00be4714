/**
 * Where a word of kubelet's command line came from: written in ExecStart= itself, or expanded from
 * a variable set by an Environment= line or an EnvironmentFile= (systemd.service(5)). A finding about
 * that word names the file an admin edits, and the variable. Pure: reads the service model only.
 */
import type { NodeModel } from '../model/node.js';

export interface ArgumentOrigin {
  /** The node path of the file that holds the culprit. */
  readonly path: string;
  /** The variable the word was expanded from, when it was. */
  readonly variable?: string;
  /** What follows "comes from": "$KUBELET_KUBEADM_ARGS, set in /var/lib/kubelet/kubeadm-flags.env". */
  readonly sentence: string;
}

/** The origin of the first word that sets --flag (any of pflag's spellings: -flag, --flag, --flag=v). */
export function flagOrigin(model: NodeModel, flag: string): ArgumentOrigin | undefined {
  const index = flagIndex(model, flag);
  return index < 0 ? undefined : argumentOrigin(model, index);
}

function flagIndex(model: NodeModel, flag: string): number {
  const name = flag.replace(/^-+/, '');
  return (model.kubelet?.args ?? []).findIndex((word) => /^--?[^-]/.test(word) && word.replace(/^-+/, '').split('=', 1)[0] === name);
}

/**
 * Where the value of --flag came from, for a finding about an empty part of it: a variable of the
 * word that nothing sets expands to nothing (systemd.service(5), "Command lines"), so that variable
 * is the culprit, and the file that sets the word's other variables is where it is missing.
 * Otherwise as flagOrigin.
 */
export function flagValueOrigin(model: NodeModel, flag: string): ArgumentOrigin | undefined {
  const index = flagIndex(model, flag);
  const origin = index < 0 ? undefined : argumentOrigin(model, index);
  const execStart = model.service.execStart;
  const args = model.kubelet?.args ?? [];
  if (!origin || !execStart) return origin;
  const variables = execStart.argvVariables?.[execStart.argv.length - args.length + index] ?? [];
  const origins = model.service.environmentOrigins ?? {};
  const unset = variables.filter((v) => origins[v] === undefined);
  if (unset.length === 0) return origin;
  const at = `${execStart.source.file}:${execStart.source.line}`;
  const names = unset.map((v) => `$${v}`).join(', ');
  const sibling = variables.find((v) => origins[v] !== undefined);
  if (sibling === undefined) return { path: execStart.source.file, variable: unset[0]!, sentence: `ExecStart= at ${at}, where ${names} ${unset.length === 1 ? 'is' : 'are'} set nowhere` };
  const siblingFile = origins[sibling]!.replace(/:\d+$/, '');
  return { path: siblingFile, variable: unset[0]!, sentence: `ExecStart= at ${at}, where ${names} ${unset.length === 1 ? 'is' : 'are'} set nowhere: ${siblingFile} sets $${sibling} but not ${names}` };
}

/** The origin of kubelet's argument number `index` (0: the first word after kubelet's path). */
export function argumentOrigin(model: NodeModel, index: number): ArgumentOrigin | undefined {
  const execStart = model.service.execStart;
  const args = model.kubelet?.args;
  if (!execStart || !args) return undefined;
  const variables = execStart.argvVariables?.[execStart.argv.length - args.length + index] ?? [];
  const origins = model.service.environmentOrigins ?? {};
  const variable = variables.find((v) => origins[v] !== undefined);
  if (variable === undefined) {
    const unset = variables[0];
    const at = `${execStart.source.file}:${execStart.source.line}`;
    return { path: execStart.source.file, ...(unset ? { variable: unset } : {}), sentence: unset ? `$${unset} in ExecStart= at ${at}, which nothing sets` : `ExecStart= at ${at}` };
  }
  const origin = origins[variable]!;
  // "file:line" for an Environment= assignment, the file's path for an EnvironmentFile=.
  const match = /^(.*):(\d+)$/.exec(origin);
  return { path: match ? match[1]! : origin, variable, sentence: `$${variable}, set in ${origin}` };
}
