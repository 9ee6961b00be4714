/**
 * The fallback's new ExecStart=: the unit's own command line, word for word as written, with only
 * kubelet's credential-provider flags removed or pointed elsewhere. Pure.
 *
 * Words are mapped to the argv entries they expand to, and flags are found in argv the way kubelet
 * (pflag) reads them, so `--flag=value`, `--flag value`, `--flag_name`, repeated flags and flags
 * that come out of a variable are all handled. A word none of whose entries change is copied as
 * written, so its specifiers and `$VAR`/`${VAR}` still resolve when systemd runs the command.
 *
 * A `$VAR` word that carries a credential flag among other arguments (OpenShift 4.22's
 * `$KUBELET_CRIO_IMAGE_CREDENTIAL_PROVIDER_FLAGS`, kubeadm's `$KUBELET_EXTRA_ARGS`) is replaced by
 * the rest of its value as literal words. Trade-off: that part of the command line is frozen at
 * planning time, so a later edit of the variable's EnvironmentFile reaches kubelet only when
 * node-check plans again (every kubelet start, in preflight). The alternatives are worse:
 * `Environment=` in a drop-in cannot override a value from an EnvironmentFile, and an extra
 * EnvironmentFile would change the variable for every other command of the unit as well.
 */
import type { ServiceModel } from '../model/service.js';
import { CredentialFlag, locateKubelet, scanKubeletArgs } from '../kubelet/flags.js';
import { expandArgv } from '../systemd/env-expand.js';
import { expandSpecifiers } from '../systemd/specifiers.js';
import { parseUnitName } from '../systemd/unit-name.js';
import { literalExecArgument, quoteSystemdWord, splitWrittenExec } from './systemd-quote.js';

export type CredentialFlagChange =
  /** Remove every --image-credential-provider-config and --image-credential-provider-bin-dir. */
  | { readonly kind: 'drop-both' }
  /** Remove every --image-credential-provider-config and give kubelet this one instead. */
  | { readonly kind: 'point-config'; readonly configPath: string };

export interface ExecRewrite {
  /** The lines of the new `ExecStart=` assignment (continued with a trailing backslash). */
  readonly lines: readonly string[];
  /** The value as systemd reads it: continuation lines joined. */
  readonly value: string;
  /** The argv systemd passes with the new line, given the same environment. */
  readonly argv: readonly string[];
  /** Variable words that were written out as literals because they carried a credential flag. */
  readonly frozenWords: readonly string[];
}

export function rewriteExecStart(service: ServiceModel, change: CredentialFlagChange): ExecRewrite | { readonly problem: string } {
  const exec = service.execStart;
  if (!exec) return { problem: `${service.unitName} has no ExecStart=` };
  const where = `ExecStart= of ${service.unitName} (${exec.source.file}:${exec.source.line})`;
  const unit = parseUnitName(service.unitName);
  const written = splitWrittenExec(exec.raw, exec.prefixes);
  if (!unit || !written) return { problem: `${where} could not be split into words again` };

  const argv0Separate = exec.prefixes.includes('@');
  const writtenWords = argv0Separate ? written.argWords : [written.pathWord, ...written.argWords];
  const consistent = writtenWords.length === exec.words.length && writtenWords.every((w, i) => expandSpecifiers(w, unit).text === exec.words[i]);
  if (!consistent) return { problem: `${where}: its words as written do not match the words systemd stores` };

  // Which argv entries each word becomes.
  const expandsEnvironment = !exec.prefixes.includes(':');
  const environment = new Map(Object.entries(service.environment));
  const ranges: { start: number; end: number }[] = [];
  const argv: string[] = [];
  for (const word of exec.words) {
    const entries = expandsEnvironment ? expandArgv([word], environment).argv : [word];
    ranges.push({ start: argv.length, end: argv.length + entries.length });
    argv.push(...entries);
  }
  if (argv.length !== exec.argv.length || argv.some((a, i) => a !== exec.argv[i])) {
    return { problem: `${where}: expanding its words one by one does not give the argv systemd would pass` };
  }

  const kubelet = locateKubelet(argv);
  if (!kubelet) return { problem: `${where} does not run kubelet` };
  const argsStart = argv.length - kubelet.args.length;
  const removed = new Set<number>();
  let lastConfigArg: number | undefined;
  for (const token of scanKubeletArgs(kubelet.args)) {
    if (token.kind !== 'flag') continue;
    const isConfig = token.name === CredentialFlag.config;
    if (!isConfig && !(token.name === CredentialFlag.binDir && change.kind === 'drop-both')) continue;
    for (let k = 0; k < token.length; k++) removed.add(argsStart + token.start + k);
    if (isConfig) lastConfigArg = argsStart + token.start;
  }

  let insertAfterWord: number | undefined;
  let newFlag: string | undefined;
  if (change.kind === 'point-config') {
    if (lastConfigArg === undefined) return { problem: `${where} has no --${CredentialFlag.config} to point elsewhere` };
    insertAfterWord = ranges.findIndex((r) => lastConfigArg! >= r.start && lastConfigArg! < r.end);
    newFlag = `--${CredentialFlag.config}=${change.configPath}`;
  }

  const words: string[] = [];
  const newArgv: string[] = [];
  const frozenWords: string[] = [];
  const literal = (value: string) => quoteSystemdWord(literalExecArgument(value, expandsEnvironment));
  ranges.forEach((range, i) => {
    const entries = argv.slice(range.start, range.end);
    const gone = entries.filter((_, k) => removed.has(range.start + k)).length;
    if (gone === 0) {
      words.push(quoteSystemdWord(writtenWords[i]!));
      newArgv.push(...entries);
    } else if (gone < entries.length) {
      frozenWords.push(writtenWords[i]!);
      entries.forEach((entry, k) => {
        if (removed.has(range.start + k)) return;
        words.push(literal(entry));
        newArgv.push(entry);
      });
    }
    if (i === insertAfterWord && newFlag !== undefined) {
      words.push(literal(newFlag));
      newArgv.push(newFlag);
    }
  });

  // The executable (with its prefixes) is never a credential flag, so words[0] is always there.
  const first = argv0Separate ? `${exec.prefixes}${quoteSystemdWord(written.pathWord)}` : `${exec.prefixes}${words.shift()}`;
  const all = [first, ...words];
  const lines = all.map((word, i) => (i === 0 ? `ExecStart=${word}` : `    ${word}`) + (i < all.length - 1 ? ' \\' : ''));
  return { lines, value: all.join(' '), argv: newArgv, frozenWords };
}
