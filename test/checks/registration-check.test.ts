import t from 'tap';
import { findingForFailure } from '../../src/checks/registration-check.js';
import type { CheckContext } from '../../src/checks/check.js';
import { simulateRegistration } from '../../src/credentials/registration.js';
import { requireTraits } from '../../src/kubelet/version.js';
import type { FileTable, NodeModel } from '../../src/model/node.js';
import { dir, executable, file, PLUGIN_DIR } from '../helpers/facts.js';

const CONFIG = '/etc/kubernetes/credential-providers/config.yaml';
const flags = { configPath: CONFIG, binDir: PLUGIN_DIR };
// The registration check reads the model only for remediation of missing plugins and bin dirs.
const model = {} as NodeModel;

function findings(minor: number, files: FileTable) {
  const traits = requireTraits(minor);
  const registration = simulateRegistration({ ...flags, files, traits, tokenGateEnabled: false });
  const context: CheckContext = { model, traits, flags, registration };
  return registration.failure ? [findingForFailure(registration.failure, context)] : [];
}

const providerConfig = (name: string, execApi = 'v1beta1') =>
  file(`apiVersion: kubelet.config.k8s.io/v1beta1\nkind: CredentialProviderConfig\nproviders:\n  - name: ${name}\n    apiVersion: credentialprovider.kubelet.k8s.io/${execApi}\n    matchImages: ["*.azurecr.io"]\n    defaultCacheDuration: 10m\n`);

t.test('an inexact kubelet text reaches the finding flagged inexact; an exact one is not flagged', async (t) => {
  const files = { [PLUGIN_DIR]: dir(), [CONFIG]: providerConfig('acr', 'v9') };
  const [old] = findings(32, files);
  t.match(old, { id: 'config-invalid', severity: 'error', inexact: true });
  t.match(old?.kubeletError, /^failed to validate credential provider config: providers\.apiVersion: Unsupported value: "credentialprovider\.kubelet\.k8s\.io\/v9": supported values: /);
  const [sorted] = findings(33, files);
  t.equal(sorted?.id, 'config-invalid');
  t.notOk('inexact' in (sorted ?? {}), '1.33 prints the values sorted: exact');
});

t.test('a plugin named like an in-tree provider: the finding says so', async (t) => {
  const files = { [PLUGIN_DIR]: dir(), [CONFIG]: providerConfig('azure'), [`${PLUGIN_DIR}/azure`]: executable() };
  const [finding] = findings(29, files);
  t.match(finding, {
    id: 'plugin-registered-twice',
    kubeletError: 'Credential provider "azure" was registered twice',
    message: 'Credential provider "azure" is registered twice (kubelet 1.29 has a built-in provider of that name). Kubelet will exit with status 255 (klog.Fatalf) at start-up.',
    provider: 'azure',
  });
  t.same(findings(30, files), [], '1.30 no longer links the Azure provider');
});

t.test('a v1 config on 1.25: kubelet\'s words, and the fix names v1beta1', async (t) => {
  const v1 = file('apiVersion: kubelet.config.k8s.io/v1\nkind: CredentialProviderConfig\nproviders:\n  - name: acr\n    apiVersion: credentialprovider.kubelet.k8s.io/v1\n    matchImages: ["*.azurecr.io"]\n    defaultCacheDuration: 10m\n');
  const [finding] = findings(25, { [PLUGIN_DIR]: dir(), [CONFIG]: v1 });
  t.match(finding, {
    id: 'config-decode-failed',
    kubeletError: `error decoding config ${CONFIG}: no kind "CredentialProviderConfig" is registered for version "kubelet.config.k8s.io/v1" in scheme "pkg/credentialprovider/plugin/plugin.go:56"`,
    remediation: `Kubelet 1.25 knows only kubelet.config.k8s.io/v1alpha1 and v1beta1: set apiVersion: kubelet.config.k8s.io/v1beta1 in ${CONFIG}, and credentialprovider.kubelet.k8s.io/v1beta1 for each provider.`,
  });
  t.equal(finding?.inexact, true, 'the scheme name depends on how the binary was built (src/credentials/decode.ts)');
  t.same(findings(26, { [PLUGIN_DIR]: dir(), [CONFIG]: v1, [`${PLUGIN_DIR}/acr`]: executable() }), [], '1.26 decodes it');
});

t.test('a credential flag kubelet reads as "": "not set" or "set to an empty value", never an empty path in the text', async (t) => {
  const traits = requireTraits(29);
  const files = { [CONFIG]: providerConfig('acr'), [PLUGIN_DIR]: dir() };
  const run = (given: Record<string, string>, flagsSeen: { configPath: string; binDir: string }) => {
    const occurrences = new Map(Object.entries(given).map(([name, value]) => [name, [value]]));
    const withFlags = { kubelet: { flags: { occurrences } } } as unknown as NodeModel;
    const registration = simulateRegistration({ ...flagsSeen, files, traits, tokenGateEnabled: false });
    return findingForFailure(registration.failure!, { model: withFlags, traits, flags: flagsSeen, registration });
  };
  const absent = run({ 'image-credential-provider-config': CONFIG }, { configPath: CONFIG, binDir: '' });
  t.match(absent, { id: 'bin-dir-missing', kubeletError: 'plugin binary directory  did not exist' }, "kubelet's own text keeps its empty path");
  t.match(absent?.message, /^--image-credential-provider-bin-dir is not set on kubelet's command line: /);
  t.notMatch(absent?.remediation, /\$VAR/, 'no variable hint for a flag that is not there');
  t.notMatch(`${absent?.message} ${absent?.remediation}`, /directory {2}|Create {2}| as \//, 'no empty path in node-check\'s words');

  const empty = run({ 'image-credential-provider-config': CONFIG, 'image-credential-provider-bin-dir': '' }, { configPath: CONFIG, binDir: '' });
  t.match(empty?.message, /^--image-credential-provider-bin-dir is set to an empty value/);
  t.match(empty?.remediation, /\$\{VAR\} passes its value as one word while \$VAR splits it/);

  const noConfig = run({ 'image-credential-provider-bin-dir': PLUGIN_DIR }, { configPath: '', binDir: PLUGIN_DIR });
  t.match(noConfig, { id: 'config-path-empty', message: /^--image-credential-provider-config is not set on kubelet's command line: kubelet needs it once --image-credential-provider-bin-dir is set\./ });
});
