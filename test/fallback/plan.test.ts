import t from 'tap';
import { parse as parseYaml } from 'yaml';
import { planFallback, planFallbackForNode, planRevert, type FallbackPlan } from '../../src/fallback/plan.js';
import { requireTraits } from '../../src/kubelet/version.js';
import { parseExecValue } from '../../src/systemd/exec-command.js';
import { expandArgv } from '../../src/systemd/env-expand.js';
import { parseUnitName } from '../../src/systemd/unit-name.js';
import { LEGACY_UNIT_FILE_DIALECT, MODERN_UNIT_FILE_DIALECT, parseUnitFile } from '../../src/systemd/unit-file.js';
import type { NodeModel } from '../../src/model/node.js';
import { ACR_CONFIG, dir, executable, file, modelOf, OCP_416_AZURE_EXEC, OCP_ENV, PLUGIN_DIR, withoutCredentialFlags } from './model.js';
import { NEWEST_MODELLED_MINOR } from '../../src/kubelet/data/minors.js';

const NOW = new Date('2026-03-01T10:00:00.000Z');
const DROP_IN = '/run/systemd/system/kubelet.service.d/99-node-check-fallback.conf';
const FILTERED = '/run/node-check/credential-providers/kubelet.service.yaml';
const STATE = '/run/node-check/fallback.json';

const plan = (model: NodeModel, minor: number, existing?: FallbackPlan['state']) =>
  planFallback({ model, traits: requireTraits(minor), now: NOW, ...(existing ? { existing } : {}) });

/** The argv systemd 252 and 239 would pass with the drop-in's ExecStart=, read with src/systemd. */
function dropInArgv(t: Pick<typeof import('tap').default, 'same' | 'equal'>, content: string, env: Record<string, string>): string[][] {
  return [MODERN_UNIT_FILE_DIALECT, LEGACY_UNIT_FILE_DIALECT].map((dialect) => {
    const parsed = parseUnitFile(content, DROP_IN, dialect);
    t.same(parsed.assignments.map((a) => [a.section, a.key]), [['Service', 'ExecStart'], ['Service', 'ExecStart']]);
    t.equal(parsed.assignments[0]!.value, '', 'ExecStart= is reset first');
    const command = parseExecValue(parsed.assignments[1]!.value, parsed.assignments[1]!.source, parseUnitName('kubelet.service')!).commands[0]!;
    return expandArgv(command.words, new Map(Object.entries(env))).argv as string[];
  });
}

const written = (p: FallbackPlan, path: string) => p.writes.find((w) => w.path === path)?.content;

const azureAcrMissing = () =>
  modelOf({
    execStart: OCP_416_AZURE_EXEC,
    env: OCP_ENV,
    kubeletVersion: '1.28.7',
    files: {
      [PLUGIN_DIR]: dir(['ecr-credential-provider']),
      '/etc/kubernetes/credential-providers/acr-credential-provider.yaml': file(ACR_CONFIG),
      [`${PLUGIN_DIR}/ecr-credential-provider`]: executable(),
    },
  });

t.test('OpenShift 4.16 on Azure without acr-credential-provider: both flags are dropped', async (t) => {
  const model = azureAcrMissing();
  const p = plan(model, 28);
  t.equal(p.action, 'apply', p.reason);
  t.same(p.removedProviders, ['acr-credential-provider']);
  t.same(p.keptProviders, []);
  t.same(p.writes.map((w) => w.path), [STATE, DROP_IN], 'the record first, then the drop-in; no filtered config');
  t.same(p.removes, []);
  t.match(p.reason, /acr-credential-provider/);
  t.match(p.reason, /without --image-credential-provider-config and --image-credential-provider-bin-dir/);

  const content = written(p, DROP_IN)!;
  t.match(content, /^# node-check fallback for kubelet\.service, active since 2026-03-01T10:00:00\.000Z\./);
  t.match(content, /^# Why: Kubelet would refuse to start/m);
  t.match(content, /--node-ip=\$\{KUBELET_NODE_IP\}/, 'variables still expand at exec time');
  t.notMatch(content.slice(content.indexOf('[Service]')), /image-credential-provider/, 'no credential flag in the ExecStart= lines');
  const expected = withoutCredentialFlags(model.service.execStart!.argv);
  for (const argv of dropInArgv(t, content, OCP_ENV)) t.same(argv, expected, 'exactly the original argv minus the credential flags');
  t.same(p.argv, expected);

  const state = JSON.parse(written(p, STATE)!);
  t.match(state, { schemaVersion: 1, since: NOW.toISOString(), unit: 'kubelet.service', dropInPath: DROP_IN, removedProviders: ['acr-credential-provider'] });
  t.equal(state.filteredConfigPath, undefined);
  t.match(state.digest, /^[0-9a-f]{64}$/);
});

t.test('without the kubelet version every modelled version agrees here, so it acts', async (t) => {
  // A v1beta1 config (registered by every modelled kubelet): every version drops the flags for the same reason.
  const v1beta1 = ACR_CONFIG.replace('kubelet.config.k8s.io/v1\n', 'kubelet.config.k8s.io/v1beta1\n').replace('credentialprovider.kubelet.k8s.io/v1\n', 'credentialprovider.kubelet.k8s.io/v1beta1\n');
  const base = modelOf({
    execStart: OCP_416_AZURE_EXEC,
    env: OCP_ENV,
    kubeletVersion: '1.28.7',
    files: { [PLUGIN_DIR]: dir([]), '/etc/kubernetes/credential-providers/acr-credential-provider.yaml': file(v1beta1) },
  });
  const { kubeletVersion: _, ...unknown } = base;
  const p = planFallbackForNode({ model: unknown as NodeModel, now: NOW });
  t.equal(p.action, 'apply', p.reason);
  t.same(p.writes, plan(base, 28).writes, 'the same files as for a known version');

  // The v1 config: 1.24/1.25 cannot decode it, so their drop-in would say another reason; node-check asks for the version.
  const { kubeletVersion: __, ...v1Unknown } = azureAcrMissing();
  const v1 = planFallbackForNode({ model: v1Unknown as NodeModel, now: NOW });
  t.equal(v1.action, 'refuse');
  t.equal(v1.refusal, 'undecidable');
  t.match(v1.reason, /The kubelet version is unknown and the fallback depends on it/);
});

t.test('two providers, one plugin missing: a filtered config keeps the other, as written', async (t) => {
  const config = `# two providers
apiVersion: kubelet.config.k8s.io/v1
kind: CredentialProviderConfig
providers:
  - name: acr-credential-provider # missing on this node
    apiVersion: credentialprovider.kubelet.k8s.io/v1
    defaultCacheDuration: "10m"
    matchImages: ["*.azurecr.io"]
  - name: ecr-credential-provider
    apiVersion: credentialprovider.kubelet.k8s.io/v1
    defaultCacheDuration: "12h"
    matchImages:
      - "*.dkr.ecr.*.amazonaws.com"
    args: [--v=2]
    env:
      - name: AWS_PROFILE
        value: "node"
`;
  const model = modelOf({
    execStart: `/usr/bin/kubelet --config=/etc/kubernetes/kubelet.conf --image-credential-provider-config /etc/kubernetes/cp.yaml --image_credential_provider_bin_dir=${PLUGIN_DIR} --v=2`,
    files: {
      [PLUGIN_DIR]: dir(['ecr-credential-provider']),
      '/etc/kubernetes/cp.yaml': file(config),
      [`${PLUGIN_DIR}/ecr-credential-provider`]: executable(),
    },
  });
  const p = plan(model, 30);
  t.equal(p.action, 'apply', p.reason);
  t.same(p.removedProviders, ['acr-credential-provider']);
  t.same(p.keptProviders, ['ecr-credential-provider']);
  t.same(p.writes.map((w) => w.path), [STATE, FILTERED, DROP_IN], 'the filtered config is written before the drop-in that points to it');

  const filtered = parseYaml(written(p, FILTERED)!);
  const original = parseYaml(config);
  t.equal(filtered.apiVersion, original.apiVersion);
  t.equal(filtered.kind, original.kind);
  t.same(filtered.providers, [original.providers[1]], 'the remaining provider exactly as written');
  t.match(written(p, FILTERED), /^# Written by node-check fallback: \/etc\/kubernetes\/cp\.yaml without acr-credential-provider\./);

  const argv = dropInArgv(t, written(p, DROP_IN)!, {});
  for (const a of argv) {
    t.same(a, ['/usr/bin/kubelet', '--config=/etc/kubernetes/kubelet.conf', `--image-credential-provider-config=${FILTERED}`, `--image_credential_provider_bin_dir=${PLUGIN_DIR}`, '--v=2']);
  }
  t.equal(p.state?.filteredConfigPath, FILTERED);
});

t.test('flags carried by $VAR words', async (t) => {
  t.test('OpenShift 4.22: $KUBELET_CRIO_IMAGE_CREDENTIAL_PROVIDER_FLAGS holds only credential flags and goes away', async (t) => {
    const env = {
      KUBELET_CRIO_IMAGE_CREDENTIAL_PROVIDER_FLAGS: `--image-credential-provider-bin-dir=${PLUGIN_DIR} --image-credential-provider-config=/etc/kubernetes/credential-providers/generic-credential-provider.yaml`,
      KUBELET_NODE_IP: '10.0.0.5',
    };
    const model = modelOf({
      execStart: '/usr/local/bin/kubenswrapper /usr/bin/kubelet --config=/etc/kubernetes/kubelet.conf --node-ip=${KUBELET_NODE_IP} $KUBELET_CRIO_IMAGE_CREDENTIAL_PROVIDER_FLAGS --v=2',
      env,
      files: {
        [PLUGIN_DIR]: dir([]),
        '/etc/kubernetes/credential-providers/generic-credential-provider.yaml': file(
          'apiVersion: kubelet.config.k8s.io/v1\nkind: CredentialProviderConfig\nproviders:\n  - name: crio-credential-provider\n    apiVersion: credentialprovider.kubelet.k8s.io/v1\n    defaultCacheDuration: 1s\n    matchImages: ["*"]\n',
        ),
      },
    });
    const p = plan(model, 35);
    t.equal(p.action, 'apply', p.reason);
    const content = written(p, DROP_IN)!;
    t.notMatch(content, /KUBELET_CRIO_IMAGE_CREDENTIAL_PROVIDER_FLAGS/, 'the variable word is dropped, not frozen');
    t.match(content, /--node-ip=\$\{KUBELET_NODE_IP\}/);
    for (const argv of dropInArgv(t, content, env)) t.same(argv, ['/usr/local/bin/kubenswrapper', '/usr/bin/kubelet', '--config=/etc/kubernetes/kubelet.conf', '--node-ip=10.0.0.5', '--v=2']);
  });

  t.test("kubeadm: $KUBELET_EXTRA_ARGS mixes flags; the rest of it is written out literally, other variables stay", async (t) => {
    const env = {
      KUBELET_KUBECONFIG_ARGS: '--bootstrap-kubeconfig=/etc/kubernetes/bootstrap-kubelet.conf --kubeconfig=/etc/kubernetes/kubelet.conf',
      KUBELET_CONFIG_ARGS: '--config=/var/lib/kubelet/config.yaml',
      KUBELET_EXTRA_ARGS: `--node-labels="team=a, tier=b" --image-credential-provider-config /etc/kubernetes/ecr.yaml --image-credential-provider-bin-dir=/usr/local/libexec/cp --eviction-hard=nodefs.available<10% --v=2`,
    };
    const model = modelOf({
      execStart: '/usr/bin/kubelet $KUBELET_KUBECONFIG_ARGS $KUBELET_CONFIG_ARGS $KUBELET_KUBEADM_ARGS $KUBELET_EXTRA_ARGS',
      source: { file: '/usr/lib/systemd/system/kubelet.service.d/10-kubeadm.conf', line: 11 },
      dropInPaths: ['/usr/lib/systemd/system/kubelet.service.d/10-kubeadm.conf'],
      env,
      files: {
        '/usr/local/libexec/cp': dir([]),
        '/etc/kubernetes/ecr.yaml': file('apiVersion: kubelet.config.k8s.io/v1\nkind: CredentialProviderConfig\nproviders:\n  - name: ecr-credential-provider\n    apiVersion: credentialprovider.kubelet.k8s.io/v1\n    defaultCacheDuration: 12h\n    matchImages: ["*.dkr.ecr.*.amazonaws.com"]\n'),
      },
    });
    const p = plan(model, 31);
    t.equal(p.action, 'apply', p.reason);
    const content = written(p, DROP_IN)!;
    t.match(content, /\$KUBELET_KUBECONFIG_ARGS/, 'an untouched variable word is kept as a variable');
    t.match(content, /\$KUBELET_KUBEADM_ARGS/, 'an unset variable word is kept too');
    t.notMatch(content, /^ +\$KUBELET_EXTRA_ARGS/m, 'the variable that carried the flags is replaced');
    t.match(content, /Written out as literal arguments because they carried credential flags: \$KUBELET_EXTRA_ARGS/);
    t.match(content, /--eviction-hard=nodefs\.available<10%%/, 'a literal % is escaped from specifier expansion');
    const expected = withoutCredentialFlags(model.service.execStart!.argv);
    t.same(expected.slice(-3), ['--node-labels=team=a, tier=b', '--eviction-hard=nodefs.available<10%', '--v=2']);
    for (const argv of dropInArgv(t, content, env)) t.same(argv, expected);
  });

  t.test('a flag whose value is the next word, a ${VAR} word, repeated flags and underscores', async (t) => {
    const env = { CFG: '/etc/kubernetes/cp.yaml' };
    const model = modelOf({
      execStart: `/usr/bin/kubelet --image-credential-provider-config=/old.yaml --image_credential_provider_bin_dir ${PLUGIN_DIR} --image-credential-provider-config \${CFG} --v=2`,
      env,
      files: { [PLUGIN_DIR]: dir([]), '/etc/kubernetes/cp.yaml': file(ACR_CONFIG) },
    });
    const p = plan(model, 29);
    t.equal(p.action, 'apply', p.reason);
    for (const argv of dropInArgv(t, written(p, DROP_IN)!, env)) t.same(argv, ['/usr/bin/kubelet', '--v=2']);
  });
});

t.test('plugin present: nothing to do, or the fallback is reverted', async (t) => {
  const model = modelOf({
    execStart: OCP_416_AZURE_EXEC,
    env: OCP_ENV,
    files: {
      [PLUGIN_DIR]: dir(['acr-credential-provider']),
      '/etc/kubernetes/credential-providers/acr-credential-provider.yaml': file(ACR_CONFIG),
      [`${PLUGIN_DIR}/acr-credential-provider`]: executable(),
    },
  });
  const none = plan(model, 30);
  t.equal(none.action, 'none');
  t.same([none.writes, none.removes], [[], []]);

  const previous = plan(azureAcrMissing(), 30);
  t.equal(previous.action, 'apply');
  const revert = plan(model, 30, previous.state);
  t.equal(revert.action, 'revert', revert.reason);
  t.same(revert.writes, []);
  t.same(revert.removes, [DROP_IN, FILTERED, '/run/node-check/credential-providers/', '/run/systemd/system/kubelet.service.d/', STATE], 'the drop-in goes before the config it points to, the record last');
  t.same(revert.removedProviders, ['acr-credential-provider']);
  t.equal(revert.state, undefined);
});

t.test('re-planning an intact fallback keeps it; a changed one is rewritten with the same "since"', async (t) => {
  const first = plan(azureAcrMissing(), 28);
  const later = planFallback({ model: azureAcrMissing(), traits: requireTraits(28), now: new Date('2026-03-01T11:00:00Z'), existing: first.state! });
  t.equal(later.action, 'keep', later.reason);
  t.same([later.writes, later.removes], [[], []]);

  const { digest: _, ...changed } = first.state!;
  const rewrite = planFallback({ model: azureAcrMissing(), traits: requireTraits(28), now: new Date('2026-03-01T11:00:00Z'), existing: changed });
  t.equal(rewrite.action, 'apply');
  t.equal(rewrite.state?.since, first.state?.since);
  t.same(rewrite.writes, first.writes);
});

t.test('refusals', async (t) => {
  t.test('a problem unrelated to credential providers', async (t) => {
    const model = modelOf({
      execStart: `/usr/bin/kubelet stray-argument --image-credential-provider-config=/etc/cp.yaml --image-credential-provider-bin-dir=${PLUGIN_DIR}`,
      files: { [PLUGIN_DIR]: dir([]), '/etc/cp.yaml': file(ACR_CONFIG) },
    });
    const p = plan(model, 30);
    t.equal(p.action, 'refuse');
    t.equal(p.refusal, 'not-credential');
    t.match(p.reason, /stray-argument/);
    t.same(p.writes, []);
  });

  t.test('the unit cannot be read', async (t) => {
    const model = modelOf({ execStart: '/usr/bin/kubelet', diagnostics: [{ severity: 'fatal', file: '/etc/systemd/system/kubelet.service', message: 'contains a NUL byte' }] });
    const p = plan(model, 30);
    t.equal(p.refusal, 'undecidable');
    t.match(p.reason, /NUL byte/);
  });

  t.test('the answer depends on the unknown kubelet version', async (t) => {
    const model = modelOf({
      execStart: `/usr/bin/kubelet --container-runtime-endpoint=unix:///run/containerd/containerd.sock --image-credential-provider-config=/etc/cp.yaml --image-credential-provider-bin-dir=${PLUGIN_DIR}`,
      files: { [PLUGIN_DIR]: dir(['acr-credential-provider']), '/etc/cp.yaml': file(ACR_CONFIG), [`${PLUGIN_DIR}/acr-credential-provider`]: executable(0o644) },
    });
    t.equal(plan(model, 29).action, 'none', '<=1.29 only stats the plugin');
    t.equal(plan(model, 30).action, 'apply', '>=1.30 wants the exec bit');
    const p = planFallbackForNode({ model, now: NOW });
    t.equal(p.action, 'refuse');
    t.equal(p.refusal, 'undecidable');
    // 1.24/1.25 cannot decode the v1 config at all, so the fallback would drop the flags there too.
    t.match(p.reason, `(kubelet 1.24-1.25: apply; kubelet 1.26-1.29: none; kubelet 1.30-1.${NEWEST_MODELLED_MINOR}: apply)`);
  });

  t.test('a drop-in applied after ours sets ExecStart=', async (t) => {
    const override = '/etc/systemd/system/kubelet.service.d/override.conf';
    const model = modelOf({
      execStart: `/usr/bin/kubelet --image-credential-provider-config=/etc/cp.yaml --image-credential-provider-bin-dir=${PLUGIN_DIR}`,
      source: { file: override, line: 3 },
      dropInPaths: [override],
      files: { [PLUGIN_DIR]: dir([]), '/etc/cp.yaml': file(ACR_CONFIG) },
    });
    const p = plan(model, 30);
    t.equal(p.refusal, 'conflict');
    t.match(p.reason, /override\.conf/);
  });

  t.test('the model still contains node-check\'s own drop-in', async (t) => {
    const model = modelOf({ execStart: '/usr/bin/kubelet --v=2', source: { file: DROP_IN, line: 9 }, dropInPaths: [DROP_IN] });
    t.equal(plan(model, 30).refusal, 'conflict');
  });
});

t.test('other credential failures drop both flags and say why', async (t) => {
  const model = modelOf({
    execStart: `/usr/bin/kubelet --image-credential-provider-config=/etc/cp.yaml --image-credential-provider-bin-dir=/nowhere`,
    files: { '/etc/cp.yaml': file(ACR_CONFIG) },
  });
  const p = plan(model, 30);
  t.equal(p.action, 'apply', p.reason);
  t.match(p.reason, /the plugin directory \/nowhere does not exist/);
  t.match(p.reason, /No credential provider can be registered this way/);
  t.same(p.removedProviders, ['acr-credential-provider']);
  for (const argv of dropInArgv(t, written(p, DROP_IN)!, {})) t.same(argv, ['/usr/bin/kubelet']);
});

t.test('planRevert lists every path a fallback may leave, and leaves another unit\'s record alone', async (t) => {
  t.same(planRevert({ unit: 'kubelet.service' }).removes, [DROP_IN, FILTERED, '/run/node-check/credential-providers/', '/run/systemd/system/kubelet.service.d/', STATE]);
  const other = planRevert({ unit: 'kubelet.service', existing: { since: NOW.toISOString(), reason: 'x', removedProviders: [], dropInPath: '/run/systemd/system/other.service.d/99-node-check-fallback.conf', unit: 'other.service' } });
  t.notOk(other.removes.includes(STATE));
});

t.test('a 1.34 config directory of several files becomes one filtered file', async (t) => {
  const acr = 'apiVersion: kubelet.config.k8s.io/v1beta1\nkind: CredentialProviderConfig\nproviders:\n  - name: acr-credential-provider\n    apiVersion: credentialprovider.kubelet.k8s.io/v1\n    defaultCacheDuration: 10m\n    matchImages: ["*.azurecr.io"]\n';
  const ecr = JSON.stringify({
    apiVersion: 'kubelet.config.k8s.io/v1',
    kind: 'CredentialProviderConfig',
    providers: [{ name: 'ecr-credential-provider', apiVersion: 'credentialprovider.kubelet.k8s.io/v1', defaultCacheDuration: '12h', matchImages: ['*.dkr.ecr.*.amazonaws.com'] }],
  });
  const model = modelOf({
    execStart: `/usr/bin/kubelet --image-credential-provider-config=/etc/kubernetes/cp.d --image-credential-provider-bin-dir=${PLUGIN_DIR}`,
    files: {
      [PLUGIN_DIR]: dir(['ecr-credential-provider']),
      '/etc/kubernetes/cp.d': dir(['10-acr.yaml', '20-ecr.json', 'README']),
      '/etc/kubernetes/cp.d/10-acr.yaml': file(acr),
      '/etc/kubernetes/cp.d/20-ecr.json': file(ecr),
      [`${PLUGIN_DIR}/ecr-credential-provider`]: executable(),
    },
  });
  const p = plan(model, 34);
  t.equal(p.action, 'apply', p.reason);
  t.same(p.keptProviders, ['ecr-credential-provider']);
  const merged = parseYaml(written(p, FILTERED)!);
  t.same(merged, { apiVersion: 'kubelet.config.k8s.io/v1', kind: 'CredentialProviderConfig', providers: JSON.parse(ecr).providers });
});

t.test('when the remaining providers would still fail (a name twice, <=1.32), both flags go', async (t) => {
  const config = `apiVersion: kubelet.config.k8s.io/v1
kind: CredentialProviderConfig
providers:
  - {name: acr-credential-provider, apiVersion: credentialprovider.kubelet.k8s.io/v1, defaultCacheDuration: 1m, matchImages: ["*.azurecr.io"]}
  - {name: ecr-credential-provider, apiVersion: credentialprovider.kubelet.k8s.io/v1, defaultCacheDuration: 1m, matchImages: ["*.dkr.ecr.*.amazonaws.com"]}
  - {name: ecr-credential-provider, apiVersion: credentialprovider.kubelet.k8s.io/v1, defaultCacheDuration: 1m, matchImages: ["public.ecr.aws"]}
`;
  const model = modelOf({
    execStart: `/usr/bin/kubelet --image-credential-provider-config=/etc/cp.yaml --image-credential-provider-bin-dir=${PLUGIN_DIR}`,
    files: { [PLUGIN_DIR]: dir(['ecr-credential-provider']), '/etc/cp.yaml': file(config), [`${PLUGIN_DIR}/ecr-credential-provider`]: executable() },
  });
  const p = plan(model, 30);
  t.equal(p.action, 'apply', p.reason);
  t.match(p.reason, /without acr-credential-provider: kubelet would still refuse: Credential provider "ecr-credential-provider" was registered twice/);
  t.same(p.removedProviders, ['acr-credential-provider', 'ecr-credential-provider']);
  t.same(p.writes.map((w) => w.path), [STATE, DROP_IN]);
});

t.test('prefixes are kept; ":" turns off expansion, "@" keeps argv[0]', async (t) => {
  const files = { [PLUGIN_DIR]: dir([]), '/etc/cp.yaml': file(ACR_CONFIG) };
  const colon = `-:/usr/bin/kubelet --provider-id=$NOT_A_VAR --image-credential-provider-config=/etc/cp.yaml --image-credential-provider-bin-dir=${PLUGIN_DIR}`;
  const noEnv = modelOf({ execStart: colon, files, systemdVersion: 252 });
  const p1 = plan(noEnv, 30);
  t.equal(p1.action, 'apply', p1.reason);
  t.match(written(p1, DROP_IN), /^ExecStart=-:\/usr\/bin\/kubelet \\$/m);
  t.same(p1.argv, ['/usr/bin/kubelet', '--provider-id=$NOT_A_VAR'], 'the $ word is passed literally');
  const unknownSystemd = plan(modelOf({ execStart: colon, files }), 30);
  t.equal(unknownSystemd.action, 'refuse', 'systemd 239 has no ":" prefix, and the node might run it');
  t.match(unknownSystemd.reason, /systemd 239 would not accept/);

  const argv0 = modelOf({ execStart: `@/opt/bin/kubelet-1.30 kubelet --image-credential-provider-config=/etc/cp.yaml --image-credential-provider-bin-dir=${PLUGIN_DIR} --v=2`, files });
  const p2 = plan(argv0, 30);
  t.equal(p2.action, 'apply', p2.reason);
  t.match(written(p2, DROP_IN), /^ExecStart=@\/opt\/bin\/kubelet-1.30 \\\n {4}kubelet \\\n {4}--v=2$/m);
});

t.test('a provider name ending in a backslash cannot turn a comment into a continuation (systemd 239)', async (t) => {
  const config = 'apiVersion: kubelet.config.k8s.io/v1\nkind: CredentialProviderConfig\nproviders:\n  - name: "odd\\\\"\n    apiVersion: credentialprovider.kubelet.k8s.io/v1\n    defaultCacheDuration: 1m\n    matchImages: ["*.example.com"]\n';
  const model = modelOf({
    execStart: `/usr/bin/kubelet --image-credential-provider-config=/etc/cp.yaml --image-credential-provider-bin-dir=${PLUGIN_DIR} --v=2`,
    files: { [PLUGIN_DIR]: dir([]), '/etc/cp.yaml': file(config) },
  });
  const p = plan(model, 30);
  t.equal(p.action, 'apply', p.reason);
  t.same(p.removedProviders, ['odd\\']);
  const content = written(p, DROP_IN)!;
  t.notMatch(content.slice(0, content.indexOf('[Service]')), /\\\n/, 'no comment line ends in a backslash');
  for (const argv of dropInArgv(t, content, {})) t.same(argv, ['/usr/bin/kubelet', '--v=2']);
});
