/**
 * Every finding node-check can report: the single source for `node-check explain`, docs/findings.md,
 * the journal MESSAGE_IDs and systemd/node-check.catalog. MESSAGE_IDs were generated once
 * (uuid4, 32 lowercase hex) and must never change: alerts and `journalctl MESSAGE_ID=` use them.
 */
import type { Severity } from '../model/findings.js';
import { CREDENTIALS_KINDS } from './kinds/credentials.js';
import { FLAGS_KINDS } from './kinds/flags.js';
import { GATES_KINDS } from './kinds/gates.js';
import { HOST_KINDS } from './kinds/host.js';
import { KUBELET_CONFIG_KINDS } from './kinds/kubelet-config.js';
import { OVERLAY_KINDS } from './kinds/overlay.js';
import { MODELLED_RANGE } from '../kubelet/data/minors.js';
import { RULE_KINDS } from './rules.js';

export interface FindingKind {
  readonly id: string;
  readonly title: string;
  readonly severity: Severity;
  /** Kubelet versions the rule applies to, in words. */
  readonly versions: string;
  readonly messageId: string;
  /** What happened and why kubelet cares. */
  readonly meaning: string;
  /** How to fix it. */
  readonly fix: string;
}

const KINDS = [
  {
    id: 'bin-dir-missing',
    title: 'The credential provider plugin directory does not exist',
    severity: 'error',
    versions: 'all (1.24+)',
    messageId: '1d5310a7d906480d833d05267aa1333e',
    meaning:
      'Kubelet stats --image-credential-provider-bin-dir before anything else. When it does not exist, kubelet logs "Failed to register CRI auth plugins" err="plugin binary directory <dir> did not exist" and exits with status 1; systemd restarts it every RestartSec, forever, and the node stays NotReady.',
    fix: 'Install the package that ships the plugins (on OpenShift RHEL workers: the ose-*-image-credential-provider RPMs via the upgrade playbook), or remove the credential flags from kubelet\'s command line.',
  },
  {
    id: 'bin-dir-uninspectable',
    title: 'The credential provider plugin directory cannot be inspected',
    severity: 'error',
    versions: 'all (1.24+)',
    messageId: '7366c84377ac43758a34acc5763e79c2',
    meaning:
      'stat() of --image-credential-provider-bin-dir failed with something other than "not found" (a path component is a file, a symlink loop, a name too long). Kubelet logs "error inspecting binary directory <dir>: <error>" and exits with status 1.',
    fix: 'Make --image-credential-provider-bin-dir a readable directory.',
  },
  {
    id: 'config-path-empty',
    title: '--image-credential-provider-config is empty',
    severity: 'error',
    versions: 'all (1.24+)',
    messageId: '1de864cfc387423e8e6670f18fe51ab5',
    meaning:
      'Kubelet registers credential providers as soon as either flag is set. With a bin dir but no (or an empty) --image-credential-provider-config, kubelet logs "credential provider config path is empty" and exits with status 1.',
    fix: 'Set --image-credential-provider-config to the provider config file, or remove --image-credential-provider-bin-dir too.',
  },
  {
    id: 'config-unreadable',
    title: 'The credential provider config cannot be read',
    severity: 'error',
    versions: 'all (1.24+); messages differ from 1.34',
    messageId: 'f692c04d5a854df2af05ddd3361d9e52',
    meaning:
      'Kubelet reads --image-credential-provider-config at start-up. When the file is missing or unreadable it logs "unable to read external registry credential provider configuration from …" (up to 1.33) or "unable to access path …" / "unable to read file …" (1.34+) and exits with status 1.',
    fix: 'Restore the provider config file (on OpenShift it comes from the machine config; do not edit it by hand), or remove the credential flags.',
  },
  {
    id: 'config-is-directory',
    title: 'The credential provider config is a directory, which this kubelet cannot read',
    severity: 'error',
    versions: '1.24-1.33 (1.34+ reads directories)',
    messageId: '25c4de7a7a944255a6671e7180374c70',
    meaning:
      'Kubelet before 1.34 reads --image-credential-provider-config as one file; given a directory the read fails with "is a directory" and kubelet exits with status 1. Directory configs arrived in 1.34 (kubernetes PR #131658).',
    fix: 'Point --image-credential-provider-config at a single file, or upgrade kubelet to 1.34 or newer before shipping a directory.',
  },
  {
    id: 'config-dir-empty',
    title: 'The credential provider config directory has no config files',
    severity: 'error',
    versions: '1.34+',
    messageId: '89a3baf2b79843999dd3b0ecee4e11a3',
    meaning:
      'Kubelet 1.34+ reads every *.json, *.yaml and *.yml file directly in the directory (not recursively, extension case-sensitive). With none, it logs "no configuration files found in directory …" and exits with status 1.',
    fix: 'Put the provider config file(s) into the directory with a .yaml, .yml or .json extension.',
  },
  {
    id: 'config-decode-failed',
    title: 'The credential provider config cannot be decoded',
    severity: 'error',
    versions: 'all (1.24+)',
    messageId: 'a46a5d46eb9c4c6d826966ff5634378b',
    meaning:
      'The file is not valid YAML/JSON, is not kind CredentialProviderConfig of apiVersion kubelet.config.k8s.io/v1alpha1, v1beta1 or v1, or a field has the wrong type (for example an unquoted number for defaultCacheDuration). Kubelet logs "error decoding config …" and exits with status 1.',
    fix: 'Correct the file; `node-check check` shows kubelet\'s exact decoding error.',
  },
  {
    id: 'config-unknown-field',
    title: 'The credential provider config has a field this kubelet does not know',
    severity: 'error',
    versions: '1.32+ (strict decoding); before 1.32 unknown fields are silently dropped',
    messageId: '3ea92b56c0874e31a526d7b4b8b46344',
    meaning:
      'From 1.32 kubelet decodes the config strictly (kubernetes PR #128062): an unknown or misspelt field, or a field newer than this kubelet (tokenAttributes before 1.33, tokenAttributes.cacheType before 1.34), is "strict decoding error: unknown field …" and kubelet exits with status 1.',
    fix: 'Remove or correct the field, or run a kubelet new enough to know it.',
  },
  {
    id: 'config-duplicate-provider',
    title: 'Two credential providers have the same name',
    severity: 'error',
    versions: '1.33 (validation), 1.34+ (while merging files); before 1.33 see plugin-registered-twice',
    messageId: 'd698b77e962f45e3a3d26d2d35b134b3',
    meaning:
      'Provider names must be unique across the whole config (all files of a config directory). Kubelet 1.33 reports "providers.name: Duplicate value", 1.34+ "duplicate provider name … found in configuration file(s)", and exits with status 1.',
    fix: 'Remove or rename one of the providers.',
  },
  {
    id: 'config-invalid',
    title: 'The credential provider config fails kubelet\'s validation',
    severity: 'error',
    versions: 'all (1.24+); token rules 1.33+, cacheType 1.34+',
    messageId: '8a7bc5e341564705a70c7855634d52c8',
    meaning:
      'Kubelet validates the decoded config: at least one provider; names without "/" or spaces and not "." or ".."; a supported exec apiVersion; at least one valid matchImages entry; defaultCacheDuration present and not negative; tokenAttributes only with the KubeletServiceAccountTokenForCredentialProviders gate, on credentialprovider.kubelet.k8s.io/v1, with audience, requireServiceAccount and (1.34+) cacheType. Any violation is "failed to validate credential provider config: …" and exit status 1.',
    fix: 'Correct the fields named in the message.',
  },
  {
    id: 'plugin-binary-missing',
    title: 'A credential provider plugin binary does not exist',
    severity: 'error',
    versions: 'all (1.24+); 1.30+ prints an empty path',
    messageId: '85f6e002d25c40d387c3fdd85003f7d2',
    meaning:
      'For every provider kubelet looks up <bin-dir>/<name>. When it does not exist (or is a dangling symlink) kubelet logs "plugin binary executable <path> did not exist" and exits with status 1. From 1.30 the path in that message is empty ("plugin binary executable  did not exist") because kubelet prints exec.LookPath\'s empty result. This is the OpenShift 4.15→4.16 upgrade failure (OCPBUGS-30970).',
    fix: 'Install the plugin (OpenShift RHEL workers: the provider\'s RPM, e.g. ose-azure-acr-image-credential-provider, via playbooks/upgrade.yml), or run `node-check preflight --fallback` to start kubelet without it until it arrives.',
  },
  {
    id: 'plugin-binary-not-executable',
    title: 'A credential provider plugin is not an executable file',
    severity: 'error',
    versions: '1.30+ (exec.LookPath); up to 1.29 see plugin-not-executable-at-pull',
    messageId: 'ac198d30021c4bea97882b45d65c87d4',
    meaning:
      'From 1.30 kubelet checks the plugin with exec.LookPath (kubernetes PR #120291): a directory ("is a directory") or a file without an execute bit, or on a noexec mount ("permission denied"), makes kubelet log "error inspecting binary executable : exec: …" and exit with status 1.',
    fix: 'chmod 0755 the plugin, or replace the directory with the binary.',
  },
  {
    id: 'plugin-binary-uninspectable',
    title: 'A credential provider plugin binary cannot be inspected',
    severity: 'error',
    versions: 'all (1.24+)',
    messageId: 'cdf3c5121ba34b6395eb772c5ff94515',
    meaning:
      'stat() of <bin-dir>/<name> failed with something other than "not found" (a symlink loop, the bin dir is a regular file, a name too long). Kubelet logs "error inspecting binary executable …" and exits with status 1.',
    fix: 'Make <bin-dir>/<name> a regular executable file.',
  },
  {
    id: 'plugin-registered-twice',
    title: 'A credential provider name is registered twice (kubelet exits 255)',
    severity: 'error',
    versions: '1.24-1.32',
    messageId: '586d134d0f434811a211bc26f3d37027',
    meaning:
      'Before 1.33 kubelet registers providers in one global registry that already holds the built-in ".dockercfg" provider and, linked in, the in-tree cloud providers: "amazon-ecr" (up to 1.26), "azure" (up to 1.29), "google-dockercfg", "google-dockercfg-url" and "google-container-registry" (up to 1.30). Registering a name twice is klog.Fatalf "Credential provider \\"<name>\\" was registered twice", which exits with status 255. It happens only once the binary check of the second provider passed.',
    fix: 'Remove or rename the duplicate provider; never name a plugin after a built-in or in-tree provider of that kubelet.',
  },
  {
    id: 'plugin-not-executable-at-pull',
    title: 'A plugin passes kubelet\'s start-up check but cannot be executed',
    severity: 'warning',
    versions: '1.24-1.29 (start-up only checks existence)',
    messageId: '62a2cd31f4df4817a2b6efacaac1503f',
    meaning:
      'Up to 1.29 kubelet only checks that <bin-dir>/<name> exists, so it starts; every image pull that matches the provider then fails to execute the plugin. Kubelet 1.30+ refuses to start on the same node.',
    fix: 'chmod 0755 the plugin (or replace the directory with the binary) before upgrading kubelet to 1.30.',
  },
  {
    id: 'plugin-wrong-architecture',
    title: 'A plugin binary is built for another CPU architecture',
    severity: 'warning',
    versions: 'all',
    messageId: 'c99021e0d02c40f1935a77d91cd74c9a',
    meaning: 'Kubelet starts (it does not look inside the binary), but every exec of the plugin fails with "exec format error", so pulls from that registry fail.',
    fix: 'Install the plugin package built for this node\'s architecture.',
  },
  {
    id: 'plugin-interpreter-missing',
    title: 'A plugin binary needs an interpreter or loader that is not on the node',
    severity: 'warning',
    versions: 'all',
    messageId: '910ab6471a594075b888ffbb4892500f',
    meaning: 'The plugin\'s ELF interpreter (dynamic loader) or "#!" interpreter is missing, so executing it fails with "no such file or directory" at pull time, although kubelet starts.',
    fix: 'Install the plugin build for this OS (or a static build), or the missing interpreter.',
  },
  {
    id: 'plugin-insecure-permissions',
    title: 'A plugin binary or its directory is writable by non-root users',
    severity: 'warning',
    versions: 'all',
    messageId: '0c9a05b2f007429ba4eaf273df221941',
    meaning: 'Kubelet executes credential plugins as root and hands them registry credentials; a plugin (or directory) that is group/world-writable or not owned by root lets another user run code as root.',
    fix: 'chown root:root and chmod go-w the plugin and its directory.',
  },
  {
    id: 'match-image-never-matches',
    title: 'A matchImages pattern can never match an image',
    severity: 'warning',
    versions: 'all',
    messageId: '76cd26e5bc8a4a75af17f9286b90b30c',
    meaning:
      'Kubelet validates matchImages only by URL parsing, so patterns with a scheme ("https://…"), a glob in the path (globs work per host label only; the path is a plain prefix) or an empty pattern pass validation but never match, and the provider is never asked for credentials.',
    fix: 'Use host patterns such as "*.azurecr.io" or "registry.example.com/team" (no scheme, globs only in the host).',
  },
  {
    id: 'config-fields-ignored',
    title: 'This kubelet silently ignores fields that newer kubelets reject',
    severity: 'warning',
    versions: '1.24-1.31 (non-strict decoding)',
    messageId: 'ce9143b20f684b2f9d4395232f671050',
    meaning: 'Kubelet before 1.32 drops unknown fields when decoding the provider config, so it starts; kubelet 1.32+ decodes strictly and will refuse to start with the same file.',
    fix: 'Remove or correct the named fields before upgrading kubelet to 1.32.',
  },
  {
    id: 'newer-kubelet-refuses',
    title: 'A newer kubelet will not start with this configuration',
    severity: 'warning',
    versions: 'the three modelled minors after the known one (1.24-1.36), upstream kubelet',
    messageId: '5b1f0d6e8c2a4e7f9a3d6c1b8e4f2a70',
    meaning:
      'Kubelet starts now, but the next kubelet minors (up to three ahead, as far as an upgrade may jump under the version skew policy) would refuse this node\'s configuration: a flag they no longer register (every such flag is named, although kubelet stops at the first), a feature gate they lock or removed, a config field or value they reject, each replayed with that minor\'s own rules. The warning names the minors and says the first one\'s words. It never changes the answer for the kubelet on the node. Said by check and serve, not by preflight: that answers for the kubelet starting now, on its start path. Not on OpenShift, where an upgrade brings its own rendered configuration with the kubelet: check that one with --machine-config (docs/runbooks/before-upgrade-openshift.md).',
    fix: 'Before upgrading kubelet to the named minor, make the change the warning names (remove the flag, move the setting into the --config file, drop the gate), so that the upgraded kubelet starts.',
  },
  {
    id: 'credential-providers-not-configured',
    title: 'Kubelet has no credential provider flags',
    severity: 'info',
    versions: 'all',
    messageId: '9076892d9d3048e3934d4a7d2cad7f41',
    meaning: 'Neither --image-credential-provider-config nor --image-credential-provider-bin-dir is set, so kubelet registers no credential providers and this cannot stop it from starting.',
    fix: 'Nothing to do.',
  },
  {
    id: 'kubelet-version-unknown',
    title: 'The kubelet version is not known',
    severity: 'info',
    versions: 'all',
    messageId: 'a71c278d8a8b40b0b58d9a86515b9219',
    meaning: `node-check could not learn the kubelet version (no --kubelet-version, and \`kubelet --version\` was not run or failed), so it evaluated every modelled version ${MODELLED_RANGE}. When they disagree the answer is "unknown" and the findings say which versions fail.`,
    fix: 'Pass --kubelet-version X.Y.Z (node-check never executes anything under --root).',
  },
  {
    id: 'unit-problem',
    title: 'systemd would ignore or reject part of the kubelet unit',
    severity: 'warning',
    versions: 'all',
    messageId: 'a4e6321f54824dc9888b65bf5910d238',
    meaning: 'A line of the kubelet unit or its drop-ins is malformed, or systemd would refuse the unit for a reason unrelated to credential providers (a missing EnvironmentFile= without "-", say).',
    fix: 'Correct the named file and line, then `systemctl daemon-reload`.',
  },
  {
    id: 'kubelet-config-problem',
    title: 'Kubelet\'s --config or --config-dir cannot be read',
    severity: 'warning',
    versions: 'all',
    messageId: 'b7fa52747b81462db0eda4d8ffebb55d',
    meaning: 'node-check reads the KubeletConfiguration only for feature gates. Kubelet itself will refuse to start when it cannot read --config, for a reason unrelated to credential providers.',
    fix: 'Correct the named file.',
  },
  {
    id: 'cannot-decide',
    title: 'node-check cannot tell whether kubelet will start',
    severity: 'warning',
    versions: 'all',
    messageId: '11cdfc7d735648cdb7c5650ba6818f6e',
    meaning: 'No prediction is made (exit code 2), for one of these causes, which the message names: the kubelet unit could not be found or read, or its ExecStart does not run kubelet (MicroK8s, which runs kubelet inside kubelite, is named as such); the kubelet version cannot be read, or is one node-check does not model (it never applies a neighbouring version\'s rules); without a version, the modelled versions disagree; or a start step meets an input node-check cannot settle: a rule it does not model, a fact of a machine it is not running on, a file from a remote source, or one of its own bounds.',
    fix: 'The unit: check --root and --unit, and the named file (a kubelet inside MicroK8s\' kubelite is not modelled). The version: pass --kubelet-version X.Y.Z (or --openshift-version 4.N), or upgrade node-check to a release that models that kubelet. A step: change the named input to a value node-check models; docs/unverified.md says what would settle the rest.',
  },
  {
    id: 'fallback-active',
    title: 'Kubelet runs under the node-check fallback, without some credential providers',
    severity: 'warning',
    versions: 'all',
    messageId: '98576334afcf4c95a5381098fe23f033',
    meaning: 'node-check\'s fallback started kubelet on a configuration without the failing credential providers. Kubelet is up, but image pulls that need those providers\' credentials (for example from ACR/ECR/GCR via node identity) fail until the plugin is installed.',
    fix: 'Install the missing plugin; the next kubelet start (or `node-check fallback revert`) restores the full configuration.',
  },
] as const satisfies readonly FindingKind[];

/** Every kind, node-check's own first, then each area's (src/catalog/kinds/) and the start rules' (src/rules/). */
const ALL_KINDS = [
  ...KINDS,
  ...CREDENTIALS_KINDS,
  ...FLAGS_KINDS,
  ...GATES_KINDS,
  ...KUBELET_CONFIG_KINDS,
  ...RULE_KINDS,
  ...HOST_KINDS,
  ...OVERLAY_KINDS,
] as const satisfies readonly FindingKind[];

/** A finding id the catalog documents: an id missing from the catalog does not compile. */
export type FindingId = (typeof ALL_KINDS)[number]['id'];

const BY_ID = new Map<string, FindingKind>(ALL_KINDS.map((kind) => [kind.id, kind]));

export function allFindingKinds(): readonly FindingKind[] {
  return ALL_KINDS;
}

/** The kind of an id read from outside (the command line, a journal); undefined when the catalog has none. */
export function findingKind(id: string): FindingKind | undefined {
  return BY_ID.get(id);
}
