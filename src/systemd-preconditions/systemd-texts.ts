/**
 * The journal lines systemd (PID 1) logs when it cannot start a service, per systemd version.
 * Data only; the rules are in check-systemd.ts.
 */

export const PROVENANCE = {
  sources: [
    {
      what: 'v252 strings, verified',
      how: 'strings(1) on Debian 12 libsystemd-core-252.so (systemd 252.38-1~deb12u1): "Failed to load environment files: %m", "Failed to run \'start-pre\' task: %m", "Failed to run \'start\' task: %m", "MESSAGE=%s: Failed to locate executable %s: %m", "MESSAGE=%s: Failed at step %s spawning %s: %m", "%s exited, code=%s, status=%i/%s%s", "Failed with result \'%s\'.", "Unit %s is masked."; there is no "Failed to spawn \'...\' task" in 252. Also observed end to end in test/integration/precheck-e2e.test.ts (nspawn, Debian 12).',
    },
    {
      what: 'v239-era src/core (RHEL 8), read in untagged copies of the source',
      how: 'systemd/systemd src/core/execute.c exec_spawn ("Failed to load environment files: %m" before fork; child logs "Failed at step %s spawning %s: %m") and src/core/service.c service_enter_start_pre ("Failed to run \'start-pre\' task: %m", service_enter_dead(SERVICE_FAILURE_RESOURCES)), in copies not pinned to a tag: they pass EXEC_APPLY_TTY_STDIN but not EXEC_SETENV_MONITOR_RESULT, i.e. v239..v252 (docs/unverified.md).',
    },
    {
      what: 'newer src/core (PidRef era, v255+), inferred version',
      how: 'systemd/systemd src/core/service.c in untagged copies that use PidRef and EXEC_WRITE_CREDENTIALS: "Failed to spawn \'start-pre\' task: %m" / "Failed to spawn \'start\' task: %m", result still resources; src/core/execute.c with the sd-executor still logs "Failed to load environment files: %m" in PID 1; executor.c still logs "Failed at step %s spawning %s: %m". PidRef arrived in v255 [I]. Every copy read that says "spawn" (service.c, socket.c) uses PidRef; none without it, so 253/254 are taken as "run" (unverified, docs/unverified.md).',
    },
    {
      what: 'ExecSearchPath=/find_executable in the child, from v250 [I]',
      how: '"Failed to locate executable %s: %m" is in 252 (verified) and absent from the v239-era exec_child (ends with execve + "Failed at step EXEC spawning"). Attributed to v250 (ExecSearchPath= came with it) from memory, not pinned.',
    },
  ],
} as const;

export interface SystemdTexts {
  /** "run" (<= 252) or "spawn" (PidRef era) in "Failed to <verb> 'start-pre' task: ...". */
  readonly taskVerb: 'run' | 'spawn';
  /** Whether the child resolves the executable first and logs "Failed to locate executable ...". */
  readonly locatesExecutable: boolean;
  /** True when both choices above are pinned for this version. */
  readonly verified: boolean;
}

/** Texts for a systemd version; an unknown version gets the 252 texts, unverified. */
export function systemdTexts(version: number | undefined): SystemdTexts {
  if (version === undefined) return { taskVerb: 'run', locatesExecutable: true, verified: false };
  if (version <= 239) return { taskVerb: 'run', locatesExecutable: false, verified: version === 239 };
  if (version < 250) return { taskVerb: 'run', locatesExecutable: false, verified: false };
  if (version <= 252) return { taskVerb: 'run', locatesExecutable: true, verified: version === 252 };
  // Every stored service.c/socket.c saying "spawn" also uses PidRef (v255+), none without it.
  if (version < 255) return { taskVerb: 'run', locatesExecutable: true, verified: false };
  return { taskVerb: 'spawn', locatesExecutable: true, verified: false };
}
