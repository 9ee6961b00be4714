/**
 * The kubelet service as systemd would run it, read from unit files (plain data; produced by
 * src/systemd/, consumed by discovery, checks and the fallback planner).
 */

/** Where a setting came from, for messages ("/etc/systemd/system/kubelet.service:12"). */
export interface SourceLocation {
  /** Node path of the unit file or drop-in. */
  readonly file: string;
  /** 1-based line of the assignment (the first line of a continued line). */
  readonly line: number;
}

export interface UnitDiagnostic extends Partial<SourceLocation> {
  /**
   * `fatal`: the unit cannot be understood at all (unreadable, binary, not found) so nothing can be
   * predicted; `warning`: systemd would ignore or reject a line, or would refuse to start the unit
   * for a reason that has nothing to do with credential providers.
   */
  readonly severity: 'fatal' | 'warning';
  readonly message: string;
}

/**
 * What systemd's unit loading ends in (its LoadState=, src/core/unit.c unit_load): only a loaded
 * unit can be started. Every consumer switches on `state`, so a refusal cannot be dropped on the way.
 */
export type UnitLoadState =
  | { readonly state: 'loaded' }
  /** The unit file is a mask (null_or_empty, src/basic/stat-util.c): every start job is refused. */
  | { readonly state: 'masked' }
  /** systemd loaded the files and refused the unit: every start job fails, kubelet never runs. */
  | { readonly state: 'refused'; readonly refusal: UnitRefusal };

export interface UnitRefusal {
  /**
   * systemd's LoadState= after the refusal: 'bad-setting' when the parser or service_verify()
   * returned -ENOEXEC, 'error' for any other error of config_parse (its errno in `errno`).
   */
  readonly loadState: 'bad-setting' | 'error';
  /** Who refused: the parser (config_parse, logged as "<file>:<line>: …"), service_verify() or the load itself ("<unit>: …"). */
  readonly by: 'config_parse' | 'service_verify' | 'unit_load';
  /** The errno of a load 'error' ("EBADMSG" for a bad section header, "EINVAL" for a line without "=" on v239). */
  readonly errno?: string;
  /** What PID 1 logs when it loads the unit (without the "<unit>: " or "<file>:<line>: " prefix). */
  readonly reason: string;
  /** Where systemd stopped, when one line decides. */
  readonly source?: SourceLocation;
}

/** One `ExecStart=` command line, as written and as systemd would execute it. */
export interface ExecCommand {
  /** The value after `ExecStart=`, continuation lines joined, exactly as systemd read it. */
  readonly raw: string;
  readonly source: SourceLocation;
  /** Special-executable prefixes in front of the path: any of "-", "@", ":", "+", "!", "!!", "|". */
  readonly prefixes: string;
  /** The executable systemd runs; differs from argv[0] with the "@" prefix. */
  readonly path?: string;
  /** The command's words after unquoting and unescaping, before $VAR/${VAR} expansion. */
  readonly words: readonly string[];
  /** The argv systemd would pass: environment expanded (unless ":"), "$VAR" split into words. */
  readonly argv: readonly string[];
  /** For each word of argv, the variables its text came from; absent when no word used one. */
  readonly argvVariables?: readonly (readonly string[])[];
  /** Variables the command references that are not set by the unit (expanded to nothing). */
  readonly unsetVariables?: readonly string[];
  /**
   * Set when the expansion passed what execve(2) accepts on any Linux (src/limits/bounds.ts); it
   * stopped there, so `argv` is incomplete. Says how far it got.
   */
  readonly argvTooLarge?: string;
}

export interface EnvironmentFileRef {
  readonly path: string;
  readonly optional: boolean;
  /** False when the file was missing or unreadable. */
  readonly loaded: boolean;
  readonly source: SourceLocation;
  /**
   * When not loaded: the errno systemd's read would fail with ("ENOENT" for a missing file or a
   * glob that matches nothing). Absent when the content was rejected or node-check could not look.
   */
  readonly errno?: string;
}

export interface ServiceModel {
  readonly unitName: string;
  /** Node path of the unit file used (after following a symlink, the name systemd loaded). */
  readonly fragmentPath?: string;
  /** Drop-in files in the order systemd applies them (sorted by file name, masked ones removed). */
  readonly dropInPaths: readonly string[];
  /** Whether systemd loads the unit at all: masked and refused units never start. */
  readonly load: UnitLoadState;
  /** Number of ExecStartPre= commands after resets (decides systemd's 'start-pre' vs 'start' log line). */
  readonly execStartPreCount?: number;
  /** Directories ExecStartPre= `mkdir --parents` creates before kubelet runs (src/systemd/service-settings.ts). */
  readonly preStartDirectories?: readonly string[];
  /** The effective ExecStart= (the last one after any reset); undefined when none. */
  readonly execStart?: ExecCommand;
  /** The environment systemd gives ExecStart: Environment=, then EnvironmentFile= overriding it. */
  readonly environment: Readonly<Record<string, string>>;
  readonly environmentFiles: readonly EnvironmentFileRef[];
  /** Where each variable of `environment` came from: "file:line" of its Environment=, or the environment file. */
  readonly environmentOrigins?: Readonly<Record<string, string>>;
  readonly diagnostics: readonly UnitDiagnostic[];
  /** The systemd version whose unit-file rules were applied (from libsystemd-shared-NNN.so), if known. */
  readonly systemdVersion?: number;
}
