/**
 * Pure checks that predict systemd refusing to run kubelet at all, before kubelet's own code
 * runs: a masked unit, a required EnvironmentFile= that cannot be loaded, an ExecStart= binary
 * that cannot be executed, an argument list execve(2) refuses (argument-list.ts). Each returns systemd's own journal lines for the node's systemd
 * version (systemd-texts.ts). Input: the ServiceModel (src/systemd/load-service.ts) and PathFacts
 * for the executables (src/discover/host-facts.ts collectExecFacts). No I/O.
 *
 * systemd's order (src/core/service.c, execute.c; v239..newest): a masked unit is refused when the
 * start job is enqueued; then, for the first command spawned (the first ExecStartPre=, else
 * ExecStart=), PID 1 loads every EnvironmentFile= before fork and gives up on the first failure;
 * only then does the child look up and execve() the binary (status=203/EXEC). The outcomes are
 * returned in that order; the first failure is the one the journal shows. These checks do not
 * depend on the kubelet version (kubelet never runs).
 */
import type { FileTable, PathFact } from '../model/node.js';
import type { EnvironmentFileRef, ServiceModel, UnitRefusal } from '../model/service.js';
import { strerror, type PreconditionFailure, type PreconditionOutcome, type PreconditionUndecidable } from './outcome.js';
import { systemdTexts } from './systemd-texts.js';
import { argumentListVerdict, type ArgumentListVerdict } from './argument-list.js';

export interface SystemdPreconditionInput {
  readonly service: ServiceModel;
  /** PathFacts of ExecStart's executable, kubelet's binary and their interpreters, keyed by node path. */
  readonly files: FileTable;
  /**
   * Paths whose facts do not count, as if absent from `files`: binaries the root does not carry
   * (src/start/binaries-in-root.ts). Named here rather than removed from a copy of the table, which
   * holds a fact for every credential plugin (1,000 plugins).
   */
  readonly notCarried?: readonly string[];
  /** Where kubelet is in ExecStart's argv (NodeModel.kubelet.kubeletPath), when it was found. */
  readonly kubeletPath?: string;
  /** The node's ELF machine ("x86_64", ...), to tell a binary for another architecture. */
  readonly nodeMachine?: string;
  /** Overrides service.systemdVersion. */
  readonly systemdVersion?: number;
}

/**
 * What a systemd precondition says: a failure, "cannot tell", or nothing about a binary the root
 * does not carry (src/start/binaries-in-root.ts: neither missing nor present). Each caller
 * switches over all three (systemdOutcomeKind).
 */
export type SystemdOutcome = PreconditionOutcome | NotChecked;

export interface NotChecked {
  /** Why the fact was not checked. */
  readonly notChecked: string;
  readonly path: string;
}

export type ClassifiedOutcome =
  | { readonly kind: 'failure'; readonly failure: PreconditionFailure }
  | { readonly kind: 'undecidable'; readonly undecidable: PreconditionUndecidable }
  | { readonly kind: 'not-checked'; readonly notChecked: NotChecked };

export function classifyOutcome(outcome: SystemdOutcome): ClassifiedOutcome {
  if ('notChecked' in outcome) return { kind: 'not-checked', notChecked: outcome };
  return 'undecidable' in outcome ? { kind: 'undecidable', undecidable: outcome } : { kind: 'failure', failure: outcome };
}

export const SYSTEMD_FINDING = {
  masked: 'systemd-unit-masked',
  refused: 'systemd-unit-refused',
  envFileMissing: 'systemd-environment-file-missing',
  envFileUnreadable: 'systemd-environment-file-unreadable',
  execMissing: 'systemd-exec-missing',
  execNotExecutable: 'systemd-exec-not-executable',
  wrappedKubeletMissing: 'systemd-wrapped-kubelet-missing',
  argumentListTooLong: 'systemd-exec-argument-list-too-long',
} as const;

export function checkSystemdPreconditions(input: SystemdPreconditionInput): SystemdOutcome[] {
  const { service } = input;
  const unit = service.unitName;
  const version = input.systemdVersion ?? service.systemdVersion;
  const texts = systemdTexts(version);
  const outcomes: SystemdOutcome[] = [];

  // A unit that did not load is refused when the start job is enqueued (src/core/dbus-unit.c
  // bus_unit_validate_load_state, v239 and v252): nothing after this runs.
  switch (service.load.state) {
    case 'loaded':
      break;
    case 'masked':
      return [{
        findingId: SYSTEMD_FINDING.masked,
        kubeletError: `Unit ${unit} is masked.`,
        message: `${unit} is masked (${service.fragmentPath ?? 'its unit file'} is empty or a link to /dev/null): systemd refuses to start it ("Failed to start ${unit}: Unit ${unit} is masked."), and nothing starts it at boot.`,
        remediation: `systemctl unmask ${unit} (or restore its unit file), then systemctl daemon-reload and systemctl start ${unit}.`,
        ...(service.fragmentPath ? { path: service.fragmentPath } : {}),
      }];
    case 'refused':
      return [refusedUnitFailure(service, service.load.refusal, version)];
  }

  const envOutcome = environmentFileOutcome(service, texts.taskVerb, texts.verified);
  if (envOutcome) outcomes.push(envOutcome);

  const exec = service.execStart;
  if (exec?.path !== undefined) {
    const args = argumentListVerdict(exec, service.environment, input.nodeMachine);
    const execOutcome = executableOutcome(input, exec.path, exec.prefixes, texts.locatesExecutable, texts.verified, args);
    if (execOutcome) outcomes.push(execOutcome);
    else if (input.kubeletPath !== undefined && input.kubeletPath !== exec.path) {
      const wrapped = wrappedKubeletOutcome(input, exec.path, input.kubeletPath);
      if (wrapped) outcomes.push(wrapped);
    }
  }
  return outcomes;
}

/**
 * exec_context_load_environment (execute.c, v239..newest): each EnvironmentFile= in order; a "-"
 * entry never fails; the first failing one makes exec_spawn return "Failed to load environment
 * files: %m", the service logs "Failed to <run|spawn> 'start-pre' task: %m" (or 'start' without
 * ExecStartPre=) and ends in result 'resources'; Restart= still applies.
 */
function environmentFileOutcome(service: ServiceModel, verb: 'run' | 'spawn', verified: boolean): PreconditionOutcome | undefined {
  const required = service.environmentFiles.filter((ref) => !ref.optional && !ref.loaded);
  const first = required[0];
  if (!first) return undefined;
  const unit = service.unitName;
  const task = (service.execStartPreCount ?? 0) > 0 ? 'start-pre' : 'start';
  const errorText = first.errno !== undefined ? strerror(first.errno) : undefined;
  if (errorText === undefined) {
    const later = required.slice(1).find((ref) => ref.errno !== undefined && strerror(ref.errno) !== undefined);
    if (!later) {
      return {
        undecidable: `${unit}: EnvironmentFile=${first.path} (${where(first)}) could not be read by node-check or was rejected for its content; whether systemd can load it is unknown`,
        findingId: SYSTEMD_FINDING.envFileUnreadable,
        path: first.path,
      };
    }
    // A later required file certainly fails, so the unit fails; which errno systemd prints depends on the first.
    return envFailure(unit, later, strerror(later.errno!)!, task, verb, true, `${first.path} (which node-check could not read) comes first, so systemd may print another error`);
  }
  return envFailure(unit, first, errorText, task, verb, !verified);
}

function envFailure(unit: string, ref: EnvironmentFileRef, errorText: string, task: string, verb: string, inexact: boolean, note?: string): PreconditionFailure {
  const missing = ref.errno === 'ENOENT';
  const lines = [
    `${unit}: Failed to load environment files: ${errorText}`,
    `${unit}: Failed to ${verb} '${task}' task: ${errorText}`,
    `${unit}: Failed with result 'resources'.`,
  ];
  return {
    findingId: missing ? SYSTEMD_FINDING.envFileMissing : SYSTEMD_FINDING.envFileUnreadable,
    kubeletError: lines[0]!,
    message:
      `systemd will not start ${unit}: the required EnvironmentFile=${ref.path} (${where(ref)}) ${missing ? 'does not exist' : `cannot be read (${errorText})`}. ` +
      `systemd loads environment files before it spawns any command, so kubelet and its ExecStartPre= commands never run; the journal does not name the file. ` +
      `systemd retries every RestartSec= (result 'resources').${note ? ` ${note}.` : ''}`,
    remediation: missing
      ? `Restore ${ref.path}, or mark it optional with a "-" (EnvironmentFile=-${ref.path}) in a drop-in if kubelet can start without it; then systemctl daemon-reload.`
      : `Make ${ref.path} readable by systemd (ownership, SELinux label: restorecon -v ${ref.path}).`,
    path: ref.path,
    ...(inexact ? { inexact: true } : {}),
    systemdResult: 'resources',
    systemdLines: lines,
  };
}

/**
 * The child's exec (execute.c exec_child / executor): v250+ first resolves the path
 * (find_executable_full: missing → ENOENT, no x bit or noexec mount → EACCES, directory → EISDIR)
 * and logs "Failed to locate executable %s: %m"; every version then logs "Failed at step EXEC
 * spawning %s: %m" and exits 203; PID 1 logs "Main process exited, code=exited, status=203/EXEC"
 * and "Failed with result 'exit-code'". A failing execve() after a successful lookup (missing ELF
 * loader or script interpreter, wrong architecture) gives only the "Failed at step" line.
 */
function executableOutcome(input: SystemdPreconditionInput, path: string, prefixes: string, locates: boolean, verified: boolean, args: ArgumentListVerdict): SystemdOutcome | undefined {
  const unit = input.service.unitName;
  // Whether the binary is found or not, an argument list execve refuses means 203/EXEC (only the
  // text is open), and one execve may refuse leaves the answer open.
  const unknownBinary = (why: SystemdOutcome): SystemdOutcome => {
    if ('tooLong' in args) return argumentListFailure(input, path, args.tooLong, true);
    if ('undecidable' in args) return argumentListUndecidable(input, path, args.undecidable);
    return why;
  };
  if (!path.startsWith('/')) return unknownBinary({ undecidable: `ExecStart= of ${unit} runs "${path}", which is not an absolute path; node-check does not search systemd's executable path`, path });
  const fact = fileFact(input, path);
  if (!fact) return unknownBinary({ notChecked: `node-check has no facts about ${path} (ExecStart= of ${unit}): the root does not carry it`, path });
  if (prefixes.includes('-') && !fact.exists) {
    return { undecidable: `ExecStart=-${path}: systemd treats a missing executable with the "-" prefix as "skipping"; what the unit does then is not modelled`, path };
  }

  let lookupErrno: string | undefined;
  let execErrno: string | undefined;
  if (!fact.exists) {
    if (fact.code === 'ENOENT' || fact.code === 'ENOTDIR' || fact.code === 'ELOOP') lookupErrno = fact.code;
    else return { undecidable: `node-check could not inspect ${path}: ${fact.code}`, path };
  } else if (fact.type === 'directory') {
    lookupErrno = locates ? 'EISDIR' : 'EACCES';
  } else if (fact.type !== 'file') {
    lookupErrno = 'EACCES';
  } else if ((fact.mode & 0o111) === 0 || fact.noexecMount === true) {
    lookupErrno = 'EACCES';
  } else if ('tooLong' in args) {
    // The kernel opens the binary, then copies the strings (E2BIG), and only then loads it
    // (ENOEXEC, a missing interpreter): fs/exec.c do_execveat_common, 4.18 and 6.x alike.
    return argumentListFailure(input, path, args.tooLong, !verified);
  } else if ('undecidable' in args) {
    return argumentListUndecidable(input, path, args.undecidable);
  } else {
    execErrno = execveErrno(input, fact);
    if (execErrno === undefined) return undefined;
  }

  const errno = lookupErrno ?? execErrno!;
  const errorText = strerror(errno)!;
  const lines: string[] = [];
  if (lookupErrno !== undefined && locates) lines.push(`${unit}: Failed to locate executable ${path}: ${errorText}`);
  lines.push(`${unit}: Failed at step EXEC spawning ${path}: ${errorText}`);
  lines.push(`${unit}: Main process exited, code=exited, status=203/EXEC`);
  lines.push(`${unit}: Failed with result 'exit-code'.`);
  const missing = errno === 'ENOENT' && lookupErrno !== undefined;
  const why = describeExecProblem(fact, errno, lookupErrno !== undefined);
  return {
    findingId: missing ? SYSTEMD_FINDING.execMissing : SYSTEMD_FINDING.execNotExecutable,
    kubeletError: lines[0]!,
    message: `systemd cannot execute ExecStart= of ${unit}: ${path} ${why}. The unit fails with status=203/EXEC before kubelet runs, and systemd retries every RestartSec=.`,
    remediation: missing
      ? `Install the package that ships ${path} (or correct ExecStart=), then systemctl restart ${unit}.`
      : `Make ${path} an executable file for this machine (chmod +x, a mount without noexec, the right architecture, its interpreter installed).`,
    path,
    exitStatus: 203,
    ...(!verified || (fact.exists && fact.type === 'directory' && locates) ? { inexact: true } : {}),
    systemdResult: 'exit-code',
    systemdLines: lines,
  };
}

/**
 * execve(2) refuses the argument list with E2BIG: the child logs "Failed at step EXEC spawning
 * <path>: Argument list too long" and exits 203 (the lookup before it succeeded, so v250+ logs no
 * "Failed to locate" line). Not kubelet's version: kubelet never runs.
 */
function argumentListFailure(input: SystemdPreconditionInput, path: string, why: string, inexact: boolean): PreconditionFailure {
  const unit = input.service.unitName;
  const source = input.service.execStart?.source;
  const errorText = strerror('E2BIG')!;
  const lines = [
    `${unit}: Failed at step EXEC spawning ${path}: ${errorText}`,
    `${unit}: Main process exited, code=exited, status=203/EXEC`,
    `${unit}: Failed with result 'exit-code'.`,
  ];
  return {
    findingId: SYSTEMD_FINDING.argumentListTooLong,
    kubeletError: lines[0]!,
    message: `systemd cannot execute ExecStart= of ${unit}: ${why}. execve(2) fails with E2BIG, the unit fails with status=203/EXEC before kubelet runs, and systemd retries every RestartSec=.`,
    remediation: `Shorten what ExecStart= expands to${source ? ` (${source.file}:${source.line})` : ''}: look for a variable from Environment= or an EnvironmentFile= that is huge or expanded many times, then systemctl daemon-reload.`,
    ...(source ? { path: source.file } : { path }),
    exitStatus: 203,
    ...(inexact ? { inexact: true } : {}),
    systemdResult: 'exit-code',
    systemdLines: lines,
  };
}

/** execve(2) may refuse the argument list (E2BIG) or not: cannot tell, naming the ExecStart= line. */
function argumentListUndecidable(input: SystemdPreconditionInput, path: string, why: string): PreconditionOutcome {
  const source = input.service.execStart?.source;
  return { undecidable: `${why}${source ? ` (ExecStart= at ${source.file}:${source.line})` : ''}`, findingId: SYSTEMD_FINDING.argumentListTooLong, path: source?.file ?? path };
}

/**
 * A unit systemd loaded and refused. PID 1 logs why when it loads the unit (service_verify as
 * "<unit>: …", a parse error as "<file>:<line>: …"); every start job then fails with the load
 * state's error (src/core/dbus-unit.c bus_unit_validate_load_state; the 'error' text changed in
 * v240 and v248). kubelet never runs; systemd does not retry.
 */
function refusedUnitFailure(service: ServiceModel, refusal: UnitRefusal, version: number | undefined): PreconditionFailure {
  const unit = service.unitName;
  const where = refusal.source ? `${refusal.source.file}:${refusal.source.line}` : (service.fragmentPath ?? unit);
  const first = refusal.by === 'config_parse' ? `${where}: ${refusal.reason}` : `${unit}: ${refusal.reason}`;
  const errorText = refusal.errno !== undefined ? (strerror(refusal.errno) ?? refusal.errno) : undefined;
  const startError =
    refusal.loadState === 'bad-setting'
      ? `Unit ${unit} has a bad unit file setting.`
      : version !== undefined && version <= 239
        ? `Unit ${unit} failed to loaded properly: ${errorText}.`
        : version !== undefined && version < 248
          ? `Unit ${unit} failed to load properly: ${errorText}.`
          : `Unit ${unit} failed to load properly, please adjust/correct and reload service manager: ${errorText}`;
  const lines = [first, `Failed to start ${unit}: ${startError}`];
  return {
    findingId: SYSTEMD_FINDING.refused,
    kubeletError: first,
    message: `systemd refuses to load ${unit} (${where}): ${refusal.reason} Every start of the unit fails with "${startError}", so kubelet never runs.`,
    remediation: `Correct ${where}${refusal.reason.includes('more than one ExecStart=') ? ' (a drop-in that replaces the command must reset it first with an empty "ExecStart=" line)' : ''}, then systemctl daemon-reload and systemctl start ${unit}; \`systemd-analyze verify ${unit}\` shows what systemd refuses.`,
    path: refusal.source?.file ?? service.fragmentPath ?? unit,
    ...(version === undefined || (version !== 239 && version !== 252) ? { inexact: true } : {}),
    systemdResult: refusal.loadState,
    systemdLines: lines,
  };
}

/** What execve() of an existing, executable file would fail with, when the facts say. */
function execveErrno(input: SystemdPreconditionInput, fact: Extract<PathFact, { exists: true }>): string | undefined {
  if (fact.elf && input.nodeMachine && fact.elf.machine !== input.nodeMachine) return 'ENOEXEC';
  const interpreter = fact.elf?.interpreter ?? fact.shebang;
  if (interpreter !== undefined) {
    const interp = fileFact(input, interpreter);
    if (interp && !interp.exists && interp.code === 'ENOENT') return 'ENOENT';
  }
  return undefined;
}

function describeExecProblem(fact: PathFact, errno: string, atLookup: boolean): string {
  if (!fact.exists) return errno === 'ENOENT' ? 'does not exist' : `cannot be reached (${strerror(errno)})`;
  if (fact.type === 'directory') return 'is a directory';
  if (fact.type !== 'file') return 'is not a regular file';
  if (atLookup && fact.noexecMount) return 'is on a noexec mount';
  if (atLookup) return `has no execute permission (mode ${(fact.mode & 0o7777).toString(8).padStart(4, '0')})`;
  if (errno === 'ENOEXEC') return `is built for ${fact.elf?.machine}, not this machine`;
  return `needs ${fact.elf?.interpreter ?? fact.shebang}, which does not exist`;
}

/**
 * ExecStart= runs a wrapper (OpenShift: /usr/local/bin/kubenswrapper /usr/bin/kubelet ...) and the
 * wrapper exists, but kubelet's binary does not. systemd starts the wrapper fine; what fails, with
 * which text and exit status, is the wrapper's business (a shell's `exec` error and 127, nsenter's
 * "failed to execute ..."), so node-check does not claim a text: cannot tell.
 */
function wrappedKubeletOutcome(input: SystemdPreconditionInput, wrapper: string, kubeletPath: string): PreconditionOutcome | undefined {
  const fact = fileFact(input, kubeletPath);
  if (!fact || fact.exists) return undefined;
  return {
    undecidable: `${kubeletPath} ${fact.code === 'ENOENT' ? 'does not exist' : `cannot be reached (${fact.code})`}, but ExecStart= runs it through ${wrapper}; the failure is the wrapper's own (not systemd's 203/EXEC) and its text is not modelled`,
    findingId: SYSTEMD_FINDING.wrappedKubeletMissing,
    path: kubeletPath,
  };
}

function fileFact(input: SystemdPreconditionInput, path: string): PathFact | undefined {
  return input.notCarried?.includes(path) ? undefined : input.files[path];
}

function where(ref: EnvironmentFileRef): string {
  return `${ref.source.file}:${ref.source.line}`;
}
