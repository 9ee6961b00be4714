/**
 * The inputs kubelet acts on before "Started kubelet" that no start rule decides
 * (src/catalog/inputs.ts): set to a non-default value, they make the answer "cannot tell", naming
 * each input with the file and line that set it. Runs once the configuration is merged (after
 * step 6), so a later failure that depends on them is marked inexact, never dropped.
 */
import type { StartCheck } from '../start-check.js';
import { PASS } from '../start-check.js';
import type { StartContext } from '../start-context.js';
import { undecidedInputs } from '../../catalog/inputs.js';

export const undecidedInputsStep: StartCheck = {
  id: 'kubelet-undecided-inputs',
  title: 'Every flag and field kubelet acts on at start is modelled',
  stage: 'kubelet',
  appliesTo: () => true,
  run(context) {
    const inputs = decidableInputs(context).filter((input) => !input.hostFact || context.model.root === '/');
    if (inputs.length === 0) return PASS;
    const located = inputs.map((input) => ({ ...input, where: whereSet(context, input.input) }));
    const text = located.map((i) => `${i.input}${i.where ? ` (${i.where.file}${i.where.line ? `:${i.where.line}` : ''})` : ''}: ${i.reason}`).join('; ');
    const first = located.find((i) => i.where)?.where;
    return { undecidable: `node-check has no rule for ${located.length === 1 ? 'an input' : `${located.length} inputs`} kubelet 1.${context.minor} acts on before it starts: ${text}`, ...(first ? { path: first.file } : {}) };
  },
};

function decidableInputs(context: StartContext) {
  return undecidedInputs(context.minor, context.effectiveConfig, context.model.kubelet?.flags.occurrences ?? new Map<string, readonly string[]>());
}

/**
 * With a root other than the live "/", the inputs whose value depends on the machine (a listen
 * address) are host facts, as swap or the CRI socket are: not checked, and they change no answer.
 */
export function hostInputsNotChecked(context: StartContext): { fact: string; reason: string }[] {
  if (context.model.root === '/') return [];
  return decidableInputs(context)
    .filter((input) => input.hostFact)
    .map((input) => ({ fact: input.input, reason: `${input.hostFact} (${input.input} ${JSON.stringify(context.effectiveConfig[input.input]).slice(0, 80)}): a fact of the machine, not read with --root ${context.model.root}` }));
}

/** The file (and line) that sets a flag (the ExecStart= line) or a field (the last drop-in that names it, else --config). */
function whereSet(context: StartContext, input: string): { file: string; line?: number } | undefined {
  if (input.startsWith('--')) {
    const source = context.model.service.execStart?.source;
    return source ? { file: source.file, line: source.line } : undefined;
  }
  const field = input.split('.')[0]!;
  const { configFile, configDir } = context.model.kubeletConfig;
  const files = [...(configFile ? [configFile] : []), ...(configDir?.dropIns ?? [])].reverse();
  const key = new RegExp(`^\\s*"?${field.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')}"?\\s*:`);
  for (const { path, content } of files) {
    if (!Buffer.isBuffer(content)) continue;
    const lines = content.toString('utf8').split('\n');
    const at = lines.findIndex((line) => key.test(line));
    if (at >= 0) return { file: path, line: at + 1 };
  }
  // Set by a flag bound to the field.
  const source = context.model.service.execStart?.source;
  return source ? { file: source.file, line: source.line } : configFile ? { file: configFile.path } : undefined;
}
