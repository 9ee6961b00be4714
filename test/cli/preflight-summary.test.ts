// preflight's line on stdout: under systemd it reaches the journal through the unit's stdout
// stream, where each line break starts a new entry and a leading <N> sets that entry's priority.
// So it must stay one line whatever the config files say.
import t from 'tap';
import { spawnSync } from 'node:child_process';
import { closeSync, fstatSync, openSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { summaryLine, summaryPriority } from '../../src/cli/commands/preflight.js';
import { brokenAcrNode } from '../helpers/node-root.js';
import { bundle as BUNDLE, env } from '../hostile/bundle.js';
import { acrMissing, fallbackActive, hostile, HOSTILE_PROVIDER } from '../sinks/reports.js';

t.test('a hostile provider name cannot add lines (or <N> priorities) to the journal stream', async (t) => {
  const named = hostile();
  const withPriority = { ...named, findings: named.findings.map((f) => ({ ...f, message: `${f.message}\n<0>forged emergency` })) };
  for (const report of [named, withPriority]) {
    const line = summaryLine(report);
    t.match(line, /^node-check: kubelet will NOT start: .* \[plugin-binary-missing\]\n$/);
    t.equal(line.indexOf('\n'), line.length - 1, 'one line break, at the end');
    t.notMatch(line, /[\u0000-\u0009\u000b-\u001f\u007f-\u009f\u2028\u2029]/, 'no other control or line-separator character');
  }
  t.match(summaryLine(withPriority), '\\x0a<0>forged emergency', 'the injected text shows, escaped');
});

t.test('removed provider names of an active fallback are escaped too', async (t) => {
  const active = fallbackActive();
  const line = summaryLine({ ...active, fallback: { ...active.fallback, removedProviders: [HOSTILE_PROVIDER] } });
  t.match(line, /^node-check: kubelet is predicted to start \(fallback active: without evil\\x0aMESSAGE_ID=0{32}\\x0a.*\)\.\n$/);
  t.equal(line.split('\n').length, 2);
});

t.test('an ordinary report reads as before', async (t) => {
  t.equal(
    summaryLine(acrMissing()),
    `node-check: kubelet will NOT start: ${acrMissing().findings[0]!.message} [plugin-binary-missing]\n`,
  );
  t.equal(summaryLine(fallbackActive()), 'node-check: kubelet is predicted to start (fallback active: without acr-credential-provider).\n');
});

t.test('the summary carries its journal priority: err for a refusal, warning for cannot tell or an ignored refusal', async (t) => {
  const refusal = acrMissing();
  t.equal(summaryPriority(refusal), '<3>', 'journalctl -u kubelet -p err shows it');
  t.equal(summaryPriority({ ...refusal, ignored: { ids: ['plugin-binary-missing'], findings: 1, verdictIgnored: true } }), '<4>');
  t.equal(summaryPriority({ ...refusal, kubeletWillStart: null }), '<4>');
  t.equal(summaryPriority(fallbackActive()), '', 'the stream default (info)');
});

t.test('preflight prefixes the priority only when stdout is the journal stream $JOURNAL_STREAM names', async (t) => {
  const dir = t.testdir();
  const root = brokenAcrNode(join(dir, 'root'));
  const run = (journalStream: (fd: number) => string | undefined) => {
    const out = join(dir, `out-${Math.random()}`);
    const fd = openSync(out, 'w');
    const { dev, ino } = fstatSync(fd, { bigint: true });
    const stream = journalStream(fd) ?? '';
    const child = spawnSync(process.execPath, [BUNDLE, 'preflight', '--root', root, '--kubelet-version', '1.28.7', '--no-journal', '--no-metrics'], { stdio: ['ignore', fd, 'pipe'], env: { ...env, JOURNAL_STREAM: stream.replace('SELF', `${dev}:${ino}`) } });
    closeSync(fd);
    t.equal(child.status, 1);
    return readFileSync(out, 'utf8');
  };
  t.match(run(() => 'SELF'), /^<3>node-check: kubelet will NOT start: /, 'stdout is the journal stream');
  t.match(run(() => '1:1'), /^node-check: kubelet will NOT start: /, 'another stream: no prefix');
  t.match(run(() => undefined), /^node-check: kubelet will NOT start: /, 'no journal');
});
