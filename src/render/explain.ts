/** `node-check explain <id>` and docs/findings.md: both rendered from the finding catalog. */
import { allFindingKinds, type FindingKind } from '../catalog/findings.js';

export function renderExplanation(kind: FindingKind): string {
  return [
    `${kind.id}: ${kind.title}`,
    '',
    `Severity:   ${kind.severity}${kind.severity === 'error' ? ' (kubelet will not start)' : ''}`,
    `Kubelet:    ${kind.versions}`,
    `MESSAGE_ID: ${kind.messageId}`,
    '',
    wrap(kind.meaning),
    '',
    wrap(`Fix: ${kind.fix}`),
    '',
  ].join('\n');
}

/** The whole catalog as Markdown; `npm test` checks docs/findings.md is exactly this. */
export function renderFindingsMarkdown(): string {
  const sections = allFindingKinds().map((kind) =>
    [
      `## \`${kind.id}\``,
      '',
      `**${kind.title}**`,
      '',
      `- Severity: ${kind.severity}${kind.severity === 'error' ? ' (kubelet will not start)' : ''}`,
      `- Kubelet versions: ${kind.versions}`,
      `- Journal MESSAGE_ID: \`${kind.messageId}\``,
      '',
      kind.meaning,
      '',
      `**Fix:** ${kind.fix}`,
      '',
    ].join('\n'),
  );
  return [
    '# Findings',
    '',
    '<!-- Generated from src/catalog/findings.ts by `node scripts/gen-docs.mjs`; do not edit by hand. -->',
    '',
    'Every finding node-check reports, as `node-check explain <id>` prints it.',
    '',
    ...sections,
  ].join('\n');
}

function wrap(text: string, width = 76): string {
  const lines: string[] = [];
  let line = '';
  // Split on single spaces so kubelet's own double spaces ("executable  did not exist") survive.
  for (const word of text.split(' ')) {
    if (line && word && line.length + 1 + word.length > width) {
      lines.push(line);
      line = word;
    } else {
      line = line ? `${line} ${word}` : word;
    }
  }
  if (line) lines.push(line);
  return lines.join('\n');
}
