/**
 * Bounds on what node-check reads from a node, so that a hostile or broken node cannot hold
 * kubelet's start past preflight's budget (test/hostile/budget.test.ts). Past a bound node-check answers
 * "cannot tell" and names the file; kubelet itself has no such limits, but real files are far
 * smaller (a credential provider config is a few kilobytes).
 */

/**
 * A credential provider config file (each file of a 1.34+ config directory). Evaluating one costs
 * about 2 s per MiB (YAML parsed for every modelled kubelet version), so this keeps the worst
 * case near half a second.
 */
export const MAX_CONFIG_BYTES = 256 * 1024;

/**
 * Entries in the providers lists of the credential provider config (all files together). Each is
 * evaluated for every modelled kubelet version and the fallback plans over them: 20,000 short
 * entries fit in MAX_CONFIG_BYTES and took several seconds. Real configs have one to five; the
 * budget (README "Cost on kubelet's start path") asks that 1,000 cost at most twice one, so the bound sits above that.
 */
export const MAX_PROVIDER_ENTRIES = 2000;

/**
 * Kubelet's expanded command line (pinned by test/hostile/argv-amplification.test.ts), at the limits of Linux's execve(2), which
 * refuses with E2BIG ("Argument list too long"); systemd then fails the unit at step EXEC (status
 * 203), so kubelet never runs (src/systemd-preconditions/argument-list.ts decides that).
 * - One argument or environment string (with its NUL) longer than MAX_ARG_STRLEN, 32 pages
 *   (include/uapi/linux/binfmts.h; fs/exec.c valid_arg_len): 131072 bytes with 4 KiB pages
 *   (always on x86_64 and s390x), up to 2 MiB with the 64 KiB pages of some aarch64 and ppc64le
 *   kernels.
 * - All strings and their pointers beyond min(6 MiB, a quarter of the stack rlimit), never below
 *   ARG_MAX (fs/exec.c prepare_arg_pages: `_STK_LIM / 4 * 3`, `rlim_stack.rlim_cur / 4`,
 *   `max(limit, ARG_MAX)`; Linux 4.18+, which covers RHEL 8). Beyond 6 MiB no rlimit helps; below
 *   ARG_MAX every rlimit allows it; in between it depends on LimitSTACK=.
 * Expansion stops past the certain bounds (MAX_ARG_STRLEN_ANY_PAGE per string, MAX_ARGV_BYTES in
 * all) instead of building gigabytes of argv: 3 MB values repeated 3,000 times ran the heap out.
 */
export const MAX_ARG_STRLEN = 32 * 4096;
/** MAX_ARG_STRLEN with the largest page size Linux uses on 64-bit servers (64 KiB). */
export const MAX_ARG_STRLEN_ANY_PAGE = 32 * 64 * 1024;
/** include/uapi/linux/limits.h: the least total every stack rlimit allows. */
export const ARG_MAX = 128 * 1024;
export const MAX_ARGV_BYTES = 6 * 1024 * 1024;

/**
 * Drop-ins of the kubelet unit node-check reads (all drop-in directories together). systemd has
 * no such limit; a real node has a handful (OpenShift about ten). Reading and parsing 100,000 took
 * preflight past its budget; past this bound the answer is "cannot tell", naming it.
 */
export const MAX_DROP_INS = 1000;
