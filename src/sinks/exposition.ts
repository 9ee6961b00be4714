/**
 * Prometheus text exposition format 0.0.4 for gauges, which is all node-check exports: what
 * prom-client's Registry.metrics() prints for them, without loading prom-client (about 20 ms and
 * several MB on kubelet's start path). Escaping as the format defines it: `\\` and `\n` in HELP,
 * and `\\`, `\"` and `\n` in label values.
 */
export interface GaugeFamily {
  readonly name: string;
  readonly help: string;
  readonly samples: readonly { readonly labels?: Readonly<Record<string, string>>; readonly value: number }[];
}

export function renderGauges(families: readonly GaugeFamily[]): string {
  return families
    .map((family) => {
      const lines = [`# HELP ${family.name} ${escapeHelp(family.help)}`, `# TYPE ${family.name} gauge`];
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
