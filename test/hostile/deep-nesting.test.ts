/** 3,000 levels of block nesting in the credential provider config aborted the process (SIGABRT). */
import t from 'tap';
import { rmSync } from 'node:fs';
import * as path from 'node:path';
import { brokenAcrNode, CONFIG } from '../helpers/node-root.js';
import { NO_CRASH, runBundle } from './bundle.js';

const HEADER = 'apiVersion: kubelet.config.k8s.io/v1\nkind: CredentialProviderConfig\n';
const shapes: Record<string, string> = {
  'block sequences': HEADER + 'providers:\n' + '- '.repeat(3000) + 'x\n',
  'flow sequences': HEADER + 'providers: ' + '['.repeat(5000) + ']'.repeat(5000) + '\n',
  'flow mappings': HEADER + 'providers: ' + '{a: '.repeat(5000) + '}'.repeat(5000) + '\n',
};

for (const [shape, config] of Object.entries(shapes)) {
  t.test(`deeply nested ${shape}`, async (t) => {
    for (const command of [['check'], ['preflight', '--no-journal', '--no-metrics'], ['preflight', '--fallback', '--no-journal', '--no-metrics']]) {
      const root = brokenAcrNode(t.testdir(), { [CONFIG]: config });
      const run = runBundle([...command, '--root', root, '--kubelet-version', '1.28.7']);
      t.equal(run.signal, null, `${command.join(' ')}: not killed by a signal`);
      // With --fallback, kubelet starts without the undecodable config (exit 0).
      const allowed = command.includes('--fallback') ? [0, 1, 2] : [1, 2];
      t.ok(allowed.includes(run.status ?? -1), `${command.join(' ')}: exit ${run.status}`);
      t.notMatch(run.stdout + run.stderr, NO_CRASH, 'no abort, no stack trace');
      if (command[0] === 'check') t.match(run.stdout, CONFIG, 'the file is named');
      rmSync(path.join(root, 'run'), { recursive: true, force: true });
    }
  });
}

t.test('deeply nested kubelet config and node-check settings file', async (t) => {
  const root = brokenAcrNode(t.testdir(), { '/etc/kubernetes/kubelet.conf': 'featureGates:\n' + '- '.repeat(3000) + 'x\n' });
  const run = runBundle(['check', '--root', root, '--kubelet-version', '1.28.7']);
  t.equal(run.signal, null);
  t.notMatch(run.stdout + run.stderr, NO_CRASH);
  const settings = path.join(root, 'node-check.yaml');
  (await import('node:fs')).writeFileSync(settings, 'root:\n' + '- '.repeat(3000) + 'x\n');
  const usage = runBundle(['check', '--config-file', settings]);
  t.equal(usage.status, 64);
  t.match(usage.stderr, /node-check\.yaml: not valid YAML: nested more deeply/);
});

// Between node-check's bound and go-yaml's 10,000 levels kubelet decodes the
// file and node-check cannot: the answer is "cannot tell", never a refusal in node-check's words,
// and the fallback then does nothing. Past 10,000, go-yaml's own error (kubelet refuses).
t.test('nesting go-yaml accepts but node-check cannot follow: cannot tell, and no fallback', async (t) => {
  for (const depth of [500, 3000, 9000]) {
    const root = brokenAcrNode(t.testdir(), { [CONFIG]: HEADER + 'providers: ' + '['.repeat(depth) + ']'.repeat(depth) + '\n' });
    const check = runBundle(['check', '--root', root, '--kubelet-version', '1.28.7', '--output', 'json']);
    t.equal(check.status, 2, `${depth} levels: exit 2`);
    const report = JSON.parse(check.stdout) as { kubeletWillStart: unknown; findings: { severity: string; kubeletError?: string }[] };
    t.equal(report.kubeletWillStart, null, `${depth} levels: cannot tell`);
    t.notOk(report.findings.some((f) => f.kubeletError?.includes('node-check')), `${depth} levels: node-check's words are never kubelet's`);
    const apply = runBundle(['fallback', 'apply', '--root', root, '--kubelet-version', '1.28.7']);
    t.notMatch(apply.stdout, /applied/, `${depth} levels: the fallback strips nothing`);
  }
  const root = brokenAcrNode(t.testdir(), { [CONFIG]: HEADER + 'providers: ' + '['.repeat(10001) + ']'.repeat(10001) + '\n' });
  const past = JSON.parse(runBundle(['check', '--root', root, '--kubelet-version', '1.28.7', '--output', 'json']).stdout) as { kubeletWillStart: unknown; findings: { kubeletError?: string; inexact?: boolean }[] };
  t.equal(past.kubeletWillStart, false, 'past 10,000 levels go-yaml refuses the file');
  t.ok(past.findings.some((f) => f.kubeletError?.includes('exceeded max depth of 10000') && f.inexact === true), "go-yaml's words, marked inexact (its line number is not reproduced)");
});
