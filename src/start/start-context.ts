/**
 * What start checks read for one kubelet minor: the node model plus what kubelet derives from it
 * on its way up (its parsed command line, its feature gates, its credential provider
 * registration). Each derivation is computed once, on first use, and is pure: start checks run
 * in kubelet's order and stop at the first failure, so a later derivation may assume the steps
 * before it passed.
 */
import { posix } from 'node:path';
import type { NodeModel } from '../model/node.js';
import { decideFlavor, type FlavorDecision, type KubeletFlavor } from '../kubelet/flavor.js';
import type { KubeletTraits } from '../kubelet/version.js';
import type { CredentialFlags } from '../checks/check.js';
import { simulateRegistration, type RegistrationResult } from '../credentials/registration.js';
import { parseFeatureGateFlag, TOKEN_GATE } from '../kubelet/feature-gates.js';
import { setFeatureGates, type SetFeatureGatesResult } from '../kubelet/gates/set-feature-gates.js';
import { gatesFor } from '../kubelet/gates/gate-table.js';
import { allValues, CredentialFlag, lastValue } from '../kubelet/flags.js';
import { commandLineFinding, type CommandLineVerdict } from '../kubelet/command-line/findings.js';
import type { CommandLineParse } from '../kubelet/command-line/parse-command-line.js';
import { formatFatalLine } from '../kubelet/data/start-sequence.js';
import { loadKubeletConfigFile, mergeConfigDropIns, type KubeletConfigObject, type LoadResult, type MergeResult } from '../kubelet/config/index.js';
import { applyFlagPrecedence } from './flag-precedence.js';
import { flagValueOrigin, type ArgumentOrigin } from './argument-origin.js';
import { goParseBool } from '../go/strconv.js';

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
    return this.once('commandLine', () => commandLineFinding(this.model.kubelet?.args ?? [], this.minor, this.flavor));
  }

  /** A kubelet flag's value: its last occurrence on the command line (pflag), undefined when it is not given. */
  flag(name: string): string | undefined {
    return this.model.kubelet ? lastValue(this.model.kubelet.flags, name) : undefined;
  }

  /** Whether a boolean flag is given and strconv.ParseBool reads it as true. */
  flagIsTrue(name: string): boolean {
    const value = this.flag(name);
    if (value === undefined) return false;
    const parsed = goParseBool(value);
    return parsed.ok && parsed.value;
  }

  /** Where the value of --name on the command line came from (the unit, or a variable and its file). */
  flagOrigin(name: string): ArgumentOrigin | undefined {
    return flagValueOrigin(this.model, name);
  }

  /** A string field of the effective configuration (undefined when unset or not a string). */
  configString(field: string): string | undefined {
    const value = this.effectiveConfig[field];
    return typeof value === 'string' ? value : undefined;
  }

  /** A map field of the effective configuration (undefined when unset or not an object). */
  configMap(field: string): Readonly<Record<string, string>> | undefined {
    const value = this.effectiveConfig[field];
    return value && typeof value === 'object' ? (value as Readonly<Record<string, string>>) : undefined;
  }

  /** The path of the --config file, when kubelet has one. */
  get configPath(): string | undefined {
    return this.model.kubeletConfig.configFile?.path;
  }

  /** The journal line kubelet writes for an error returned from its start command. */
  fatalLogLine(err: string): string | undefined {
    return formatFatalLine(this.minor, err);
  }

  /**
   * The host's cgroup version, for failCgroupV1: only known on the live root (host facts); any
   * other root is 'not-checked' and never changes the verdict.
   */
  get cgroupV2(): boolean | 'not-checked' | undefined {
    const host = this.model.host;
    if (!host || host.notChecked.some((n) => n.fact === 'cgroupVersion')) return 'not-checked';
    return host.facts.cgroupVersion === undefined ? undefined : host.facts.cgroupVersion === 2;
  }

  /** The credential flags, or undefined when kubelet registers no providers (both absent or empty). */
  get credentialFlags(): CredentialFlags | undefined {
    return this.once('credentialFlags', () => credentialFlags(this.model));
  }

  /** --feature-gates, every occurrence merged (cliflag.MapStringBool; bad values fail step 1 first). */
  get flagGateRequests(): Readonly<Record<string, boolean>> {
    return this.once('flagGateRequests', () => {
      const merged: Record<string, boolean> = {};
      for (const value of this.model.kubelet?.flags.occurrences.get('feature-gates') ?? []) Object.assign(merged, parseFeatureGateFlag(value).gates);
      return merged;
    });
  }

  /** Step 4: the --config file read and decoded as this minor does (undefined without --config). */
  get configLoad(): LoadResult | undefined {
    return this.once('configLoad', () => {
      const file = this.model.kubeletConfig.configFile;
      return file ? loadKubeletConfigFile(this.minor, file.path, file.content) : undefined;
    });
  }

  /** Step 5: the --config-dir drop-ins merged over the file (undefined without --config-dir). */
  get dropInMerge(): MergeResult | undefined {
    return this.once('dropInMerge', () => {
      const dir = this.model.kubeletConfig.configDir;
      if (!dir || (dir.problem && !configDirCreatedBeforeStart(this.model))) return undefined;
      const load = this.configLoad;
      const base = load && 'ok' in load && load.ok ? load.config : {};
      return mergeConfigDropIns(this.minor, base, dir.problem ? [] : dir.dropIns, this.model.kubeletEnvironment, dir.path);
    });
  }

  /**
   * The configuration kubelet validates: the file, the drop-ins, then the flags again
   * (kubeletConfigFlagPrecedence). Steps 4-5 passed when this is read; without --config and
   * --config-dir it is the flags alone (kubelet's defaults fill the rest).
   */
  get effectiveConfig(): KubeletConfigObject {
    return this.once('effectiveConfig', () => {
      const merge = this.dropInMerge;
      const load = this.configLoad;
      const base = merge && 'ok' in merge && merge.ok ? merge.config : load && 'ok' in load && load.ok ? load.config : {};
      return applyFlagPrecedence(this.minor, base, this.model.kubelet?.flags.occurrences ?? new Map());
    });
  }

  /**
   * What kubelet hands SetFromMap the second time, after loading --config and --config-dir: the
   * merged configuration's featureGates with the flags' over them. Undefined when kubelet has
   * neither, and makes no second call.
   */
  get configGateRequests(): Readonly<Record<string, boolean>> | undefined {
    return this.once('configGateRequests', () => {
      const { configFile, configDir } = this.model.kubeletConfig;
      if (!configFile && !configDir) return undefined;
      const gates = this.effectiveConfig['featureGates'];
      const merged: Record<string, boolean> = {};
      if (gates && typeof gates === 'object') {
        for (const [name, value] of Object.entries(gates as Record<string, unknown>)) if (typeof value === 'boolean') merged[name] = value;
      }
      return { ...merged, ...this.flagGateRequests };
    });
  }

  /** Step 2: SetFromMap with the flag-based configuration's gates. */
  get gatesFromFlags(): SetFeatureGatesResult {
    return this.once('gatesFromFlags', () => setFeatureGates(this.minor, this.flavor, this.flagGateRequests));
  }

  /** Step 6: SetFromMap again with the merged configuration's gates (undefined when there is no config). */
  get gatesFromConfig(): SetFeatureGatesResult | undefined {
    return this.once('gatesFromConfig', () => {
      const requests = this.configGateRequests;
      return requests === undefined ? undefined : setFeatureGates(this.minor, this.flavor, requests, this.flagGateRequests);
    });
  }

  /**
   * Whether a gate is on for this kubelet: the outcome of kubelet's last SetFromMap; when node-check
   * could not decide that, the gate table's default under the values asked for.
   */
  gateEnabled(name: string): boolean {
    const last = this.gatesFromConfig ?? this.gatesFromFlags;
    if ('ok' in last && last.ok) return last.enabled(name);
    const requested = this.configGateRequests ?? this.flagGateRequests;
    return requested[name] ?? gatesFor(this.minor, this.flavor)?.get(name)?.default ?? false;
  }

  /** Kubelet's credential provider registration, replayed (undefined when no credential flag is set). */
  get registration(): RegistrationResult | undefined {
    return this.once('registration', () => {
      const flags = this.credentialFlags;
      if (!flags) return undefined;
      return simulateRegistration({ ...flags, files: this.model.files, traits: this.traits, tokenGateEnabled: this.gateEnabled(TOKEN_GATE), gateEnabled: (gate) => this.gateEnabled(gate) });
    });
  }
}

/** The flavour discovery decided, or the one the node's own evidence gives (models built without discovery). */
export function flavorOf(model: NodeModel): FlavorDecision {
  return model.flavor ?? decideFlavor({ wrapper: model.kubelet?.wrapper ?? [], osRelease: model.osRelease, openshiftMarkers: [], versionText: model.kubeletVersion?.text, nodeLabels: model.kubelet ? allValues(model.kubelet.flags, 'node-labels') : [] });
}

export function credentialFlags(model: NodeModel): CredentialFlags | undefined {
  if (!model.kubelet) return undefined;
  const configPath = lastValue(model.kubelet.flags, CredentialFlag.config) ?? '';
  const binDir = lastValue(model.kubelet.flags, CredentialFlag.binDir) ?? '';
  return configPath === '' && binDir === '' ? undefined : { configPath, binDir };
}

/**
 * A missing --config-dir that an ExecStartPre= `mkdir --parents` of the unit creates: kubelet finds
 * it empty (OpenShift 4.21+: ExecStartPre=/bin/mkdir --parents /etc/openshift/kubelet.conf.d).
 */
export function configDirCreatedBeforeStart(model: NodeModel): boolean {
  const dir = model.kubeletConfig.configDir;
  if (!dir?.missing) return false;
  const clean = (p: string) => posix.normalize(p).replace(/(.)\/+$/, '$1');
  return model.service.preStartDirectories?.some((d) => clean(d) === clean(dir.path)) ?? false;
}
