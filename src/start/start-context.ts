/**
 * What start checks read for one kubelet minor: the node model plus what kubelet derives from it
 * on its way up (its parsed command line, its feature gates, its credential provider
 * registration). Each derivation is computed once, on first use, and is pure: start checks run
 * in kubelet's order and stop at the first failure, so a later derivation may assume the steps
 * before it passed.
 */
import type { NodeModel } from '../model/node.js';
import type { KubeletFlavor } from '../kubelet/flavor.js';
import type { KubeletTraits } from '../kubelet/version.js';
import type { CredentialFlags } from '../checks/check.js';
import { simulateRegistration, type RegistrationResult } from '../credentials/registration.js';
import { effectiveFeatureGates, TOKEN_GATE } from '../kubelet/feature-gates.js';
import { CredentialFlag, lastValue } from '../kubelet/flags.js';
import { commandLineFinding, type CommandLineVerdict } from '../kubelet/command-line/findings.js';
import type { CommandLineParse } from '../kubelet/command-line/parse-command-line.js';
import { formatFatalLine } from '../kubelet/data/start-sequence.js';

export class StartContext {
  private readonly memo = new Map<string, unknown>();

  constructor(
    readonly model: NodeModel,
    readonly minor: number,
    readonly traits: KubeletTraits,
    readonly flavor: KubeletFlavor,
  ) {}

  private once<T>(key: string, compute: () => T): T {
    if (!this.memo.has(key)) this.memo.set(key, compute());
    return this.memo.get(key) as T;
  }

  /** Step 1: kubelet's arguments parsed against this minor's flag set (pflag). */
  get commandLine(): CommandLineVerdict<CommandLineParse & { ok: true }> {
    return this.once('commandLine', () => commandLineFinding(this.model.kubelet?.args ?? [], this.minor));
  }

  /** The journal line kubelet writes for an error returned from its start command. */
  fatalLogLine(err: string): string | undefined {
    return formatFatalLine(this.minor, err);
  }

  /** The credential flags, or undefined when kubelet registers no providers (both absent or empty). */
  get credentialFlags(): CredentialFlags | undefined {
    return this.once('credentialFlags', () => credentialFlags(this.model));
  }

  /** Whether --config-dir drop-ins take part at this minor (1.28-1.29 only with KUBELET_CONFIG_DROPIN_DIR_ALPHA). */
  get configDropInsApply(): boolean {
    const { configDir } = this.traits;
    return configDir === 'supported' || (configDir === 'alpha-env' && 'KUBELET_CONFIG_DROPIN_DIR_ALPHA' in this.model.kubeletEnvironment);
  }

  /** Gate values kubelet ends up with: defaults, --config, --config-dir, then --feature-gates. */
  get featureGates(): Readonly<Record<string, boolean>> {
    return this.once('featureGates', () => {
      const { configFile, configDir } = this.model.kubeletConfig;
      return effectiveFeatureGates(this.traits, {
        configFile: configFile?.featureGates,
        configDropIns: this.configDropInsApply ? (configDir?.dropIns ?? []).flatMap((d) => (d.featureGates ? [d.featureGates] : [])) : [],
        flagValues: this.model.kubelet?.flags.occurrences.get('feature-gates') ?? [],
      });
    });
  }

  /** Kubelet's credential provider registration, replayed (undefined when no credential flag is set). */
  get registration(): RegistrationResult | undefined {
    return this.once('registration', () => {
      const flags = this.credentialFlags;
      if (!flags) return undefined;
      return simulateRegistration({ ...flags, files: this.model.files, traits: this.traits, tokenGateEnabled: this.featureGates[TOKEN_GATE] === true, gateEnabled: (gate) => this.featureGates[gate] });
    });
  }
}

export function credentialFlags(model: NodeModel): CredentialFlags | undefined {
  if (!model.kubelet) return undefined;
  const configPath = lastValue(model.kubelet.flags, CredentialFlag.config) ?? '';
  const binDir = lastValue(model.kubelet.flags, CredentialFlag.binDir) ?? '';
  return configPath === '' && binDir === '' ? undefined : { configPath, binDir };
}
