// preflight's line on stdout: under systemd it reaches the journal through the unit's stdout
// stream, where each line break starts a new entry and a leading <N> sets that entry's priority.
// So it must stay one line whatever the config files say.
import t from 'tap';
import { summaryLine } from '../../src/cli/commands/preflight.js';
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
