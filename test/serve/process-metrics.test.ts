/** serve's process and Node.js families (prom-client's names) and OpenMetrics on request. */
import t from 'tap';
import { processFamilies, readProcessFacts } from '../../src/serve/process-metrics.js';
import { prefersOpenMetrics, renderGauges, toOpenMetrics } from '../../src/sinks/exposition.js';
import { checkMetrics } from '../harness/promtool.js';
import { requireTools } from '../harness/tools.js';

const facts = {
  cpu: { user: 1.5, system: 0.25 },
  startTimeSeconds: 1764633600,
  memory: { heapTotal: 2048, heapUsed: 1024, external: 512 },
  nodeVersion: 'v22.11.0',
  residentBytes: 40960,
  virtualBytes: 81920,
  heapBytes: 20480,
  openFds: 12,
  maxFds: 1024,
};

t.test("prom-client's default families: names, types, values", async (t) => {
  const text = renderGauges(processFamilies(facts));
  t.match(text, /^# HELP process_cpu_user_seconds_total Total user CPU time spent in seconds\.\n# TYPE process_cpu_user_seconds_total counter\nprocess_cpu_user_seconds_total 1\.5$/m);
  t.match(text, /^process_cpu_seconds_total 1\.75$/m);
  t.match(text, /^# TYPE process_start_time_seconds gauge\nprocess_start_time_seconds 1764633600$/m);
  t.match(text, /^process_resident_memory_bytes 40960$/m);
  t.match(text, /^process_open_fds 12$/m);
  t.match(text, /^process_max_fds 1024$/m);
  t.match(text, /^nodejs_heap_size_used_bytes 1024$/m);
  t.match(text, /^nodejs_version_info\{version="v22\.11\.0",major="22",minor="11",patch="0"\} 1$/m);
  const { residentBytes: _r, openFds: _o, ...unreadable } = facts;
  t.notMatch(renderGauges(processFamilies(unreadable)), /process_resident_memory_bytes|process_open_fds/, 'what cannot be read is left out');
});

t.test('this process, read from /proc', async (t) => {
  const live = readProcessFacts();
  t.ok(live.openFds !== undefined && live.openFds > 0, 'open descriptors counted');
  t.ok(live.residentBytes !== undefined && live.residentBytes > 1024 * 1024, 'VmRSS read');
  t.ok(live.maxFds !== undefined && live.maxFds >= live.openFds!, 'the soft limit of open files');
  t.test('promtool accepts the exposition', async (t) => {
    if (!requireTools(t, ['promtool'])) return;
    const checked = await checkMetrics(renderGauges(processFamilies(live)));
    t.equal(checked.exitCode, 0, `${checked.stdout}${checked.stderr}`);
  });
});

t.test('OpenMetrics: no blank lines, counters named without _total in HELP and TYPE, # EOF', async (t) => {
  const text = renderGauges([{ name: 'nodecheck_kubelet_start_ok', help: 'h', samples: [{ value: 1 }] }, ...processFamilies(facts)]);
  const open = toOpenMetrics(text);
  t.notMatch(open, /\n\n/);
  t.match(open, /^# HELP process_cpu_user_seconds Total user CPU time spent in seconds\.\n# TYPE process_cpu_user_seconds counter\nprocess_cpu_user_seconds_total 1\.5$/m);
  t.match(open, /^# TYPE nodecheck_kubelet_start_ok gauge\nnodecheck_kubelet_start_ok 1$/m);
  t.ok(open.endsWith('\n# EOF\n'));
});

t.test("content negotiation follows the Accept header's q-values", async (t) => {
  t.equal(prefersOpenMetrics(undefined), false);
  t.equal(prefersOpenMetrics('text/plain;version=0.0.4'), false);
  // What Prometheus sends.
  t.equal(prefersOpenMetrics('application/openmetrics-text;version=1.0.0;q=0.5,application/openmetrics-text;version=0.0.1;q=0.4,text/plain;version=0.0.4;q=0.3,*/*;q=0.2'), true);
  t.equal(prefersOpenMetrics('application/openmetrics-text;q=0.2,text/plain;q=0.9'), false);
  t.equal(prefersOpenMetrics('application/openmetrics-text;q=0'), false);
});
