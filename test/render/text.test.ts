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
