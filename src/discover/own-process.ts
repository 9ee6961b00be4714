/**
 * What node-check needs to know about its own process and boot, read from the live kernel (never
 * from --root): the boot, the systemd unit it runs in, and whether its stderr is the journal.
 * Each reader has a pure twin that takes the text or numbers, so the decisions are tested
 * without a kernel.
 */
import { fstatSync, readFileSync } from 'node:fs';

/** This boot's id ('' when /proc cannot tell): the journal's per-boot counts start over with it. */
export function readBootId(): string {
  try {
    return parseBootId(readFileSync('/proc/sys/kernel/random/boot_id', 'utf8'));
  } catch {
    return '';
  }
}

export function parseBootId(text: string): string {
  const id = text.trim().toLowerCase();
  return /^[0-9a-f-]{32,36}$/.test(id) ? id : '';
}

/** The systemd service node-check runs in ('' when none, or unreadable). */
export function ownSystemdUnit(): string {
  try {
    return systemdUnitOfCgroup(readFileSync('/proc/self/cgroup', 'utf8'));
  } catch {
    return '';
  }
}

/**
 * The service of a /proc/PID/cgroup text: the last `*.service` component of the systemd
 * hierarchy (`name=systemd` under cgroup v1 or hybrid, else the unified `0::` line). The last,
 * because a container manager nests the node's paths below its own; `.scope`s are skipped, since
 * their names change with every container or session.
 */
export function systemdUnitOfCgroup(text: string): string {
  const lines = text.split('\n');
  const path = (lines.find((line) => /^\d+:name=systemd:/.test(line)) ?? lines.find((line) => line.startsWith('0::')))?.replace(/^\d+:[^:]*:/, '');
  const services = (path ?? '').split('/').filter((part) => /^[\w@.:\\-]+\.service$/.test(part));
  return services.at(-1) ?? '';
}

/**
 * Whether stderr (fd 2) or stdout (fd 1) is a journal stream: systemd sets $JOURNAL_STREAM to
 * "DEV:INODE" of the stream it connected, and a process may only trust it when the descriptor is
 * that very file (systemd.exec(5)): the variable is inherited by children whose output goes elsewhere.
 */
export function outputIsJournal(env: Readonly<Record<string, string | undefined>>, fd: 1 | 2): boolean {
  let stat: { dev: bigint; ino: bigint } | undefined;
  try {
    stat = fstatSync(fd, { bigint: true });
  } catch {
    stat = undefined;
  }
  return isJournalStream(env['JOURNAL_STREAM'], stat);
}

export function isJournalStream(journalStream: string | undefined, stderr: { readonly dev: bigint; readonly ino: bigint } | undefined): boolean {
  const match = /^(\d+):(\d+)$/.exec(journalStream ?? '');
  if (!match || stderr === undefined) return false;
  return BigInt(match[1]!) === stderr.dev && BigInt(match[2]!) === stderr.ino;
}
