/**
 * The textfile preflight writes on kubelet's start path (renderGauges, without prom-client) is byte
 * for byte what prom-client renders for the same gauges, which is what serve's /metrics serves:
 * for reports of real checks of the demo node over every modelled minor and without a version,
 * the sinks' fixture reports, the undecided run, pending configs, and label and HELP escaping.
 */
import t, { type Test } from 'tap';
import { cpSync, writeFileSync } from 'node:fs';
import * as path from 'node:path';
import { fileURLToPath } from 'node:url';
import { checkNode } from '../../src/check-node.js';
import { MINOR_ROWS } from '../../src/kubelet/data/minors.js';
import { renderGauges, type GaugeFamily } from '../../src/sinks/exposition.js';
import { metricFamilies, renderMetrics, renderUndecidedMetrics, undecidedFamilies } from '../../src/sinks/metrics.js';
import { pendingFamilies } from '../../src/serve/pending.js';
import { gaugeRegistry } from '../../src/serve/registry.js';
import type { Report } from '../../src/model/report.js';
import { acrMissing, fallbackActive, hostile, notConfigured, report, unknownVersion } from './reports.js';

const context = { version: '0.1.0', durationSeconds: 0.042, nowSeconds: 1764475200.25 };
const DEMO = fileURLToPath(new URL('../../examples/ocp-4.16-azure-rhel8-worker', import.meta.url));
const PLUGIN = 'usr/libexec/kubelet-image-credential-provider-plugins/acr-credential-provider';

async function sameAsPromClient(t: Test, name: string, families: readonly GaugeFamily[], textfile = renderGauges(families)): Promise<void> {
  const rendered = await gaugeRegistry(families).metrics();
  t.equal(textfile, rendered, `${name}: the textfile is what prom-client renders`);
}

t.test('real checks of the demo node: every modelled minor and no version, plugin missing and present', async (t) => {
  const withPlugin = path.join(t.testdir(), 'with-plugin');
  cpSync(DEMO, withPlugin, { recursive: true });
  writeFileSync(path.join(withPlugin, PLUGIN), '#!/bin/sh\n', { mode: 0o755 });
  const answers = new Set<boolean | null>();
  for (const [root, plugin] of [[DEMO, 'missing'], [withPlugin, 'present']] as const) {
    for (const version of [undefined, ...MINOR_ROWS.map((row) => row.kubernetes.slice(1))]) {
      const checked: Report = await checkNode({ root, unit: 'kubelet.service', ...(version ? { kubeletVersion: version } : {}), versionProbeTimeoutMs: 2000 });
      answers.add(checked.kubeletWillStart);
      await sameAsPromClient(t, `plugin ${plugin}, kubelet ${version ?? 'unknown'} (${checked.kubeletWillStart})`, metricFamilies(checked, context), await renderMetrics(checked, context));
    }
  }
  t.same([...answers].sort(), [false, null, true].sort(), 'the checks give all three answers: will start, will not, cannot tell');
});

t.test("the sinks' reports, the undecided run and pending configs", async (t) => {
  const reports = { 'will start': report(), 'will not start': acrMissing(), unknown: unknownVersion(), 'fallback active': fallbackActive(), 'no providers': notConfigured(), 'hostile provider name': hostile() };
  for (const [name, r] of Object.entries(reports)) await sameAsPromClient(t, name, metricFamilies(r, context), await renderMetrics(r, context));
  await sameAsPromClient(t, 'undecided run', undecidedFamilies(context), renderUndecidedMetrics(context));
  await sameAsPromClient(t, 'pending configs', pendingFamilies([
    { config: 'rendered-worker-a', origin: 'a.yaml', kubeletWillStart: true, summary: '' },
    { config: 'rendered-worker-b', origin: 'b.yaml', kubeletWillStart: false, summary: '' },
    { config: 'b.json', origin: 'b.json', kubeletWillStart: null, summary: '' },
  ]));
});

t.test('label values and HELP with backslashes, quotes and newlines; several labels; values', async (t) => {
  const families: GaugeFamily[] = [
    { name: 'nodecheck_escapes', help: 'back\\slash and\nnewline "quoted"', samples: [
      { labels: { provider: 'a"b\\c\nd', severity: 'error' }, value: 1 },
      { labels: { provider: '\\"\\n', severity: 'warning' }, value: 0 },
      { labels: { provider: 'unicode ✓ \u202e', severity: 'info' }, value: 2 },
    ] },
    { name: 'nodecheck_values', help: 'h', samples: [{ value: 0.1 + 0.2 }] },
    { name: 'nodecheck_large', help: 'h', samples: [{ value: 1764475200.123456 }] },
    { name: 'nodecheck_tiny', help: 'h', samples: [{ value: 1e-7 }] },
    { name: 'nodecheck_infinite', help: 'h', samples: [{ labels: { sign: '+' }, value: Infinity }, { labels: { sign: '-' }, value: -Infinity }] },
  ];
  await sameAsPromClient(t, 'escapes and values', families);
  t.match(renderGauges(families), /^nodecheck_escapes\{provider="a\\"b\\\\c\\nd",severity="error"\} 1$/m, 'escaped as the format defines');
});
