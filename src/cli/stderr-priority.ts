/**
 * node-check's stderr lines are written with a syslog priority prefix (`<3>node-check: ...`):
 * when stderr is a journal stream (kubelet's ExecStartPre, node-check.service), systemd files
 * each line at that priority and removes the prefix. Anywhere else (a terminal, a file, a pipe to
 * podman) the prefix would be noise, so it is removed here, from the start of every line.
 * Whether stderr is the journal is discovered once, in main.ts (discover/own-process.ts).
 */
const PRIORITY_PREFIX = /^<[0-7]>/gm;

export function forStderr(text: string, stderrIsJournal: boolean): string {
  return stderrIsJournal ? text : text.replace(PRIORITY_PREFIX, '');
}
