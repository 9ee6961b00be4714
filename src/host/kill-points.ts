/**
 * Test-only crash points at each write step (test/hostile/kill-at-each-write.test.ts). With
 * NODE_CHECK_TEST_KILL_AT=<name> the process SIGKILLs itself when it reaches that step, as a power
 * cut or the OOM killer would; with NODE_CHECK_TEST_KILL_AT=list it names each step on stderr as
 * it passes, so a test can find them all. Unset (always, in production) it does nothing but
 * compare one string. test/hostile/kill-at-each-write.test.ts drives it.
 */
const killAt = process.env['NODE_CHECK_TEST_KILL_AT'];

export function killPoint(name: string): void {
  if (killAt === undefined) return;
  if (killAt === 'list') process.stderr.write(`node-check-kill-point: ${name}\n`);
  else if (killAt === name) process.kill(process.pid, 'SIGKILL');
}
