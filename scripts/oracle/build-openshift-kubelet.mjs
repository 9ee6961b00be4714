// OpenShift's kubelet of one release, built for the differential oracle from a checkout of
// openshift/microshift that the user fetched (the module proxy refuses github.com/openshift/kubernetes).
//
// MicroShift's release-4.N branch vendors OpenShift's kubelet fork at the exact commit the
// release ships (scripts/auto-rebase/commits.txt; vendor/k8s.io/kubernetes up to 4.17,
// deps/github.com/openshift/kubernetes from 4.18) with its whole dependency graph. This script:
//  1. extracts the branch's commit pinned in scripts/generate/openshift-kubelet-source.lock.json
//     (the tree the OpenShift gate table is read from) into the oracle cache, never into the
//     repository. Given a bare git directory it uses `git archive`; a blob the git directory lacks
//     (a partial mirror) is restored from the module that vendor/modules.txt names for its path,
//     downloaded from the module proxy, and kept only if its git blob hash is the tree's;
//     MicroShift patches its vendor/ tree after vendoring (scripts/auto-rebase/rebase_patches/*.patch,
//     applied by its rebase.sh: klog's component-name prefix, the CSI plugin's NodeInfoManager,
//     kube-apiserver and kube-controller-manager changes); each is reverse-applied, so the tree
//     is the fork as `go mod vendor` copied it;
//  2. writes a wrapper main into that tree: cmd/kubelet/kubelet.go of upstream (v1.31.14 in the
//     module cache) minus the two blank imports MicroShift does not vendor
//     (k8s.io/component-base/logs/json/register: the JSON log format is not registered;
//     metrics/prometheus/version: a metric only);
//  3. builds it with -mod=vendor, CGO_ENABLED=0, no build tags (MicroShift's own build uses
//     `providerless` and CGO; OpenShift's RPM kubelet is a CGO/FIPS build: docs/unverified.md)
//     and the version ldflags MicroShift's Makefile gives the fork (Makefile.kube_git.var), so
//     `kubelet --version` prints the fork's KUBE_GIT_VERSION.
//
//   flock /work/builds/build.lock nice -n 10 \
//     node scripts/oracle/build-openshift-kubelet.mjs --microshift <git dir or checkout> --release 4.N
//
// The binary goes to <oracle cache>/openshift-4.N/kubelet, with build.json beside it (commits,
// version, wall time, size); prints the binary's path on stdout. A binary whose build.json names
// the locked commit and whose --version prints the expected version is reused.
import { execFileSync, spawnSync } from 'node:child_process';
import { createHash } from 'node:crypto';
import { existsSync, mkdirSync, readdirSync, readFileSync, renameSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { oracleCache } from './build-kubelet.mjs';
import { SourceError } from '../generate/kubernetes-source.mjs';

const LOCK = fileURLToPath(new URL('../generate/openshift-kubelet-source.lock.json', import.meta.url));
const WRAPPER_PACKAGE = 'cmd/node-check-oracle-kubelet';

// Upstream's cmd/kubelet/kubelet.go (identical from 1.26 to 1.36 apart from the copyright year),
// without the blank imports of packages MicroShift's vendor/ tree does not carry.
const WRAPPER_MAIN = `// Written by node-check's scripts/oracle/build-openshift-kubelet.mjs: upstream's
// cmd/kubelet/kubelet.go without k8s.io/component-base/logs/json/register and
// k8s.io/component-base/metrics/prometheus/version, which MicroShift does not vendor.
package main

import (
	"os"

	"k8s.io/component-base/cli"
	_ "k8s.io/component-base/metrics/prometheus/clientgo" // for client metric registration
	"k8s.io/kubernetes/cmd/kubelet/app"
)

func main() {
	command := app.NewKubeletCommand()
	code := cli.Run(command)
	os.Exit(code)
}
`;

export function lockedRelease(release) {
  const releases = JSON.parse(readFileSync(LOCK, 'utf8')).releases;
  const locked = releases[release];
  if (!locked) throw new SourceError(`release ${release} is not in ${LOCK} (releases: ${Object.keys(releases).join(', ')})`);
  return locked;
}

export function openshiftKubeletPath(release) {
  return join(oracleCache(), `openshift-${release}`, 'kubelet');
}

function run(command, args, options = {}) {
  const result = spawnSync(command, args, { encoding: 'utf8', maxBuffer: 1 << 28, stdio: ['ignore', 'pipe', 'pipe'], ...options });
  if (result.error?.code === 'ENOENT') throw new SourceError(`${command} is not installed`);
  if (result.status !== 0) throw new SourceError(`${command} ${args.join(' ')}: ${String(result.stderr || result.stdout).trim().slice(0, 2000)}`);
  return result.stdout;
}

const goEnv = (extra = {}) => ({ ...process.env, GOTOOLCHAIN: 'local', CGO_ENABLED: '0', GOFLAGS: '-buildvcs=false', ...extra });

function isGitDir(dir) {
  return existsSync(join(dir, 'objects')) && existsSync(join(dir, 'HEAD'));
}

function gitBlobHash(content) {
  return createHash('sha1').update(`blob ${content.length}\0`).update(content).digest('hex');
}

/** The module (and its replacement) vendor/modules.txt names for a vendored file's import path. */
function vendoredModule(modulesTxt, importPath) {
  let best;
  for (const m of modulesTxt.matchAll(/^# (\S+) (v\S+)(?: => (\S+) (v\S+))?$/gm)) {
    const [, path, version, replacement, replacementVersion] = m;
    if ((importPath === path || importPath.startsWith(`${path}/`)) && (!best || path.length > best.path.length)) best = { path, version: replacementVersion ?? version, download: replacement ?? path };
  }
  return best;
}

/**
 * The commit's tree, extracted into dir. Blobs the git directory lacks are restored from the
 * module proxy (the vendored module at the version modules.txt names) when their git hash matches.
 */
function extractFromGitDir(gitDir, commit, dir, log) {
  const git = (args, options) => run('git', [`--git-dir=${gitDir}`, ...args], options);
  const listing = git(['ls-tree', '-r', '-z', '--format=%(objectmode) %(objectname) %(path)', commit]).split('\0').filter(Boolean);
  const blobs = listing.map((line) => /^(\d+) ([0-9a-f]+) (.*)$/s.exec(line)).filter((m) => m[1] !== '160000');
  const check = git(['cat-file', '--batch-check=%(objectname) %(objecttype)'], { input: blobs.map((m) => m[2]).join('\n') + '\n', stdio: ['pipe', 'pipe', 'pipe'] });
  const missing = new Set(check.split('\n').filter((l) => l.endsWith(' missing')).map((l) => l.split(' ')[0]));
  const absent = blobs.filter((m) => missing.has(m[2]));
  const modulesTxt = git(['show', `${commit}:vendor/modules.txt`]);
  const restored = [];
  const leftOut = [];
  for (const [, , hash, path] of absent) {
    const module = path.startsWith('vendor/') ? vendoredModule(modulesTxt, path.slice('vendor/'.length)) : undefined;
    // Outside vendor/ (the fork's own tree under deps/ from 4.18): a test data file (not Go source)
    // is left out; were it embedded in the binary, go build would fail naming it.
    if (!module && !path.endsWith('.go') && /\/(testdata|artifacts)\//.test(path)) {
      leftOut.push(path);
      continue;
    }
    if (!module) throw new SourceError(`${gitDir} lacks the blob ${hash} of ${path}, which is not a vendored file: fetch the repository again`);
    const info = JSON.parse(run('go', ['mod', 'download', '-json', `${module.download}@${module.version}`], { env: goEnv({ GOFLAGS: '-mod=mod' }) }));
    if (info.Error) throw new SourceError(`${path}: ${module.download}@${module.version}: ${info.Error}`);
    const content = readFileSync(join(info.Dir, path.slice(`vendor/${module.path}/`.length)));
    if (gitBlobHash(content) !== hash) throw new SourceError(`${path}: ${module.download}@${module.version} has a file whose git hash is ${gitBlobHash(content)}, not the tree's ${hash}`);
    restored.push({ path, content, module: `${module.download}@${module.version}` });
  }
  mkdirSync(dir, { recursive: true });
  const archive = `${dir}.tar`;
  git(['archive', '--format=tar', '-o', archive, commit, '--', '.', ...absent.map((m) => `:(exclude,literal)${m[3]}`)]);
  run('tar', ['-x', '-f', archive, '-C', dir]);
  rmSync(archive);
  for (const { path, content } of restored) {
    mkdirSync(join(dir, path, '..'), { recursive: true });
    writeFileSync(join(dir, path), content);
  }
  if (leftOut.length) log(`left out ${leftOut.length} test data file(s) the git directory lacks: ${leftOut.join(', ')}`);
  if (restored.length) log(`restored ${restored.length} blob(s) the git directory lacks, each matching the tree's git hash: ${restored.map((r) => `${r.path} (${r.module})`).join(', ')}`);
  return { restored: restored.map((r) => r.path), leftOut };
}

/**
 * MicroShift's own patches to the vendored tree, reverse-applied (git apply -R, in order from the
 * last): the tree is then the fork's. A patch that does not reverse stops the build.
 */
function reverseMicroshiftPatches(dir, log) {
  const patchDir = join(dir, 'scripts/auto-rebase/rebase_patches');
  const patches = existsSync(patchDir) ? readdirSync(patchDir).filter((f) => f.endsWith('.patch')).sort().reverse() : [];
  for (const patch of patches) run('git', ['apply', '-R', '--whitespace=nowarn', join(patchDir, patch)], { cwd: dir });
  if (patches.length) log(`reverse-applied MicroShift's ${patches.length} patch(es) to its vendored tree: ${[...patches].reverse().join(', ')}`);
  return [...patches].reverse();
}

/** Makefile.kube_git.var of the tree: the fork's version as MicroShift's build stamps it. */
function kubeGitVars(dir) {
  const text = readFileSync(join(dir, 'Makefile.kube_git.var'), 'utf8');
  const vars = Object.fromEntries([...text.matchAll(/^(KUBE_GIT_\w+)=(\S*)$/gm)].map((m) => [m[1], m[2]]));
  for (const k of ['KUBE_GIT_MAJOR', 'KUBE_GIT_MINOR', 'KUBE_GIT_VERSION', 'KUBE_GIT_COMMIT']) if (!vars[k]) throw new SourceError(`${dir}/Makefile.kube_git.var has no ${k}`);
  return vars;
}

function ldflags(vars) {
  const sets = ['k8s.io/component-base/version', 'k8s.io/client-go/pkg/version'].flatMap((pkg) => [
    `-X ${pkg}.gitMajor=${vars.KUBE_GIT_MAJOR}`,
    `-X ${pkg}.gitMinor=${vars.KUBE_GIT_MINOR}`,
    `-X ${pkg}.gitVersion=${vars.KUBE_GIT_VERSION}`,
    `-X ${pkg}.gitCommit=${vars.KUBE_GIT_COMMIT}`,
    `-X ${pkg}.gitTreeState=${vars.KUBE_GIT_TREE_STATE ?? 'clean'}`,
    `-X ${pkg}.buildDate=1970-01-01T00:00:00Z`,
  ]);
  return ['-s', '-w', ...sets].join(' ');
}

export function buildOpenshiftKubelet({ microshift, release, log = (s) => process.stderr.write(`${s}\n`) }) {
  const locked = lockedRelease(release);
  const commit = locked.microshiftCommit;
  const out = openshiftKubeletPath(release);
  const recordPath = join(out, '..', 'build.json');
  // A checkout is read through its git directory, so the user's work tree is never changed.
  const gitDir = isGitDir(microshift) ? microshift : run('git', ['-C', microshift, 'rev-parse', '--absolute-git-dir']).trim();
  const dir = join(oracleCache(), 'src', `microshift-${commit.slice(0, 12)}`);
  let extracted = { restored: [], leftOut: [], reversed: [] };
  const stamp = join(dir, '.node-check-extracted');
  // The stamp names the commit and that MicroShift's patches were reversed (an older extraction did not).
  if (!existsSync(stamp) || readFileSync(stamp, 'utf8').trim() !== `${commit} unpatched`) {
    rmSync(dir, { recursive: true, force: true });
    log(`extracting openshift/microshift ${commit} (release-${release}) into ${dir}`);
    extracted = { ...extractFromGitDir(gitDir, commit, dir, log), reversed: reverseMicroshiftPatches(dir, log) };
    writeFileSync(join(dir, '.node-check-extracted.json'), `${JSON.stringify(extracted)}\n`);
    writeFileSync(stamp, `${commit} unpatched\n`);
  } else {
    extracted = JSON.parse(readFileSync(join(dir, '.node-check-extracted.json'), 'utf8'));
  }
  const commitsTxt = readFileSync(join(dir, 'scripts/auto-rebase/commits.txt'), 'utf8');
  const fork = /^https:\/\/github\.com\/openshift\/kubernetes embedded-component ([0-9a-f]{40})$/m.exec(commitsTxt)?.[1];
  const vars = kubeGitVars(dir);
  if (fork !== locked.openshiftKubernetes.commit || vars.KUBE_GIT_COMMIT !== fork) throw new SourceError(`release-${release}: commits.txt names ${fork}, Makefile.kube_git.var ${vars.KUBE_GIT_COMMIT}, the lock ${locked.openshiftKubernetes.commit}`);
  const version = vars.KUBE_GIT_VERSION;
  if (existsSync(out) && existsSync(recordPath)) {
    const record = JSON.parse(readFileSync(recordPath, 'utf8'));
    const printed = spawnSync(out, ['--version'], { encoding: 'utf8' }).stdout?.trim();
    if (record.microshiftCommit === commit && record.microshiftPatchesReversed?.length === extracted.reversed.length && printed === `Kubernetes ${version}`) return { ...record, path: out, reused: true };
  }
  mkdirSync(join(dir, WRAPPER_PACKAGE), { recursive: true });
  writeFileSync(join(dir, WRAPPER_PACKAGE, 'main.go'), WRAPPER_MAIN);
  mkdirSync(join(out, '..'), { recursive: true });
  const goVersion = run('go', ['env', 'GOVERSION'], { env: goEnv() }).trim();
  log(`building OpenShift ${release}'s kubelet (openshift/kubernetes ${fork}, ${version}) with ${goVersion}, -mod=vendor, CGO_ENABLED=0, into ${out}`);
  const started = Date.now();
  run('go', ['build', '-mod=vendor', '-trimpath', '-ldflags', ldflags(vars), '-o', `${out}.tmp`, `./${WRAPPER_PACKAGE}`], { cwd: dir, env: goEnv() });
  renameSync(`${out}.tmp`, out);
  const seconds = Math.round((Date.now() - started) / 1000);
  const printed = execFileSync(out, ['--version'], { encoding: 'utf8' }).trim();
  if (printed !== `Kubernetes ${version}`) throw new SourceError(`${out} --version printed "${printed}", not "Kubernetes ${version}"`);
  const size = statSync(out).size;
  const record = { release, kubelet: version, kubeletMinor: Number(vars.KUBE_GIT_MINOR), microshiftCommit: commit, openshiftKubernetesCommit: fork, go: goVersion, cgo: false, tags: [], mod: 'vendor', restoredFromModuleProxy: extracted.restored, leftOut: extracted.leftOut, microshiftPatchesReversed: extracted.reversed, seconds, size };
  writeFileSync(recordPath, `${JSON.stringify(record, null, 1)}\n`);
  log(`OpenShift ${release} kubelet ${version}: built in ${seconds} s, ${(size / 1048576).toFixed(1)} MiB`);
  return { ...record, path: out };
}

if (process.argv[1] === fileURLToPath(import.meta.url)) {
  const args = process.argv.slice(2);
  const value = (name) => (args.includes(name) ? args[args.indexOf(name) + 1] : undefined);
  try {
    const microshift = value('--microshift');
    const release = value('--release');
    if (!microshift || !/^\d+\.\d+$/.test(release ?? '')) throw new SourceError('usage: build-openshift-kubelet.mjs --microshift <git dir or checkout of openshift/microshift> --release 4.N');
    const result = buildOpenshiftKubelet({ microshift, release });
    process.stdout.write(`${result.path}\n`);
  } catch (error) {
    if (!(error instanceof SourceError)) throw error;
    process.stderr.write(`build-openshift-kubelet: ${error.message}\n`);
    process.exit(1);
  }
}
