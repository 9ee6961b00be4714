/**
 * Every start precondition, in the order systemd and kubelet meet them (research
 * kubelet-start-preconditions.md §1): systemd's own refusals first, then kubelet's steps from
 * flag parsing to NewMainKubelet. The first failure decides, as it does for kubelet.
 */
import type { StartCheck } from './start-check.js';
import { credentialProvidersStep } from './steps/credential-providers.js';
import { commandLineStep, flagValidationStep } from './steps/command-line.js';
import { gatesFromConfigStep, gatesFromFlagsStep } from './steps/feature-gates.js';

export const START_SEQUENCE: readonly StartCheck[] = [
  // 1, 1b. pflag parses the command line; a stray word is "unknown command".
  commandLineStep,
  // 2. Feature gates from the flags.
  gatesFromFlagsStep,
  // 3. ValidateKubeletFlags.
  flagValidationStep,
  // 6. Feature gates again, from the merged --config / --config-dir and the flags.
  gatesFromConfigStep,
  // 11. NewMainKubelet → credential provider registration.
  credentialProvidersStep,
];
