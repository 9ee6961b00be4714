/**
 * A child that runs a copy of the bundle directly (not through the launcher), without tap's
 * coverage. Node keeps the source map of such a script for V8's coverage output, and tap would
 * then map the bundle's coverage back onto src/ and node_modules/, counting every function the
 * child did not run as uncovered in the unit tests' totals. tap's process hook puts its variables
 * back into any environment given to spawn, so they are removed by `env -u` in the child.
 */
export function withoutCoverage(command: string, args: readonly string[]): [string, string[]] {
  return ['env', ['-u', 'NODE_OPTIONS', '-u', 'NODE_V8_COVERAGE', command, ...args]];
}
