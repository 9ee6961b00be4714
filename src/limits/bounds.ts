/**
 * Bounds on what node-check reads from a node, so that a hostile or broken node cannot hold
 * kubelet's start past preflight's budget (issue 10, item 3). Past a bound node-check answers
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
 * budget (issue 12) asks that 1,000 cost at most twice one, so the bound sits above that.
 */
export const MAX_PROVIDER_ENTRIES = 2000;

/**
 * Kubelet's expanded command line (issue 10, item 11). Linux's execve(2) refuses, with E2BIG
 * ("Argument list too long"), any argument string longer than MAX_ARG_STRLEN (32 pages: 131072
 * bytes with its NUL), and argument and environment strings together beyond a quarter of the
 * stack limit, never more than 6 MiB whatever the limit (fs/exec.c: _STK_LIM / 4 * 3). systemd
 * then fails the unit at step EXEC (status 203). Past either bound kubelet can never run, so
 * node-check stops expanding there instead of building gigabytes of argv.
 */
export const MAX_ARG_STRLEN = 128 * 1024;
export const MAX_ARGV_BYTES = 6 * 1024 * 1024;
