// Builds src/kubelet/data/openshift-feature-gates.generated.ts: how OpenShift's kubelet fork
// (openshift/kubernetes) differs from upstream kubelet of the same minor in the feature gates it
// registers, per OpenShift release, and the fork's other carries node-check models (unknown gates
// only warn; node-role labels --node-labels accepts).
//
// The fork is read from openshift/microshift, which vendors it (vendor/k8s.io/kubernetes and the
// staging modules under vendor/k8s.io/) on branch release-<openshift minor>; the module proxy does
// not serve github.com/openshift/kubernetes. Input: a bare git directory of openshift/microshift
// (--git-dir DIR or MICROSHIFT_GIT_DIR, required: e.g. a `git clone --bare` of
// https://github.com/openshift/microshift).
// The gates are read with the parser upstream's table uses (feature-gates-source.mjs), and
// compared with upstream's tag of the same minor (scripts/generate/kubernetes-source.lock.json).
//
//   node scripts/generate/feature-gates-openshift.mjs --lock    pin each branch's head commit
//   node scripts/generate/feature-gates-openshift.mjs           write the table (at the locked commits)
//   node scripts/generate/feature-gates-openshift.mjs --check   exit 1 when the committed file differs
//
// A branch or file that cannot be read stops the generator with a message; nothing is written.
import { execFileSync } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { SourceError } from './kubernetes-source.mjs';
import { GateSourceError, stripComments } from './feature-gates-source.mjs';
import { gatesOfMinor, moduleCacheSource, runGenerator } from './feature-gates.mjs';

const ROOT = fileURLToPath(new URL('../../', import.meta.url));
export const OUT = join(ROOT, 'src/kubelet/data/openshift-feature-gates.generated.ts');
export const LOCK_PATH = fileURLToPath(new URL('./openshift-kubelet-source.lock.json', import.meta.url));
/** The OpenShift releases read: 4.12 (MicroShift's first release branch) to 4.23, and 5.0. */
export const RELEASES = ['4.12', '4.13', '4.14', '4.15', '4.16', '4.17', '4.18', '4.19', '4.20', '4.21', '4.22', '4.23', '5.0'];

/** The git directory named by --git-dir or MICROSHIFT_GIT_DIR; undefined when neither names one. */
export function gitDir(argv = process.argv) {
  const i = argv.indexOf('--git-dir');
  return (i !== -1 ? argv[i + 1] : process.env.MICROSHIFT_GIT_DIR) || undefined;
}

function git(dir, args) {
  try {
    return execFileSync('git', [`--git-dir=${dir}`, ...args], { encoding: 'utf8', maxBuffer: 64 << 20, stdio: ['ignore', 'pipe', 'pipe'] });
  } catch (error) {
    throw new SourceError(`git ${args.join(' ')} in ${dir}: ${String(error.stderr || error.message).trim()}`);
  }
}

/** A `source` for readRegistrations over MicroShift's vendor/ tree at one commit. */
export function vendorSource(dir, commit) {
  return {
    files(importPath) {
      let listing;
      try {
        listing = execFileSync('git', [`--git-dir=${dir}`, 'ls-tree', '--name-only', `${commit}:vendor/${importPath}`], { encoding: 'utf8', stdio: ['ignore', 'pipe', 'ignore'] });
      } catch {
        return undefined;
      }
      return listing
        .split('\n')
        .filter((f) => f.endsWith('.go') && !f.endsWith('_test.go'))
        .map((f) => ({ name: f, text: git(dir, ['show', `${commit}:vendor/${importPath}/${f}`]) }));
    },
  };
}

/** What the lock records of one release branch: its MicroShift commit, and the fork it vendors. */
function readRelease(dir, commit, release) {
  const modules = git(dir, ['show', `${commit}:vendor/modules.txt`]);
  // Up to 4.17 a pseudo-version of github.com/openshift/kubernetes; from 4.18 a copy of it in
  // MicroShift's deps/ directory.
  const vendored = /^# k8s\.io\/kubernetes (v1\.(\d+)\.\d+) => (?:github\.com\/openshift\/kubernetes (\S+)|(\.\/deps\/github\.com\/openshift\/kubernetes))$/m.exec(modules);
  if (!vendored) throw new SourceError(`release-${release}: vendor/modules.txt does not replace k8s.io/kubernetes with openshift/kubernetes`);
  const commits = git(dir, ['show', `${commit}:scripts/auto-rebase/commits.txt`]);
  const fork = /^https:\/\/github\.com\/openshift\/kubernetes embedded-component ([0-9a-f]{40})$/m.exec(commits)?.[1];
  if (!fork) throw new SourceError(`release-${release}: scripts/auto-rebase/commits.txt names no openshift/kubernetes commit`);
  if (vendored[3] && !vendored[3].endsWith(fork.slice(0, 12))) throw new SourceError(`release-${release}: vendored ${vendored[3]} is not commits.txt's ${fork}`);
  return { kubernetes: vendored[1], kubeletMinor: Number(vendored[2]), openshiftKubernetes: { vendoredAs: vendored[3] ?? vendored[4], commit: fork } };
}

export function lockText(dir) {
  const releases = {};
  for (const release of RELEASES) {
    const commit = git(dir, ['rev-parse', `release-${release}^{commit}`]).trim();
    releases[release] = { branch: `release-${release}`, microshiftCommit: commit, ...readRelease(dir, commit, release) };
  }
  return `${JSON.stringify({ comment: 'openshift/microshift commits whose vendor/ tree the OpenShift gate table is read from (written by scripts/generate/feature-gates-openshift.mjs --lock)', releases }, null, 1)}\n`;
}

function readLockFile() {
  try {
    return JSON.parse(readFileSync(LOCK_PATH, 'utf8')).releases;
  } catch (error) {
    throw new SourceError(`${LOCK_PATH}: ${error.message} (run --lock)`);
  }
}

/**
 * The node-role labels the fork's ValidateKubeletFlags lets --node-labels set
 * (cmd/kubelet/app/options/options.go), and whether they are in kubelet's allowed set (then the
 * error lists them) or exempt by IsForbiddenOpenshiftLabel (k8s.io/kubelet/pkg/apis).
 */
function nodeLabelCarry(source, release) {
  const options = stripComments(source.files('k8s.io/kubernetes/cmd/kubelet/app/options').map((f) => f.text).join('\n'));
  const apis = stripComments(source.files('k8s.io/kubelet/pkg/apis').map((f) => f.text).join('\n'));
  const constants = new Map([...apis.matchAll(/^\s*(\w+)\s*=\s*"([^"]+)"/gm)].map((m) => [m[1], m[2]]));
  const setOf = (name) => {
    const m = new RegExp(`var ${name} = sets\\.(?:NewString|New\\[string\\])\\(([\\s\\S]*?)\\n\\)`).exec(apis);
    if (!m) return undefined;
    return m[1].split(',').map((s) => s.trim()).filter(Boolean).map((s) => (s.startsWith('"') ? JSON.parse(s) : constants.get(s) ?? s));
  };
  const exemptCall = /if kubeletapis\.IsForbiddenOpenshiftLabel\(k\) \{\s*continue\s*\}/.test(options);
  if (exemptCall) {
    const labels = setOf('openshiftNodeLabels');
    if (!labels || labels.some((l) => !l.startsWith('node-role.kubernetes.io/'))) throw new GateSourceError(`release-${release}: openshiftNodeLabels not understood`);
    return { labels: labels.sort(), inAllowedSet: false };
  }
  const allowed = setOf('kubeletLabels');
  const roles = allowed?.filter((l) => l.startsWith('node-role.kubernetes.io/'));
  if (!roles?.length) throw new GateSourceError(`release-${release}: neither IsForbiddenOpenshiftLabel nor node-role labels in kubeletLabels`);
  return { labels: roles.sort(), inAllowedSet: true };
}

/** featuregate SetFromMap in the fork: an unknown gate is klog.Warningf'd and skipped. */
function unknownGateWarns(source, release) {
  const text = stripComments(source.files('k8s.io/component-base/featuregate').map((f) => f.text).join('\n'));
  if (/klog\.Warningf\("unrecognized feature gate: %s", k\)\s*continue/.test(text)) return true;
  if (/return fmt\.Errorf\("unrecognized feature gate: %s", k\)/.test(text)) return false;
  throw new GateSourceError(`release-${release}: featuregate's handling of an unknown gate not understood`);
}

const row = (spec) => [spec.default ? 1 : 0, spec.preRelease, spec.lockToDefault ? 1 : 0, ...(spec.dependencies ? [spec.dependencies] : [])];

export function generate(dir) {
  const releases = readLockFile();
  const upstreamCache = new Map();
  const byMinor = new Map();
  for (const release of RELEASES) {
    const locked = releases[release];
    if (!locked) throw new SourceError(`release-${release} is not in ${LOCK_PATH}: run --lock`);
    const read = readRelease(dir, locked.microshiftCommit, release);
    if (JSON.stringify(read) !== JSON.stringify({ kubernetes: locked.kubernetes, kubeletMinor: locked.kubeletMinor, openshiftKubernetes: locked.openshiftKubernetes })) {
      throw new SourceError(`release-${release} at ${locked.microshiftCommit} no longer matches the lock`);
    }
    const minor = locked.kubeletMinor;
    const source = vendorSource(dir, locked.microshiftCommit);
    const fork = gatesOfMinor(source, minor).gates;
    if (!upstreamCache.has(minor)) upstreamCache.set(minor, gatesOfMinor(moduleCacheSource(minor), minor).gates);
    const upstream = upstreamCache.get(minor);
    const changes = {};
    for (const name of [...new Set([...fork.keys(), ...upstream.keys()])].sort()) {
      const a = fork.get(name);
      const b = upstream.get(name);
      if (!a) changes[name] = null;
      else if (!b || JSON.stringify(row(a)) !== JSON.stringify(row(b))) changes[name] = row(a);
    }
    const entry = {
      releases: [release],
      kubernetes: locked.kubernetes,
      openshiftKubernetesCommit: locked.openshiftKubernetes.commit,
      microshiftCommit: locked.microshiftCommit,
      unknownGateWarns: unknownGateWarns(source, release),
      nodeRoleLabels: nodeLabelCarry(source, release),
      gates: changes,
    };
    const previous = byMinor.get(minor);
    if (previous) {
      // Two releases on one kubelet minor (4.23 and 5.0): node-check knows the kubelet minor only,
      // so they must agree.
      const same = (x) => JSON.stringify({ ...x, releases: [], microshiftCommit: '', openshiftKubernetesCommit: '', kubernetes: '' });
      if (same(previous) !== same(entry)) throw new GateSourceError(`OpenShift ${previous.releases.join(', ')} and ${release} carry different kubelet 1.${minor} gates`);
      previous.releases.push(release);
      continue;
    }
    byMinor.set(minor, entry);
  }
  const body = [...byMinor]
    .map(([minor, e]) => {
      const gates = Object.entries(e.gates).map(([name, r]) => `      ${JSON.stringify(name)}: ${JSON.stringify(r)},`).join('\n');
      const { gates: _, ...rest } = e;
      const head = Object.entries(rest).map(([k, v]) => `    ${k}: ${JSON.stringify(v)},`).join('\n');
      return `  ${minor}: {\n${head}\n    gates: {\n${gates}\n    },\n  },`;
    })
    .join('\n');
  return `// GENERATED by scripts/generate/feature-gates-openshift.mjs from openshift/microshift's vendor/ tree
// (OpenShift's kubelet fork, openshift/kubernetes) at the commits in
// scripts/generate/openshift-kubelet-source.lock.json. Do not edit.
// Per kubelet minor, the OpenShift releases that ship it and how their kubelet differs from
// upstream's locked tag of that minor (src/kubelet/data/feature-gates.generated.ts):
//   gates: name -> [default (1|0), stage, lockToDefault (1|0), dependencies?] where the fork registers
//          it differently or only the fork registers it; null where only upstream registers it;
//   unknownGateWarns: component-base featuregate SetFromMap only klog.Warningf's an unknown gate;
//   nodeRoleLabels: the node-role.kubernetes.io labels ValidateKubeletFlags accepts in --node-labels
//          (cmd/kubelet/app/options/options.go), listed in kubelet's allowed set (inAllowedSet) or
//          exempt through IsForbiddenOpenshiftLabel (k8s.io/kubelet/pkg/apis).

export type OpenShiftGateRow = readonly [0 | 1, string, 0 | 1, (readonly string[])?];
export interface OpenShiftKubelet {
  readonly releases: readonly string[];
  readonly kubernetes: string;
  readonly openshiftKubernetesCommit: string;
  readonly microshiftCommit: string;
  readonly unknownGateWarns: boolean;
  readonly nodeRoleLabels: { readonly labels: readonly string[]; readonly inAllowedSet: boolean };
  readonly gates: Readonly<Record<string, OpenShiftGateRow | null>>;
}

export const OPENSHIFT_KUBELETS: Readonly<Record<number, OpenShiftKubelet>> = {
${body}
};
`;
}

if (process.argv[1] === fileURLToPath(import.meta.url)) {
  const dir = gitDir();
  if (dir === undefined) {
    process.stderr.write('usage: feature-gates-openshift.mjs --git-dir DIR [--lock | --check]  (or MICROSHIFT_GIT_DIR=DIR): DIR is a bare git directory of openshift/microshift\n');
    process.exit(2);
  }
  if (process.argv.includes('--lock')) runGenerator('feature-gates-openshift', LOCK_PATH, 'scripts/generate/feature-gates-openshift.mjs --lock', () => lockText(dir));
  else runGenerator('feature-gates-openshift', OUT, 'scripts/generate/feature-gates-openshift.mjs', () => generate(dir));
}
