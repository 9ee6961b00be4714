/**
 * docs/kubelet-inputs.md: every kubelet flag and KubeletConfiguration field of 1.24-1.37 with its
 * status from src/catalog/inputs.ts. Written by scripts/gen-docs.mjs; test/docs/
 * kubelet-inputs.test.ts fails when the committed file differs.
 */
import { kubeletFlagsFor } from '../kubelet/command-line/flag-table.js';
import { MODELLED_MINORS, MODELLED_RANGE } from '../kubelet/data/minors.js';
import { allConfigFields, configFieldStatus, flagStatus, type InputStatus } from '../catalog/inputs.js';

const minors = (from: number, until: number) => (from === until ? `1.${from}` : `1.${from}-1.${until}`);
const cell = (s: string) => s.replace(/\|/g, '\\|');

function describe(status: InputStatus): [string, string] {
  switch (status.kind) {
    case 'modelled':
      return ['modelled', status.by];
    case 'no-effect':
      if (status.hostFact) return ['no effect at start', `${status.source}; decided for ${status.acceptsText ?? 'some values'}; another value is a host fact (${status.hostFact}): undecided on the live root, not checked with any other root`];
      return ['no effect at start', status.acceptsText ? `${status.source}; decided for ${status.acceptsText}, other values undecided` : status.source];
    case 'undecided':
      return ['undecided', 'a non-default value makes the answer "cannot tell" (exit 2), naming the input, its file and line'];
  }
}

export function renderKubeletInputsMarkdown(): string {
  const lines = [
    '# What kubelet reads before "Started kubelet", and what node-check decides',
    '',
    'Generated from src/catalog/inputs.ts by `node scripts/gen-docs.mjs`; do not edit.',
    '',
    `Every KubeletConfiguration field and every kubelet flag of ${MODELLED_RANGE}, per minor range, with its status:`,
    '',
    '- **modelled**: a start rule reads it (named);',
    '- **no effect at start**: kubelet uses it only after start, or only logs about it (the kubelet source path, at each minor\'s tag, says where);',
    '- **undecided**: kubelet may act on it in a way node-check has no rule for; set to a non-default value it makes the answer `null` (exit 2);',
    '',
    'A flag bound to a field shares the field\'s status.',
    '',
    '## KubeletConfiguration fields',
    '',
    '| Field | Minors | Status | Rule or source |',
    '| --- | --- | --- | --- |',
  ];
  for (const { field, from, until } of allConfigFields().sort((a, b) => a.field.localeCompare(b.field))) {
    const [status, detail] = describe(configFieldStatus(field));
    lines.push(`| \`${field}\` | ${minors(from, until)} | ${status} | ${cell(detail)} |`);
  }
  lines.push('', '## Flags', '', '| Flag | Minors | Status | Rule or source |', '| --- | --- | --- | --- |');
  // One row per flag and status: a status that changes with the minor gets a row per range.
  const rows = new Map<string, { name: string; from: number; until: number; status: string; detail: string }[]>();
  for (const minor of MODELLED_MINORS) {
    for (const [name, spec] of kubeletFlagsFor(minor) ?? []) {
      const [status, detail] = describe(flagStatus(minor, name));
      const bound = spec.configField ? ` (\`${spec.configField}\`)` : '';
      const list = rows.get(name) ?? [];
      const last = list[list.length - 1];
      if (last && last.until === minor - 1 && last.status === status && last.detail === detail + bound) last.until = minor;
      else list.push({ name, from: minor, until: minor, status, detail: detail + bound });
      rows.set(name, list);
    }
  }
  for (const name of [...rows.keys()].sort()) {
    for (const row of rows.get(name)!) lines.push(`| \`--${row.name}\` | ${minors(row.from, row.until)} | ${row.status} | ${cell(row.detail)} |`);
  }
  return `${lines.join('\n')}\n`;
}
