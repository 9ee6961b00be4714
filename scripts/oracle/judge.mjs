// The differential oracle's judge: runs the real kubelet of one minor on each case
// (test/oracle/cases.mjs) in a throw-away sandbox (scripts/oracle/sandbox.sh) and records what it
// did, in test/oracle/verdicts/1.N.json; with --sample K, re-judges K recorded cases and compares.
//
//   npm run oracle -- --minor 1.N [--sample K] [--cases SUBSTRING] [--new] [--timeout SECONDS]
//   npm run oracle -- --openshift 4.N [--microshift DIR] [same options]
//
// --openshift judges the OpenShift-flavour cases of that release (test/oracle/cases.mjs
// openshiftCasesFor) with OpenShift's kubelet, built from an openshift/microshift checkout or git
// directory (--microshift, MICROSHIFT_GIT_DIR; scripts/oracle/build-openshift-kubelet.mjs), into
// test/oracle/verdicts/openshift-4.N.json.
//
// --cases judges only the cases whose id contains SUBSTRING (or one of several, comma-separated), --new only those not recorded with
// their current hash; both keep the rest of the recording.
//
// Needs root (mount, PID, network and UTS namespaces, overlayfs), Go (the build), and the bundle
// (dist/node-check.cjs gives each case's argv as systemd would run it). Per case, kubelet is
// watched until it exits, logs "Started kubelet" (then it is killed: what happens after that is
// out of the oracle's sight), or the timeout passes ("blocked").
import { execFileSync, spawn } from 'node:child_process';
import { createHash } from 'node:crypto';
import { existsSync, mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync, renameSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { buildKubelet, oracleCache } from './build-kubelet.mjs';
import { buildOpenshiftKubelet } from './build-openshift-kubelet.mjs';
import { SourceError } from '../generate/kubernetes-source.mjs';
import { casesFor, materializeCase, openshiftCasesFor } from '../../test/oracle/cases.mjs';
import { normalizeOutput, openshiftVerdictsPath, verdictsPath } from '../../test/oracle/verdicts.mjs';
import { recordHostIo } from './host-io.mjs';
import { importTs } from './import-ts.mjs';

const REPO = fileURLToPath(new URL('../../', import.meta.url));
const SANDBOX = fileURLToPath(new URL('./sandbox.sh', import.meta.url));
const FAKECRI_DIR = fileURLToPath(new URL('./fakecri/', import.meta.url));
const BUNDLE = join(REPO, 'dist', 'node-check.cjs');
const DEFAULT_ENDPOINT = 'unix:///run/containerd/containerd.sock';

function buildFakeCri() {
  const out = join(oracleCache(), 'fakecri');
  const stamp = createHash('sha256').update(readFileSync(join(FAKECRI_DIR, 'main.go'))).update(readFileSync(join(FAKECRI_DIR, 'go.sum'))).digest('hex');
  if (existsSync(out) && existsSync(`${out}.stamp`) && readFileSync(`${out}.stamp`, 'utf8') === stamp) return out;
  mkdirSync(oracleCache(), { recursive: true });
  execFileSync('nice', ['-n', '19', 'go', 'build', '-mod=readonly', '-trimpath', '-o', out, '.'], { cwd: FAKECRI_DIR, stdio: ['ignore', 'inherit', 'inherit'], env: { ...process.env, GOTOOLCHAIN: 'local', CGO_ENABLED: '0' } });
  writeFileSync(`${out}.stamp`, stamp);
  return out;
}

let apiLoaded;
/** node-check's own modules (scripts/oracle/node-check-api.ts), bundled once. */
function nodeCheckApi() {
  apiLoaded ??= importTs(fileURLToPath(new URL('./node-check-api.ts', import.meta.url)));
  return apiLoaded;
}

/** The sandbox host's facts: node-check's host discovery, recorded on the machine the sandbox runs on. */
async function sandboxHost() {
  const api = await nodeCheckApi();
  const io = recordHostIo(api);
  const swaps = typeof io.files['/proc/swaps'] === 'string' ? io.files['/proc/swaps'].trim().split('\n').length - 1 : 0;
  const read = (file) => {
    try {
      return readFileSync(file, 'utf8').trim();
    } catch {
      return null;
    }
  };
  return {
    summary: { cgroup: io.statfs['/sys/fs/cgroup'] === 0x63677270 ? 'v2' : 'v1', swapActive: swaps > 0, kmsg: 'the host /dev/kmsg (bound)', kernel: read('/proc/sys/kernel/osrelease'), go: execFileSync('go', ['env', 'GOVERSION'], { encoding: 'utf8' }).trim(), cgo: false },
    io,
  };
}

/** node-check's view of the case: kubelet's argv (as systemd expands it), the endpoints a CRI must answer on, the flavour. */
function nodeCheckView(root, unit, version) {
  let out;
  try {
    out = execFileSync(process.execPath, [BUNDLE, 'check', '--root', root, '--unit', unit, '--kubelet-version', version.slice(1), '-o', 'json'], { encoding: 'utf8', stdio: ['ignore', 'pipe', 'pipe'] });
  } catch (error) {
    out = String(error.stdout ?? '');
  }
  const report = JSON.parse(out);
  return { argv: report.kubelet?.argv ?? [], flavor: report.kubeletFlavor?.name, firstError: report.findings?.find((f) => f.severity === 'error')?.id };
}

/**
 * The environment systemd gives the unit's command, as node-check resolves it (Environment=, then
 * EnvironmentFile=, then UnsetEnvironment=: src/systemd/effective-environment.ts). Kubelet reads
 * some of it itself: on 1.28-1.29 --config-dir needs KUBELET_CONFIG_DROPIN_DIR_ALPHA
 * (cmd/kubelet/app/server.go at v1.29.15), which a drop-in sets with Environment=.
 */
async function unitEnvironment(root, unit, version) {
  const api = await nodeCheckApi();
  const model = await api.discoverNode({ root, unit, kubeletVersion: version.slice(1), versionProbeTimeoutMs: 0 });
  return model.kubeletEnvironment;
}

/** Every endpoint kubelet may dial: the flag's, any containerRuntimeEndpoint/imageServiceEndpoint in the case's files, the default. */
function endpointsOf(argv, root, kase, { barePaths = false } = {}) {
  const endpoints = new Set([DEFAULT_ENDPOINT]);
  for (const arg of argv) {
    const m = /^--?(?:container-runtime-endpoint|image-service-endpoint)=(.+)$/.exec(arg);
    // A bare path is dialled as unix:// (kubelet's deprecated fallback, pkg/kubelet/util/util_unix.go
    // parseEndpointWithFallbackProtocol): OpenShift's unit says /var/run/crio/crio.sock.
    if (m) endpoints.add(barePaths && m[1].startsWith('/') ? `unix://${m[1]}` : m[1]);
  }
  const texts = kase.files ? Object.values(kase.files).map((f) => String(f.content)) : [];
  if (kase.root) {
    for (const candidate of ['/var/lib/kubelet/config.yaml', '/etc/kubernetes/kubelet/config.yaml', '/etc/kubernetes/kubelet.conf']) {
      try {
        texts.push(readFileSync(join(root, candidate), 'utf8'));
      } catch {}
    }
  }
  for (const text of texts) for (const m of text.matchAll(/"?(?:containerRuntimeEndpoint|imageServiceEndpoint)"?\s*:\s*["']?(unix:\/\/[^"'\s,}]+)/g)) endpoints.add(m[1]);
  return [...endpoints].filter((e) => e.startsWith('unix:///'));
}

function runSandbox({ root, kubelet, argv, environment, endpoints, fakecri, timeoutMs }) {
  const work = mkdtempSync(join(tmpdir(), 'oracle-sandbox-'));
  mkdirSync(join(work, 'rw'));
  return new Promise((resolve) => {
    const child = spawn('unshare', ['--mount', '--pid', '--net', '--uts', '--fork', '--kill-child', 'sh', SANDBOX, work, root, kubelet, argv[0], fakecri, '', ...endpoints, '--', ...Object.entries(environment).map(([name, value]) => `${name}=${value}`), '--', ...argv], { stdio: ['ignore', 'pipe', 'pipe'], detached: true });
    let output = '';
    let outcome;
    const finish = (why) => {
      if (outcome) return;
      outcome = why;
      try {
        process.kill(-child.pid, 'SIGKILL');
      } catch {}
    };
    const onData = (chunk) => {
      output += chunk;
      if (/Started kubelet/.test(output)) finish('started');
    };
    child.stdout.on('data', onData);
    child.stderr.on('data', onData);
    const timer = setTimeout(() => finish('blocked'), timeoutMs);
    child.on('close', () => {
      clearTimeout(timer);
      let exit = null;
      try {
        exit = Number(readFileSync(join(work, 'exit'), 'utf8').trim());
      } catch {}
      const sandboxFailed = exit === null && !outcome;
      const fakecriLog = existsSync(join(work, 'fakecri.log')) ? readFileSync(join(work, 'fakecri.log'), 'utf8') : '';
      try {
        execFileSync('umount', ['-R', join(work, 'root')], { stdio: 'ignore' });
      } catch {}
      rmSync(work, { recursive: true, force: true });
      resolve({ outcome: outcome ?? (sandboxFailed ? 'sandbox-failed' : 'exited'), exit: outcome ? null : exit, output, fakecriLog });
    });
  });
}

/**
 * OpenShift's ExecStart runs kubelet through the MCO's kubenswrapper, which execs
 * /usr/bin/kubensenter "$@" when that exists and else "$@" (templates/…/kubenswrapper.yaml):
 * without kubensenter in the root, the argv kubelet gets is the rest. undefined: not that wrapper.
 */
function unwrapKubenswrapper(argv, root) {
  if (!argv[0]?.endsWith('/kubenswrapper')) return argv;
  // A fixture without the wrapper (the hand-written ones copy only kubelet's files) is taken to
  // have the MCO's; where node-check says systemd refuses a missing one, the case is not judged.
  let script = 'exec "$@"';
  try {
    script = readFileSync(join(root, argv[0]), 'utf8');
  } catch {}
  if (!/^\s*exec "\$@"$/m.test(script) || existsSync(join(root, 'usr/bin/kubensenter'))) return undefined;
  return argv.slice(1);
}

export async function judgeCase(kase, { minor, version, kubelet, fakecri, timeoutMs, openshift }) {
  const { root, cleanup } = materializeCase(kase);
  try {
    const view = nodeCheckView(root, kase.unit, version);
    if (view.flavor === 'openshift' && !openshift) return { caseHash: kase.hash, outcome: 'not-judged', reason: 'node-check reads this node as OpenShift: the upstream kubelet is not its judge' };
    if (view.flavor !== 'openshift' && openshift) return { caseHash: kase.hash, outcome: 'not-judged', reason: `node-check reads this node as ${view.flavor ?? 'not OpenShift'}: OpenShift's kubelet is not its judge` };
    // systemd's own refusals (missing EnvironmentFile=, ExecStart= binary, masked unit) come before
    // kubelet runs; the sandbox binds kubelet at ExecStart= and runs the argv itself, so it cannot see them.
    if (view.firstError?.startsWith('systemd-')) return { caseHash: kase.hash, outcome: 'not-judged', reason: `node-check answers with systemd's refusal (${view.firstError}), which the sandbox does not reproduce` };
    if (view.argv.length === 0) return { caseHash: kase.hash, outcome: 'not-judged', reason: 'the unit has no ExecStart: nothing for kubelet to run' };
    const argv = openshift ? unwrapKubenswrapper(view.argv, root) : view.argv;
    if (!argv) return { caseHash: kase.hash, outcome: 'not-judged', reason: `${view.argv[0]} is not the MCO's kubenswrapper without kubensenter: the sandbox cannot run it` };
    const endpoints = endpointsOf(argv, root, kase, { barePaths: Boolean(openshift) });
    const environment = await unitEnvironment(root, kase.unit, version);
    const run = await runSandbox({ root, kubelet, argv, environment, endpoints, fakecri, timeoutMs });
    const normalized = normalizeOutput(run.output);
    return {
      caseHash: kase.hash,
      argv,
      ...(Object.keys(environment).length > 0 ? { environment } : {}),
      criEndpoints: endpoints,
      outcome: run.outcome,
      exit: run.exit,
      ...(run.outcome === 'exited' ? { logLine: normalized.logLine, error: normalized.error } : {}),
      tail: normalized.tail,
    };
  } finally {
    cleanup();
  }
}

function parseArgs(argv) {
  const value = (name) => (argv.includes(name) ? argv[argv.indexOf(name) + 1] : undefined);
  const minor = Number(/^1\.(\d+)$/.exec(value('--minor') ?? '')?.[1]);
  const openshift = /^\d+\.\d+$/.test(value('--openshift') ?? '') ? value('--openshift') : undefined;
  if (!Number.isInteger(minor) && !openshift) throw new SourceError('usage: npm run oracle -- --minor 1.N | --openshift 4.N [--microshift DIR] [--sample K] [--cases SUBSTRING] [--new] [--timeout SECONDS]');
  return { minor, openshift, microshift: value('--microshift') ?? process.env.MICROSHIFT_GIT_DIR ?? '/work/.mirror/openshift+microshift/repo', sample: value('--sample') === undefined ? undefined : Number(value('--sample')), only: value('--cases'), fresh: argv.includes('--new'), timeoutMs: Number(value('--timeout') ?? 40) * 1000 };
}

/** Equal words, or the same words in another order: kubelet lists some sets in Go map order
 * (NewContainerManager's missing cgroup paths, pkg/kubelet/cm/cgroup_v1_manager_linux.go), so a
 * re-run may order a comma-separated list differently. */
function sameWords(a, b) {
  if (a === b) return true;
  if (typeof a !== 'string' || typeof b !== 'string') return false;
  const tokens = (s) => s.split(/[\s,"\\]+/).sort().join('\0');
  return tokens(a) === tokens(b);
}

/** A deterministic sample: the K cases whose hashes sort first, so a re-run checks the same ones. */
function sampleOf(ids, recorded, k) {
  return [...ids].sort((a, b) => (recorded[a].caseHash < recorded[b].caseHash ? -1 : 1)).slice(0, k);
}

/** OpenShift's kubelet of a release, as buildKubelet's result, and what its recording names. */
function openshiftBuild(release, microshift) {
  const built = buildOpenshiftKubelet({ microshift, release });
  return { version: built.kubelet, path: built.path, minor: built.kubeletMinor, record: { release, microshiftCommit: built.microshiftCommit, openshiftKubernetesCommit: built.openshiftKubernetesCommit, microshiftPatchesReversed: built.microshiftPatchesReversed, source: 'openshift/microshift vendor/ (scripts/oracle/build-openshift-kubelet.mjs)' } };
}

async function main() {
  const { minor: upstreamMinor, openshift, microshift, sample, only, fresh, timeoutMs } = parseArgs(process.argv.slice(2));
  if (process.getuid?.() !== 0) throw new SourceError('the sandbox needs root (mount and PID namespaces, overlayfs)');
  if (!existsSync(BUNDLE)) throw new SourceError(`${BUNDLE} is missing: run node scripts/build.mjs`);
  const built = openshift ? openshiftBuild(openshift, microshift) : buildKubelet(upstreamMinor);
  const minor = openshift ? built.minor : upstreamMinor;
  const fakecri = buildFakeCri();
  const host = await sandboxHost();
  const path = openshift ? openshiftVerdictsPath(openshift) : verdictsPath(minor);
  const allCases = openshift ? openshiftCasesFor(openshift) : casesFor(minor);
  const cases = allCases.filter((c) => !only || only.split(',').some((part) => c.id.includes(part)));
  const context = { minor, version: built.version, kubelet: built.path, fakecri, timeoutMs, openshift };
  if (sample !== undefined) {
    const recording = JSON.parse(readFileSync(path, 'utf8'));
    const byId = new Map(cases.map((c) => [c.id, c]));
    const ids = sampleOf(Object.keys(recording.results).filter((id) => byId.has(id)), recording.results, sample);
    let agree = 0;
    for (const id of ids) {
      const was = recording.results[id];
      const now = await judgeCase(byId.get(id), context);
      const same = now.caseHash === was.caseHash && now.outcome === was.outcome && now.exit === was.exit && sameWords(now.logLine, was.logLine) && sameWords(now.error, was.error);
      if (same) agree++;
      else process.stdout.write(`${id}: recorded ${was.outcome} ${was.exit ?? ''} ${was.logLine ?? ''}; now ${now.outcome} ${now.exit ?? ''} ${now.logLine ?? ''}\n`);
    }
    process.stdout.write(`${agree}/${ids.length} re-judged verdicts agree with the recording\n`);
    if (agree !== ids.length) process.exitCode = 1;
    return;
  }
  const previous = existsSync(path) ? JSON.parse(readFileSync(path, 'utf8')) : undefined;
  const results = (only || fresh) && previous ? { ...previous.results } : {};
  const todo = fresh ? cases.filter((c) => results[c.id]?.caseHash !== c.hash) : cases;
  if (previous && (only || fresh) && previous.kubelet !== built.version) throw new SourceError(`${path} was recorded with kubelet ${previous.kubelet}, not ${built.version}: re-judge every case`);
  let n = 0;
  for (const kase of todo) {
    const verdict = await judgeCase(kase, context);
    results[kase.id] = verdict;
    process.stderr.write(`[${++n}/${todo.length}] ${kase.id}: ${verdict.outcome}${verdict.exit != null ? ` ${verdict.exit}` : ''} ${(verdict.logLine ?? verdict.reason ?? '').split('\n')[0]}\n`);
  }
  // A case that no longer exists (renamed, or no longer generated for this minor) leaves the recording.
  const current = new Set(allCases.map((c) => c.id));
  for (const id of Object.keys(results)) if (!current.has(id)) delete results[id];
  const recording = {
    schema: 1,
    kubelet: built.version,
    build: openshift ? { go: host.summary.go, cgo: false, ...built.record } : { go: host.summary.go, cgo: false, module: `scripts/oracle/kubelet/1.${minor}` },
    host: host.summary,
    hostIo: host.io,
    timeoutSeconds: timeoutMs / 1000,
    results: Object.fromEntries(Object.entries(results).sort(([a], [b]) => (a < b ? -1 : 1))),
  };
  mkdirSync(dirname(path), { recursive: true });
  writeFileSync(`${path}.tmp`, `${JSON.stringify(recording, null, 1)}\n`);
  renameSync(`${path}.tmp`, path);
  process.stderr.write(`wrote ${path}\n`);
}

if (process.argv[1] === fileURLToPath(import.meta.url)) {
  main().catch((error) => {
    if (!(error instanceof SourceError)) throw error;
    process.stderr.write(`oracle: ${error.message}\n`);
    process.exit(1);
  });
}
