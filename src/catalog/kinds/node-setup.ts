/**
 * Finding kinds of the offline node-setup checks (src/kubelet/node-setup). MESSAGE_IDs were
 * generated once (uuid4 hex) and must never change.
 */
import type { FindingKind } from '../findings.js';
import { MODELLED_RANGE, NEWEST_MODELLED_MINOR } from '../../kubelet/data/minors.js';

export const NODE_SETUP_KINDS = [
  {
    id: 'system-reserved-unparsable',
    title: '--system-reserved (systemReserved) has an entry kubelet cannot parse',
    severity: 'error',
    versions: `all (${MODELLED_RANGE})`,
    messageId: 'f506b5b0fb2741c7ba3fca8edf58d9a3',
    meaning:
      'Kubelet parses systemReserved after connecting to the container runtime and exits with "failed to run Kubelet: --system-reserved value failed to parse: …" when a value is not a quantity (an empty value from an unset environment variable, "1GB"), is negative, or names a resource other than cpu, memory, ephemeral-storage or pid ("cannot reserve …"). Exit status 1, every restart.',
    fix: 'Give every entry a valid quantity (cpu=500m, memory=1Gi); on OpenShift check that /etc/node-sizing.env sets SYSTEM_RESERVED_CPU, SYSTEM_RESERVED_MEMORY and SYSTEM_RESERVED_ES.',
  },
  {
    id: 'kube-reserved-unparsable',
    title: '--kube-reserved (kubeReserved) has an entry kubelet cannot parse',
    severity: 'error',
    versions: `all (${MODELLED_RANGE})`,
    messageId: '74e69ddbeaa54efb8691150a9aa37bed',
    meaning:
      'Kubelet parses kubeReserved just before systemReserved and exits with "failed to run Kubelet: --kube-reserved value failed to parse: …" on a value that is not a non-negative quantity or a resource other than cpu, memory, ephemeral-storage or pid.',
    fix: 'Give every --kube-reserved entry a valid quantity, or remove the entry.',
  },
  {
    id: 'node-ip-rejected',
    title: 'kubelet rejects --node-ip',
    severity: 'error',
    versions: `all (${MODELLED_RANGE}); the dual-stack rules differ before 1.27 and 1.30`,
    messageId: '97bef88573d24dfb859c4d3096a81801',
    meaning:
      'RunKubelet checks --node-ip before creating the kubelet: more than two addresses, two of one family, 0.0.0.0 or :: in a pair, or a pair together with a cloud provider (up to 1.26 any --cloud-provider; 1.27-1.29 "external" only with CloudDualStackNodeIPs; 1.30+ "external" is fine) make it exit with "failed to run Kubelet: bad --node-ip …" (or "dual-stack --node-ip … " up to 1.26). Entries that do not parse as IPs are ignored, not fatal.',
    fix: 'Set --node-ip to one address, or to one IPv4 and one IPv6 address.',
  },
  {
    id: 'cloud-provider-disabled',
    title: '--cloud-provider names a built-in cloud provider that this kubelet has disabled',
    severity: 'error',
    versions: '1.29-1.30 by default (DisableCloudProviders beta), 1.24-1.28 with the gate set; 1.31+ always',
    messageId: '33581d8a6e7a439ba9aabcdf7e2100c4',
    meaning:
      'NewMainKubelet refuses a built-in provider name: "failed to run Kubelet: failed to create kubelet: cloud provider "aws" was specified, but built-in cloud providers are disabled. Please set --cloud-provider=external and migrate to an external cloud provider". Up to 1.30 kubelet first tries to initialise the provider, which may fail with a cloud-specific error instead.',
    fix: 'Set --cloud-provider=external (or drop it) and run the external cloud controller manager.',
  },
  {
    id: 'cloud-provider-unknown',
    title: '--cloud-provider names a provider this kubelet does not have',
    severity: 'error',
    versions: '1.24-1.30',
    messageId: '4fa2c502e50c48ceb6080983dc7573a2',
    meaning:
      'Up to 1.30 kubelet initialises the named in-tree provider early in run(); a name it does not have (OpenStack from 1.26, AWS from 1.27, Azure and vSphere from 1.30, or a typo) exits with "failed to run Kubelet: unknown cloud provider "…"".',
    fix: 'Set --cloud-provider=external (or drop it) and run the external cloud controller manager.',
  },
  {
    id: 'cloud-config-unopenable',
    title: '--cloud-config cannot be opened',
    severity: 'error',
    versions: '1.24-1.30 (with a --cloud-provider other than external)',
    messageId: 'd3f535d47ed242099dcc0c42de06350a',
    meaning:
      'Before initialising a cloud provider, kubelet opens --cloud-config; if that fails it calls klog.Fatalf("Couldn\'t open cloud provider configuration …") and exits with status 255.',
    fix: 'Restore the --cloud-config file, or drop --cloud-config and --cloud-provider.',
  },
  {
    id: 'kubelet-lock-file-missing',
    title: '--exit-on-lock-contention is set without --lock-file',
    severity: 'error',
    versions: `all (${MODELLED_RANGE})`,
    messageId: '9fb0c48111c94fb7bc36c9c6b17ea82c',
    meaning: 'Early in run() kubelet refuses --exit-on-lock-contention without a lock file: "failed to run Kubelet: cannot exit on lock file contention: no lock file specified", exit status 1.',
    fix: 'Add --lock-file (e.g. /var/run/lock/kubelet.lock) or remove --exit-on-lock-contention.',
  },
  {
    id: 'kubelet-kubeconfig-invalid',
    title: 'Kubelet cannot build its API client from --kubeconfig / --bootstrap-kubeconfig',
    severity: 'error',
    versions: `all (${MODELLED_RANGE})`,
    messageId: '5b0e7d3c2f6a4e81a9c4d2b7f10e6a39',
    meaning:
      'With --kubeconfig set, run() loads it before it connects to the container runtime. A missing file ("invalid kubeconfig: stat …: no such file or directory"; with rotateCertificates "unable to load kubeconfig: …"), one that does not parse, has no current context or names a missing CA or client certificate file exits with status 1. With --bootstrap-kubeconfig, a kubeconfig without an unexpired client certificate sends kubelet to the bootstrap kubeconfig, and a missing one exits ("unable to load bootstrap kubeconfig: stat …").',
    fix: 'Restore the kubeconfig (and the client certificate it names, /var/lib/kubelet/pki/kubelet-client-current.pem) as the node had it, or the bootstrap kubeconfig, or correct --kubeconfig / --bootstrap-kubeconfig.',
  },
  {
    id: 'kubelet-cgroup-root-missing',
    title: 'cgroupRoot (--cgroup-root) names a cgroup that does not exist on this host',
    severity: 'error',
    versions: `all (${MODELLED_RANGE})`,
    messageId: '2f8d1c7e5a3b4906b1e4c8a7d6f20b95',
    meaning:
      'With cgroupsPerQOS (the default), the container manager checks that the cgroup root exists in every cgroup hierarchy before "Started kubelet"; a missing one exits with status 1 ("failed to run Kubelet: invalid configuration: cgroup [\\"x\\"] has some missing paths: …", the paths in the host\'s order). Checked on the running host only.',
    fix: 'Create the cgroup before kubelet starts, or remove cgroupRoot / --cgroup-root.',
  },
  {
    id: 'kubelet-serving-cert-invalid',
    title: 'The serving certificate (tlsCertFile, --tls-cert-file) cannot be loaded',
    severity: 'error',
    versions: `1.31-1.${NEWEST_MODELLED_MINOR} (ReloadKubeletServerCertificateFile)`,
    messageId: '6a3e9f2d0c8b47d5a1f7e4b3c92d8e10',
    meaning:
      'From 1.31, NewMainKubelet loads tlsCertFile and tlsPrivateKeyFile before "Started kubelet"; a missing file exits with status 1 ("failed to run Kubelet: failed to create kubelet: failed to initialize file based certificate manager: unable to set up dynamic certificate manager for kubelet server cert files: open …"). Before 1.31 the files are read when the server starts, after "Started kubelet".',
    fix: 'Restore the certificate and key, or unset tlsCertFile and tlsPrivateKeyFile so kubelet writes a self-signed pair in --cert-dir, or use serverTLSBootstrap.',
  },
  {
    id: 'kubelet-user-namespace-manager-failed',
    title: 'The user namespace manager cannot look up the kubelet user, its getsubids, or cover maxPods',
    severity: 'error',
    versions: `1.30-1.${NEWEST_MODELLED_MINOR} (UserNamespacesSupport on; by default from 1.33)`,
    messageId: 'cde2f55f15b94864ad7c8bd559d03897',
    meaning:
      'Last in NewMainKubelet, before "Started kubelet", kubelet looks the user "kubelet" up. A kubelet built without cgo reads /etc/passwd itself, and a missing file exits with status 1 ("failed to run Kubelet: failed to create kubelet: create user namespace manager: kubelet mappings: open /etc/passwd: no such file or directory"); a cgo build (the releases) asks glibc, which takes a missing file as no such user. When the user exists, kubelet runs getsubids from its PATH, and exits if there is none ("exec: \\"getsubids\\": executable file not found in $PATH"). Without the user, the default ranges cover at most 65535 pods.',
    fix: 'Restore /etc/passwd; with a "kubelet" user, install getsubids (shadow-utils-subid, or uidmap on Debian) and give the user subordinate IDs, or remove the user; keep maxPods at 65535 or less.',
  },
  {
    id: 'kubelet-cpu-manager-policy-invalid',
    title: 'cpuManagerPolicy (--cpu-manager-policy) is unknown, or static without a CPU reservation',
    severity: 'error',
    versions: `all (${MODELLED_RANGE}; 1.24-1.25 with the CPUManager gate on)`,
    messageId: '9c41e6a0b3d24f7e8a15c2d90e7b4f63',
    meaning:
      'The container manager creates the CPU manager before "Started kubelet". A policy other than none or static exits with status 1 ("failed to run Kubelet: unknown policy: \\"x\\""); static without systemReserved.cpu, kubeReserved.cpu or reservedSystemCPUs exits with "[cpumanager] unable to determine reserved CPU resources for static policy".',
    fix: 'Set cpuManagerPolicy to none, or to static with a CPU reservation (kubeReserved.cpu, systemReserved.cpu or reservedSystemCPUs).',
  },
  {
    id: 'kubelet-client-ca-invalid',
    title: 'The client CA bundle (authentication.x509.clientCAFile) cannot be loaded',
    severity: 'error',
    versions: `all (${MODELLED_RANGE})`,
    messageId: '014a828e0c0046b9aa44f9739d4aca9e',
    meaning:
      'Kubelet loads the CA bundle it authenticates clients with before it connects to the container runtime. A missing file, an empty one ("missing content for CA bundle …") or one without a PEM certificate ("error loading CA bundle for \\"client-ca-bundle::P\\": data does not contain any valid RSA or ECDSA certificates") or with a certificate Go\'s x509.ParseCertificate refuses (a DER encoding error, or from 1.32 a negative serial number: "x509: negative serial number") exits with status 1, every restart.',
    fix: 'Restore the cluster CA certificate in PEM at that path (kubeadm: /etc/kubernetes/pki/ca.crt; OpenShift: /etc/kubernetes/kubelet-ca.crt), or correct clientCAFile / --client-ca-file.',
  },
  {
    id: 'kubelet-eviction-hard-invalid',
    title: 'evictionHard (--eviction-hard) has a threshold kubelet cannot parse',
    severity: 'error',
    versions: `all (${MODELLED_RANGE}); containerfs.* signals from 1.29`,
    messageId: '6e17b13b869f471bb331505203ee2a1e',
    meaning:
      'run() parses the hard eviction thresholds before it starts the container manager. An unknown signal ("unsupported eviction signal …"), a value that is not a quantity or a percentage, a percentage above 100% or a quantity that is not positive exits with status 1 ("failed to run Kubelet: …").',
    fix: 'Use known signals (memory.available, nodefs.available, nodefs.inodesFree, imagefs.available, imagefs.inodesFree, pid.available) with a positive quantity (100Mi) or a percentage (10%).',
  },
] as const satisfies readonly FindingKind[];
