/**
 * Finding kinds for kubelet's --config file, --config-dir drop-ins and ValidateKubeletConfiguration
 * (src/kubelet/config/*). MESSAGE_IDs were generated once and must never change.
 */
import type { FindingKind } from '../findings.js';

export const KUBELET_CONFIG_KINDS = [
  {
    id: 'kubelet-config-unreadable',
    title: 'The kubelet --config file cannot be read',
    severity: 'error',
    versions: '1.24+',
    messageId: '55a1d419311a4bd38f6e1e47607249cb',
    meaning:
      'Kubelet reads its --config file before anything else. When it is missing or unreadable kubelet exits with status 1: "failed to load kubelet config file, path: P, error: failed to load Kubelet config file P, error failed to read kubelet config file \\"P\\", error: open P: no such file or directory" (1.24-1.27 put "path: P" at the end).',
    fix: 'Restore the file (kubeadm: /var/lib/kubelet/config.yaml from `kubeadm join phase kubelet-start`; OpenShift: /etc/kubernetes/kubelet.conf from the machine config) or correct --config.',
  },
  {
    id: 'kubelet-config-empty',
    title: 'The kubelet --config file is empty',
    severity: 'error',
    versions: '1.24+',
    messageId: '789da4f2fcb14e0b925ffc3428ff433a',
    meaning: 'An empty --config file is fatal: kubelet exits with status 1 and "kubelet config file \\"P\\" was empty".',
    fix: 'Write a complete KubeletConfiguration (apiVersion kubelet.config.k8s.io/v1beta1) into the file, or restore it from the cluster tooling that owns it.',
  },
  {
    id: 'kubelet-config-invalid',
    title: 'The kubelet --config file does not decode',
    severity: 'error',
    versions: '1.24+',
    messageId: 'a9eaef077bab441fb574f10c830c4b11',
    meaning:
      'Kubelet decodes --config as kubelet.config.k8s.io/v1beta1 KubeletConfiguration. A YAML or JSON syntax error, a value of the wrong type (a string where a number is expected), a bad duration, or any other apiVersion/kind makes kubelet exit with status 1 ("failed to decode: …"). Unknown fields are not fatal (see kubelet-config-fields-ignored).',
    fix: 'Fix the reported line or field; check apiVersion: kubelet.config.k8s.io/v1beta1 and kind: KubeletConfiguration.',
  },
  {
    id: 'kubelet-config-fields-ignored',
    title: 'Kubelet ignores fields of its config file',
    severity: 'warning',
    versions: '1.24+',
    messageId: '346de001b7f243608bc75815bc5fd1ef',
    meaning:
      'Kubelet decodes its config strictly first and, when only unknown or repeated fields fail, falls back to lenient decoding with the log line "Using lenient decoding as strict decoding failed". The unknown fields (misspelled, wrongly cased, or newer than this kubelet) are dropped: kubelet starts, but the setting has no effect.',
    fix: 'Correct the field names, or remove settings this kubelet version does not know (they take effect only on a newer kubelet).',
  },
  {
    id: 'kubelet-config-dropin-env-missing',
    title: '--config-dir is set but KUBELET_CONFIG_DROPIN_DIR_ALPHA is not',
    severity: 'error',
    versions: '1.28-1.29',
    messageId: '0263d9fe49e440099dd60eab4cf36cc7',
    meaning:
      'In kubelet 1.28 and 1.29 the drop-in directory was alpha: kubelet refuses to start when --config-dir is given without the environment variable KUBELET_CONFIG_DROPIN_DIR_ALPHA (any value). From 1.30 the variable is not needed.',
    fix: 'Add Environment=KUBELET_CONFIG_DROPIN_DIR_ALPHA=on to the kubelet unit (a systemd drop-in), or remove --config-dir, or upgrade kubelet to 1.30+.',
  },
  {
    id: 'kubelet-config-dropin-invalid',
    title: 'A kubelet config drop-in cannot be merged',
    severity: 'error',
    versions: '1.28+',
    messageId: 'e29b771ae406476ea88b2459cbc7e9e4',
    meaning:
      'Kubelet merges every *.conf file under --config-dir (recursively, in lexical order) onto its config. A drop-in that is empty, does not parse, lacks kind (newer kubelets: lacks apiVersion/kind or has another one), or holds a value of the wrong type makes kubelet exit with status 1 ("failed to merge kubelet configs: …").',
    fix: 'Fix or remove the named drop-in; each needs apiVersion: kubelet.config.k8s.io/v1beta1 and kind: KubeletConfiguration.',
  },
  {
    id: 'kubelet-config-validation',
    title: 'Kubelet rejects its configuration',
    severity: 'error',
    versions: '1.24+; allowed values change by version',
    messageId: '6749e20f72e64f66be328a2210f3c617',
    meaning:
      'After merging file, drop-ins and flags, kubelet validates the configuration and exits with status 1 on any error: "failed to validate kubelet configuration, error: [invalid configuration: …]". Version skew shows here: swapBehavior NoSwap before 1.30 or UnlimitedSwap from 1.30, enforceNodeAllocatable *-compressible values before they exist, failCgroupV1 on a cgroup v1 host (default true from 1.35).',
    fix: 'Change the named field to a value this kubelet version accepts, or enable the feature gate the message names.',
  },
  {
    id: 'kubelet-logging-invalid',
    title: 'Kubelet cannot initialise logging with its logging configuration',
    severity: 'error',
    versions: '1.24+ (1.24: reported inside kubelet-config-validation)',
    messageId: 'a744611634104cc58e513886cba10ed7',
    meaning:
      'Kubelet sets up logging from logging (and --logging-format, --v) before it validates the rest of its configuration. A format other than "text" or "json" exits with status 1: "initialize logging: logging.format: Invalid value: \\"bogus\\": Unsupported log format"; so do vmodule entries with a non-text format, and "json" with the LoggingBetaOptions gate off.',
    fix: 'Set logging.format (or --logging-format) to "text" or "json".',
  },
  {
    id: 'kubelet-tls-option-unknown',
    title: 'Kubelet does not know a TLS cipher suite or version it is given',
    severity: 'error',
    versions: '1.24+',
    messageId: '982409d124bd4f4da7dce2722699b3c5',
    meaning:
      'Building its dependencies, kubelet maps tlsCipherSuites (--tls-cipher-suites) and tlsMinVersion (--tls-min-version) to Go\'s crypto/tls constants. An unknown name exits with status 1: "failed to construct kubelet dependencies: Cipher suite BOGUS not supported or doesn\'t exist" or "… unknown tls version \\"VersionTLS99\\"".',
    fix: 'Use Go crypto/tls cipher suite names and VersionTLS12 or VersionTLS13.',
  },
] as const satisfies readonly FindingKind[];
