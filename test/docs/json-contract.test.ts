// docs/json.md documents every field of the report (src/model/report.ts, src/model/findings.ts).
// The Records below must name every key of those types (the typecheck fails otherwise), so a new
// field cannot be added without this test asking for its documentation.
import t from 'tap';
import { readFileSync } from 'node:fs';
import type { FallbackStatus, ProviderStatus, Report } from '../../src/model/report.js';
import type { Finding } from '../../src/model/findings.js';
import { checkNode } from '../../src/check-node.js';
import { renderJson } from '../../src/render/json.js';

const JSON_DOC = readFileSync(new URL('../../docs/json.md', import.meta.url), 'utf8');

const SECTIONS: Record<string, Record<string, true>> = {
  report: {
    schemaVersion: true, kubeletWillStart: true, kubeletVersion: true, kubeletVersionSource: true,
    evaluatedVersions: true, kubeletFlavor: true, kubelet: true, findings: true, fallback: true, notChecked: true, upgrade: true,
    provenance: true, ignored: true,
  } satisfies Record<keyof Report, true>,
  kubelet: {
    unit: true, unitFile: true, dropIns: true, argv: true, credentialProviderConfig: true, credentialProviderBinDir: true, providers: true,
  } satisfies Record<keyof Report['kubelet'], true>,
  provider: { name: true, binary: true, pluginOk: true } satisfies Record<keyof ProviderStatus, true>,
  finding: {
    id: true, severity: true, message: true, path: true, provider: true, remediation: true, kubeletError: true, kubeletLogLine: true, inexact: true, versions: true, ignored: true,
  } satisfies Record<keyof Finding, true>,
  fallback: {
    enabled: true, active: true, reason: true, since: true, removedProviders: true, dropInPath: true,
  } satisfies Record<keyof FallbackStatus, true>,
};

/** The field names in the first column of the tables under a "### heading" (or the first table). */
function documentedFields(heading: string | undefined): Set<string> {
  const start = heading === undefined ? JSON_DOC.indexOf('## The object') : JSON_DOC.indexOf(`\n### ${heading}\n`);
  if (start < 0) return new Set();
  const rest = JSON_DOC.slice(start + 1);
  const end = rest.search(/\n###? /);
  const section = end < 0 ? rest : rest.slice(0, end);
  const names = new Set<string>();
  for (const line of section.split('\n')) {
    const cell = /^\| ([^|]+) \|/.exec(line)?.[1];
    for (const name of cell?.matchAll(/`([A-Za-z]+)`/g) ?? []) names.add(name[1]!);
  }
  return names;
}

t.test('docs/json.md has a table row for every field of the report', async (t) => {
  const headings: Record<string, string | undefined> = { report: undefined, kubelet: '`kubelet`', provider: 'provider', finding: 'finding', fallback: '`fallback`' };
  for (const [section, fields] of Object.entries(SECTIONS)) {
    const documented = documentedFields(headings[section]);
    t.ok(documented.size > 0, `docs/json.md has a table for ${section}`);
    for (const field of Object.keys(fields)) t.ok(documented.has(field), `${section}.${field} is documented`);
  }
});

t.test('the example in docs/json.md has the fields a real report has, in its order', async (t) => {
  const report = await checkNode({ root: new URL('../../examples/ocp-4.16-azure-rhel8-worker', import.meta.url).pathname, unit: 'kubelet.service', kubeletVersion: '1.29.5' });
  const real = JSON.parse(renderJson(report)) as Record<string, unknown>;
  const example = JSON.parse(/```json\n([\s\S]*?)\n```/.exec(JSON_DOC)![1]!) as Record<string, unknown>;
  t.same(Object.keys(example), Object.keys(real), 'top-level keys, in the order renderJson prints them');
  t.same(Object.keys(example['kubelet'] as object), Object.keys(real['kubelet'] as object));
  // Messages and remediations are prose and may be reworded (json.md says so); the rest may not.
  const stable = (findings: unknown) => (findings as Finding[]).map(({ id, severity, path, provider, kubeletError }) => ({ id, severity, path, provider, kubeletError }));
  t.same(stable(example['findings']), stable(real['findings']), 'the findings are what node-check reports for this node');
  t.same(example['kubeletWillStart'], real['kubeletWillStart']);
});
