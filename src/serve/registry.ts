/**
 * serve's /metrics through prom-client: the families of
 * the last check as prom-client Gauges (the names, HELP and labels the textfile has, from
 * src/sinks/metrics.ts and src/serve/pending.ts), then prom-client's default metrics
 * (collectDefaultMetrics: process_*, nodejs_*), as node_exporter exposes process_* and go_*. Each
 * scrape renders the text format 0.0.4 or OpenMetrics 1.0.0, as its Accept header prefers.
 * serve only: src/cli/commands/serve.ts is imported lazily, so preflight never evaluates
 * prom-client (test/cli/preflight-modules.test.ts).
 */
import { collectDefaultMetrics, Gauge, Registry, type OpenMetricsContentType, type PrometheusContentType } from 'prom-client';
import type { GaugeFamily } from '../sinks/exposition.js';

type AnyRegistry = Registry<PrometheusContentType> | Registry<OpenMetricsContentType>;

function openMetricsRegistry(): Registry<OpenMetricsContentType> {
  const registry = new Registry<OpenMetricsContentType>();
  registry.setContentType(Registry.OPENMETRICS_CONTENT_TYPE);
  return registry;
}

/** Each family as a Gauge registered in `registers`, in order, its samples set. */
export function registerGauges(families: readonly GaugeFamily[], registers: AnyRegistry[]): void {
  for (const family of families) {
    const labelNames = [...new Set(family.samples.flatMap((sample) => Object.keys(sample.labels ?? {})))];
    // registers given: never prom-client's global registry.
    const gauge = new Gauge({ name: family.name, help: family.help, labelNames, registers: registers as Registry[] });
    for (const { labels, value } of family.samples) gauge.set({ ...labels }, value);
  }
}

/** A registry holding just these gauges: what prom-client renders for them. */
export function gaugeRegistry(families: readonly GaugeFamily[], contentType: 'text' | 'openmetrics' = 'text'): AnyRegistry {
  const registry = contentType === 'text' ? new Registry() : openMetricsRegistry();
  registerGauges(families, [registry]);
  return registry;
}

/** Whether an Accept header prefers OpenMetrics to the 0.0.4 text (RFC 9110 q-values; Prometheus sends both). */
export function prefersOpenMetrics(accept: string | undefined): boolean {
  if (!accept) return false;
  let openMetrics = 0;
  let text = 0;
  for (const range of accept.split(',')) {
    const [type = '', ...parameters] = range.split(';').map((part) => part.trim().toLowerCase());
    const qParameter = parameters.find((p) => p.startsWith('q='));
    const q = qParameter === undefined ? 1 : Number(qParameter.slice(2));
    if (!Number.isFinite(q)) continue;
    if (type === 'application/openmetrics-text') openMetrics = Math.max(openMetrics, q);
    else if (type === 'text/plain' || type === 'text/*' || type === '*/*') text = Math.max(text, q);
  }
  return openMetrics > 0 && openMetrics >= text;
}

export interface Scrape {
  readonly contentType: string;
  readonly body: string;
}

type Format = 'text' | 'openmetrics';

const EVENT_LOOP_SAMPLE_MS = 100;

export interface ServeMetrics {
  /** Replaces node-check's families with a check's (or an undecided run's). */
  update(families: readonly GaugeFamily[]): void;
  /** Whether a check has given families yet. */
  readonly ready: boolean;
  scrape(accept: string | undefined): Promise<Scrape>;
}

export function serveMetrics(): ServeMetrics {
  // One set of default metrics per format: rendering OpenMetrics, prom-client's Registry.metrics()
  // renames each counter in place, dropping its _total (lib/registry.js standardizeCounterName;
  // prometheus/client_js#829), after which the 0.0.4 text would name the counter without it.
  // Registered now, before the first check: prom-client counts process_cpu_* from here on.
  const defaults = { text: new Registry(), openmetrics: openMetricsRegistry() };
  // The event-loop lag is sampled every 100 ms, not prom-client's 10: its timer woke idle serve
  // 200 times a second (two registries), ~0.6 % of a core measured over 40 s, for a daemon that is
  // idle between checks; a block of the loop longer than 100 ms still always shows as lag.
  for (const register of [defaults.text, defaults.openmetrics]) collectDefaultMetrics({ register, eventLoopMonitoringPrecision: EVENT_LOOP_SAMPLE_MS });
  let checks: { readonly text: AnyRegistry; readonly openmetrics: AnyRegistry } | undefined;
  // Concurrent scrapes of one format share one render: the work stays one render per format
  // however many scrapers ask at once (serve's connections are bounded too: connection-limits.ts).
  const rendering = new Map<Format, Promise<string>>();
  return {
    update(families) {
      const text = new Registry();
      const openmetrics = openMetricsRegistry();
      // Gauges are not renamed by either format, so one Gauge serves both registries.
      registerGauges(families, [text, openmetrics]);
      checks = { text, openmetrics };
    },
    get ready() {
      return checks !== undefined;
    },
    async scrape(accept) {
      if (!checks) throw new Error('no check has finished');
      const format: Format = prefersOpenMetrics(accept) ? 'openmetrics' : 'text';
      let body = rendering.get(format);
      if (!body) {
        body = Registry.merge([checks[format], defaults[format]] as Registry[])
          .metrics()
          .finally(() => rendering.delete(format));
        rendering.set(format, body);
      }
      return { contentType: format === 'text' ? Registry.PROMETHEUS_CONTENT_TYPE : Registry.OPENMETRICS_CONTENT_TYPE, body: await body };
    },
  };
}
