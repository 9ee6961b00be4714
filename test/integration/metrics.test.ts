// The metrics sink against the real Prometheus tools: promtool lints what renderMetrics writes
// and unit-tests the alert rules; a real node_exporter reads what writeTextfile writes, also while
// the file is being replaced over and over.
import t from 'tap';
import { readdirSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { renderMetrics } from '../../src/sinks/metrics.js';
import { writeTextfile } from '../../src/sinks/textfile.js';
import { checkMetrics, checkRules, testRules } from '../harness/promtool.js';
import { nodeExporterPath, startNodeExporter } from '../harness/node-exporter.js';
import { requireTools, skipLoudly } from '../harness/tools.js';
import { acrMissing, fallbackActive, hostile, notConfigured, report, unknownVersion } from '../sinks/reports.js';

const context = { version: '0.1.0', durationSeconds: 0.042, nowSeconds: 1764475200 };
const reports = {
  'kubelet will start': report(),
  'kubelet will not start': acrMissing(),
  'prediction unknown': unknownVersion(),
  'fallback active': fallbackActive(),
  'no credential providers': notConfigured(),
  'hostile provider name': hostile(),
};
const RULES = fileURLToPath(new URL('../../packaging/prometheus/node-check.rules.yaml', import.meta.url));
const RULE_TESTS = fileURLToPath(new URL('../../packaging/prometheus/node-check.rules.test.yaml', import.meta.url));

t.test('promtool check metrics passes on every kind of report', async (t) => {
  if (!requireTools(t, ['promtool'])) return;
  for (const [name, r] of Object.entries(reports)) {
    const result = await checkMetrics(await renderMetrics(r, context));
    t.equal(result.exitCode, 0, `${name}: exit 0 (${(result.stdout + result.stderr).trim() || 'no findings'})`);
    t.equal((result.stdout + result.stderr).trim(), '', `${name}: no lint output`);
  }
  // The same lint does flag what this sink avoids: the assertions above can fail.
  const counterWithoutTotal = (await renderMetrics(report(), context)).replace('# TYPE nodecheck_findings gauge', '# TYPE nodecheck_findings counter');
  t.equal((await checkMetrics(counterWithoutTotal)).exitCode, 3, 'a counter without _total is a lint finding');
});

t.test('the alert rules are valid and pass their promtool unit tests', async (t) => {
  if (!requireTools(t, ['promtool'])) return;
  const checked = await checkRules(RULES);
  t.equal(checked.exitCode, 0, `promtool check rules: ${checked.stdout.trim()} ${checked.stderr.trim()}`);
  const tested = await testRules(RULE_TESTS);
  t.equal(tested.exitCode, 0, `promtool test rules:\n${tested.stdout}${tested.stderr}`);
  t.match(tested.stdout, /SUCCESS/);
});

t.test('node_exporter serves the textfile: no scrape error, the series present', async (t) => {
  if (nodeExporterPath() === undefined) {
    skipLoudly(t, 'prometheus-node-exporter');
    return;
  }
  const dir = t.testdir({});
  writeTextfile(dir, 'node-check.prom', await renderMetrics(acrMissing(), context));
  const exporter = await startNodeExporter({ textfileDir: dir, t });
  const scraped = await exporter.scrape();
  t.match(scraped, /^node_textfile_scrape_error 0$/m);
  t.match(scraped, /^nodecheck_kubelet_start_ok 0$/m);
  t.match(scraped, /^nodecheck_credential_provider_plugin_ok\{provider="acr-credential-provider"\} 0$/m);
  t.match(scraped, /^nodecheck_build_info\{version="0\.1\.0"\} 1$/m);
  t.match(scraped, /^nodecheck_finding\{id="plugin-binary-missing",severity="error"\} 1$/m);
  t.match(scraped, /^node_textfile_mtime_seconds\{file="[^"]*node-check\.prom"\} \S+$/m, 'node_exporter read the file (mtime series)');

  // Untrusted provider names reach node_exporter as escaped label values, not as parse errors.
  writeTextfile(dir, 'node-check.prom', await renderMetrics(hostile(), context));
  const hostileScrape = await exporter.scrape();
  t.match(hostileScrape, /^node_textfile_scrape_error 0$/m);
  t.match(hostileScrape, /^nodecheck_credential_provider_plugin_ok\{provider="evil\\\\x0aMESSAGE_ID=0+\\\\x0aPRIORITY=0.*SEP"\} 0$/m);

  // Each report kind in turn: whatever the file holds, node_exporter parses it.
  for (const [name, r] of Object.entries(reports)) {
    writeTextfile(dir, 'node-check.prom', await renderMetrics(r, context));
    t.match(await exporter.scrape(), /^node_textfile_scrape_error 0$/m, `${name}: node_exporter parses it`);
  }
  t.notMatch(exporter.log(), /node-check\.prom/, 'node_exporter logged nothing about the file');
});

t.test('rewriting the file 1,000 times while scraping never gives a scrape error', async (t) => {
  if (nodeExporterPath() === undefined) {
    skipLoudly(t, 'prometheus-node-exporter');
    return;
  }
  const dir = t.testdir({});
  // Texts of different sizes, so a torn read would not parse or would lose series.
  const texts = await Promise.all([acrMissing(), report(), unknownVersion(), fallbackActive()].map((r) => renderMetrics(r, context)));
  writeTextfile(dir, 'node-check.prom', texts[0]!);
  const exporter = await startNodeExporter({ textfileDir: dir, t });

  let writing = true;
  const scrapes = { total: 0, errors: 0, missing: 0 };
  const scraper = (async () => {
    while (writing) {
      const body = await exporter.scrape();
      scrapes.total++;
      if (!/^node_textfile_scrape_error 0$/m.test(body)) scrapes.errors++;
      if (!/^nodecheck_build_info\{version="0\.1\.0"\} 1$/m.test(body)) scrapes.missing++;
    }
  })();
  for (let i = 0; i < 1000; i++) {
    writeTextfile(dir, 'node-check.prom', texts[i % texts.length]!);
    await new Promise((resolve) => setImmediate(resolve)); // let scrapes interleave
  }
  writing = false;
  await scraper;

  t.ok(scrapes.total > 0, `${scrapes.total} scrapes ran while the file was rewritten`);
  t.equal(scrapes.errors, 0, 'node_textfile_scrape_error stayed 0');
  t.equal(scrapes.missing, 0, 'every scrape had the node-check series');
  t.same(readdirSync(dir), ['node-check.prom'], 'no temp file left');
  t.notMatch(exporter.log(), /node-check\.prom|level=error/, 'node_exporter logged no problem');
});
