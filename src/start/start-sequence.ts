/**
 * Every start precondition, in the order systemd and kubelet meet them (cmd/kubelet/app/server.go
 * at the tags; src/kubelet/data/start-sequence.ts): systemd's own refusals first, then kubelet's steps from
 * flag parsing to NewMainKubelet. The first failure decides, as it does for kubelet.
 */
import type { StartCheck } from './start-check.js';
import { credentialProvidersStep } from './steps/credential-providers.js';
import { systemdStep } from './steps/systemd.js';
import { kubeletRunStep, postStartStep } from './steps/kubelet-run.js';
import { commandLineStep, flagValidationStep } from './steps/command-line.js';
import { gatesFromConfigStep, gatesFromFlagsStep } from './steps/feature-gates.js';
import { configDropInsStep, configFileStep, configValidationStep, loggingStep } from './steps/kubelet-config.js';
import { dependenciesStep } from './steps/dependencies.js';
import { undecidedInputsStep } from './steps/undecided-inputs.js';

export const START_SEQUENCE: readonly StartCheck[] = [
  // 0. systemd spawns kubelet: environment files, the ExecStart= binary.
  systemdStep,
  // 1, 1b. pflag parses the command line; a stray word is "unknown command".
  commandLineStep,
  // 2. Feature gates from the flags.
  gatesFromFlagsStep,
  // 3. ValidateKubeletFlags.
  flagValidationStep,
  // 4. The --config file.
  configFileStep,
  // 5. The --config-dir drop-ins (1.28+).
  configDropInsStep,
  // 6. Feature gates again, from the merged --config / --config-dir and the flags.
  gatesFromConfigStep,
  // Inputs kubelet acts on at start that no rule here decides: "cannot tell", naming them.
  undecidedInputsStep,
  // 7. Logging is initialised (1.25+; 1.24 checks the same rules inside step 8).
  loggingStep,
  // 8. ValidateKubeletConfiguration.
  configValidationStep,
  // 9. UnsecuredDependencies: InitializeTLS.
  dependenciesStep,
  // 10, 11. Run(): the lock file, cloud provider, client CA, CRI, eviction thresholds, reserved resources, swap, --node-ip, NewMainKubelet's checks.
  kubeletRunStep,
  // 11. NewMainKubelet → credential provider registration.
  credentialProvidersStep,
  // 12. After "Started kubelet": the container manager (kernel tunables).
  postStartStep,
];
