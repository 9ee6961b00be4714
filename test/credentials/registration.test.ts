import t from 'tap';
import { simulateRegistration, checkPluginBinary, type RegistrationInput } from '../../src/credentials/registration.js';
import { requireTraits } from '../../src/kubelet/version.js';
import type { FileTable, PathFact } from '../../src/model/node.js';

const BIN = '/usr/libexec/kubelet-image-credential-provider-plugins';
const CONFIG = '/etc/kubernetes/credential-providers/acr-credential-provider.yaml';
import { dir as directory, executable, file } from '../helpers/facts.js';

const dir = directory();
const exe = executable();
const config = (...names: string[]) =>
  file(`apiVersion: kubelet.config.k8s.io/v1
kind: CredentialProviderConfig
providers:
${names.map((n) => `  - name: ${n}\n    apiVersion: credentialprovider.kubelet.k8s.io/v1\n    matchImages: ["*.azurecr.io"]\n    defaultCacheDuration: 10m\n`).join('')}`);

function run(minor: number, files: FileTable, overrides: Partial<RegistrationInput> = {}) {
  return simulateRegistration({ configPath: CONFIG, binDir: BIN, files, traits: requireTraits(minor), tokenGateEnabled: false, ...overrides });
}

t.test('the motivating failure, in each generation\'s words', async (t) => {
  const files = { [BIN]: dir, [CONFIG]: config('acr-credential-provider') };
  t.match(run(28, files).failure, {
    findingId: 'plugin-binary-missing',
    kubeletError: `plugin binary executable ${BIN}/acr-credential-provider did not exist`,
    exitStatus: 1,
    provider: 'acr-credential-provider',
  });
  t.equal(run(30, files).failure?.kubeletError, 'plugin binary executable  did not exist', '1.30+ prints LookPath\'s empty path');
  t.equal(run(35, files).failure?.findingId, 'plugin-binary-missing');
});

t.test('a plugin present and executable registers', async (t) => {
  const files = { [BIN]: dir, [CONFIG]: config('acr-credential-provider'), [`${BIN}/acr-credential-provider`]: exe };
  for (const minor of [26, 29, 30, 33, 34, 35]) {
    const result = run(minor, files);
    t.equal(result.failure, undefined, `1.${minor}`);
    t.same(result.plugins.map((p) => [p.provider, p.failure]), [['acr-credential-provider', null]]);
  }
});

t.test('the bin dir is checked before the config is read', async (t) => {
  const result = run(28, { [CONFIG]: file('not: [valid') });
  t.match(result.failure, { findingId: 'bin-dir-missing', kubeletError: `plugin binary directory ${BIN} did not exist` });
  const empty = run(28, { [CONFIG]: config('a') }, { binDir: '' });
  t.equal(empty.failure?.kubeletError, 'plugin binary directory  did not exist', 'only the config flag set');
  const notDir = run(28, { '/usr/libexec': { ...exe, type: 'file' } as PathFact, [BIN]: { exists: false, code: 'ENOTDIR' } });
  t.equal(notDir.failure?.kubeletError, `error inspecting binary directory ${BIN}: stat ${BIN}: not a directory`);
});

t.test('providers are named even when an earlier step fails (for metrics and remediation)', async (t) => {
  const result = run(28, { [CONFIG]: config('acr-credential-provider') });
  t.equal(result.failure?.findingId, 'bin-dir-missing');
  t.same(result.plugins.map((p) => p.provider), ['acr-credential-provider']);
});

t.test('config path empty, missing, a directory', async (t) => {
  t.equal(run(28, { [BIN]: dir }, { configPath: '' }).failure?.kubeletError, 'credential provider config path is empty');
  t.equal(
    run(28, { [BIN]: dir }).failure?.kubeletError,
    `unable to read external registry credential provider configuration from "${CONFIG}": open ${CONFIG}: no such file or directory`,
  );
  t.equal(run(34, { [BIN]: dir }).failure?.kubeletError, `unable to access path "${CONFIG}": stat ${CONFIG}: no such file or directory`);
  const asDir = { [BIN]: dir, [CONFIG]: { ...dir, entries: [] } as PathFact };
  t.equal(run(33, asDir).failure?.findingId, 'config-is-directory');
  t.match(run(34, asDir).failure, { findingId: 'config-dir-empty', kubeletError: `no configuration files found in directory "${CONFIG}"` });
});

t.test('1.34+ config directories: lexical order, extensions, merge-time duplicates', async (t) => {
  const d = '/etc/kubernetes/cp.d';
  const files: FileTable = {
    [BIN]: dir,
    [d]: { ...dir, entries: [{ name: 'b.yaml', isDirectory: false }, { name: 'a.json', isDirectory: false }, { name: 'c.YAML', isDirectory: false }, { name: 'sub.yml', isDirectory: true }] },
    [`${d}/a.json`]: file(JSON.stringify({ apiVersion: 'kubelet.config.k8s.io/v1', kind: 'CredentialProviderConfig', providers: [{ name: 'one', apiVersion: 'credentialprovider.kubelet.k8s.io/v1', matchImages: ['a.io'], defaultCacheDuration: '1m' }] })),
    [`${d}/b.yaml`]: config('two'),
    [`${BIN}/one`]: exe,
    [`${BIN}/two`]: exe,
  };
  const ok = run(34, files, { configPath: d });
  t.equal(ok.failure, undefined);
  t.same(ok.config?.providers.map((p) => p.name), ['one', 'two'], 'a.json before b.yaml; c.YAML and the sub.yml directory ignored');
  const dup = run(34, { ...files, [`${d}/b.yaml`]: config('one') }, { configPath: d });
  t.equal(dup.failure?.kubeletError, 'duplicate provider name "one" found in configuration file(s)');
});

t.test('duplicate names: fatal registration (exit 255) up to 1.32, validation in 1.33', async (t) => {
  const files = { [BIN]: dir, [CONFIG]: config('acr', 'acr'), [`${BIN}/acr`]: exe };
  t.match(run(32, files).failure, { findingId: 'plugin-registered-twice', exitStatus: 255, kubeletError: 'Credential provider "acr" was registered twice' });
  t.match(run(33, files).failure, { findingId: 'config-duplicate-provider', kubeletError: 'failed to validate credential provider config: providers.name: Duplicate value: "acr"' });
  t.match(run(34, files).failure, { findingId: 'config-duplicate-provider', kubeletError: 'duplicate provider name "acr" found in configuration file(s)' });
  t.equal(run(32, { ...files, [`${BIN}/acr`]: { exists: false, code: 'ENOENT' } }).failure?.findingId, 'plugin-binary-missing', 'the missing binary is found first');
  t.equal(run(32, { [BIN]: dir, [CONFIG]: config('.dockercfg'), [`${BIN}/.dockercfg`]: exe }).failure?.findingId, 'plugin-registered-twice', 'the built-in .dockercfg');
  t.equal(run(33, { [BIN]: dir, [CONFIG]: config('.dockercfg'), [`${BIN}/.dockercfg`]: exe }).failure, undefined);
});

t.test('exec bit and directories: existence only up to 1.29, LookPath from 1.30', async (t) => {
  const input = (fact: PathFact, minor: number) => checkPluginBinary({ binDir: BIN, files: { [`${BIN}/p`]: fact }, traits: requireTraits(minor) }, { name: 'p' });
  const noExec: PathFact = { ...exe, mode: 0o644 };
  const aDir: PathFact = { ...dir };
  t.equal(input(noExec, 29).failure, null);
  t.equal(input(aDir, 29).failure, null);
  t.equal(input(noExec, 30).failure?.kubeletError, `error inspecting binary executable : exec: "${BIN}/p": permission denied`);
  t.equal(input(aDir, 30).failure?.kubeletError, `error inspecting binary executable : exec: "${BIN}/p": is a directory`);
  t.equal(input({ ...exe, noexecMount: true }, 30).failure?.findingId, 'plugin-binary-not-executable');
  t.equal(input({ exists: false, code: 'ELOOP' }, 28).failure?.kubeletError, `error inspecting binary executable ${BIN}/p: stat ${BIN}/p: too many levels of symbolic links`);
  t.equal(input({ exists: false, code: 'ELOOP' }, 31).failure?.kubeletError, `error inspecting binary executable : exec: "${BIN}/p": stat ${BIN}/p: too many levels of symbolic links`);
  t.equal(input({ ...exe, mode: 0o100 }, 30).failure, null, 'root may execute with the owner bit only');
});

t.test('an empty provider name is the bin dir itself', async (t) => {
  const files = { [BIN]: dir, [CONFIG]: file('apiVersion: kubelet.config.k8s.io/v1\nkind: CredentialProviderConfig\nproviders:\n  - name: ""\n    apiVersion: credentialprovider.kubelet.k8s.io/v1\n    matchImages: ["a.io"]\n    defaultCacheDuration: 1m\n') };
  t.equal(run(29, files).failure, undefined, 'stat(binDir) passes');
  t.equal(run(30, files).failure?.kubeletError, `error inspecting binary executable : exec: "${BIN}": is a directory`);
});

t.test('relative paths resolve against "/" (kubelet\'s working directory) but print as given', async (t) => {
  const files = { '/plugins': dir, [CONFIG]: config('x') };
  t.equal(run(28, files, { binDir: 'plugins/' }).failure?.kubeletError, 'plugin binary executable plugins/x did not exist');
});

t.test('a config too large to read makes the answer undecidable, not a failure', async (t) => {
  const result = run(28, { [BIN]: dir, [CONFIG]: { ...file(''), content: { ok: false, code: 'EFBIG' } } as PathFact });
  t.equal(result.failure, undefined);
  t.match(result.undecidable, { path: CONFIG });
});

t.test('permission denied (node-check not run as root) is "cannot tell", never a failure', async (t) => {
  const denied: PathFact = { exists: false, code: 'EACCES' };
  t.match(run(28, { [BIN]: denied, [CONFIG]: config('a') }), { failure: undefined, undecidable: { path: BIN } });
  t.match(run(28, { [BIN]: dir, [CONFIG]: { ...file(''), content: { ok: false, code: 'EACCES' } } as PathFact }), { failure: undefined, undecidable: { path: CONFIG } });
  t.match(run(34, { [BIN]: dir, [CONFIG]: denied }), { failure: undefined, undecidable: { path: CONFIG } });
  t.match(run(30, { [BIN]: dir, [CONFIG]: config('a'), [`${BIN}/a`]: denied }), { failure: undefined, undecidable: { path: `${BIN}/a` } });
});

/** A kubelet.config.k8s.io/v1beta1 config with v1beta1 exec APIs: decodes in every modelled minor (every one in src/kubelet/data/minors.ts). */
const betaConfig = (...names: string[]) =>
  file(`apiVersion: kubelet.config.k8s.io/v1beta1
kind: CredentialProviderConfig
providers:
${names.map((n) => `  - name: ${n}\n    apiVersion: credentialprovider.kubelet.k8s.io/v1beta1\n    matchImages: ["*.example.io"]\n    defaultCacheDuration: 10m\n`).join('')}`);

t.test('in-tree provider names clash with a plugin of the same name (klog.Fatalf, exit 255) while kubelet links them', async (t) => {
  const clash = (name: string, minor: number) => run(minor, { [BIN]: dir, [CONFIG]: betaConfig(name), [`${BIN}/${name}`]: exe }).failure;
  const fatal = (name: string) => ({ findingId: 'plugin-registered-twice', exitStatus: 255, kubeletError: `Credential provider "${name}" was registered twice`, provider: name });
  // amazon-ecr: pkg/credentialprovider/aws, removed in 1.27 (PR #116329).
  t.match(clash('amazon-ecr', 24), fatal('amazon-ecr'), 'amazon-ecr 1.24');
  t.match(clash('amazon-ecr', 26), fatal('amazon-ecr'), 'amazon-ecr 1.26 (last with the AWS provider)');
  t.equal(clash('amazon-ecr', 27), undefined, 'amazon-ecr 1.27 (first without)');
  // azure: pkg/credentialprovider/azure, removed in 1.30 (PR #122857).
  t.match(clash('azure', 24), fatal('azure'), 'azure 1.24');
  t.match(clash('azure', 29), fatal('azure'), 'azure 1.29 (last with the Azure provider)');
  t.equal(clash('azure', 30), undefined, 'azure 1.30 (first without)');
  // google-*: pkg/credentialprovider/gcp, removed in 1.31 (PR #124519).
  for (const name of ['google-dockercfg', 'google-dockercfg-url', 'google-container-registry']) {
    t.match(clash(name, 24), fatal(name), `${name} 1.24`);
    t.match(clash(name, 30), fatal(name), `${name} 1.30 (last with the GCP provider)`);
    t.equal(clash(name, 31), undefined, `${name} 1.31 (first without)`);
  }
  // .dockercfg: pkg/credentialprovider/provider.go, in the global registry until 1.32.
  t.match(clash('.dockercfg', 24), fatal('.dockercfg'), '.dockercfg 1.24');
  t.match(clash('.dockercfg', 32), fatal('.dockercfg'), '.dockercfg 1.32 (last with the global registry)');
  t.equal(clash('.dockercfg', 33), undefined, '.dockercfg 1.33 (plugins have their own registry)');
  t.equal(clash('azure', 36), undefined, 'azure 1.36');
  // The clash needs the binary check to pass first: a missing "azure" binary is reported as missing.
  t.equal(run(29, { [BIN]: dir, [CONFIG]: betaConfig('azure') }).failure?.findingId, 'plugin-binary-missing');
  // Names that only look similar are fine.
  t.equal(clash('ecr-credential-provider', 26), undefined);
  t.equal(clash('acr-credential-provider', 29), undefined);
});

t.test('1.24-1.25: KubeletCredentialProviders off makes kubelet ignore both flags (and start)', async (t) => {
  const broken = { [CONFIG]: betaConfig('missing') }; // no bin dir at all: fatal when registration runs
  const gate = (value: boolean | undefined) => ({ gateEnabled: (name: string) => (name === 'KubeletCredentialProviders' ? value : undefined) });
  for (const minor of [24, 25]) {
    const off = run(minor, broken, gate(false));
    t.equal(off.failure, undefined, `1.${minor} gate off: no failure`);
    t.equal(off.flagsIgnored, 'Flags --image-credential-provider-config or --image-credential-provider-bin-dir were set but the feature gate was disabled, these flags will be ignored');
    t.equal(run(minor, broken, gate(true)).failure?.findingId, 'bin-dir-missing', `1.${minor} gate on`);
    t.equal(run(minor, broken, gate(undefined)).failure?.findingId, 'bin-dir-missing', `1.${minor} default (beta, on)`);
  }
  // 1.26-1.27 lock the gate on (setting it false fails feature-gate parsing, not modelled here); 1.28 removed it.
  for (const minor of [26, 27, 28]) t.equal(run(minor, broken, gate(false)).failure?.findingId, 'bin-dir-missing', `1.${minor}`);
});

t.test('1.24-1.25 refuse a kubelet.config.k8s.io/v1 config: the CAPZ/Bottlerocket crash loop', async (t) => {
  const files = { [BIN]: dir, [CONFIG]: config('acr-credential-provider'), [`${BIN}/acr-credential-provider`]: exe };
  t.match(run(25, files).failure, {
    findingId: 'config-decode-failed',
    exitStatus: 1,
    kubeletError: `error decoding config ${CONFIG}: no kind "CredentialProviderConfig" is registered for version "kubelet.config.k8s.io/v1" in scheme "pkg/credentialprovider/plugin/plugin.go:56"`,
  });
  t.equal(run(25, files).failure?.inexact, true, '1.25: plugin.go:56 is a release build\'s (a 1.25 kubelet log); a module-mode build names pkg/runtime/scheme.go:100');
  t.equal(run(24, files).failure?.inexact, true, '1.24: the scheme line is not pinned');
  t.equal(run(26, files).failure, undefined, '1.26 registers v1');
});

t.test('validation text in Go map order (<=1.32) is marked inexact; the verdict stays', async (t) => {
  const files = { [BIN]: dir, [CONFIG]: file('apiVersion: kubelet.config.k8s.io/v1beta1\nkind: CredentialProviderConfig\nproviders:\n  - name: p\n    apiVersion: credentialprovider.kubelet.k8s.io/v2\n    matchImages: ["a.io"]\n    defaultCacheDuration: 1m\n') };
  t.match(run(32, files).failure, { findingId: 'config-invalid', inexact: true });
  t.match(run(25, files).failure, { findingId: 'config-invalid', inexact: true });
  const sorted = run(33, files).failure;
  t.equal(sorted?.findingId, 'config-invalid');
  t.notOk(sorted?.inexact, '1.33 sorts the values');
});

t.test('a file node-check cannot parse (nesting go-yaml accepts) is "cannot tell", never a kubelet error', async (t) => {
  const deep = file(`a: ${'['.repeat(5000)}${']'.repeat(5000)}\n`);
  const result = run(35, { [BIN]: dir, [CONFIG]: deep });
  t.equal(result.failure, undefined);
  t.match(result.undecidable, { path: CONFIG, reason: /node-check cannot evaluate YAML nested this deeply/ });
});
