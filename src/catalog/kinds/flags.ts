/**
 * Finding kinds for kubelet's command line (src/kubelet/command-line/*). MESSAGE_IDs were generated
 * once (uuid4, 32 lowercase hex) and must never change.
 */
import type { FindingKind } from '../findings.js';
import { MODELLED_RANGE } from '../../kubelet/data/minors.js';

export const FLAGS_KINDS = [
  {
    id: 'kubelet-flag-unknown',
    title: 'Kubelet does not know a flag on its command line',
    severity: 'error',
    versions: `${MODELLED_RANGE} (removals: dockershim flags and --dynamic-config-dir 1.24; --container-runtime, --master-service-namespace 1.27; --azure-container-registry-config 1.30; --keep-terminated-pod-volumes 1.31; --cloud-config, --register-schedulable 1.34; --pod-infra-container-image 1.35)`,
    messageId: '9a80f51df6e14b88899288976e2e15ff',
    meaning:
      'Kubelet parses its flags with pflag before anything else; a flag this kubelet version does not register stops it with "failed to parse kubelet flag: unknown flag: --<name>" and exit status 1, and systemd restarts it forever. This is what happens when a unit, drop-in or env file (KUBELET_EXTRA_ARGS, kubeadm-flags.env, /etc/sysconfig/kubelet) still carries a flag a newer kubelet removed, or a flag only a newer kubelet has.',
    fix: 'Remove the flag from the command line (or move the setting into the --config file where it has a KubeletConfiguration field), then restart kubelet.',
  },
  {
    id: 'kubelet-flag-bad-value',
    title: 'A kubelet flag has a value kubelet cannot parse',
    severity: 'error',
    versions: MODELLED_RANGE,
    messageId: 'f6b3085b0d0f4ade831c7e13e75f10c4',
    meaning:
      'pflag parses each value when it reads the flag; a value of the wrong type stops kubelet with "failed to parse kubelet flag: invalid argument \\"<value>\\" for \\"--<flag>\\" flag: <reason>" (for example strconv.ParseInt or time: invalid duration) and exit status 1. An empty variable expanded into --flag=$VAR is a common cause.',
    fix: 'Give the flag a value of its type (a number, a duration such as 10s, true/false, key=value pairs), or remove it.',
  },
  {
    id: 'kubelet-flag-missing-value',
    title: 'A kubelet flag at the end of the command line has no value',
    severity: 'error',
    versions: MODELLED_RANGE,
    messageId: '4121d7edf5e3433e8ce531ec295cb95a',
    meaning:
      'A flag that takes a value was the last argument, written without "=value". Kubelet stops with "failed to parse kubelet flag: flag needs an argument: --<flag>" and exit status 1.',
    fix: 'Write the flag as --flag=value, or remove it.',
  },
  {
    id: 'kubelet-stray-argument',
    title: 'Kubelet\'s command line has a word that is not a flag',
    severity: 'error',
    versions: MODELLED_RANGE,
    messageId: '874e244936a24eda87f108a026d2ba4f',
    meaning:
      'Kubelet accepts no positional arguments. After parsing the flags it refuses the first leftover word with "unknown command <word>" and exit status 1. Typical causes: "--flag value" for a boolean flag (which never takes the next word), a space after "=", a word split by $VAR expansion in the unit, or a bad flag syntax such as "---flag".',
    fix: 'Join the value to its flag with "=" (--fail-swap-on=false), quote values that contain spaces, or remove the word.',
  },
  {
    id: 'kubelet-flag-validation',
    title: 'Kubelet refuses its --node-labels',
    severity: 'error',
    versions: `${MODELLED_RANGE} (OpenShift's kubelet exempts node-role.kubernetes.io/{worker,master,control-plane,etcd})`,
    messageId: '40b08b77c95f4b68a0adcb5a76d501e0',
    meaning:
      'After parsing, kubelet validates its flags (ValidateKubeletFlags). Labels in the kubernetes.io or k8s.io namespaces must be in kubelet\'s allowed set or under kubelet.kubernetes.io / node.kubernetes.io; otherwise kubelet exits with "failed to validate kubelet flags: unknown \'kubernetes.io\' or \'k8s.io\' labels specified with --node-labels: [...]". Syntactically invalid keys or values fail with "invalid node labels: ...". Upstream kubelet refuses node-role.kubernetes.io/<role>; only OpenShift\'s kubelet accepts the four roles it sets itself.',
    fix: 'Drop the restricted label from --node-labels and set it on the Node object instead (kubectl label node), or use a label under node.kubernetes.io or your own domain.',
  },
] as const satisfies readonly FindingKind[];
