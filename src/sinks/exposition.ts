/**
 * The textfile writer: Prometheus text exposition format 0.0.4 for node-check's gauges, byte for
 * byte what prom-client's Registry.metrics() renders for the same gauges registered in that order
 * (test/sinks/textfile-prom-client.test.ts compares them). The textfile is written on kubelet's
 * start path, where loading prom-client would cost its evaluation (and node:https, node:zlib, which
 * its index requires); serve renders these families through prom-client (src/serve/registry.ts).
 * Escaping as prom-client 15's lib/registry.js does it, which is what the format defines: `\\` and
 * `\n` in HELP, and `\\`, `\"` and `\n` in label values. Values are finite (counts, 0/1, seconds
 * clamped by the families' builders); prom-client's lib/util.js getValueAsString would print NaN
 * as "Nan".
 */
export interface GaugeFamily {
  readonly name: string;
  readonly help: string;
  readonly samples: readonly { readonly labels?: Readonly<Record<string, string>>; readonly value: number }[];
}

/** prom-client: each family `# HELP`, `# TYPE`, its samples, joined by a blank line, and a final newline. */
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
  return text.replace(/\\/g, '\\\\').replace(/\n/g, '\\n').replace(/"/g, '\\"');
}

function formatValue(value: number): string {
  if (value === Infinity) return '+Inf';
  if (value === -Infinity) return '-Inf';
  return String(value);
}
