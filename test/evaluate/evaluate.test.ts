import t from 'tap';
import * as fs from 'node:fs';
import * as path from 'node:path';
import { checkNode } from '../../src/check-node.js';
import { findingKey } from '../../src/evaluate/evaluate.js';
import { exitCodeFor } from '../../src/model/report.js';
import { BIN_DIR, CONFIG, brokenAcrNode, kubeletUnit, writeRoot } from '../helpers/node-root.js';
import { NEWEST_MODELLED_MINOR } from '../../src/kubelet/data/minors.js';

const plugin = { content: '#!/bin/sh\nexit 0\n', mode: 0o755 };

t.test('a known version gives one answer with kubelet\'s exact text', async (t) => {
  const report = await checkNode({ root: brokenAcrNode(t.testdir()), unit: 'kubelet.service', kubeletVersion: '1.28.7' });
  t.equal(report.kubeletWillStart, false);
  t.equal(exitCodeFor(report), 1);
  t.same(report.evaluatedVersions, ['1.28']);
  t.equal(report.kubeletVersion, '1.28.7');
  t.match(report.findings[0], { id: 'plugin-binary-missing', severity: 'error', provider: 'acr-credential-provider', path: `${BIN_DIR}/acr-credential-provider` });
  t.same(report.kubelet.providers, [{ name: 'acr-credential-provider', binary: `${BIN_DIR}/acr-credential-provider`, pluginOk: false }]);
});

t.test('unknown version: all versions fail → false, and findings say which text each prints', async (t) => {
  const report = await checkNode({ root: brokenAcrNode(t.testdir()), unit: 'kubelet.service' });
  t.equal(report.kubeletWillStart, false);
  t.equal(report.kubeletVersionSource, 'unknown', 'never runs kubelet under --root');
  const errors = report.findings.filter((f) => f.severity === 'error');
  // 1.24/1.25 do not register kubelet.config.k8s.io/v1 CredentialProviderConfig: the v1 config fails to decode there.
  t.same(errors.map((f) => f.versions), ['1.24', '1.25', '1.26-1.29', `1.30-1.${NEWEST_MODELLED_MINOR}`]);
  t.same(errors.map((f) => f.id), ['config-decode-failed', 'config-decode-failed', 'plugin-binary-missing', 'plugin-binary-missing']);
  t.match(errors[1]?.kubeletError, 'no kind "CredentialProviderConfig" is registered for version "kubelet.config.k8s.io/v1"');
  t.equal(errors[3]?.kubeletError, 'plugin binary executable  did not exist');
  t.ok(report.findings.some((f) => f.id === 'kubelet-version-unknown'));
});

t.test('unknown version: versions disagree → null (exit 2) and the first finding says which fail', async (t) => {
  // --container-runtime-endpoint as on real 1.24-1.26 nodes (without it node-check cannot tell for 1.26).
  const root = brokenAcrNode(t.testdir(), {
    '/etc/systemd/system/kubelet.service': kubeletUnit(`--container-runtime-endpoint=unix:///run/containerd/containerd.sock --image-credential-provider-bin-dir=${BIN_DIR} --image-credential-provider-config=${CONFIG}`),
    [`${BIN_DIR}/acr-credential-provider`]: { content: '#!/bin/sh\n', mode: 0o644 },
  });
  const report = await checkNode({ root, unit: 'kubelet.service' });
  t.equal(report.kubeletWillStart, null);
  t.equal(exitCodeFor(report), 2);
  t.equal(report.findings[0]?.id, 'cannot-decide');
  t.match(report.findings[0]?.message, `kubelet 1.24-1.25, 1.30-1.${NEWEST_MODELLED_MINOR} will refuse to start, kubelet 1.26-1.29 will start`);
  t.match(report.findings.find((f) => f.id === 'plugin-binary-not-executable'), { versions: `1.30-1.${NEWEST_MODELLED_MINOR}`, severity: 'error' });
  t.match(report.findings.find((f) => f.id === 'plugin-not-executable-at-pull'), { versions: '1.26-1.29', severity: 'warning' });
  t.same(report.kubelet.providers.map((p) => p.pluginOk), [null]);
});

t.test('no credential flags: kubelet starts, nothing to check', async (t) => {
  const root = writeRoot(t.testdir(), { '/etc/systemd/system/kubelet.service': kubeletUnit('--v=2'), '/etc/kubernetes/kubelet.conf': 'apiVersion: kubelet.config.k8s.io/v1beta1\nkind: KubeletConfiguration\n' });
  const report = await checkNode({ root, unit: 'kubelet.service', kubeletVersion: '1.30.1' });
  t.equal(report.kubeletWillStart, true);
  t.same(report.findings.map((f) => f.id), ['credential-providers-not-configured']);
});

t.test('inputs node-check cannot use give "cannot tell" (exit 2), naming the file', async (t) => {
  const none = await checkNode({ root: t.testdir(), unit: 'kubelet.service', kubeletVersion: '1.30.1' });
  t.equal(none.kubeletWillStart, null);
  t.match(none.findings[0], { id: 'cannot-decide', message: /kubelet\.service not found/ });

  const binary = writeRoot(t.testdir(), { '/etc/systemd/system/kubelet.service': '[Service]\nExecStart=/usr/bin/kubelet\n\u0000\u0001\u0002garbage' });
  const bin = await checkNode({ root: binary, unit: 'kubelet.service', kubeletVersion: '1.30.1' });
  t.equal(bin.kubeletWillStart, null);
  t.match(bin.findings[0]?.message, /\/etc\/systemd\/system\/kubelet\.service/);

  const notKubelet = writeRoot(t.testdir(), { '/etc/systemd/system/kubelet.service': '[Service]\nExecStart=/usr/bin/sleep infinity\n' });
  const sleep = await checkNode({ root: notKubelet, unit: 'kubelet.service', kubeletVersion: '1.30.1' });
  t.equal(sleep.kubeletWillStart, null);
  t.match(sleep.findings[0]?.message, /does not run kubelet/);

  const big = brokenAcrNode(t.testdir());
  fs.writeFileSync(path.join(big, CONFIG), 'x'.repeat(5 * 1024 * 1024));
  const huge = await checkNode({ root: big, unit: 'kubelet.service', kubeletVersion: '1.30.1' });
  t.equal(huge.kubeletWillStart, null);
  t.match(huge.findings[0], { id: 'cannot-decide', path: CONFIG });
});

t.test('configs kubelet itself rejects give false (exit 1), never a crash', async (t) => {
  const bomb = `a: &a ["x","x","x","x","x","x","x","x","x"]\n${Array.from({ length: 12 }, (_, i) => `${String.fromCharCode(98 + i)}: &${String.fromCharCode(98 + i)} [*${String.fromCharCode(97 + i)},*${String.fromCharCode(97 + i)},*${String.fromCharCode(97 + i)},*${String.fromCharCode(97 + i)}]`).join('\n')}\n`;
  const cases: Record<string, string> = {
    'alias bomb': bomb,
    'binary garbage': '\u0000\u00ff\u00fe\u0001binary',
    'deep nesting': '['.repeat(20000) + ']'.repeat(20000),
    'not yaml': 'providers: [unclosed',
  };
  for (const [name, text] of Object.entries(cases)) {
    const root = brokenAcrNode(t.testdir(), { [CONFIG]: text, [`${BIN_DIR}/acr-credential-provider`]: plugin });
    const report = await checkNode({ root, unit: 'kubelet.service', kubeletVersion: '1.31.0' });
    t.not(report.kubeletWillStart, true, name);
    const first = report.findings[0];
    t.ok(first && (first.id === 'config-decode-failed' || first.id === 'cannot-decide'), `${name}: ${first?.id}`);
    t.match(first?.message, CONFIG, `${name} names the file`);
  }
});

t.test('feature gates come from --config, --config-dir and --feature-gates in kubelet\'s order', async (t) => {
  const tokenConfig = `apiVersion: kubelet.config.k8s.io/v1
kind: CredentialProviderConfig
providers:
  - name: acr-credential-provider
    apiVersion: credentialprovider.kubelet.k8s.io/v1
    defaultCacheDuration: "10m"
    matchImages: ["*.azurecr.io"]
    tokenAttributes:
      serviceAccountTokenAudience: api://AzureADTokenExchange
      requireServiceAccount: true
      cacheType: ServiceAccount
`;
  const node = (args: string, files: Record<string, string> = {}) =>
    writeRoot(t.testdir(), {
      '/etc/systemd/system/kubelet.service': kubeletUnit(`--image-credential-provider-bin-dir=${BIN_DIR} --image-credential-provider-config=${CONFIG} ${args}`),
      [CONFIG]: tokenConfig,
      [`${BIN_DIR}/acr-credential-provider`]: plugin as unknown as string,
      ...files,
    });
  const off = await checkNode({ root: node('', { '/etc/kubernetes/kubelet.conf': 'apiVersion: kubelet.config.k8s.io/v1beta1\nkind: KubeletConfiguration\nfeatureGates:\n  KubeletServiceAccountTokenForCredentialProviders: false\n' }), unit: 'kubelet.service', kubeletVersion: '1.34.0' });
  t.equal(off.kubeletWillStart, false, 'the config file turns the 1.34 default off');
  t.match(off.findings[0]?.kubeletError, /feature gate is disabled/);
  const on = await checkNode({ root: node('--feature-gates=KubeletServiceAccountTokenForCredentialProviders=true', { '/etc/kubernetes/kubelet.conf': 'apiVersion: kubelet.config.k8s.io/v1beta1\nkind: KubeletConfiguration\nfeatureGates:\n  KubeletServiceAccountTokenForCredentialProviders: false\n' }), unit: 'kubelet.service', kubeletVersion: '1.34.0' });
  t.equal(on.kubeletWillStart, true, 'the flag wins');
  const dropIn = await checkNode({
    root: node('--config-dir=/etc/kubernetes/kubelet.conf.d', { '/etc/kubernetes/kubelet.conf.d/10-gates.conf': 'apiVersion: kubelet.config.k8s.io/v1beta1\nkind: KubeletConfiguration\nfeatureGates:\n  KubeletServiceAccountTokenForCredentialProviders: false\n' }),
    unit: 'kubelet.service',
    kubeletVersion: '1.34.0',
  });
  t.equal(dropIn.kubeletWillStart, false, 'a --config-dir drop-in turns it off');
});

t.test('an active fallback is reported loudly', async (t) => {
  const report = await checkNode({
    root: brokenAcrNode(t.testdir()),
    unit: 'kubelet.service',
    kubeletVersion: '1.28.7',
    fallback: { enabled: true, active: true, since: '2026-11-30T04:00:00.000Z', reason: 'plugin missing', removedProviders: ['acr-credential-provider'], dropInPath: '/run/systemd/system/kubelet.service.d/99-node-check-fallback.conf' },
  });
  t.match(report.findings.find((f) => f.id === 'fallback-active'), { severity: 'warning', provider: 'acr-credential-provider', message: /since 2026-11-30T04:00:00.000Z without "acr-credential-provider"/ });
});

t.test('two findings share a merge key exactly when id, path, provider, message and kubeletError are the same', async (t) => {
  const finding = (f: { path?: string; provider?: string; message: string; kubeletError?: string }) => ({ id: 'plugin-binary-missing' as const, severity: 'error' as const, remediation: '', ...f });
  t.not(findingKey(finding({ path: 'a', provider: 'bc', message: 'm' })), findingKey(finding({ path: 'ab', provider: 'c', message: 'm' })), 'text moved between fields');
  t.not(findingKey(finding({ message: 'm' })), findingKey(finding({ path: '', message: 'm' })), 'absent is not empty');
  t.not(findingKey(finding({ message: 'm', kubeletError: '-' })), findingKey(finding({ message: 'm' })));
  t.equal(findingKey(finding({ message: 'm', path: '/p' })), findingKey({ ...finding({ message: 'm', path: '/p' }), severity: 'warning', remediation: 'other' }), 'other fields do not count');
  // Every combination of short texts made of the characters the key itself uses: as many keys as findings.
  const texts = ['', ':', '-', '1', '1:', ':1', '-:', '1:-'];
  const keys = new Set<string>();
  let findings = 0;
  for (const path of [undefined, ...texts]) for (const provider of [undefined, ...texts]) for (const message of texts) for (const kubeletError of [undefined, ...texts]) {
    keys.add(findingKey(finding({ path, provider, message, kubeletError })));
    findings++;
  }
  t.equal(keys.size, findings);
});
