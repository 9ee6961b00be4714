/**
 * Prometheus text exposition format 0.0.4 for gauges (all node-check's own families) and the
 * counters of serve's process metrics: what prom-client's Registry.metrics() prints for them,
 * without loading prom-client (about 20 ms and several MB on kubelet's start path). Escaping as the
 * format defines it: `\\` and `\n` in HELP, and `\\`, `\"` and `\n` in label values.
 * toOpenMetrics turns it into OpenMetrics 1.0.0 for a scraper that asks for it.
 */
export interface GaugeFamily {
  readonly name: string;
  readonly help: string;
  /** Default gauge. A counter's name ends in _total. */
  readonly type?: 'gauge' | 'counter';
  readonly samples: readonly { readonly labels?: Readonly<Record<string, string>>; readonly value: number }[];
}

export function renderGauges(families: readonly GaugeFamily[]): string {
  return families
    .map((family) => {
      const lines = [`# HELP ${family.name} ${escapeHelp(family.help)}`, `# TYPE ${family.name} ${family.type ?? 'gauge'}`];
      for (const sample of family.samples) lines.push(`${family.name}${renderLabels(sample.labels)} ${formatValue(sample.value)}`);
      return lines.join('\n') + '\n';
    })
    .join('\n');
}

function renderLabels(labels: Readonly<Record<string, string>> | undefined): string {
  const entries = Object.entries(labels ?? {});
  if (entries.length === 0) return '';
  return `{${entries.map(([name, value]) => `${name}="${escapeLabelValue(value)}"`).join(',')}}`;
}

function escapeHelp(text: string): string {
  return text.replace(/\\/g, '\\\\').replace(/\n/g, '\\n');
}

function escapeLabelValue(text: string): string {
  return text.replace(/\\/g, '\\\\').replace(/"/g, '\\"').replace(/\n/g, '\\n');
}

function formatValue(value: number): string {
  if (Number.isNaN(value)) return 'NaN';
  if (value === Infinity) return '+Inf';
  if (value === -Infinity) return '-Inf';
  return String(value);
}

export const TEXT_CONTENT_TYPE = 'text/plain; version=0.0.4; charset=utf-8';
export const OPENMETRICS_CONTENT_TYPE = 'application/openmetrics-text; version=1.0.0; charset=utf-8';

/**
 * The same families in OpenMetrics 1.0.0 text: no blank lines, a counter's family named without
 * its _total suffix (the sample keeps it), and the closing `# EOF`. Input: renderGauges' output.
 */
export function toOpenMetrics(text: string): string {
  const counters = new Set<string>();
  for (const match of text.matchAll(/^# TYPE (\S+) counter$/gm)) counters.add(match[1]!);
  const family = (name: string) => (counters.has(name) && name.endsWith('_total') ? name.slice(0, -'_total'.length) : name);
  const lines = text
    .split('\n')
    .filter((line) => line !== '')
    .map((line) => line.replace(/^# (HELP|TYPE) (\S+)/, (_all, kind: string, name: string) => `# ${kind} ${family(name)}`));
  return `${lines.join('\n')}\n# EOF\n`;
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
