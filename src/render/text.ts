/**
 * The report for people: the answer first, then each finding with kubelet's own words, why it
 * matters and the exact fix. Colour only when asked (a TTY without --no-color / NO_COLOR).
 */
import type { Finding } from '../model/findings.js';
import type { Report } from '../model/report.js';
import { exitCodeFor } from '../model/report.js';
import { escapeUnprintable as safe } from './printable.js';
import { describeMinors, minorsDescribed } from '../kubelet/version.js';
import { SYSTEMD_FINDING } from '../systemd-preconditions/check-systemd.js';

const SYSTEMD_FINDING_IDS: ReadonlySet<string> = new Set(Object.values(SYSTEMD_FINDING));

export interface TextStyle {
  readonly color: boolean;
  /** Add the provenance section (report.provenance, present with --verbose). */
  readonly verbose?: boolean;
}

const paint = (on: boolean, code: string) => (text: string) => (on ? `\u001b[${code}m${text}\u001b[0m` : text);

export function renderText(report: Report, style: TextStyle): string {
  const red = paint(style.color, '31;1');
  const yellow = paint(style.color, '33;1');
  const green = paint(style.color, '32;1');
  const dim = paint(style.color, '2');
  const bold = paint(style.color, '1');
  const lines: string[] = [];

  if (report.fallback.active) {
    const removed = report.fallback.removedProviders ?? [];
    lines.push(yellow(`! FALLBACK ACTIVE since ${report.fallback.since ?? '?'}: kubelet runs without ${safe(removed.join(', ')) || 'some credential providers'}; image pulls that need ${removed.length === 1 ? 'it' : 'them'} fail.`));
  }
  const upgrade = report.upgrade;
  const after = upgrade ? ` after applying ${safe(upgrade.sources.map((s) => s.name).join(' + ') || '(nothing)')}` : '';
  if (upgrade && upgrade.before.kubeletWillStart === true && report.kubeletWillStart === false) {
    lines.push(red(upgradeBreaksLine(report)));
  }
  const version = report.kubeletVersion ? `kubelet ${report.kubeletVersion} ${versionSourceText(report)}`.trimEnd() : 'kubelet version unknown';
  lines.push(bold(`${report.kubelet.unit}`) + dim(` (${report.kubelet.unitFile ?? 'unit file not found'}; ${version})`));
  const headline = report.kubeletWillStart === true
    ? green(`✔ kubelet is predicted to start${after}`)
    : report.kubeletWillStart === false
      ? red(`✘ kubelet will NOT start${after} (${[...new Set(report.findings.filter((f) => f.severity === 'error').map((f) => f.id))].join(', ')})`)
      : yellow(`? node-check cannot tell whether kubelet will start${after}`);
  lines.push(headline);
  // Without a version every minor was evaluated: the way to one answer comes first.
  const allMinors = !report.kubeletVersion && report.evaluatedVersions.length > 1;
  if (allMinors) lines.push(yellow(`  kubelet version unknown: each kubelet ${report.evaluatedVersions[0]}-${report.evaluatedVersions.at(-1)} was evaluated; pass --kubelet-version X.Y.Z (or --openshift-version 4.N) for this node's answer.`));
  if (report.ignored) lines.push(yellow(ignoredLine(report)));
  const flavor = report.kubeletFlavor;
  lines.push(dim(`  kubelet flavour: ${flavor.name === 'openshift' ? "OpenShift's" : "upstream's"} (${safe(flavor.evidence.join('; '))})`));
  if (report.notChecked.length > 0) {
    // One line per reason: host facts share theirs, each missing binary has its own.
    const byReason = new Map<string, string[]>();
    for (const { fact, reason } of report.notChecked) byReason.set(reason, [...(byReason.get(reason) ?? []), fact]);
    for (const [reason, facts] of byReason) lines.push(dim(`  not checked: ${[...new Set(facts)].join(', ')} (${safe(reason)})`));
  }
  if (upgrade) {
    const now = upgrade.before.kubeletWillStart === true ? 'starts' : upgrade.before.kubeletWillStart === false ? 'does NOT start' : 'cannot tell';
    lines.push(dim(`  now (without it): ${now}; changed paths: ${upgrade.changedPaths.length}; deciding: ${safe(upgrade.decidingPaths.join(', ')) || 'none'}`));
  }
  if (report.kubelet.credentialProviderConfig || report.kubelet.credentialProviderBinDir) {
    lines.push(dim(`  credential provider config: ${safe(report.kubelet.credentialProviderConfig ?? '(empty)')}`));
    lines.push(dim(`  plugin directory:           ${safe(report.kubelet.credentialProviderBinDir ?? '(none: the flag is not set, or empty)')}`));
    for (const provider of report.kubelet.providers) {
      const mark = provider.pluginOk === true ? green('ok') : provider.pluginOk === false ? red('FAIL') : yellow('depends on version');
      lines.push(dim(`  provider ${safe(provider.name)}: `) + mark + dim(` (${safe(provider.binary)})`));
    }
  }

  if (style.verbose && report.provenance) lines.push('', bold('Where it came from (--verbose):'), ...renderProvenance(report).map((line) => dim(`  ${safe(line)}`)));

  if (report.findings.length > 0) lines.push('');
  const painters = { red, yellow, dim, bold };
  if (allMinors && !style.verbose) lines.push(...renderByCause(report.findings, painters));
  else for (const finding of report.findings) lines.push(...renderFinding(finding, painters));

  const code = exitCodeFor(report);
  const meaning = code === 0 && report.ignored?.verdictIgnored ? 'every finding behind the prediction is ignored (--ignore)' : code === 0 ? 'kubelet is predicted to start' : code === 1 ? 'kubelet is predicted to fail to start' : 'unknown';
  if (lines[lines.length - 1] !== '') lines.push('');
  lines.push(dim(`exit code ${code}: ${meaning}. \`node-check explain <id>\` explains a finding.`));
  return lines.join('\n') + '\n';
}

/** The one line an admin pastes into the upgrade ticket: starts now, will not start after. */
function upgradeBreaksLine(report: Report): string {
  const error = report.findings.find((f) => f.severity === 'error');
  const version = report.kubeletVersion ? `kubelet ${report.kubeletVersion}` : `kubelet ${report.evaluatedVersions.join(', ')}`;
  const why = error ? `${error.id}: ${error.kubeletError ?? error.message}` : 'see the findings';
  return `✘ UPGRADE WILL STOP KUBELET: ${safe(report.upgrade!.summary)} (${version}; ${safe(why)})`;
}

type Painters = Record<'red' | 'yellow' | 'dim' | 'bold', (text: string) => string>;

function renderFinding(finding: Finding, p: Painters): string[] {
  const label = finding.severity === 'error' ? p.red('error  ') : finding.severity === 'warning' ? p.yellow('warning') : p.dim('info   ');
  const ignored = finding.ignored ? p.dim(' (ignored by --ignore)') : '';
  const lines = [`${label} ${p.bold(finding.id)}${ignored}${finding.versions ? p.dim(` (kubelet ${finding.versions})`) : ''}`];
  const indent = '        ';
  // Messages carry provider names and paths from config files: never let them drive the terminal.
  lines.push(indent + safe(finding.message));
  // systemd's own refusals are logged by systemd, under the unit, before kubelet runs.
  const logger = SYSTEMD_FINDING_IDS.has(finding.id) ? 'systemd logs' : 'kubelet logs';
  if (finding.kubeletLogLine) lines.push(indent + p.dim(finding.inexact ? `${logger} (one of, or like): ` : `${logger}: `) + safe(finding.kubeletLogLine));
  else if (finding.kubeletError) lines.push(indent + p.dim('kubelet logs: ') + `"Failed to register CRI auth plugins" err=${JSON.stringify(finding.kubeletError)}`);
  if (finding.path) lines.push(indent + p.dim('path: ') + safe(finding.path));
  lines.push(indent + p.dim('fix: ') + safe(finding.remediation));
  lines.push('');
  return lines;
}

/**
 * The first screen when every minor was evaluated: one entry per cause (finding id), with the
 * versions it holds for, told in the words of the newest version it holds for; errors first,
 * newest first; the rest one line each. --verbose and JSON keep every version's finding.
 */
function renderByCause(findings: readonly Finding[], p: Painters): string[] {
  const causes = new Map<string, { findings: Finding[]; minors: number[] }>();
  for (const finding of findings) {
    if (finding.id === 'kubelet-version-unknown') continue; // said above the findings
    const cause = causes.get(finding.id) ?? { findings: [], minors: [] };
    cause.findings.push(finding);
    cause.minors.push(...minorsDescribed(finding.versions ?? ''));
    causes.set(finding.id, cause);
  }
  const rank = { error: 0, warning: 1, info: 2 } as const;
  const newest = (minors: readonly number[]) => Math.max(0, ...minors);
  const ordered = [...causes.values()].sort((a, b) => rank[a.findings[0]!.severity] - rank[b.findings[0]!.severity] || newest(b.minors) - newest(a.minors));
  const lines: string[] = [];
  let variants = 0;
  for (const cause of ordered) {
    const latest = cause.findings.reduce((best, f) => (newest(minorsDescribed(f.versions ?? '')) > newest(minorsDescribed(best.versions ?? '')) ? f : best));
    const shown = { ...latest, ...(cause.minors.length > 0 ? { versions: describeMinors(cause.minors) } : {}) };
    if (latest.severity === 'info') {
      lines.push(`${p.dim('info   ')} ${p.bold(latest.id)}${p.dim(` (kubelet ${shown.versions ?? 'all'})`)} ${p.dim(safe(firstSentence(latest.message)))}`);
    } else {
      lines.push(...renderFinding(shown, p));
    }
    variants += cause.findings.length - 1;
  }
  if (lines.at(-1) !== '') lines.push('');
  lines.push(p.dim(`Each version's own words${variants > 0 ? ` (${variants} more finding${variants === 1 ? '' : 's'} across versions)` : ''}: --verbose, or -o json.`));
  return lines;
}

/** The start of a message, without the "Kubelet 1.30-1.33: " that names its versions (shown beside the id). */
function firstSentence(message: string): string {
  const text = message.replace(/^Kubelet 1\.[0-9.,\- 1]*: /, '');
  const end = text.search(/[.;] /);
  const sentence = end > 0 ? text.slice(0, end + 1) : text;
  return sentence.length > 140 ? `${sentence.slice(0, 139)}…` : sentence;
}

/** Where the kubelet version came from, in the unit line: "from --kubelet-version". */
function versionSourceText(report: Report): string {
  if (report.upgrade?.openshiftVersion) return `for OpenShift ${report.upgrade.openshiftVersion.openshift} (--openshift-version)`;
  if (report.kubeletVersionSource === 'flag') return 'from --kubelet-version';
  if (report.kubeletVersionSource === 'binary') return 'from `kubelet --version`';
  return '';
}

/** What --ignore changed: the ids, and what the exit code now means. */
function ignoredLine(report: Report): string {
  const ignored = report.ignored!;
  const ids = safe(ignored.ids.join(', '));
  if (!ignored.verdictIgnored) return `  ignored by --ignore: ${ids} (${ignored.findings} finding${ignored.findings === 1 ? '' : 's'}; the exit code follows the others)`;
  const after = report.kubeletWillStart === false ? '; kubelet stops at its first failure, so nothing after it was checked' : '';
  return `  ignored by --ignore: ${ids}: every finding behind this answer is ignored, exit code 0${after}`;
}

/** --verbose: the provenance section, one line each (the caller indents, colours and escapes). */
export function renderProvenance(report: Report): string[] {
  const p = report.provenance;
  if (!p) return [];
  const lines = [`kubelet version: ${report.kubeletVersion ?? 'unknown'} from ${p.kubeletVersion.detail}`];
  lines.push(`ExecStart= from: ${p.execStart ?? '(none)'}`);
  for (const { name, from } of p.environment) lines.push(`Environment ${name} from: ${from}`);
  if (p.kubeletConfig.file) lines.push(`kubelet --config: ${p.kubeletConfig.file}`);
  for (const dropIn of p.kubeletConfig.dropIns) lines.push(`kubelet --config-dir drop-in: ${dropIn}`);
  for (const { field, from } of p.kubeletConfig.fields) lines.push(`kubelet config ${field} from: ${from}`);
  for (const file of p.filesRead) lines.push(`read: ${file}`);
  for (const path of p.pathsExamined) lines.push(`examined: ${path}`);
  return lines;
}
