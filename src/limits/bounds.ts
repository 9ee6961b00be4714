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
 * entries fit in MAX_CONFIG_BYTES and took several seconds. Real configs have one to five.
 */
export const MAX_PROVIDER_ENTRIES = 100;

/**
 * Kubelet's expanded command line. Linux refuses an execve whose argument strings exceed
 * MAX_ARG_STRLEN (32 pages, 128 KiB) each, or whose argv and environment together exceed a
 * quarter of the stack limit (2 MiB with the usual 8 MiB stack): E2BIG. Anything larger cannot
 * be kubelet's argv, so node-check stops expanding it there.
 */
export const MAX_ARG_STRLEN = 128 * 1024;
export const MAX_ARGV_BYTES = 2 * 1024 * 1024;
