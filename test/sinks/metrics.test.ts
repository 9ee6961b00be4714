import t from 'tap';
import { renderMetrics, MAX_PROVIDER_SERIES } from '../../src/sinks/metrics.js';
import { acrMissing, BIN_DIR, fallbackActive, hostile, notConfigured, report, unknownVersion } from './reports.js';
import type { FindingId } from '../../src/model/findings.js';

const context = { version: '0.1.0', durationSeconds: 0.123, nowSeconds: 1764475200.5 };

/** name{labels} → value, for every sample line. */
function samples(text: string): Map<string, string> {
  const result = new Map<string, string>();
  for (const line of text.split('\n')) {
    if (line === '' || line.startsWith('#')) continue;
    const match = /^(\S+?(?:\{.*\})?) (\S+)$/.exec(line);
    if (!match) throw new Error(`not a sample line without timestamp: ${line}`);
    result.set(match[1]!, match[2]!);
  }
  return result;
}

t.test('golden: kubelet will not start because acr-credential-provider is missing', async (t) => {
  t.equal(
    await renderMetrics(acrMissing(), context),
    `# HELP nodecheck_build_info Always 1; the version label is the node-check version that wrote these metrics.
# TYPE nodecheck_build_info gauge
nodecheck_build_info{version="0.1.0"} 1

# HELP nodecheck_kubelet_start_ok 1 if kubelet is predicted to start, 0 if it is predicted to refuse; absent when node-check cannot tell (see nodecheck_kubelet_start_unknown).
# TYPE nodecheck_kubelet_start_ok gauge
nodecheck_kubelet_start_ok 0

# HELP nodecheck_kubelet_start_unknown 1 if node-check cannot tell whether kubelet will start (exit code 2), else 0.
# TYPE nodecheck_kubelet_start_unknown gauge
nodecheck_kubelet_start_unknown 0

# HELP nodecheck_credential_provider_plugin_ok 1 if the provider's plugin binary passes kubelet's start-up check, 0 if not; absent when that depends on the unknown kubelet version.
# TYPE nodecheck_credential_provider_plugin_ok gauge
nodecheck_credential_provider_plugin_ok{provider="acr-credential-provider"} 0

# HELP nodecheck_fallback_enabled 1 if the node-check fallback is enabled on this node, else 0.
# TYPE nodecheck_fallback_enabled gauge
nodecheck_fallback_enabled 0

# HELP nodecheck_fallback_active 1 while kubelet runs under the node-check fallback without some credential providers, else 0.
# TYPE nodecheck_fallback_active gauge
nodecheck_fallback_active 0

# HELP nodecheck_findings Number of findings of the last check, by severity.
# TYPE nodecheck_findings gauge
nodecheck_findings{severity="error"} 1
nodecheck_findings{severity="warning"} 0
nodecheck_findings{severity="info"} 0

# HELP nodecheck_finding 1 for each finding id present in the last check (ids: \`node-check explain <id>\`).
# TYPE nodecheck_finding gauge
nodecheck_finding{id="plugin-binary-missing",severity="error"} 1

# HELP nodecheck_check_duration_seconds How long the last check took, in seconds.
# TYPE nodecheck_check_duration_seconds gauge
nodecheck_check_duration_seconds 0.123

# HELP nodecheck_last_run_ok 1 if the last run checked the node and reported its answer, 0 if it stopped before (usage error, bad settings file, internal error, out of its budget).
# TYPE nodecheck_last_run_ok gauge
nodecheck_last_run_ok 1

# HELP nodecheck_last_run_timestamp_seconds Unix time the last check finished.
# TYPE nodecheck_last_run_timestamp_seconds gauge
nodecheck_last_run_timestamp_seconds 1764475200.5
`,
  );
});

t.test('every family is a gauge with HELP, named nodecheck_*, no sample has a timestamp', async (t) => {
  for (const r of [acrMissing(), unknownVersion(), fallbackActive(), hostile(), notConfigured(), report()]) {
    const text = await renderMetrics(r, context);
    t.ok(text.endsWith('\n'), 'ends with a newline (node_exporter needs it)');
    const families = [...text.matchAll(/^# TYPE (\S+) (\S+)$/gm)].map((m) => [m[1], m[2]]);
    const helped = [...text.matchAll(/^# HELP (\S+) \S/gm)].map((m) => m[1]);
    t.same(helped, families.map(([name]) => name), 'HELP for every family');
    t.ok(families.every(([name, type]) => type === 'gauge' && /^nodecheck_[a-z_]+$/.test(name!) && !name!.endsWith('_total')), 'gauges named nodecheck_*, none ending in _total');
    t.doesNotThrow(() => samples(text), 'every sample is "name{labels} value" with no timestamp');
  }
});

t.test('unknown prediction: no start_ok series, start_unknown 1, plugins that depend on the version left out', async (t) => {
  const s = samples(await renderMetrics(unknownVersion(), context));
  t.notOk(s.has('nodecheck_kubelet_start_ok'), 'start_ok absent, so "== 0" alerts do not fire on a guess');
  t.equal(s.get('nodecheck_kubelet_start_unknown'), '1');
  t.notOk([...s.keys()].some((k) => k.startsWith('nodecheck_credential_provider_plugin_ok')));
  t.equal(s.get('nodecheck_findings{severity="info"}'), '1');
  t.equal(s.get('nodecheck_finding{id="cannot-decide",severity="warning"}'), '1');
});

t.test('fallback active: kubelet starts, the plugin is not ok, the fallback says so', async (t) => {
  const s = samples(await renderMetrics(fallbackActive(), context));
  t.equal(s.get('nodecheck_kubelet_start_ok'), '1');
  t.equal(s.get('nodecheck_fallback_active'), '1');
  t.equal(s.get('nodecheck_fallback_enabled'), '1');
  t.equal(s.get('nodecheck_credential_provider_plugin_ok{provider="acr-credential-provider"}'), '0');
  t.notOk([...s.keys()].some((k) => k.startsWith('nodecheck_finding{')), 'no nodecheck_finding family without findings');
});

t.test('provider labels: untrusted names are escaped, bounded in length and number, never duplicated', async (t) => {
  const hostileText = await renderMetrics(hostile(), context);
  const line = hostileText.split('\n').find((l) => l.startsWith('nodecheck_credential_provider_plugin_ok{'))!;
  t.equal(line, 'nodecheck_credential_provider_plugin_ok{provider="evil\\\\x0aMESSAGE_ID=00000000000000000000000000000000\\\\x0aPRIORITY=0\\\\x0a\\\\x0aNODE_CHECK_FINDING_ID=forged\\\\x0d_SYSTEMD_UNIT=sshd.service\\\\x00NUL=cut\\\\u{2028}\\\\u{202e}SEP"} 0');
  t.notMatch(hostileText, /[\u0000\r\u2028\u202e]/);

  const many = Array.from({ length: 200 }, (_, i) => ({ name: `p${i}`, binary: `${BIN_DIR}/p${i}`, pluginOk: true }));
  const manyText = await renderMetrics(report({ kubelet: { ...report().kubelet, providers: many } }), context);
  t.equal([...samples(manyText).keys()].filter((k) => k.startsWith('nodecheck_credential_provider_plugin_ok')).length, MAX_PROVIDER_SERIES);

  const long = 'x'.repeat(300);
  const twins = [
    { name: `${long}a`, binary: '/a', pluginOk: true },
    { name: `${long}b`, binary: '/b', pluginOk: false },
    { name: '', binary: '/c', pluginOk: false },
  ];
  const twinSamples = samples(await renderMetrics(report({ kubelet: { ...report().kubelet, providers: twins } }), context));
  const providerKeys = [...twinSamples.keys()].filter((k) => k.startsWith('nodecheck_credential_provider_plugin_ok'));
  t.same(providerKeys, [`nodecheck_credential_provider_plugin_ok{provider="${'x'.repeat(253)}"}`], 'one series for names equal after truncation; none for an empty name');
  t.equal(twinSamples.get(providerKeys[0]!), '0', 'the worse answer wins');
});

t.test('each call starts from a fresh registry', async (t) => {
  await renderMetrics(acrMissing(), context);
  const second = samples(await renderMetrics(report(), { ...context, durationSeconds: Number.NaN, nowSeconds: -5 }));
  t.equal(second.get('nodecheck_kubelet_start_ok'), '1');
  t.notOk([...second.keys()].some((k) => k.startsWith('nodecheck_finding{')), 'no finding left over from the first call');
  t.equal(second.get('nodecheck_check_duration_seconds'), '0', 'a nonsensical duration is written as 0');
  t.equal(second.get('nodecheck_last_run_timestamp_seconds'), '0');
});

t.test('finding ids outside the catalog are counted but not used as label values', async (t) => {
  // FindingId keeps such ids out at compile time; a report read back from JSON is not checked.
  const r = report({ findings: [{ id: 'made-up-id' as string as FindingId, severity: 'warning', message: 'x', remediation: 'y' }] });
  const s = samples(await renderMetrics(r, context));
  t.equal(s.get('nodecheck_findings{severity="warning"}'), '1');
  t.notOk([...s.keys()].some((k) => k.includes('made-up-id')));
});
