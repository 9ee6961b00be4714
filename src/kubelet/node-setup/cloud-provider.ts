/**
 * --cloud-provider per kubelet minor.
 *
 * Two places look at it:
 *  1. run() (1.24-1.30 read; 1.31 inferred, see below): for any value but "external",
 *     cloudprovider.InitCloudProvider(name, --cloud-config). "" returns nil. With --cloud-config set,
 *     the file is opened first and a failure is klog.Fatalf (exit 255). A name no compiled-in
 *     provider registered gives `unknown cloud provider %q`; a registered one initialises against
 *     its cloud (environment-dependent: metadata servers, config), and its errors are
 *     `could not init cloud provider %q: %v`. Returned unwrapped, so kubelet prints
 *     `failed to run Kubelet: unknown cloud provider "x"`.
 *     (kubernetes/cloud-provider plugins.go, tags v0.24.0-v0.31.0, identical InitCloudProvider.)
 *  2. NewMainKubelet (`failed to run Kubelet: failed to create kubelet: …`): 1.24-1.30 with the
 *     DisableCloudProviders gate on and cloudprovider.IsDeprecatedInternal(name); newest: any name
 *     but "" and "external", no gate (pkg/kubelet/kubelet.go NewMainKubelet at v1.24.17-v1.31.14
 *     with the gate, v1.32.13+ without; the text is inline to v1.33.13, cloudprovider.ErrorForDisabledProvider
 *     from v1.34.12). Text: `cloud provider %q was specified, but built-in cloud providers
 *     are disabled. Please set --cloud-provider=external and migrate to an external cloud provider`.
 *
 * In-tree providers per minor = the deprecatedCloudProviders list of kubernetes/cloud-provider at
 * that tag (git show v0.NN.0:plugins.go): v0.24-v0.25 aws, azure, gce, openstack, vsphere;
 * v0.26 aws, azure, gce, vsphere; v0.27-v0.29 azure, gce, vsphere; v0.30-v0.31 gce; v0.32+ the
 * list and IsDeprecatedInternal are gone. That the list equals what the official kubelet binary
 * registers is an inference (it matches the removals: OpenStack 1.26, AWS 1.27 per rancher/rke2 #4183).
 *
 * 1.31: in-tree providers were removed from kubernetes and DisableCloudProviders is GA and locked
 * to true. cmd/kubelet/app/server.go run() at v1.31.14 still calls DeprecationWarningForProvider and
 * InitCloudProvider (-> `unknown cloud provider`) before NewMainKubelet; the 1.31 answers are still
 * marked inexact (docs/unverified.md). 1.32-1.33: run() refuses any name but "" and "external"
 * itself, before NewMainKubelet, unwrapped (cmd/kubelet/app/server.go run() at v1.32.13 and v1.33.13:
 * `if kubeDeps.Cloud == nil { … return cloudprovider.ErrorForDisabledProvider(…) }`; the real
 * 1.33.13 printed `failed to run Kubelet: cloud provider "aws" was specified, …`). 1.34+: only
 * NewMainKubelet (server.go at v1.34.12-v1.37.2 has neither check).
 */

/** Whether kubelet 1.`minor` refuses a built-in provider in run() itself (1.32-1.33), not in NewMainKubelet. */
export function refusedInRun(minor: number): boolean {
  return minor === 32 || minor === 33;
}
import { goQuote } from '../../go/quote.js';
import { isModelledMinor } from '../data/minors.js';
import { RUN_WRAP, goSprintf, wrapStepError } from '../data/start-sequence.js';
import type { ProviderCloud } from '../../host-facts/cloud-machine.js';
import type { GateEnabled, KubeletFlavor, NodeSetupResult } from './types.js';

export const DISABLE_CLOUD_PROVIDERS_GATE = 'DisableCloudProviders';

/** Built-in (in-tree) provider names the kubelet of each minor registers; [] from 1.31. */
export function inTreeCloudProviders(minor: number): readonly string[] | undefined {
  if (!isModelledMinor(minor)) return undefined;
  if (minor <= 25) return ['aws', 'azure', 'gce', 'openstack', 'vsphere'];
  if (minor === 26) return ['aws', 'azure', 'gce', 'vsphere'];
  if (minor <= 29) return ['azure', 'gce', 'vsphere'];
  if (minor === 30) return ['gce'];
  return [];
}

export function disabledProviderError(name: string): string {
  return `cloud provider ${goQuote(name)} was specified, but built-in cloud providers are disabled. Please set --cloud-provider=external and migrate to an external cloud provider`;
}

export interface CloudProviderInput {
  /** --cloud-provider ("" when absent). */
  readonly cloudProvider: string;
  /** --cloud-config ("" when absent). Removed as a flag in 1.34. */
  readonly cloudConfigFile?: string;
  /** Whether os.Open(--cloud-config) succeeds (a host fact); undefined = not known. */
  readonly cloudConfigOpens?: boolean;
  /**
   * What the machine shows offline of this provider's cloud (src/host-facts/cloud-machine.ts), or
   * 'not-checked' when the host was not read (another --root: listed in notChecked, the rest decided).
   * Undefined = not looked at.
   */
  readonly providerCloud?: ProviderCloud | 'not-checked';
}

const REMEDIATION =
  'Set --cloud-provider=external (or remove it) and run the cloud controller manager for your cloud; built-in cloud providers are gone or disabled in this kubelet.';

/**
 * The fatal outcome of --cloud-provider for kubelet `minor` (a modelled minor): undefined = accepted,
 * a failure, or { undecidable } when a compiled-in provider would be initialised against the cloud.
 * `gateEnabled` answers DisableCloudProviders (alpha/off 1.24-1.28, beta/on 1.29-1.30).
 */
export function checkCloudProvider(
  minor: number,
  input: CloudProviderInput,
  gateEnabled: GateEnabled,
  flavor: KubeletFlavor = 'upstream',
): NodeSetupResult {
  const inTree = inTreeCloudProviders(minor);
  if (!inTree) return undefined;
  const name = input.cloudProvider;
  if (name === 'external') return undefined;
  // OpenShift's kubelet links the same in-tree providers as upstream at each minor it was read for:
  // pkg/cloudprovider/providers/providers.go of the fork as openshift/microshift vendors it at
  // release-4.12 (1.25) through release-4.17 (1.30). No release was read for 1.24.
  if (flavor === 'openshift' && name !== '' && minor < 25) {
    return { undecidable: `OpenShift's kubelet 1.${minor} may still carry the in-tree provider ${goQuote(name)}; not modelled` };
  }

  if (minor >= 31) {
    if (name === '') return undefined;
    const kubeletError = refusedInRun(minor) ? goSprintf(RUN_WRAP, disabledProviderError(name)) : wrapStepError(minor, 'run:create-kubelet', disabledProviderError(name));
    if (kubeletError === undefined) return undefined;
    return {
      findingId: 'cloud-provider-disabled',
      kubeletError,
      message: `kubelet 1.${minor} has no built-in cloud providers; --cloud-provider=${name} is fatal.`,
      remediation: REMEDIATION,
      ...(minor === 31 ? { inexact: true } : {}),
    };
  }

  // 1.24-1.30: run() -> InitCloudProvider.
  if (name === '') return undefined;
  const configFile = input.cloudConfigFile ?? '';
  if (configFile !== '') {
    if (input.cloudConfigOpens === undefined) {
      return { undecidable: `kubelet opens --cloud-config=${configFile} before it looks at --cloud-provider=${name}; whether it opens is not known` };
    }
    if (!input.cloudConfigOpens) {
      return {
        findingId: 'cloud-config-unopenable',
        kubeletError: `Couldn't open cloud provider configuration ${configFile}: &fs.PathError{Op:"open", Path:${goQuote(configFile)}, Err:…}`,
        message: `kubelet 1.${minor} cannot open --cloud-config=${configFile} and exits through klog.Fatalf (status 255) before it starts.`,
        remediation: 'Restore the --cloud-config file, or drop --cloud-config and --cloud-provider and move to an external cloud controller manager.',
        path: configFile,
        exitStatus: 255,
        inexact: true,
      };
    }
  }
  if (!inTree.includes(name)) {
    return {
      findingId: 'cloud-provider-unknown',
      kubeletError: goSprintf(RUN_WRAP, `unknown cloud provider ${goQuote(name)}`),
      message: `kubelet 1.${minor} has no built-in cloud provider named ${goQuote(name)}${inTree.length ? ` (it has ${inTree.join(', ')})` : ''}.`,
      remediation: REMEDIATION,
    };
  }
  if (gateEnabled(DISABLE_CLOUD_PROVIDERS_GATE)) {
    const kubeletError = wrapStepError(minor, 'run:create-kubelet', disabledProviderError(name));
    if (kubeletError === undefined) return undefined;
    // InitCloudProvider runs first and may fail with a cloud-specific error instead.
    return {
      findingId: 'cloud-provider-disabled',
      kubeletError,
      message: `--cloud-provider=${name} names a built-in provider, and ${DISABLE_CLOUD_PROVIDERS_GATE} is on in kubelet 1.${minor}.`,
      remediation: REMEDIATION,
      inexact: true,
    };
  }
  // InitCloudProvider: the provider asks its cloud's metadata service. On a machine that shows
  // the cloud the way kubelet's own detection reads it, that service is there.
  const cloud = input.providerCloud;
  if (cloud === 'not-checked' || cloud?.kind === 'shown') return undefined;
  const why = cloud === undefined ? 'the machine was not looked at' : cloud.kind === 'not-shown' ? `the machine does not show that cloud (${cloud.detail})` : cloud.detail;
  return {
    undecidable: `--cloud-provider=${name} is a built-in provider in kubelet 1.${minor}; whether it initialises depends on the cloud environment, and ${why}`,
  };
}
