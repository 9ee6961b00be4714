/**
 * Which environment names systemd accepts (src/basic/env-util.c `env_name_is_valid`: bash's rule,
 * letters, digits and "_", not starting with a digit). A name outside it is dropped with a log line.
 */

export function isValidEnvName(name: string): boolean {
  return /^[A-Za-z_][A-Za-z0-9_]*$/.test(name);
}

/** Splits "NAME=value"; undefined when it is not an assignment systemd accepts. */
export function splitEnvAssignment(assignment: string): { readonly name: string; readonly value: string } | undefined {
  const eq = assignment.indexOf('=');
  if (eq < 0) return undefined;
  const name = assignment.slice(0, eq);
  return isValidEnvName(name) ? { name, value: assignment.slice(eq + 1) } : undefined;
}
