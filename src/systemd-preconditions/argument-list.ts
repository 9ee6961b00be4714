/**
 * Whether execve(2) accepts the command line and environment systemd hands to ExecStart= (pinned by
 * test/hostile/argv-amplification.test.ts). When it does not, execve fails with E2BIG and systemd fails the unit at step EXEC
 * (status 203) whatever kubelet's version: kubelet never runs. Pure; the limits and their sources
 * are in src/limits/bounds.ts.
 *
 * Only the certain part is decided: a string longer than 32 pages of the largest page size the
 * node may have, or more than 6 MiB in all, is refused by every Linux; a string within 32 pages of
 * 4 KiB and a total within ARG_MAX are accepted by every Linux. In between the answer depends on
 * the node's page size (aarch64, ppc64le) or on the stack limit systemd gives kubelet
 * (LimitSTACK=), which node-check does not read: "cannot tell".
 */
import type { ExecCommand } from '../model/service.js';
import { ARG_MAX, MAX_ARG_STRLEN, MAX_ARG_STRLEN_ANY_PAGE, MAX_ARGV_BYTES } from '../limits/bounds.js';

export type ArgumentListVerdict = { readonly fits: true } | { readonly tooLong: string } | { readonly undecidable: string };

/** Page sizes a kernel for this ELF machine may use; 4 KiB only where the architecture has no other. */
const LARGEST_PAGE: Readonly<Record<string, number>> = { x86_64: 4096, s390x: 4096, aarch64: 65536, ppc64le: 65536 };
const POINTER_BYTES = 8;
/**
 * What systemd adds to the environment itself (PATH, INVOCATION_ID, JOURNAL_STREAM, NOTIFY_SOCKET,
 * SYSTEMD_EXEC_PID, LANG, ...) is not in the model; this leaves room for it before a total is
 * called certainly within ARG_MAX.
 */
const SYSTEMD_OWN_ENVIRONMENT_BYTES = 4096;

export function argumentListVerdict(exec: ExecCommand, environment: Readonly<Record<string, string>>, nodeMachine?: string): ArgumentListVerdict {
  if (exec.argvTooLarge) return { tooLong: `ExecStart= expands to ${exec.argvTooLarge}` };
  const largestPage = (nodeMachine && LARGEST_PAGE[nodeMachine]) || 65536;
  const perString = Math.min(32 * largestPage, MAX_ARG_STRLEN_ANY_PAGE);

  const strings = [
    ...exec.argv.map((arg, i) => ({ what: `argument ${i} of ExecStart= (${preview(arg)})`, bytes: Buffer.byteLength(arg) + 1 })),
    ...Object.entries(environment).map(([name, value]) => ({ what: `the environment variable ${name}`, bytes: Buffer.byteLength(name) + Buffer.byteLength(value) + 2 })),
  ];
  const longest = strings.reduce<(typeof strings)[number] | undefined>((a, b) => (a && a.bytes >= b.bytes ? a : b), undefined);
  const total = Buffer.byteLength(exec.path ?? '') + 1 + strings.reduce((sum, s) => sum + s.bytes + POINTER_BYTES, 0);

  if (longest && longest.bytes > perString) return { tooLong: `${longest.what} is ${longest.bytes} bytes with its NUL; Linux refuses a string over ${perString} bytes (32 pages of ${largestPage / 1024} KiB)` };
  if (total > MAX_ARGV_BYTES) return { tooLong: `the arguments and environment take ${total} bytes; Linux refuses more than ${MAX_ARGV_BYTES} whatever the stack limit` };
  if (longest && longest.bytes > MAX_ARG_STRLEN) {
    return { undecidable: `${longest.what} is ${longest.bytes} bytes: execve(2) refuses it on a kernel with 4 KiB pages (over ${MAX_ARG_STRLEN}) and accepts it with larger pages, and this node's page size is not known (${nodeMachine ?? 'machine unknown'})` };
  }
  if (total + SYSTEMD_OWN_ENVIRONMENT_BYTES > ARG_MAX) {
    return { undecidable: `the arguments and environment of ExecStart= take ${total} bytes: execve(2) accepts at most a quarter of the stack limit (LimitSTACK=, at least ${ARG_MAX} and at most ${MAX_ARGV_BYTES} bytes), which node-check does not read` };
  }
  return { fits: true };
}

function preview(arg: string): string {
  return JSON.stringify(arg.length > 40 ? `${arg.slice(0, 40)}…` : arg);
}
