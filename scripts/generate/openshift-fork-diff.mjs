// Builds src/kubelet/data/openshift-fork-diff.generated.json: what OpenShift's kubelet fork
// changes, per OpenShift release, in the files that decide whether kubelet starts before
// "Started kubelet" outside the feature gates (those are feature-gates-openshift.mjs's): the
// KubeletConfiguration validation and defaults, the flag validation, and run().
//
// The fork is read from openshift/microshift's vendor/k8s.io/kubernetes at the commits of
// scripts/generate/openshift-kubelet-source.lock.json (MicroShift's own rebase_patches touch no
// kubelet file at any locked commit); upstream is the k8s.io/kubernetes module at the tag the fork
// is based on (the lock's `kubernetes`), from the Go module proxy. The output lists, per release
// and file, the lines only the fork has and the lines only upstream has (trimmed; blank lines and
// comments left out). test/kubelet/openshift-fork-diff.test.ts names what node-check does with each.
//
//   node scripts/generate/openshift-fork-diff.mjs --git-dir MICROSHIFT_GIT_DIR [--check]
import { execFileSync } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { SourceError } from './kubernetes-source.mjs';
import { gitDir, LOCK_PATH, RELEASES } from './feature-gates-openshift.mjs';
import { runGenerator } from './feature-gates.mjs';

const ROOT = fileURLToPath(new URL('../../', import.meta.url));
export const OUT = join(ROOT, 'src/kubelet/data/openshift-fork-diff.generated.json');
export const FILES = [
  'pkg/kubelet/apis/config/validation/validation.go',
  'pkg/kubelet/apis/config/validation/validation_linux.go',
  'pkg/kubelet/apis/config/v1beta1/defaults.go',
  'cmd/kubelet/app/options/options.go',
  'cmd/kubelet/app/options/globalflags_linux.go',
  'cmd/kubelet/app/server.go',
];

function run(command, args) {
  try {
    return execFileSync(command, args, { encoding: 'utf8', maxBuffer: 64 << 20, stdio: ['ignore', 'pipe', 'pipe'] });
  } catch (error) {
    throw new SourceError(`${command} ${args.join(' ')}: ${String(error.stderr || error.message).trim()}`);
  }
}

/** A file of the vendored fork, or undefined where MicroShift does not vendor it (a file the minor lacks). */
function forkFile(dir, commit, path) {
  try {
    return execFileSync('git', [`--git-dir=${dir}`, 'show', `${commit}:vendor/k8s.io/kubernetes/${path}`], { encoding: 'utf8', maxBuffer: 64 << 20, stdio: ['ignore', 'pipe', 'ignore'] });
  } catch {
    return undefined;
  }
}

const moduleDirs = new Map();
function upstreamModule(version) {
  if (!moduleDirs.has(version)) {
    const info = JSON.parse(run('go', ['mod', 'download', '-json', `k8s.io/kubernetes@${version}`]));
    if (info.Error || !info.Dir) throw new SourceError(`k8s.io/kubernetes@${version}: ${info.Error ?? 'no Dir'}`);
    moduleDirs.set(version, { dir: info.Dir, sum: info.Sum });
  }
  return moduleDirs.get(version);
}

/** Code lines, trimmed, without blank lines and // comments (a carry's comment is not behaviour). */
const codeLines = (text) => text.split('\n').map((l) => l.trim()).filter((l) => l !== '' && !l.startsWith('//'));

/** The lines only `a` has and only `b` has, as multisets, in `a`'s and `b`'s order. */
function lineDiff(a, b) {
  const count = (lines) => lines.reduce((m, l) => m.set(l, (m.get(l) ?? 0) + 1), new Map());
  const only = (lines, other) => {
    const left = count(other);
    return lines.filter((l) => {
      const n = left.get(l) ?? 0;
      if (n > 0) left.set(l, n - 1);
      return n === 0;
    });
  };
  return { fork: only(a, b), upstream: only(b, a) };
}

export function generate(dir) {
  const releases = JSON.parse(readFileSync(LOCK_PATH, 'utf8')).releases;
  const out = {};
  for (const release of RELEASES) {
    const locked = releases[release];
    if (!locked) throw new SourceError(`release-${release} is not in ${LOCK_PATH}`);
    const upstream = upstreamModule(locked.kubernetes);
    const files = {};
    for (const path of FILES) {
      const fork = forkFile(dir, locked.microshiftCommit, path);
      let theirs;
      try {
        theirs = readFileSync(join(upstream.dir, path), 'utf8');
      } catch {
        theirs = undefined;
      }
      if ((fork === undefined) !== (theirs === undefined)) throw new SourceError(`release-${release}: ${path} is in ${fork === undefined ? 'upstream' : 'the fork'} only`);
      if (fork === undefined) continue;
      const diff = lineDiff(codeLines(fork), codeLines(theirs));
      if (diff.fork.length || diff.upstream.length) files[path] = diff;
    }
    out[release] = { microshiftCommit: locked.microshiftCommit, upstream: { version: locked.kubernetes, sum: upstream.sum }, files };
  }
  return `${JSON.stringify({ comment: 'written by scripts/generate/openshift-fork-diff.mjs: per OpenShift release, the code lines only the fork or only upstream has in the files listed', files: FILES, releases: out }, null, 1)}\n`;
}

if (process.argv[1] === fileURLToPath(import.meta.url)) {
  const dir = gitDir();
  if (!dir) {
    process.stderr.write('openshift-fork-diff: --git-dir DIR (a bare clone of openshift/microshift) or MICROSHIFT_GIT_DIR is required\n');
    process.exit(2);
  }
  runGenerator('openshift-fork-diff', OUT, 'scripts/generate/openshift-fork-diff.mjs', () => generate(dir));
}
