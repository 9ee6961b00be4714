/**
 * serve's /metrics through prom-client: node-check's families, then prom-client's default process
 * and Node.js families, in the 0.0.4 text or OpenMetrics as the Accept header prefers.
 */
import t from 'tap';
import { prefersOpenMetrics, serveMetrics } from '../../src/serve/registry.js';
import { metricFamilies, undecidedFamilies } from '../../src/sinks/metrics.js';
import { renderGauges } from '../../src/sinks/exposition.js';
import { checkMetrics } from '../harness/promtool.js';
import { requireTools } from '../harness/tools.js';
import { acrMissing } from '../sinks/reports.js';

const context = { version: '0.1.0', durationSeconds: 0.042, nowSeconds: 1764475200 };
const OPENMETRICS = 'application/openmetrics-text;version=1.0.0;q=0.5,application/openmetrics-text;version=0.0.1;q=0.4,text/plain;version=0.0.4;q=0.3,*/*;q=0.2';
// The families serve exposed before prom-client (its hand-written copy of prom-client's names):
// still there, under the same names and types.
const EARLIER = {
  process_cpu_user_seconds_total: 'counter',
  process_cpu_system_seconds_total: 'counter',
  process_cpu_seconds_total: 'counter',
  process_start_time_seconds: 'gauge',
  process_resident_memory_bytes: 'gauge',
  process_virtual_memory_bytes: 'gauge',
  process_heap_bytes: 'gauge',
  process_open_fds: 'gauge',
  process_max_fds: 'gauge',
  nodejs_heap_size_total_bytes: 'gauge',
  nodejs_heap_size_used_bytes: 'gauge',
  nodejs_external_memory_bytes: 'gauge',
  nodejs_version_info: 'gauge',
};

t.test('text: the check\'s families exactly as the textfile has them, then prom-client\'s defaults', async (t) => {
  const metrics = serveMetrics();
  t.equal(metrics.ready, false, 'nothing before the first check');
  await t.rejects(metrics.scrape(undefined));
  const families = metricFamilies(acrMissing(), context);
  metrics.update(families);
  const { contentType, body } = await metrics.scrape('text/plain;version=0.0.4');
  t.equal(contentType, 'text/plain; version=0.0.4; charset=utf-8');
  t.ok(body.startsWith(`${renderGauges(families)}\n# HELP process_cpu_user_seconds_total `), 'node-check\'s families first, byte for byte the textfile\'s');
  for (const [name, type] of Object.entries(EARLIER)) t.match(body, new RegExp(`^# TYPE ${name} ${type}\\n${name}[{ ]`, 'm'), `${name} ${type}`);
  t.match(body, /^nodejs_version_info\{version="v\d+\.\d+\.\d+",major="\d+",minor="\d+",patch="\d+"\} 1$/m);
  // prom-client's families beyond the earlier set.
  for (const name of ['nodejs_eventloop_lag_seconds', 'nodejs_active_handles_total', 'nodejs_heap_space_size_used_bytes', 'nodejs_gc_duration_seconds']) t.match(body, new RegExp(`^# TYPE ${name} `, 'm'), name);
  t.match(body, new RegExp(`^process_open_fds ${'\\d+'}$`, 'm'));
  t.test('promtool parses the scrape; its only lint findings are three of prom-client\'s own names', async (t) => {
    if (!requireTools(t, ['promtool'])) return;
    const checked = await checkMetrics(body);
    // Exit 3: lint findings, not a parse error (1).
    t.equal(checked.exitCode, 3, `${checked.stdout}${checked.stderr}`);
    const findings = `${checked.stdout}${checked.stderr}`.trim().split('\n').map((line) => line.trim()).sort();
    // prom-client's gauges of the active handles, requests and resources end in _total
    // (lib/metrics/processHandles.js, processRequests.js, processResources.js): kept, as every
    // prom-client user exposes them under these names.
    t.same(findings, ['nodejs_active_handles_total', 'nodejs_active_requests_total', 'nodejs_active_resources_total'].map((name) => `${name} non-counter metrics should not have "_total" suffix`));
  });
});

t.test('OpenMetrics on request; the text after it still names counters with _total', async (t) => {
  const metrics = serveMetrics();
  metrics.update(undecidedFamilies(context));
  const open = await metrics.scrape(OPENMETRICS);
  t.equal(open.contentType, 'application/openmetrics-text; version=1.0.0; charset=utf-8');
  t.notMatch(open.body, /\n\n/, 'no blank lines');
  t.ok(open.body.endsWith('\n# EOF\n'), '# EOF');
  t.match(open.body, /^# TYPE process_cpu_user_seconds counter\nprocess_cpu_user_seconds_total \S+$/m, 'a counter\'s family without _total, its sample with it');
  t.match(open.body, /^# TYPE nodecheck_kubelet_start_unknown gauge\nnodecheck_kubelet_start_unknown 1$/m);
  t.notMatch(open.body, /^nodecheck_kubelet_start_ok /m, 'an undecided run has no start_ok');
  // prom-client renames a counter in place when it renders OpenMetrics (prometheus/client_js#829):
  // one registry for both formats would now print the counter without _total in the text.
  const text = await metrics.scrape(undefined);
  t.match(text.body, /^# TYPE process_cpu_user_seconds_total counter\nprocess_cpu_user_seconds_total \S+$/m);
  t.notMatch(text.body, /^process_cpu_user_seconds /m);
  t.notMatch(text.body, /# EOF/);
});

t.test('an update replaces the families: none of the previous check is left', async (t) => {
  const metrics = serveMetrics();
  metrics.update(metricFamilies(acrMissing(), context));
  t.match((await metrics.scrape(undefined)).body, /^nodecheck_kubelet_start_ok 0$/m);
  metrics.update(undecidedFamilies(context));
  const body = (await metrics.scrape(undefined)).body;
  t.notMatch(body, /nodecheck_kubelet_start_ok|nodecheck_finding/);
  t.match(body, /^nodecheck_last_run_ok 0$/m);
});

t.test('concurrent scrapes of one format share one render', async (t) => {
  const metrics = serveMetrics();
  metrics.update(undecidedFamilies(context));
  const [a, b, c] = await Promise.all([metrics.scrape(undefined), metrics.scrape(undefined), metrics.scrape(OPENMETRICS)]);
  t.equal(a.body, b.body, 'the same text, process_cpu_* included');
  t.ok(c.body.endsWith('# EOF\n'), 'the other format rendered on its own');
});

t.test("content negotiation follows the Accept header's q-values", async (t) => {
  t.equal(prefersOpenMetrics(undefined), false);
  t.equal(prefersOpenMetrics('text/plain;version=0.0.4'), false);
  // What Prometheus sends.
  t.equal(prefersOpenMetrics(OPENMETRICS), true);
  t.equal(prefersOpenMetrics('application/openmetrics-text;version=1.0.0,application/openmetrics-text;version=0.0.1;q=0.75,text/plain;version=0.0.4;q=0.5,*/*;q=0.1'), true);
  t.equal(prefersOpenMetrics('application/openmetrics-text;q=0.2,text/plain;q=0.9'), false);
  t.equal(prefersOpenMetrics('application/openmetrics-text;q=0'), false);
});
