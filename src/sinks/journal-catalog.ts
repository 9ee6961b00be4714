/**
 * systemd/node-check.catalog, rendered from the finding catalog: one journal catalog entry per
 * MESSAGE_ID, so `journalctl -x` explains node-check's entries (systemd docs/CATALOG.md).
 * scripts/gen-catalog.mjs writes the file; test/sinks/journal-catalog.test.ts keeps it in step.
 *
 * Format rules that shape this code (systemd src/libsystemd/sd-journal/catalog.c,
 * catalog_import_file): lines starting with "#" or ";" are comments anywhere, even in the text;
 * an entry starts at "-- <32 hex>" after an empty line; headers end at the first empty line and
 * have no continuation lines. Prose is wrapped at 76 columns. On display, @FIELD@ is replaced by
 * the entry's field; when the entry lacks it, the name stays without the @s, so only fields the
 * engine always sets for that finding are substituted.
 */
import { allFindingKinds, type FindingKind } from '../catalog/findings.js';
import { findingDocumentationUrl, INSTALLED_DOC_DIR } from './journal-entry.js';

export const CATALOG_WIDTH = 76;
/** Where to turn for help: the installed README (operations, support matrix), readable offline. */
export const SUPPORT_URL = `file://${INSTALLED_DOC_DIR}/README.md`;

/**
 * Lines naming the affected plugin or file, by finding id. Only where every finding of that id
 * carries the field: the registration failures (src/credentials/registration.ts) always set
 * path and kubeletError, and provider for plugin failures; the plugin checks
 * (src/checks/plugin-checks.ts, config-checks.ts) always set path and provider.
 */
const PLUGIN = 'Plugin: "@NODE_CHECK_PROVIDER@" at @NODE_CHECK_PATH@';
const FILE = 'File: @NODE_CHECK_PATH@';
const DIRECTORY = 'Directory: @NODE_CHECK_PATH@';
const PROVIDER_IN_FILE = 'Provider: "@NODE_CHECK_PROVIDER@" in @NODE_CHECK_PATH@';
const KUBELET_ERROR = 'Kubelet logs: err="@NODE_CHECK_KUBELET_ERROR@"';

const SUBSTITUTIONS: Readonly<Record<string, readonly string[]>> = {
  'bin-dir-missing': [DIRECTORY, KUBELET_ERROR],
  'bin-dir-uninspectable': [DIRECTORY, KUBELET_ERROR],
  'config-path-empty': [KUBELET_ERROR],
  'config-unreadable': [FILE, KUBELET_ERROR],
  'config-is-directory': [FILE, KUBELET_ERROR],
  'config-dir-empty': [DIRECTORY, KUBELET_ERROR],
  'config-decode-failed': [FILE, KUBELET_ERROR],
  'config-unknown-field': [FILE, KUBELET_ERROR],
  'config-duplicate-provider': [FILE, KUBELET_ERROR],
  'config-invalid': [FILE, KUBELET_ERROR],
  'plugin-binary-missing': [PLUGIN, KUBELET_ERROR],
  'plugin-binary-not-executable': [PLUGIN, KUBELET_ERROR],
  'plugin-binary-uninspectable': [PLUGIN, KUBELET_ERROR],
  'plugin-registered-twice': [PROVIDER_IN_FILE, KUBELET_ERROR],
  'plugin-not-executable-at-pull': [PLUGIN],
  'plugin-wrong-architecture': [PLUGIN],
  'plugin-interpreter-missing': [PLUGIN],
  'plugin-insecure-permissions': [FILE],
  'match-image-never-matches': [PROVIDER_IN_FILE],
  'config-fields-ignored': [FILE],
  'kubelet-config-problem': [FILE],
};

export function substitutionsFor(id: string): readonly string[] {
  return SUBSTITUTIONS[id] ?? [];
}

export function renderJournalCatalog(): string {
  const header = [
    '# SPDX-License-Identifier: Apache-2.0',
    '#',
    '# Journal message catalog for node-check: `journalctl -x` shows these',
    '# explanations under node-check\'s entries. Install to',
    '# /usr/lib/systemd/catalog/ and run `journalctl --update-catalog`.',
    '#',
    '# Generated from src/catalog/findings.ts by `node scripts/gen-catalog.mjs`;',
    '# do not edit by hand.',
  ];
  return [...header, ...allFindingKinds().flatMap((kind) => ['', ...catalogEntry(kind)])].join('\n') + '\n';
}

function catalogEntry(kind: FindingKind): string[] {
  const severity =
    kind.severity === 'error' ? 'kubelet will not start' : kind.severity === 'warning' ? 'kubelet starts, but something will fail' : 'information';
  return [
    `-- ${kind.messageId}`,
    `Subject: ${kind.title}`,
    'Defined-By: node-check',
    `Support: ${SUPPORT_URL}`,
    `Documentation: ${findingDocumentationUrl(kind.id)}`,
    '',
    ...substitutionsFor(kind.id).flatMap((line) => wrap(line)),
    ...(substitutionsFor(kind.id).length > 0 ? [''] : []),
    ...wrap(`Finding ${kind.id} (${kind.severity}: ${severity}). Kubelet versions: ${kind.versions}.`),
    '',
    ...wrap(kind.meaning),
    '',
    ...wrap(`How to fix it: ${kind.fix}`),
    '',
    ...wrap(`\`node-check check\` shows the details for this node; \`node-check explain ${kind.id}\` prints this explanation.`),
  ];
}

/**
 * Words filled into lines of at most 76 columns. A word that starts with "#" or ";" never starts
 * a line (catalog.c would drop the line as a comment), so it is kept with the word before it.
 * A single word longer than a line (a URL) gets a line of its own.
 */
export function wrap(text: string, width = CATALOG_WIDTH): string[] {
  const units: string[] = [];
  let extraSpaces = '';
  // Split on single spaces so that a deliberate double space (kubelet's "executable  did not
  // exist", with an empty path) survives as a leading space of the next word.
  for (const word of text.trim().replace(/[\t\r\n]+/g, ' ').split(' ')) {
    if (word === '') {
      extraSpaces += ' ';
      continue;
    }
    const unit = extraSpaces + word;
    extraSpaces = '';
    if (/^[#;]/.test(word) && units.length > 0) units[units.length - 1] += ` ${unit}`;
    else units.push(unit);
  }
  const lines: string[] = [];
  let line = '';
  for (const unit of units) {
    if (line !== '' && line.length + 1 + unit.length > width) {
      lines.push(line);
      line = unit;
    } else {
      line = line === '' ? unit : `${line} ${unit}`;
    }
  }
  if (line !== '') lines.push(line);
  return lines;
}
