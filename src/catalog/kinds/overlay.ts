/**
 * Findings of `check --machine-config` / `check --overlay`: about the configuration
 * about to be applied, not about kubelet's rules. Each one that can change the answer makes it
 * "cannot tell" (exit 2): node-check never guesses what an unreadable config would write.
 */
import type { FindingKind } from '../findings.js';

export const OVERLAY_KINDS = [
  {
    id: 'overlay-invalid',
    title: 'The configuration to apply cannot be read',
    severity: 'warning',
    versions: 'all',
    messageId: '821e19b0576448738dc34e47c6e16eb0',
    meaning:
      'A --machine-config file is not a MachineConfig (kind MachineConfig, apiVersion machineconfiguration.openshift.io/v1, with spec.config) or an Ignition config of spec 3.0-3.4, or it is malformed: bad YAML or JSON, an alias bomb, a path that is not absolute or contains "..", a unit name with "/", duplicate paths, a file too large, or all configurations of the check together larger than 64 MiB read or decoded (caps on node-check\'s own memory); or a --overlay directory cannot be read. node-check cannot tell what the upgrade would write, so it cannot tell whether kubelet will start after it.',
    fix: 'Pass the rendered config itself: `oc get mc rendered-worker-<hash> -o yaml > target.yaml` (one object, not a List), and fix the named field.',
  },
  {
    id: 'overlay-content-unknown',
    title: 'A file the configuration writes has contents node-check cannot tell',
    severity: 'warning',
    versions: 'all',
    messageId: '40320d33cdce460886264dc766e8f74d',
    meaning:
      'The configuration writes a file kubelet\'s start depends on, but its contents come from a remote source (http, https, s3, tftp, gs), which node-check never fetches, or cannot be decoded (invalid base64 or gzip, an unknown data URL charset, larger than 16 MiB). The answer depends on that file, so node-check cannot tell.',
    fix: 'Inline the file as a data: URL (UTF-8, URL-encoded or base64, optionally gzip) in the MachineConfig, or lay the expected file over the node with --overlay DIR.',
  },
  {
    id: 'overlay-not-modelled',
    title: 'The configuration does something node-check does not model',
    severity: 'warning',
    versions: 'all',
    messageId: 'dfb053da5ee94ebeb9326ea8bda5cdb6',
    meaning:
      'The configuration merges or replaces a remote Ignition config, or writes a path whose parent is a file on the node (the machine-config daemon would fail there). node-check cannot tell what the node will hold afterwards.',
    fix: 'Check the named entry; node-check answers once the configuration is self-contained and can be written.',
  },
  {
    id: 'openshift-version-unverified',
    title: 'The OpenShift-to-kubelet version row is not verified',
    severity: 'info',
    versions: 'all',
    messageId: 'e3157f9c22a64df5bc40cd03def3724e',
    meaning:
      'The kubelet minor for this --openshift-version comes from a row of src/kubelet/data/openshift-kubelet.ts that no source checked here confirms. The rows follow the pattern OpenShift 4.N = Kubernetes 1.(N+13) of the confirmed ones.',
    fix: 'Pass --kubelet-version with the kubelet of the target release (`oc adm release info <release> --output json | jq .displayVersions`) to be sure.',
  },
] as const satisfies readonly FindingKind[];
