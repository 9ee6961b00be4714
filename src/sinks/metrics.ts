/**
 * The Prometheus exposition of one report (docs/operations.md "Metrics"): gauges only (a preflight run is
 * short-lived and keeps no state), no timestamps (node_exporter's textfile collector skips a whole
 * file that has one), HELP on every family, labels from bounded sets only (provider names, finding
 * ids, severities; never paths or messages). metricFamilies is the data; the textfile is
 * renderGauges' text (exposition.ts, without prom-client: kubelet's start path), and serve registers
 * the same families as prom-client Gauges (src/serve/registry.ts).
 *
 * What to alert on (packaging/prometheus/node-check.rules.yaml):
 *  - nodecheck_kubelet_start_ok == 0: kubelet is predicted to refuse to start.
 *  - nodecheck_kubelet_start_unknown == 1: node-check cannot tell. nodecheck_kubelet_start_ok is
 *    then absent rather than 0, so that "will fail" alerts never fire on a guess.
 *  - nodecheck_credential_provider_plugin_ok == 0, nodecheck_fallback_active == 1.
 *  - time() - nodecheck_last_run_timestamp_seconds: staleness, when node-check runs periodically.
 *  - nodecheck_last_run_ok == 0: the last run stopped before it could answer (usage error, bad
 *    settings file, internal error, out of its budget); renderUndecidedMetrics then replaces the
 *    earlier file, so an old nodecheck_kubelet_start_ok 1 never outlives a run that did not decide.
 */
import type { Report } from '../model/report.js';
import type { Severity } from '../model/findings.js';
import { findingKind } from '../catalog/findings.js';
import { escapeUnprintable } from '../render/printable.js';
import { renderGauges, type GaugeFamily } from './exposition.js';

export { writeTextfile } from './textfile.js';

export interface MetricsContext {
  /** node-check's version (nodecheck_build_info). */
  readonly version: string;
  /** How long the check took (nodecheck_check_duration_seconds). */
  readonly durationSeconds: number;
  /** Unix time the check finished (nodecheck_last_run_timestamp_seconds). */
  readonly nowSeconds: number;
}

/** Provider series per report; a config with more providers is not a fleet anyone alerts on by name. */
export const MAX_PROVIDER_SERIES = 64;
/** Longest provider label value; kubelet accepts longer names, but labels should stay small. */
export const MAX_PROVIDER_LABEL_LENGTH = 253;

const SEVERITIES: readonly Severity[] = ['error', 'warning', 'info'];
const SEVERITY_RANK: Readonly<Record<Severity, number>> = { error: 0, warning: 1, info: 2 };

export async function renderMetrics(report: Report, context: MetricsContext): Promise<string> {
  return renderGauges(metricFamilies(report, context));
}

/** The families of one report, in the order they are written. */
export function metricFamilies(report: Report, context: MetricsContext): GaugeFamily[] {
  const families: GaugeFamily[] = [];
  const gauge = (name: string, help: string, samples: GaugeFamily['samples']) => families.push({ name, help, samples });
  const one = (value: number) => [{ value }];

  gauge('nodecheck_build_info', BUILD_INFO_HELP, [{ labels: { version: context.version }, value: 1 }]);

  // Families are written only when they have a sample: an empty family is noise in the file.
  if (report.kubeletWillStart !== null) {
    gauge('nodecheck_kubelet_start_ok', '1 if kubelet is predicted to start, 0 if it is predicted to refuse; absent when node-check cannot tell (see nodecheck_kubelet_start_unknown).', one(report.kubeletWillStart ? 1 : 0));
  }
  gauge('nodecheck_kubelet_start_unknown', START_UNKNOWN_HELP, one(report.kubeletWillStart === null ? 1 : 0));

  const providers = providerSamples(report);
  if (providers.length > 0) {
    gauge('nodecheck_credential_provider_plugin_ok', "1 if the provider's plugin binary passes kubelet's start-up check, 0 if not; absent when that depends on the unknown kubelet version.",
      providers.map(({ provider, ok }) => ({ labels: { provider }, value: ok ? 1 : 0 })));
  }

  gauge('nodecheck_fallback_enabled', '1 if the node-check fallback is enabled on this node, else 0.', one(report.fallback.enabled ? 1 : 0));
  gauge('nodecheck_fallback_active', '1 while kubelet runs under the node-check fallback without some credential providers, else 0.', one(report.fallback.active ? 1 : 0));

  gauge('nodecheck_findings', 'Number of findings of the last check, by severity.',
    SEVERITIES.map((severity) => ({ labels: { severity }, value: report.findings.filter((f) => f.severity === severity).length })));

  const present = presentFindings(report);
  if (present.size > 0) {
    gauge('nodecheck_finding', '1 for each finding id present in the last check (ids: `node-check explain <id>`).',
      [...present].map(([id, severity]) => ({ labels: { id, severity }, value: 1 })));
  }

  gauge('nodecheck_check_duration_seconds', 'How long the last check took, in seconds.', one(nonNegative(context.durationSeconds)));
  gauge(LAST_RUN_OK, LAST_RUN_OK_HELP, one(1));
  gauge('nodecheck_last_run_timestamp_seconds', LAST_RUN_TIMESTAMP_HELP, one(nonNegative(context.nowSeconds)));

  return families;
}

const BUILD_INFO_HELP = 'Always 1; the version label is the node-check version that wrote these metrics.';
const START_UNKNOWN_HELP = '1 if node-check cannot tell whether kubelet will start (exit code 2), else 0.';
const LAST_RUN_TIMESTAMP_HELP = 'Unix time the last check finished.';
const LAST_RUN_OK = 'nodecheck_last_run_ok';
const LAST_RUN_OK_HELP = '1 if the last run checked the node and reported its answer, 0 if it stopped before (usage error, bad settings file, internal error, out of its budget).';

/**
 * The exposition of a run that did not decide: "cannot tell" (nodecheck_kubelet_start_ok absent,
 * nodecheck_kubelet_start_unknown 1) and nodecheck_last_run_ok 0, so that no earlier answer stays
 * in place. Synchronous: it is written from paths that cannot wait (the budget's last moment).
 */
export function renderUndecidedMetrics(context: Pick<MetricsContext, 'version' | 'nowSeconds'>): string {
  return renderGauges(undecidedFamilies(context));
}

export function undecidedFamilies(context: Pick<MetricsContext, 'version' | 'nowSeconds'>): GaugeFamily[] {
  return [
    { name: 'nodecheck_build_info', help: BUILD_INFO_HELP, samples: [{ labels: { version: context.version }, value: 1 }] },
    { name: 'nodecheck_kubelet_start_unknown', help: START_UNKNOWN_HELP, samples: [{ value: 1 }] },
    { name: LAST_RUN_OK, help: LAST_RUN_OK_HELP, samples: [{ value: 0 }] },
    { name: 'nodecheck_last_run_timestamp_seconds', help: LAST_RUN_TIMESTAMP_HELP, samples: [{ value: nonNegative(context.nowSeconds) }] },
  ];
}

/** One sample per distinct provider with a definite answer, bounded in count and label length. */
function providerSamples(report: Report): { provider: string; ok: boolean }[] {
  const seen = new Map<string, boolean>();
  for (const status of report.kubelet.providers) {
    // An empty label value is the same as no label; kubelet rejects an empty name anyway.
    if (status.pluginOk === null || status.name === '') continue;
    // Escaped like the journal's values: a label value is text for dashboards, not a carrier of
    // raw control characters (the format escapes only \\, " and \n).
    const provider = [...escapeUnprintable(status.name)].slice(0, MAX_PROVIDER_LABEL_LENGTH).join('');
    // Two names equal after truncation would be a duplicate series, which node_exporter drops:
    // keep the worse answer.
    seen.set(provider, (seen.get(provider) ?? true) && status.pluginOk);
    if (seen.size >= MAX_PROVIDER_SERIES) break;
  }
  return [...seen].map(([provider, ok]) => ({ provider, ok }));
}

/** Catalog ids present in the report, with their worst severity. Ids outside the catalog are left out (unbounded). */
function presentFindings(report: Report): Map<string, Severity> {
  const present = new Map<string, Severity>();
  for (const finding of report.findings) {
    if (findingKind(finding.id) === undefined) continue;
    const known = present.get(finding.id);
    if (known === undefined || SEVERITY_RANK[finding.severity] < SEVERITY_RANK[known]) present.set(finding.id, finding.severity);
  }
  return present;
}

function nonNegative(value: number): number {
  return Number.isFinite(value) && value > 0 ? value : 0;
}
