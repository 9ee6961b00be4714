// The config-validation probe: kubelet's own config loading and validation (scripts/probe/config-validation/,
// built per minor against k8s.io/kubernetes at the locked tag) judges node-check's on the same inputs.
//
//   node scripts/probe/config-validation.mjs --minor 1.N [--minor 1.M ...] | --all
//        build the probe for each minor (newest first with --all), run every case of
//        config-validation-cases.mjs through it, record test/probe/config-validation/1.N.json, and
//        compare node-check with the recording
//   node scripts/probe/config-validation.mjs --compare [--minor 1.N]
//        compare only (Go-free; what test/probe/config-validation.test.ts runs)
//
// The probe's wrapping of each step's error is read here from cmd/kubelet/app/server.go at the tag
// (RunE's fmt.Errorf after each call), and the probe's build tags from the signatures there: no
// format is written down twice. Binaries go to ~/.cache/node-check-oracle/probe-config-validation-1.N,
// never into the repository; builds run under flock /work/builds/build.lock with nice -n 10.
import { createHash } from 'node:crypto';
import { spawn, spawnSync } from 'node:child_process';
import { copyFileSync, existsSync, mkdirSync, mkdtempSync, readdirSync, readFileSync, renameSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { kubernetesDir, lockedMinors, lockedVersion, SourceError } from '../generate/kubernetes-source.mjs';
import { newestServedStaging, oracleCache, WRAPPERS_DIR, wrapperGoMod } from '../oracle/build-kubelet.mjs';
import { caseHash, probeCases } from './config-validation-cases.mjs';
import { normalizeOutput } from '../../test/oracle/verdicts.mjs';

export const PROBE_SRC = fileURLToPath(new URL('./config-validation/', import.meta.url));
export const RECORDINGS_DIR = fileURLToPath(new URL('../../test/probe/config-validation/', import.meta.url));
export const KNOWN_PATH = join(RECORDINGS_DIR, 'known.json');
const BUILD_LOCK = '/work/builds/build.lock';

const serverGo = (minor) => readFileSync(join(kubernetesDir(minor), 'cmd/kubelet/app/server.go'), 'utf8');

/** Go's interpreted string literal body (the escapes a format uses are JSON's too). */
const goString = (body) => JSON.parse(`"${body}"`);

/** RunE's `return fmt.Errorf("<format>", <args>)` after the first match of `call` at or after `from`. */
function wrapAfter(text, call, from = 0) {
  const at = text.indexOf(call, from);
  if (at < 0) return undefined;
  const m = /fmt\.Errorf\("((?:[^"\\]|\\.)*)"((?:, [^)\n]+)?)\)/.exec(text.slice(at));
  if (!m) throw new SourceError(`server.go: no fmt.Errorf after ${call}`);
  return { format: goString(m[1]), args: m[2].replace(/^, /, ''), at: at + m.index + m[0].length };
}

/** The formats and build tags of the probe for 1.<minor>, read from server.go and validation.go at the tag. */
export function probeSettings(minor) {
  const text = serverGo(minor);
  const start = text.indexOf('RunE: func(cmd *cobra.Command, args []string) error {');
  if (start < 0) throw new SourceError(`server.go at 1.${minor}: no RunE`);
  const run = text.slice(start, text.indexOf('\n\t\t},\n', start));
  const need = (w, what) => {
    if (!w) throw new SourceError(`server.go at 1.${minor}: RunE has no ${what}`);
    return w;
  };
  const parse = need(wrapAfter(run, 'cleanFlagSet.Parse(args)'), 'flag parse');
  const gates1 = need(wrapAfter(run, 'SetFromMap(kubeletConfig.FeatureGates)'), 'first SetFromMap');
  const validateFlags = need(wrapAfter(run, 'options.ValidateKubeletFlags(kubeletFlags)'), 'ValidateKubeletFlags');
  const load = need(wrapAfter(run, 'loadConfigFile('), 'loadConfigFile');
  const env = wrapAfter(run, 'os.LookupEnv("KUBELET_CONFIG_DROPIN_DIR_ALPHA")');
  const merge = wrapAfter(run, 'mergeKubeletConfigurations(kubeletConfig');
  const precedence = need(wrapAfter(run, 'kubeletConfigFlagPrecedence(kubeletConfig, args)'), 'kubeletConfigFlagPrecedence');
  const gates2 = need(wrapAfter(run, 'SetFromMap(kubeletConfig.FeatureGates)', precedence.at), 'second SetFromMap');
  const logging = wrapAfter(run, 'logsapi.ValidateAndApplyAsField(');
  const validate = need(wrapAfter(run, 'kubeletconfigvalidation.ValidateKubeletConfiguration('), 'ValidateKubeletConfiguration');
  if (validate.args !== 'err, kubeletConfig') throw new SourceError(`server.go at 1.${minor}: ValidateKubeletConfiguration's error has arguments ${validate.args}`);
  // The path is kubeletFlags.KubeletConfigFile (<=1.27: through `configFile := kubeletFlags.KubeletConfigFile`).
  if (!/configFile := kubeletFlags\.KubeletConfigFile|loadConfigFile\((ctx, )?kubeletFlags\.KubeletConfigFile\)/.test(run)) throw new SourceError(`server.go at 1.${minor}: loadConfigFile is not given kubeletFlags.KubeletConfigFile`);
  const PATH = '(kubeletFlags\\.KubeletConfigFile|configFile)';
  const loadOrder = new RegExp(`^${PATH}, err$`).test(load.args) ? 'path,err' : new RegExp(`^err, ${PATH}$`).test(load.args) ? 'err,path' : undefined;
  if (!loadOrder) throw new SourceError(`server.go at 1.${minor}: loadConfigFile's error has arguments ${load.args}`);
  if (minor >= 25 && !logging) throw new SourceError(`server.go at 1.${minor}: RunE has no logsapi.ValidateAndApplyAsField`);
  const formats = {
    'parse-flags': parse.format,
    'gates-from-flags': gates1.format,
    'validate-flags': validateFlags.format,
    'load-config': load.format,
    'load-config-order': loadOrder,
    'merge-dropins': merge?.format ?? '',
    'dropin-env': env?.format ?? '',
    'flag-precedence': precedence.format,
    'gates-from-config': gates2.format,
    'init-logging': logging?.format ?? '',
    'validate-config': validate.format,
  };
  // Build tags from the signatures the probe links by name (linkname_*.go, merge_*.go, validate*.go).
  const tags = [];
  const sig = (name) => new RegExp(`^func ${name}\\((.*)\\) (.*) \\{$`, 'm').exec(text);
  const loadSig = sig('loadConfigFile');
  if (loadSig?.[1] === 'ctx context.Context, name string') tags.push('k8s_loadctx');
  else if (loadSig?.[1] !== 'name string') throw new SourceError(`server.go at 1.${minor}: loadConfigFile(${loadSig?.[1]})`);
  if (loadSig[2] !== '(*kubeletconfiginternal.KubeletConfiguration, error)') throw new SourceError(`server.go at 1.${minor}: loadConfigFile returns ${loadSig[2]}`);
  const mergeSig = sig('mergeKubeletConfigurations');
  if (mergeSig) {
    if (mergeSig[1] !== 'kubeletConfig *kubeletconfiginternal.KubeletConfiguration, kubeletDropInConfigDir string') throw new SourceError(`server.go at 1.${minor}: mergeKubeletConfigurations(${mergeSig[1]})`);
    if (mergeSig[2] === 'error') tags.push('k8s_merge_err');
    else if (mergeSig[2] === '([]string, error)') tags.push('k8s_merge_skipped');
    else throw new SourceError(`server.go at 1.${minor}: mergeKubeletConfigurations returns ${mergeSig[2]}`);
  }
  if (!!merge !== !!mergeSig) throw new SourceError(`server.go at 1.${minor}: mergeKubeletConfigurations and its call disagree`);
  const precedenceSig = sig('kubeletConfigFlagPrecedence');
  if (precedenceSig?.[1] !== 'kc *kubeletconfiginternal.KubeletConfiguration, args []string' || precedenceSig[2] !== 'error') throw new SourceError(`server.go at 1.${minor}: kubeletConfigFlagPrecedence(${precedenceSig?.[1]}) ${precedenceSig?.[2]}`);
  const validation = readFileSync(join(kubernetesDir(minor), 'pkg/kubelet/apis/config/validation/validation.go'), 'utf8');
  const validateSig = /^func ValidateKubeletConfiguration\((.*)\) error \{$/m.exec(validation)?.[1];
  if (validateSig === 'kc *kubeletconfig.KubeletConfiguration') tags.push('k8s_124');
  else if (validateSig !== 'kc *kubeletconfig.KubeletConfiguration, featureGate featuregate.FeatureGate') throw new SourceError(`validation.go at 1.${minor}: ValidateKubeletConfiguration(${validateSig})`);
  return { formats, tags };
}

function sourceFiles() {
  return readdirSync(PROBE_SRC).filter((f) => /\.(go|s)$/.test(f)).sort();
}

/** The probe binary for 1.<minor>, built if its sources, module or tags changed. */
export function buildProbe(minor, { log = (s) => process.stderr.write(`${s}\n`) } = {}) {
  const version = lockedVersion(minor);
  const { tags } = probeSettings(minor);
  const dir = join(oracleCache(), `probe-config-validation-1.${minor}`);
  const src = join(dir, 'src');
  mkdirSync(src, { recursive: true });
  // The oracle's wrapper module for this minor when it has one (its go.sum too), else one written
  // the same way (build-kubelet.mjs wrapperGoMod): the same graph as the kubelet built from the tag.
  const wrapper = join(WRAPPERS_DIR, `1.${minor}`);
  const wrapperMod = join(wrapper, 'go.mod');
  let goMod;
  if (existsSync(wrapperMod) && readFileSync(wrapperMod, 'utf8').includes(`\nrequire k8s.io/kubernetes ${version}\n`)) {
    goMod = readFileSync(wrapperMod, 'utf8');
    if (existsSync(join(wrapper, 'go.sum')) && !existsSync(join(src, 'go.sum'))) copyFileSync(join(wrapper, 'go.sum'), join(src, 'go.sum'));
  } else {
    goMod = wrapperGoMod(minor, version, readFileSync(join(kubernetesDir(minor), 'go.mod'), 'utf8'), newestServedStaging);
  }
  goMod = goMod.replace(/^module .*$/m, `module node-check.invalid/probe/config-validation-1.${minor}`);
  const key = createHash('sha256');
  for (const f of sourceFiles()) key.update(f).update(readFileSync(join(PROBE_SRC, f)));
  key.update(goMod).update(tags.join(','));
  const digest = key.digest('hex').slice(0, 16);
  const binary = join(dir, 'probe');
  if (existsSync(binary) && existsSync(`${binary}.key`) && readFileSync(`${binary}.key`, 'utf8') === digest) return { binary, version, digest, reused: true };
  for (const f of sourceFiles()) copyFileSync(join(PROBE_SRC, f), join(src, f));
  writeFileSync(join(src, 'go.mod'), goMod);
  const started = Date.now();
  log(`building the config-validation probe for kubelet ${version} (tags ${tags.join(',') || 'none'})`);
  const goArgs = ['build', '-mod=mod', '-trimpath', ...(tags.length ? ['-tags', tags.join(',')] : []), '-o', `${binary}.tmp`, '.'];
  const command = existsSync(BUILD_LOCK) ? ['flock', [BUILD_LOCK, 'nice', '-n', '10', 'go', ...goArgs]] : ['nice', ['-n', '10', 'go', ...goArgs]];
  const result = spawnSync(command[0], command[1], { cwd: src, encoding: 'utf8', maxBuffer: 1 << 26, env: { ...process.env, GOTOOLCHAIN: 'local', CGO_ENABLED: '0', GOFLAGS: '-buildvcs=false' } });
  if (result.status !== 0) throw new SourceError(`building the probe for ${version}: ${(result.stderr || result.stdout || String(result.error)).trim()}`);
  renameSync(`${binary}.tmp`, binary);
  writeFileSync(`${binary}.key`, digest);
  log(`probe for ${version} built in ${Math.round((Date.now() - started) / 1000)} s`);
  return { binary, version, digest, reused: false };
}

/** The case as the probe takes it: --config and --config-dir under the probe's root for the case. */
function probeInput(kase) {
  const args = kase.args.map((a) => a.replace(/^(--config(?:-dir)?=)(\/)/, '$1{root}$2'));
  return JSON.stringify({ id: kase.id, files: kase.files, args, env: kase.env });
}

function hostCgroupV2() {
  return existsSync('/sys/fs/cgroup/cgroup.controllers');
}

/** Runs every case of 1.<minor> through the probe and writes the recording. */
export function record(minor, { log = (s) => process.stderr.write(`${s}\n`) } = {}) {
  const { binary, version, digest } = buildProbe(minor, { log });
  const { formats } = probeSettings(minor);
  const cases = probeCases(minor);
  const started = Date.now();
  const result = spawnSync(binary, [JSON.stringify(formats)], { input: cases.map(probeInput).join('\n') + '\n', encoding: 'utf8', maxBuffer: 1 << 28, stdio: ['pipe', 'pipe', 'ignore'] });
  if (result.status !== 0) throw new SourceError(`the probe for ${version} exited ${result.status}: ${String(result.error ?? '')}`);
  const outputs = new Map(result.stdout.trim().split('\n').map((l) => JSON.parse(l)).map((o) => [o.id, o]));
  const results = {};
  for (const kase of cases) {
    const o = outputs.get(kase.id);
    if (!o) throw new SourceError(`the probe for ${version} gave no answer for ${kase.id}`);
    if (o.step === 'probe') throw new SourceError(`the probe for ${version} could not run ${kase.id}: ${o.error}`);
    results[kase.id] = { hash: caseHash(kase), ok: o.ok, ...(o.ok ? {} : { step: o.step, error: o.error }) };
  }
  const recording = writeRecording(minor, { judge: 'probe', probe: digest, kubelet: version }, results);
  log(`kubelet ${version}: ${cases.length} cases through the probe in ${((Date.now() - started) / 1000).toFixed(1)} s`);
  return recording;
}

function writeRecording(minor, judge, results) {
  mkdirSync(RECORDINGS_DIR, { recursive: true });
  const recording = {
    comment: judge.judge === 'probe'
      ? `kubelet ${judge.kubelet}'s own config loading and validation (the probe of scripts/probe/config-validation.mjs) on each case of scripts/probe/config-validation-cases.mjs`
      : `the kubelet ${judge.kubelet} binary (scripts/oracle/build-kubelet.mjs) on each case of scripts/probe/config-validation-cases.mjs, stopped after validation (scripts/probe/config-validation.mjs --judge kubelet)`,
    ...judge,
    hostCgroupV2: hostCgroupV2(),
    results,
  };
  writeFileSync(join(RECORDINGS_DIR, `1.${minor}.json`), JSON.stringify(recording, null, 1) + '\n');
  return recording;
}

/**
 * The oracle's kubelet binary of 1.<minor> as the judge, where the probe is not built: each case is
 * kubelet itself (network and mount namespaces of its own), its command line plus --cert-dir in a
 * temporary directory and --lock-file under a regular file, so that a configuration kubelet accepts
 * ends at UnsecuredDependencies or at the lock file in run(), the first steps after
 * ValidateKubeletConfiguration that can fail without touching the host (start-sequence.ts). Its
 * error line is read as the oracle reads it (test/oracle/verdicts.mjs normalizeOutput).
 */
export const AFTER_VALIDATION = [/^failed to construct kubelet dependencies: /, /^failed to run Kubelet: unable to acquire file lock on "\/etc\/hostname\/lock": not a directory$/];

function jsonError(text) {
  let err;
  for (const line of text.split('\n')) {
    if (!line.startsWith('{')) continue;
    try {
      const entry = JSON.parse(line);
      if (entry.msg === 'command failed' && typeof entry.err === 'string') err = entry.err;
    } catch {
      // not a JSON log line
    }
  }
  return err;
}

/** `only`: re-judge these case ids into the existing recording (the rest is kept as recorded). */
export async function recordWithKubelet(minor, { log = (s) => process.stderr.write(`${s}\n`), parallel = 3, only } = {}) {
  const version = lockedVersion(minor);
  const binary = join(oracleCache(), `kubelet-${version}`, 'kubelet');
  if (!existsSync(binary)) throw new SourceError(`${binary} is missing: node scripts/oracle/build-kubelet.mjs --minor 1.${minor}`);
  const all = probeCases(minor);
  const cases = only ? all.filter((c) => only.includes(c.id)) : all;
  const kept = only ? JSON.parse(readFileSync(join(RECORDINGS_DIR, `1.${minor}.json`), 'utf8')).results : {};
  const base = mkdtempSync(join(tmpdir(), 'ncprobe-kubelet-'));
  const results = {};
  const started = Date.now();
  let next = 0;
  const one = (kase, n) => new Promise((resolve) => {
    const root = join(base, `c${n}`);
    for (const path of Object.keys(kase.files).sort()) {
      const full = join(root, path);
      if (path.endsWith('/')) mkdirSync(full, { recursive: true });
      else {
        mkdirSync(dirname(full), { recursive: true });
        writeFileSync(full, kase.files[path]);
      }
    }
    mkdirSync(root, { recursive: true });
    const args = [...kase.args.map((a) => a.replace(/^(--config(?:-dir)?=)(\/)/, `$1${root}$2`)), `--cert-dir=${root}/pki`, '--lock-file=/etc/hostname/lock'];
    const env = { PATH: process.env.PATH, ...kase.env };
    const child = spawn('nice', ['-n', '10', 'unshare', '--net', '--mount', 'timeout', '60', binary, ...args], { env, stdio: ['ignore', 'pipe', 'pipe'] });
    let out = '';
    child.stdout.on('data', (d) => (out += d));
    child.stderr.on('data', (d) => (out += d));
    child.on('close', (code) => {
      rmSync(root, { recursive: true, force: true });
      const text = out.split(root).join('');
      // A Go panic (1.32+: a gate the config file sets that SetFromMap refuses, feature-gates.ts)
      // has no klog line: its first line is kubelet's words.
      // logging.format json: the error is a JSON line's "err" (component-base logs/json).
      const error = normalizeOutput(text).error ?? jsonError(text) ?? /^panic: (.*)$/m.exec(text)?.[1] ?? null;
      if (code === 124 || code === null) results[kase.id] = { hash: caseHash(kase), ok: false, step: 'timeout', error: 'kubelet did not exit' };
      else if (error != null && AFTER_VALIDATION.some((re) => re.test(error))) results[kase.id] = { hash: caseHash(kase), ok: true };
      else results[kase.id] = { hash: caseHash(kase), ok: false, step: 'kubelet', error: error ?? `exit ${code} with no error line` };
      resolve();
    });
  });
  const worker = async () => {
    while (next < cases.length) {
      const n = next++;
      await one(cases[n], n);
      if (n % 200 === 0) log(`  1.${minor}: ${n}/${cases.length} cases, ${Math.round((Date.now() - started) / 1000)} s`);
    }
  };
  await Promise.all(Array.from({ length: parallel }, worker));
  rmSync(base, { recursive: true, force: true });
  const ordered = Object.fromEntries(all.map((c) => [c.id, results[c.id] ?? kept[c.id]]));
  const timeouts = Object.values(ordered).filter((r) => r.step === 'timeout').length;
  if (timeouts) throw new SourceError(`kubelet ${version}: ${timeouts} cases did not exit`);
  const recording = writeRecording(minor, { judge: 'kubelet-binary', kubelet: version }, ordered);
  log(`kubelet ${version}: ${cases.length} cases through the kubelet binary in ${Math.round((Date.now() - started) / 1000)} s`);
  return recording;
}

/** The recorded minors, newest first. */
export function recordedMinors() {
  if (!existsSync(RECORDINGS_DIR)) return [];
  return readdirSync(RECORDINGS_DIR).filter((f) => /^1\.\d+\.json$/.test(f)).map((f) => Number(f.slice(2, -5))).sort((a, b) => b - a);
}

/**
 * Known disagreements, each documented in docs/unverified.md: [{ minors: [from, to], id: regexp
 * source, doc: heading }]. A disagreement they match holds; an entry that matches no disagreement
 * any more is stale (the replay says so).
 */
export function knownDisagreements() {
  return existsSync(KNOWN_PATH) ? JSON.parse(readFileSync(KNOWN_PATH, 'utf8')).known : [];
}

/**
 * node-check against the recording of 1.<minor>: each case's hash must match; kubelet's verdict
 * must be node-check's (or node-check says it cannot tell), and where both refuse and node-check
 * does not mark its words inexact, the words must be kubelet's.
 */
export function compareMinor(api, minor, { known = knownDisagreements() } = {}) {
  const recording = JSON.parse(readFileSync(join(RECORDINGS_DIR, `1.${minor}.json`), 'utf8'));
  const cases = probeCases(minor);
  const roots = new api.CaseRoots();
  const out = { minor, total: 0, agree: 0, held: [], inexact: 0, disagree: [], known: [], stale: [] };
  const knownHere = known.filter((k) => k.minors[0] <= minor && minor <= k.minors[1]).map((k) => ({ ...k, re: new RegExp(k.id), used: false }));
  try {
    for (const kase of cases) {
      out.total++;
      const was = recording.results[kase.id];
      const problem = (text) => {
        const k = knownHere.find((e) => e.re.test(kase.id));
        if (k) {
          k.used = true;
          out.known.push({ id: kase.id, problem: text, doc: k.doc });
        } else out.disagree.push({ id: kase.id, problem: text });
      };
      if (!was) {
        out.disagree.push({ id: kase.id, problem: 'not recorded: run the probe for this minor' });
        continue;
      }
      if (was.hash !== caseHash(kase)) {
        out.disagree.push({ id: kase.id, problem: `stale: the case hashes ${caseHash(kase)}, the recording ${was.hash}` });
        continue;
      }
      const said = api.judgeCase(minor, kase, recording.hostCgroupV2, roots);
      if (said.verdict === 'cannot-tell') {
        out.held.push({ id: kase.id, why: said.why, kubelet: was.ok ? 'starts' : was.error });
        out.agree++;
        continue;
      }
      if (was.ok && said.verdict === 'passes') out.agree++;
      else if (was.ok) problem(`kubelet accepts; node-check: ${said.error}`);
      else if (said.verdict === 'passes') problem(`kubelet refuses: ${was.error}; node-check: will start`);
      else if (said.error === was.error) out.agree++;
      else if (said.inexact) {
        out.agree++;
        out.inexact++;
      } else problem(`words differ: kubelet ${JSON.stringify(was.error)}; node-check ${JSON.stringify(said.error)}`);
    }
  } finally {
    roots.close();
  }
  out.stale = knownHere.filter((k) => !k.used).map((k) => `${k.id} (${k.doc})`);
  return out;
}

export function summary(r) {
  return `kubelet 1.${r.minor}: ${r.agree}/${r.total} agree (${r.held.length} held where node-check cannot tell, ${r.inexact} with words node-check marks inexact), ${r.known.length} known disagreements, ${r.disagree.length} disagreements`;
}

async function main(argv) {
  const minors = [];
  for (let i = 0; i < argv.length; i++) if (argv[i] === '--minor') minors.push(Number(/^1\.(\d+)$/.exec(argv[++i] ?? '')?.[1]));
  if (minors.some((m) => !Number.isInteger(m))) throw new SourceError('usage: config-validation.mjs --minor 1.N [--minor 1.M] | --all | --compare [--minor 1.N]');
  const compareOnly = argv.includes('--compare');
  const list = argv.includes('--all') ? lockedMinors().map((m) => Number(String(m).replace(/^1\./, ''))).sort((a, b) => b - a) : minors.length ? minors : compareOnly ? recordedMinors() : [];
  if (list.length === 0) throw new SourceError('usage: config-validation.mjs --minor 1.N [--minor 1.M] | --all | --compare [--minor 1.N]');
  const { importTs } = await import('../oracle/import-ts.mjs');
  const api = await importTs(fileURLToPath(new URL('./config-validation-node-check.ts', import.meta.url)));
  let failed = false;
  for (const minor of list) {
    if (!compareOnly) {
      if (argv.includes('--judge') && argv[argv.indexOf('--judge') + 1] === 'kubelet') await recordWithKubelet(minor, argv.includes('--only') ? { only: argv[argv.indexOf('--only') + 1].split(',') } : {});
      else record(minor);
    }
    const r = compareMinor(api, minor);
    for (const d of r.disagree) process.stdout.write(`  ${d.id}: ${d.problem}\n`);
    if (argv.includes('--held')) for (const h of r.held) process.stdout.write(`  held ${h.id}: ${h.why}\n`);
    if (argv.includes('--known')) for (const k of r.known) process.stdout.write(`  known ${k.id} (${k.doc}): ${k.problem}\n`);
    for (const s of r.stale) process.stdout.write(`  stale known entry: ${s}\n`);
    process.stdout.write(`${summary(r)}\n`);
    if (r.disagree.length || r.stale.length) failed = true;
  }
  if (failed) process.exitCode = 1;
}

if (process.argv[1] === fileURLToPath(import.meta.url)) {
  main(process.argv.slice(2)).catch((error) => {
    if (!(error instanceof SourceError)) throw error;
    process.stderr.write(`config-validation: ${error.message}\n`);
    process.exit(1);
  });
}
