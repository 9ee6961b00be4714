/**
 * Kubelet's Run() and RunKubelet (cmd/kubelet/app/server.go, 1.24-1.37), in the order of the
 * start-sequence table (src/kubelet/data/start-sequence.ts): --exit-on-lock-contention without
 * --lock-file, the in-tree cloud provider (<=1.30), the API client (--kubeconfig,
 * --bootstrap-kubeconfig), the client CA bundle (BuildAuth), the CRI
 * connection (fatal from 1.27), --reserved-cpus against the online CPUs, the
 * --kube-reserved / --system-reserved quantities, evictionHard (ParseThresholdConfig), swap (the
 * container manager), --node-ip, and
 * NewMainKubelet's cloud-provider check. Offline rules come from src/kubelet/node-setup/, host
 * facts (the machine's cloud for an in-tree provider, too) from src/host-facts/ and only for the live root: with another root they are listed as not
 * checked and never change the answer. After "Started kubelet", protectKernelDefaults (kernel
 * tunables) is the last fatal check (postStartStep).
 */
import type { StartCheck, StepOutcome } from '../start-check.js';
import { PASS } from '../start-check.js';
import type { StartContext } from '../start-context.js';
import { evaluateNodeSetup } from '../../kubelet/node-setup/index.js';
import type { ResourceMap } from '../../kubelet/node-setup/reserved.js';
import { stepIndex, type StartStepId } from '../../kubelet/data/start-sequence.js';
import { checkHostPreconditions, defaultsFor, HOST_FINDING } from '../../host-facts/check-host.js';
import { cgroupRootDir } from '../../discover/host-facts.js';
import { isFailure, type PreconditionOutcome } from '../../systemd-preconditions/outcome.js';
import { lastValue } from '../../kubelet/flags.js';
import { providerCloudShown, type ProviderCloud } from '../../host-facts/cloud-machine.js';
import { goParseBool } from '../../go/strconv.js';
import { checkEvictionHard } from '../../kubelet/node-setup/eviction.js';
import { checkCpuManagerPolicy } from '../../kubelet/node-setup/cpu-manager.js';
import { checkClientCaFile } from '../../kubelet/node-setup/client-ca.js';
import { checkClientConfig, DEFAULT_CERT_DIR } from '../../kubelet/node-setup/kubeconfig.js';
import { clientCaFileOf, NEWEST_MINOR_CLIENT_CA_IN_INITIALIZE_TLS } from './dependencies.js';
import { goSprintf, RUN_WRAP, wrapStepError } from '../../kubelet/data/start-sequence.js';
import { checkServingCert } from '../../kubelet/node-setup/serving-cert.js';
import { checkUserNamespaceManager, looksUpKubeletUser, PASSWD_PATH } from '../../kubelet/node-setup/user-namespaces.js';
import { KUBELET_GO_TOOLCHAINS } from '../../kubelet/data/go-toolchain.js';
import { KUBELET_CONFIG_DEFAULTS } from '../../kubelet/data/kubelet-config-defaults.js';
import { nodePathKey } from '../../credentials/registration.js';
import { flagValueOrigin } from '../argument-origin.js';
import type { FileTable, PathFact } from '../../model/node.js';
import { oncePerOwner } from '../../lib/memo.js';
import type { FindingId } from '../../catalog/findings.js';

/** Host checks by the start step they belong to (kernel tunables fail only after start). */
const HOST_STEP: Readonly<Record<string, StartStepId | 'post-start'>> = {
  [HOST_FINDING.criSocket]: 'run:cri',
  [HOST_FINDING.reservedCpus]: 'run:reserved-cpus',
  [HOST_FINDING.swap]: 'run:container-manager',
  [HOST_FINDING.kernelTunables]: 'post-start',
};

interface Ordered {
  readonly step: StartStepId | 'post-start';
  readonly outcome: PreconditionOutcome;
}

export const kubeletRunStep: StartCheck = {
  id: 'kubelet-run',
  title: 'Kubelet sets up the node (cloud provider, CRI, reserved resources, swap, --node-ip)',
  stage: 'kubelet',
  appliesTo: () => true,
  run: (context) => decide(context, ordered(context).filter((o) => o.step !== 'post-start')),
};

export const postStartStep: StartCheck = {
  id: 'kubelet-post-start',
  title: 'The container manager starts (protectKernelDefaults: kernel tunables)',
  stage: 'kubelet',
  appliesTo: () => true,
  run: (context) => decide(context, ordered(context).filter((o) => o.step === 'post-start')),
};

/**
 * Whether Go's os.Open (O_RDONLY) succeeds for root on this path: it does for any file or
 * directory that exists; a missing one is ENOENT; a FIFO or device, or another error, is not known.
 */
function opensAsRoot(fact: PathFact | undefined): boolean | undefined {
  if (!fact) return undefined;
  if (!fact.exists) return fact.code === 'ENOENT' || fact.code === 'ENOTDIR' ? false : undefined;
  return fact.type === 'other' ? undefined : true;
}

function ordered(context: StartContext): Ordered[] {
  const config = context.effectiveConfig;
  const flags = context.model.kubelet?.flags;
  const text = (field: string) => (typeof config[field] === 'string' ? (config[field] as string) : undefined);
  const map = (field: string) => (config[field] && typeof config[field] === 'object' ? (config[field] as ResourceMap) : undefined);
  const items: Ordered[] = [];

  const cloudProvider = flags ? lastValue(flags, 'cloud-provider') : undefined;
  const cloudConfigFile = flags ? lastValue(flags, 'cloud-config') : undefined;
  const nodeIP = flags ? lastValue(flags, 'node-ip') : undefined;
  const providerCloud = cloudOfMachine(context, cloudProvider);
  const cloudConfigOpens = cloudConfigFile ? opensAsRoot(context.model.files[nodePathKey(cloudConfigFile)]) : undefined;
  const setup = evaluateNodeSetup(context.minor, {
    ...(cloudProvider !== undefined ? { cloudProvider } : {}),
    ...(cloudConfigFile !== undefined ? { cloudConfigFile } : {}),
    ...(cloudConfigOpens !== undefined ? { cloudConfigOpens } : {}),
    ...(providerCloud !== undefined ? { providerCloud } : {}),
    ...(nodeIP !== undefined ? { nodeIP } : {}),
    ...(map('kubeReserved') ? { kubeReserved: map('kubeReserved') } : {}),
    ...(map('systemReserved') ? { systemReserved: map('systemReserved') } : {}),
    ...(text('reservedSystemCPUs') !== undefined ? { reservedSystemCPUs: text('reservedSystemCPUs') } : {}),
    ...(context.model.kubeletConfig.configFile ? { reservedPath: context.model.kubeletConfig.configFile.path } : {}),
  }, (gate) => context.gateEnabled(gate), context.flavor) ?? [];
  for (const { step, result } of setup) items.push({ step, outcome: reservedOnCommandLine(context, step, result) });
  items.push(...startInputs(context));

  const host = context.model.host;
  const defaults = defaultsFor(context.minor);
  if (host && defaults) {
    const bool = (field: string, fallback: boolean) => (typeof config[field] === 'boolean' ? (config[field] as boolean) : fallback);
    const endpoint = text('containerRuntimeEndpoint') ?? '';
    const notChecked = new Set(host.notChecked.map((n) => n.fact));
    const outcomes = checkHostPreconditions({
      minor: context.minor,
      config: {
        failSwapOn: bool('failSwapOn', defaults.failSwapOn),
        protectKernelDefaults: bool('protectKernelDefaults', defaults.protectKernelDefaults),
        containerRuntimeEndpoint: endpoint,
        reservedSystemCPUs: text('reservedSystemCPUs') ?? '',
      },
      facts: { ...host.facts, ...(host.criSockets[endpoint] ? { criSocket: host.criSockets[endpoint] } : {}) },
    });
    const factOf: Readonly<Record<string, string>> = { [HOST_FINDING.criSocket]: 'criSocket', [HOST_FINDING.reservedCpus]: 'onlineCpus', [HOST_FINDING.swap]: 'swaps', [HOST_FINDING.kernelTunables]: 'sysctls' };
    for (const outcome of outcomes) {
      const id = outcome.findingId ?? '';
      const step = HOST_STEP[id];
      // cgroup v1 is ValidateKubeletConfiguration's (kubelet-config step); facts not read are "not checked".
      if (!step || notChecked.has(factOf[id] as never)) continue;
      if (!isFailure(outcome) && id === HOST_FINDING.criSocket && !host.criSockets[endpoint]) continue;
      items.push({ step, outcome });
    }
  }
  // NewContainerManager validates cgroupRoot after swap (pkg/kubelet/cm/container_manager_linux.go:
  // "Check if Cgroup-root actually exists on the node", with cgroupsPerQOS), on the host only.
  const cgroupRoot = text('cgroupRoot') ?? '';
  if (host && cgroupRoot !== '' && cgroupRoot !== '/' && config['cgroupsPerQOS'] !== false && !host.notChecked.some((n) => n.fact === 'cgroupRoots')) {
    const exists = host.facts.cgroupRoots?.[cgroupRoot];
    const configPath = context.model.kubeletConfig.configFile?.path;
    if (text('cgroupDriver') === 'systemd' || exists === undefined) {
      items.push({ step: 'run:container-manager', outcome: { undecidable: `cgroupRoot ${cgroupRoot}: ${text('cgroupDriver') === 'systemd' ? 'the systemd driver\'s cgroup names are not modelled' : 'whether its cgroup exists on this host was not read'}`, ...(configPath ? { path: configPath } : {}) } });
    } else if (!exists) {
      const error = `invalid configuration: cgroup ["${cgroupRoot.replace(/^\/+|\/+$/g, '')}"] has some missing paths: ${cgroupRootDir(cgroupRoot, host.facts.cgroupVersion ?? 1)}`;
      items.push({ step: 'run:container-manager', outcome: {
        findingId: 'kubelet-cgroup-root-missing',
        kubeletError: goSprintf(RUN_WRAP, error),
        message: `Kubelet 1.${context.minor} is given cgroupRoot ${cgroupRoot} (--cgroup-root), and that cgroup does not exist on this host: the container manager refuses it.`,
        remediation: `Create the ${cgroupRoot} cgroup before kubelet starts (kind's entrypoint does), or drop cgroupRoot.`,
        inexact: true,
        ...(configPath ? { path: configPath } : {}),
      } });
    }
  }
  // NewContainerManager creates the CPU manager after its host checks (swap, cgroup root): last in its step.
  const policy = text('cpuManagerPolicy') ?? '';
  if (context.minor >= 26 || context.gateEnabled('CPUManager')) {
    const cpu = checkCpuManagerPolicy(policy, {
      ...(map('kubeReserved') ? { kubeReserved: map('kubeReserved') } : {}),
      ...(map('systemReserved') ? { systemReserved: map('systemReserved') } : {}),
      ...(text('reservedSystemCPUs') !== undefined ? { reservedSystemCPUs: text('reservedSystemCPUs') } : {}),
    });
    const configPath = context.model.kubeletConfig.configFile?.path;
    if ('undecidable' in cpu) items.push({ step: 'run:container-manager', outcome: { undecidable: cpu.undecidable, ...(configPath ? { path: configPath } : {}) } });
    else if (!cpu.ok) {
      items.push({ step: 'run:container-manager', outcome: {
        findingId: 'kubelet-cpu-manager-policy-invalid',
        kubeletError: goSprintf(RUN_WRAP, cpu.error),
        message: `Kubelet 1.${context.minor} cannot create its CPU manager (cpuManagerPolicy ${JSON.stringify(policy)}, --cpu-manager-policy): ${cpu.error}.`,
        remediation: policy === 'static' ? 'Reserve CPUs for the static policy (kubeReserved.cpu or systemReserved.cpu, or reservedSystemCPUs), or set cpuManagerPolicy: none.' : 'Set cpuManagerPolicy to none or static.',
        ...(configPath ? { path: configPath } : {}),
      } });
    }
  }
  // NewMainKubelet's serving certificate (after the runtime and image managers).
  const flag = (name: string) => (flags ? lastValue(flags, name) : undefined) ?? '';
  const serving = checkServingCert({
    minor: context.minor,
    certDir: flag('cert-dir') || DEFAULT_CERT_DIR,
    tlsCertFile: text('tlsCertFile') ?? '',
    tlsPrivateKeyFile: text('tlsPrivateKeyFile') ?? '',
    serverTLSBootstrap: config['serverTLSBootstrap'] === true,
    gateEnabled: (gate) => context.gateEnabled(gate),
    godebug: context.model.kubeletEnvironment['GODEBUG'],
    now: new Date(),
  }, (path) => context.model.files[nodePathKey(path)]);
  if ('undecidable' in serving) items.push({ step: 'run:create-kubelet', outcome: { undecidable: `kubelet's serving certificate: ${serving.undecidable}`, ...(serving.path ? { path: serving.path } : {}) } });
  else if (!serving.ok) {
    items.push({ step: 'run:create-kubelet', outcome: {
      findingId: 'kubelet-serving-cert-invalid',
      kubeletError: wrapStepError(context.minor, 'run:create-kubelet', serving.error) ?? goSprintf(RUN_WRAP, serving.error),
      message: `Kubelet 1.${context.minor} cannot load its serving certificate (tlsCertFile / tlsPrivateKeyFile, --tls-cert-file / --tls-private-key-file): ${serving.error}.`,
      remediation: 'Restore the serving certificate and key at those paths, or unset tlsCertFile and tlsPrivateKeyFile (kubelet then writes a self-signed pair in --cert-dir), or use serverTLSBootstrap.',
      path: serving.path,
      ...(serving.inexact ? { inexact: true } : {}),
    } });
  }
  // Last in NewMainKubelet: the user namespace manager (the "kubelet" user, getsubids, maxPods).
  if (looksUpKubeletUser(context.minor)) {
    const toolchain = KUBELET_GO_TOOLCHAINS[context.minor];
    const userns = checkUserNamespaceManager({
      gateOn: context.gateEnabled('UserNamespacesSupport'),
      // The binary shows how it was linked; without it, the releases' build: hack/lib/golang.sh
      // (1.24-1.37) leaves kubelet out of KUBE_STATIC_BINARIES, so it is built with cgo.
      lookup: context.model.kubeletLinkage === 'static' ? 'pure-go' : 'cgo',
      goMinors: { first: toolchain?.firstGo ?? 0, last: toolchain?.lastGo ?? 0 },
      passwd: context.model.files[nodePathKey(PASSWD_PATH)],
      // maxPods is an int32: an absent or zero value is defaulted (v1beta1 SetDefaults_KubeletConfiguration).
      maxPods: typeof config['maxPods'] === 'number' && config['maxPods'] !== 0 ? config['maxPods'] : (KUBELET_CONFIG_DEFAULTS.find((d) => d.field === 'maxPods')?.value as number),
      wrapped: (context.model.kubelet?.wrapper.length ?? 0) > 0,
      path: context.model.kubeletEnvironment['PATH'],
      hostRoot: context.model.root === '/',
    }, (path) => context.model.files[nodePathKey(path)]);
    if ('undecidable' in userns) items.push({ step: 'run:create-kubelet', outcome: { undecidable: userns.undecidable, path: userns.path } });
    else if (!userns.ok) {
      items.push({ step: 'run:create-kubelet', outcome: {
        findingId: 'kubelet-user-namespace-manager-failed',
        kubeletError: wrapStepError(context.minor, 'run:create-kubelet', userns.error) ?? goSprintf(RUN_WRAP, userns.error),
        message: `Kubelet 1.${context.minor} cannot create its user namespace manager (UserNamespacesSupport on): ${userns.error}.`,
        remediation: userns.error.includes('getsubids')
          ? 'Install getsubids (shadow-utils-subid, or uidmap on Debian) with subordinate IDs for the kubelet user, or remove the "kubelet" user from /etc/passwd.'
          : userns.error.includes('pods') ? 'Lower maxPods to 65535 or less.' : 'Restore /etc/passwd (every node has one; kubelet built without cgo reads it to look up the "kubelet" user).',
        path: userns.path,
      } });
    }
  }
  const rank = (step: Ordered['step']) => (step === 'post-start' ? Number.MAX_SAFE_INTEGER : stepIndex(context.minor, step) ?? Number.MAX_SAFE_INTEGER - 1);
  return items.sort((a, b) => rank(a.step) - rank(b.step));
}

/**
 * A --kube-reserved / --system-reserved that kubelet cannot parse names the file and variable that
 * hold it when the flag is on the command line (flags override the config file's field): an unset
 * ${VAR} in it is the usual empty quantity.
 */
function reservedOnCommandLine(context: StartContext, step: StartStepId, result: PreconditionOutcome): PreconditionOutcome {
  const flag = step === 'run:kube-reserved' ? 'kube-reserved' : step === 'run:system-reserved' ? 'system-reserved' : undefined;
  if (!flag || !isFailure(result) || !context.model.kubelet || lastValue(context.model.kubelet.flags, flag) === undefined) return result;
  const origin = flagValueOrigin(context.model, flag);
  if (!origin) return result;
  return {
    ...result,
    message: `${result.message} (--${flag} comes from ${origin.sentence})`,
    remediation: origin.variable ? `${result.remediation} Set $${origin.variable} in ${origin.path}.` : result.remediation,
    path: origin.path,
  };
}

/** The host fact for --cloud-provider: 'not-checked' when the host was not read (another root). */
function cloudOfMachine(context: StartContext, cloudProvider: string | undefined): ProviderCloud | 'not-checked' | undefined {
  const host = context.model.host;
  if (!host || !cloudProvider) return undefined;
  if (host.notChecked.some((n) => n.fact === 'cloudMachine')) return 'not-checked';
  return host.facts.cloudMachine ? providerCloudShown(cloudProvider, host.facts.cloudMachine) : undefined;
}

/** The first failure in kubelet's order decides; an undecided step before it makes its text inexact. */
function decide(context: StartContext, items: readonly Ordered[]): StepOutcome {
  let undecided: string | undefined;
  for (const { outcome } of items) {
    if (!isFailure(outcome)) {
      undecided ??= outcome.undecidable;
      continue;
    }
    const logLine = context.fatalLogLine(outcome.kubeletError);
    return {
      fail: {
        findingId: outcome.findingId,
        message: outcome.message,
        remediation: outcome.remediation,
        kubeletError: outcome.kubeletError,
        exitStatus: outcome.exitStatus ?? 1,
        ...(logLine && outcome.findingId !== HOST_FINDING.kernelTunables ? { logLine } : {}),
        ...(outcome.path ? { path: outcome.path } : {}),
        ...(outcome.inexact || undecided ? { inexact: true } : {}),
      },
    };
  }
  return undecided ? { undecidable: undecided } : PASS;
}

const flagIsTrue = (context: StartContext, name: string): boolean => {
  const value = context.model.kubelet ? lastValue(context.model.kubelet.flags, name) : undefined;
  if (value === undefined) return false;
  const parsed = goParseBool(value);
  return parsed.ok && parsed.value;
};

/**
 * buildKubeletClientConfig's answer per node (its files), inputs and minor (whose Go builds parse
 * the TLS material): asked again by the same check, it is not recomputed.
 */
const clientConfigOf = oncePerOwner((files: FileTable, input: string) => {
  const [kubeconfig, bootstrapKubeconfig, rotateCertificates, certDir, minor, godebug] = JSON.parse(input) as [string, string, boolean, string, number, string | null];
  return checkClientConfig({ kubeconfig, bootstrapKubeconfig, rotateCertificates, certDir, now: new Date(), minor, ...(godebug === null ? {} : { godebug }) }, (path) => files[nodePathKey(path)]);
});

/** The run() checks of flags and fields that need no host fact: lock file, API client, client CA, evictionHard. */
function startInputs(context: StartContext): Ordered[] {
  const items: Ordered[] = [];
  const config = context.effectiveConfig;
  const configPath = context.model.kubeletConfig.configFile?.path;
  const unitPath = context.model.service.execStart?.source?.file;
  // Every error here is returned by run() as it is; Run() adds RUN_WRAP.
  const fail = (step: StartStepId, findingId: FindingId, inner: string, message: string, remediation: string, path: string | undefined, inexact: boolean): Ordered => ({
    step,
    outcome: {
      findingId,
      kubeletError: goSprintf(RUN_WRAP, inner),
      message,
      remediation,
      ...(path ? { path } : {}),
      ...(inexact ? { inexact: true } : {}),
    },
  });

  // run(): "cannot exit on lock file contention: no lock file specified" (errors.New, unwrapped).
  const lockFile = context.model.kubelet ? lastValue(context.model.kubelet.flags, 'lock-file') : undefined;
  if (flagIsTrue(context, 'exit-on-lock-contention') && (lockFile ?? '') === '') {
    items.push(fail('run:lock-file', 'kubelet-lock-file-missing', 'cannot exit on lock file contention: no lock file specified',
      `Kubelet 1.${context.minor} is given --exit-on-lock-contention without --lock-file and exits.`, 'Add --lock-file=/var/run/lock/kubelet.lock (or drop --exit-on-lock-contention).', unitPath, false));
  } else if ((lockFile ?? '') !== '') {
    // flock.Acquire creates and locks the file: whether that succeeds is not a file fact node-check reads.
    items.push({ step: 'run:lock-file', outcome: { undecidable: `--lock-file ${lockFile}: whether kubelet can create and lock it is not modelled`, ...(unitPath ? { path: unitPath } : {}) } });
  }

  // buildKubeletClientConfig (run(), after the cloud provider and the node name, before BuildAuth).
  const flagValue = (name: string) => (context.model.kubelet ? lastValue(context.model.kubelet.flags, name) : undefined) ?? '';
  const client = clientConfigOf(context.model.files, JSON.stringify([flagValue('kubeconfig'), flagValue('bootstrap-kubeconfig'), config['rotateCertificates'] === true, flagValue('cert-dir') || DEFAULT_CERT_DIR, context.minor, context.model.kubeletEnvironment['GODEBUG'] ?? null]));
  if ('undecidable' in client) items.push({ step: 'run:client-config', outcome: { undecidable: `kubelet's API client: ${client.undecidable}`, path: client.path } });
  else if (!client.ok) {
    items.push(fail('run:client-config', 'kubelet-kubeconfig-invalid', client.error, `Kubelet 1.${context.minor} cannot build its API client from ${client.path}: ${client.error}.`,
      `Restore ${client.path} as the node had it (kubeadm: /etc/kubernetes/kubelet.conf and /var/lib/kubelet/pki; EKS: /var/lib/kubelet/kubeconfig; OpenShift: /var/lib/kubelet/kubeconfig, or /etc/kubernetes/kubeconfig to bootstrap), or correct --kubeconfig / --bootstrap-kubeconfig.`, client.path, client.inexact));
  }

  // Up to 1.35 InitializeTLS has loaded the same file before run() (src/start/steps/dependencies.ts).
  const clientCAFile = clientCaFileOf(config);
  if (clientCAFile && context.minor > NEWEST_MINOR_CLIENT_CA_IN_INITIALIZE_TLS) {
    const ca = checkClientCaFile(context.minor, clientCAFile, context.model.files[nodePathKey(clientCAFile)], context.model.kubeletEnvironment['GODEBUG']);
    if ('undecidable' in ca) items.push({ step: 'run:auth', outcome: { undecidable: `authentication.x509.clientCAFile: ${ca.undecidable}`, path: clientCAFile } });
    else if (!ca.ok) {
      items.push(fail('run:auth', 'kubelet-client-ca-invalid', ca.error, `Kubelet 1.${context.minor} cannot load its client CA bundle ${clientCAFile} (authentication.x509.clientCAFile, --client-ca-file): ${ca.error}.`,
        `Restore ${clientCAFile} with the cluster's CA certificate in PEM (kubeadm: /etc/kubernetes/pki/ca.crt; OpenShift: /etc/kubernetes/kubelet-ca.crt from the machine config), or correct clientCAFile.`, clientCAFile, ca.inexact));
    }
  }

  const evictionHard = config['evictionHard'];
  const eviction = checkEvictionHard(context.minor, evictionHard && typeof evictionHard === 'object' ? (evictionHard as Record<string, unknown>) : undefined, flagIsTrue(context, 'experimental-allocatable-ignore-eviction'));
  if ('undecidable' in eviction) items.push({ step: 'run:eviction-hard', outcome: { undecidable: eviction.undecidable, ...(configPath ? { path: configPath } : {}) } });
  else if (!eviction.ok) {
    items.push(fail('run:eviction-hard', 'kubelet-eviction-hard-invalid', eviction.error, `Kubelet 1.${context.minor} cannot parse its hard eviction thresholds (evictionHard, --eviction-hard): ${eviction.error}.`,
      'Give every evictionHard entry a known signal (memory.available, nodefs.available, nodefs.inodesFree, imagefs.available, imagefs.inodesFree, pid.available) and a positive quantity or a percentage.', configPath, eviction.inexact));
  }
  return items;
}
