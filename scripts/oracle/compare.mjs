// npm run oracle:compare: node-check against the real kubelet's recorded verdicts
// (test/oracle/verdicts/1.N.json, written by scripts/oracle/judge.mjs). Go-free and root-free.
//
// For each recorded case: the case's inputs must hash as recorded (else the verdict is stale);
// node-check checks the case's root at the recorded kubelet version, with the sandbox's host
// replayed through its own host discovery (scripts/oracle/host-io.mjs); kubeletWillStart must equal
// what kubelet did (started, or blocked waiting: running; exited: not), and where kubelet exited
// and node-check's first error finding gives words not marked inexact, kubeletLogLine and
// kubeletError must equal the recorded ones. Prints one line per minor and a total; exits 1 on
// any disagreement, stale hash, unrecorded case, or a case the sandbox could not run. A null
// answer holds where node-check says why it cannot tell; those are counted per minor on an
// indented line (each listed with --held).
import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { casesFor, materializeCase, openshiftCasesFor, openshiftKubeletMinor } from '../../test/oracle/cases.mjs';
import { VERDICTS_DIR } from '../../test/oracle/verdicts.mjs';
import { replayHostIo } from './host-io.mjs';
import { importTs } from './import-ts.mjs';

const RUNNING = new Set(['started', 'blocked']);

function socketPaths(endpoints) {
  return (endpoints ?? []).map((e) => e.replace(/^unix:\/\//, ''));
}

/**
 * One recorded case against node-check: { agree, judged, held?, problem? }. A null answer is
 * node-check's documented rule for what it cannot know (the contract: an input it does not model
 * makes the answer null, never a guess); it holds (counts as agreement) only with the
 * cannot-decide finding that says why, and `held` carries that reason.
 */
export async function compareCase(api, recording, kase, verdict) {
  const judged = verdict.outcome === 'started' || verdict.outcome === 'exited';
  if (!kase) return { agree: false, judged, problem: 'the case no longer exists: re-judge this minor' };
  if (kase.hash !== verdict.caseHash) return { agree: false, judged, problem: `stale: the case's inputs hash ${kase.hash}, the verdict was recorded for ${verdict.caseHash}` };
  if (!RUNNING.has(verdict.outcome) && verdict.outcome !== 'exited') return { agree: false, judged, problem: `the real kubelet gave no verdict (${verdict.outcome})` };
  const { root, cleanup } = materializeCase(kase);
  let report;
  try {
    // The sandbox binds the oracle's own kubelet, built with CGO_ENABLED=0 (build-kubelet.mjs,
    // build-openshift-kubelet.mjs): static, whatever binary the case's root holds.
    report = await api.checkNode({ root, unit: kase.unit, kubeletVersion: recording.kubelet.slice(1), hostIo: replayHostIo(recording.hostIo, socketPaths(verdict.criEndpoints)), kubeletLinkage: 'static' });
  } finally {
    cleanup();
  }
  const kubeletRuns = RUNNING.has(verdict.outcome);
  const first = report.findings.find((f) => f.severity === 'error');
  const said = `node-check: kubeletWillStart ${report.kubeletWillStart}${first ? `, first error ${first.id}${first.kubeletLogLine ? ` ${first.kubeletLogLine}` : ''}${first.inexact ? ' (inexact)' : ''}` : ''}`;
  const did = `kubelet ${verdict.outcome}${verdict.exit != null ? ` (exit ${verdict.exit})` : ''}${verdict.logLine ? `: ${verdict.logLine}` : ''}`;
  if (report.kubeletWillStart === null) {
    const why = report.findings.find((f) => f.id === 'cannot-decide');
    if (why) return { agree: true, judged, held: why.message };
  }
  const unseen = afterStarted(api, report, kubeletRuns);
  if (unseen) return { agree: true, judged, unseen };
  if (report.kubeletWillStart !== kubeletRuns) return { agree: false, judged, problem: `${did}; ${said}` };
  if (!kubeletRuns && first && !first.inexact && first.kubeletLogLine !== undefined) {
    if (first.kubeletLogLine !== verdict.logLine || first.kubeletError !== verdict.error) return { agree: false, judged, problem: `words differ: ${did}; ${said}${first.kubeletError !== verdict.error ? ` (kubeletError ${JSON.stringify(first.kubeletError)} vs ${JSON.stringify(verdict.error)})` : ''}` };
  }
  return { agree: true, judged };
}

/**
 * Kubelet logged "Started kubelet" and node-check's only errors come after it (the kernel tunables
 * protectKernelDefaults requires: src/start/steps/kubelet-run.ts HOST_STEP 'post-start'), which the
 * oracle does not watch: the verdicts agree on everything it sees. The id, or undefined.
 */
function afterStarted(api, report, kubeletRuns) {
  if (!kubeletRuns || report.kubeletWillStart !== false) return undefined;
  const errors = report.findings.filter((f) => f.severity === 'error');
  return errors.length > 0 && errors.every((f) => f.id === api.HOST_FINDING.kernelTunables) ? errors[0].id : undefined;
}

/** A cannot-decide reason without the case's own details (paths, names, values), to count reasons. */
function reasonKind(reason) {
  return reason.replace(/"[^"]*"|\/[\w./-]+|\b\d+(\.\d+)*\b/g, '…').slice(0, 160);
}

/**
 * One recording against node-check: its cases (`cases`: the ids the harness generates now), the
 * problems and held reasons (indented lines, `scope` names the minor or release), then the line
 * `<title>: A/B verdicts agree (C judged by the real kubelet binary)`.
 */
async function compareRecording(api, recording, cases, { scope, title, rejudge, log, listHeld }) {
  let agree = 0;
  let total = 0;
  let judgedCount = 0;
  const problems = [];
  const held = [];
  const unseen = [];
  for (const [id, verdict] of Object.entries(recording.results)) {
    if (verdict.outcome === 'not-judged') {
      cases.delete(id);
      continue;
    }
    total++;
    const result = await compareCase(api, recording, cases.get(id), verdict);
    cases.delete(id);
    if (result.judged) judgedCount++;
    if (result.held) held.push([id, result.held]);
    if (result.unseen) unseen.push(id);
    if (result.agree) agree++;
    else problems.push(`  ${id}: ${result.problem}`);
  }
  for (const id of cases.keys()) {
    total++;
    problems.push(`  ${id}: not recorded: re-judge it (${rejudge})`);
  }
  for (const p of problems) log(p);
  if (held.length > 0) {
    const kinds = new Map();
    for (const [, reason] of held) kinds.set(reasonKind(reason), (kinds.get(reasonKind(reason)) ?? 0) + 1);
    log(`  ${scope}: ${held.length} held where node-check answers null (cannot tell): ${[...kinds].sort((a, b) => b[1] - a[1]).map(([k, n]) => `${n}× ${k}`).join('; ')}`);
    if (listHeld) for (const [id, reason] of held) log(`    ${id}: ${reason}`);
  }
  if (unseen.length > 0) log(`  ${scope}: ${unseen.length} started where node-check's only error (the kernel tunables protectKernelDefaults requires) comes after "Started kubelet", which the oracle does not watch${listHeld ? `: ${unseen.join(', ')}` : ''}`);
  log(`${title}: ${agree}/${total} verdicts agree (${judgedCount} judged by the real kubelet binary)`);
  return { agree, total };
}

/** The recordings in VERDICTS_DIR whose names match `pattern` (its group: the minor or release), in version order. */
function recorded(pattern) {
  const files = existsSync(VERDICTS_DIR) ? readdirSync(VERDICTS_DIR) : [];
  return files.map((f) => pattern.exec(f)?.[1]).filter(Boolean).sort((a, b) => a.localeCompare(b, 'en', { numeric: true }));
}

export async function compareAll({ log = (s) => process.stdout.write(`${s}\n`), listHeld = false } = {}) {
  const api = await importTs(fileURLToPath(new URL('./node-check-api.ts', import.meta.url)));
  let agreeAll = 0;
  let totalAll = 0;
  const count = ({ agree, total }) => {
    agreeAll += agree;
    totalAll += total;
  };
  for (const version of recorded(/^1\.(\d+)\.json$/)) {
    const minor = Number(version);
    const recording = JSON.parse(readFileSync(`${VERDICTS_DIR}1.${minor}.json`, 'utf8'));
    const cases = new Map(casesFor(minor).map((c) => [c.id, c]));
    count(await compareRecording(api, recording, cases, { scope: `1.${minor}`, title: `kubelet 1.${minor}`, rejudge: `npm run oracle -- --minor 1.${minor}`, log, listHeld }));
  }
  // OpenShift's recordings (test/oracle/verdicts/openshift-4.N.json, judge.mjs --openshift 4.N), one line per release.
  for (const release of recorded(/^openshift-(\d+\.\d+)\.json$/)) {
    const recording = JSON.parse(readFileSync(`${VERDICTS_DIR}openshift-${release}.json`, 'utf8'));
    const cases = new Map(openshiftCasesFor(release).map((c) => [c.id, c]));
    count(await compareRecording(api, recording, cases, { scope: `openshift ${release}`, title: `openshift ${release} (kubelet 1.${openshiftKubeletMinor(release)})`, rejudge: `npm run oracle -- --openshift ${release}`, log, listHeld }));
  }
  log(`${agreeAll}/${totalAll} oracle verdicts agree`);
  return agreeAll === totalAll && totalAll > 0;
}

if (process.argv[1] === fileURLToPath(import.meta.url)) {
  compareAll({ listHeld: process.argv.includes('--held') }).then((ok) => {
    if (!ok) process.exitCode = 1;
  });
}
