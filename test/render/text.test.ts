import t from 'tap';
import { renderText } from '../../src/render/text.js';
import type { Report } from '../../src/model/report.js';

const report: Report = {
  schemaVersion: 1,
  kubeletWillStart: false,
  kubeletVersion: '1.28.7',
  kubeletVersionSource: 'flag',
  kubeletFlavor: { name: 'upstream', source: 'default', evidence: [] },
  evaluatedVersions: ['1.28'],
  kubelet: { unit: 'kubelet.service', unitFile: '/etc/systemd/system/kubelet.service', dropIns: [], argv: [], credentialProviderConfig: '/c.yaml', credentialProviderBinDir: '/p', providers: [{ name: 'evil\u001b]0;pwned\u0007\nname', binary: '/p/evil', pluginOk: false }] },
  findings: [{ id: 'plugin-binary-missing', severity: 'error', message: 'Credential provider plugin "evil\u001b[2J\nx" is missing.', path: '/p/evil\u001b[2J', provider: 'evil', remediation: 'Install it.', kubeletError: 'plugin binary executable /p/evil\u001b[2J did not exist' }],
  fallback: { enabled: false, active: false },
  notChecked: [],
};

t.test('text from config files cannot drive the terminal or add lines', async (t) => {
  const text = renderText(report, { color: false });
  t.notMatch(text, /\u001b/, 'no escape sequence survives');
  t.match(text, /evil\\x1b\[2J\\x0ax/);
  t.equal(text.split('\n').filter((line) => line.includes('name')).length, 1, 'the provider name stays on its line');
});

t.test('the answer comes first, then each finding with kubelet\'s words and the fix', async (t) => {
  const text = renderText({ ...report, findings: [{ ...report.findings[0]!, message: 'Plugin missing.', path: '/p/x', kubeletError: 'plugin binary executable /p/x did not exist' }] }, { color: false });
  const lines = text.split('\n');
  t.match(lines[1], /kubelet will NOT start \(plugin-binary-missing\)/);
  t.match(text, /kubelet logs: "Failed to register CRI auth plugins" err="plugin binary executable \/p\/x did not exist"/);
  t.match(text, /fix: Install it\./);
  t.match(lines.at(-2), /^exit code 1: kubelet is predicted to fail to start/);
});

t.test('every minor evaluated: the answer and the hint first, one entry per cause with its versions, newest first', async (t) => {
  const { checkNode } = await import('../../src/check-node.js');
  const { brokenAcrNode } = await import('../helpers/node-root.js');
  const root = brokenAcrNode(t.testdir());
  const all = await checkNode({ root, unit: 'kubelet.service' });
  t.ok(all.evaluatedVersions.length > 1, 'no version: every minor');
  const text = renderText(all, { color: false });
  const lines = text.split('\n');
  t.match(lines[2], /^ {2}kubelet version unknown: each kubelet 1\.24-1\.\d+ was evaluated; pass --kubelet-version X\.Y\.Z/, 'the hint right below the answer');
  const entries = lines.filter((line) => /^(error|warning|info) /.test(line));
  const ids = entries.map((line) => line.split(/\s+/)[1]);
  t.same(ids, [...new Set(ids)], 'one entry per cause');
  t.notOk(ids.includes('kubelet-version-unknown'), 'the version hint is not repeated as a finding');
  const everyId = [...new Set(all.findings.map((f) => f.id))].filter((id) => id !== 'kubelet-version-unknown');
  t.same([...ids].sort(), everyId.sort(), 'every cause is there');
  const newestOf = (line: string) => Math.max(...[...line.matchAll(/1\.(\d+)/g)].map((m) => Number(m[1])));
  const errors = entries.filter((line) => line.startsWith('error'));
  t.same(errors.map(newestOf), [...errors.map(newestOf)].sort((a, b) => b - a), 'errors: newest version first');
  t.ok(lines.length < 60, `one screen (${lines.length} lines)`);
  t.match(text, /Each version's own words.*: --verbose, or -o json\./);
  const verbose = renderText(all, { color: false, verbose: true });
  t.equal(verbose.split('\n').filter((line) => /^(error|warning|info) /.test(line)).length, all.findings.length, '--verbose: every finding of every version');
});

t.test("systemd's refusal is labelled as systemd's log, and a missing EnvironmentFile= is said once", async (t) => {
  const { checkNode } = await import('../../src/check-node.js');
  const { writeRoot } = await import('../helpers/node-root.js');
  const root = writeRoot(t.testdir(), {
    '/etc/systemd/system/kubelet.service': '[Service]\nEnvironmentFile=/etc/sysconfig/kubelet\nExecStart=/usr/bin/kubelet --config=/etc/kubernetes/kubelet.conf $KUBELET_EXTRA_ARGS\n',
    '/etc/kubernetes/kubelet.conf': 'apiVersion: kubelet.config.k8s.io/v1beta1\nkind: KubeletConfiguration\n',
  });
  const result = await checkNode({ root, unit: 'kubelet.service', kubeletVersion: '1.30.1' });
  t.same(
    result.findings.filter((f) => f.severity !== 'info').map((f) => f.id),
    ['systemd-environment-file-missing'],
    'no second unit-problem warning about the same file',
  );
  const text = renderText(result, { color: false });
  t.match(text, /systemd logs \(one of, or like\): kubelet\.service: Failed to load environment files: No such file or directory/);
  t.notMatch(text, /kubelet logs/);
});
