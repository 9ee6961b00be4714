/**
 * The environment a unit's command sees, as far as the unit decides it (src/core/execute.c,
 * exec_child, v239/v252): Environment= first, then every EnvironmentFile= in order, each
 * overriding what came before, then UnsetEnvironment= removes entries ("NAME" removes the name,
 * "NAME=value" only that exact assignment). Variables systemd adds itself (PATH, NOTIFY_SOCKET,
 * INVOCATION_ID, the manager's DefaultEnvironment=, PassEnvironment=) are not modelled.
 */

export function effectiveEnvironment(
  environment: ReadonlyMap<string, string>,
  files: readonly Readonly<Record<string, string>>[],
  unset: readonly string[],
): Map<string, string> {
  const env = new Map(environment);
  for (const variables of files) for (const [name, value] of Object.entries(variables)) env.set(name, value);
  for (const entry of unset) {
    const eq = entry.indexOf('=');
    if (eq < 0) env.delete(entry);
    else if (env.get(entry.slice(0, eq)) === entry.slice(eq + 1)) env.delete(entry.slice(0, eq));
  }
  return env;
}
