#!/usr/bin/env node
// Re-derives scripts/generate/sources/feature-gates/staging.txt from the tagged staging repositories fetched
// under /work/.mirror (read with `git show <tag>:<path>`): the gates that k8s.io/apiserver (generic),
// k8s.io/component-base (logs, metrics) and k8s.io/client-go add to kubelet's feature gate, per minor.
// Usage: node scripts/generate/feature-gates-extract.mjs [mirrorRoot]   (default /work/.mirror)
// The output is committed; feature-gates.mjs reads only the committed file.
import { execFileSync } from 'node:child_process';
import { writeFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';

const ROOT = join(dirname(fileURLToPath(import.meta.url)), '..', '..');
const MIRROR = process.argv[2] ?? '/work/.mirror';
const OUT = join(ROOT, 'scripts/generate/sources/feature-gates/staging.txt');
const STAGE = { Alpha: 'A', Beta: 'B', GA: 'G', Deprecated: 'D' };

function show(repo, tag, path) {
  try {
    return execFileSync('git', ['--git-dir', join(MIRROR, repo, 'repo'), 'show', `${tag}:${path}`], { encoding: 'utf8', stdio: ['ignore', 'pipe', 'ignore'] });
  } catch {
    return undefined;
  }
}

/** Unversioned FeatureSpec maps: `Const: {Default: x, PreRelease: [featuregate.]Stage[, LockToDefault: true]}`. */
function parseUnversioned(src) {
  const names = new Map();
  for (const m of src.matchAll(/^\s*(\w+)\s+(?:featuregate\.)?Feature\s*=\s*"(\w+)"/gm)) names.set(m[1], m[2]);
  const consts = new Map();
  for (const m of src.matchAll(/(\w+)\s*=\s*(true|false)\b/g)) consts.set(m[1], m[2] === 'true');
  const out = [];
  for (const m of src.matchAll(/^\s*(\w+):\s*\{Default:\s*(\w+),\s*PreRelease:\s*(?:featuregate\.)?(\w+)(?:,\s*LockToDefault:\s*(true|false))?\s*\}/gm)) {
    const name = names.get(m[1]);
    if (!name) continue;
    const def = m[2] === 'true' ? true : m[2] === 'false' ? false : consts.get(m[2]);
    if (def === undefined || !STAGE[m[3]]) throw new Error(`cannot read ${m[0]}`);
    out.push(`${name} ${def ? 't' : 'f'} ${STAGE[m[3]]}${m[4] === 'true' ? 'L' : ''}`);
  }
  return out.sort();
}

/** Versioned maps (1.31+): `Const: { {Version: version.MustParse("1.8"), Default: x, PreRelease: ..., ...}, ... }`
 * (fields in any order, comment lines allowed); returns the spec kubelet 1.<minor> uses. */
function parseVersioned(src, minor) {
  const names = new Map();
  for (const m of src.matchAll(/^\s*(\w+)\s+(?:featuregate\.)?Feature\s*=\s*"(\w+)"/gm)) names.set(m[1], m[2]);
  const ver = (text) => {
    const m = /version\.(?:MustParse\("1\.(\d+)"\)|MajorMinor\(1,\s*(\d+)\))/.exec(text ?? '');
    return m ? Number(m[1] ?? m[2]) : undefined;
  };
  const out = [];
  const lines = src.split('\n');
  for (let i = 0; i < lines.length; i++) {
    const head = /^\s*(\w+):\s*\{\s*$/.exec(lines[i]);
    if (!head || !names.has(head[1])) continue;
    let chosen;
    for (i++; i < lines.length && !/^\s*\},?\s*$/.test(lines[i]); i++) {
      const item = /\{(Version:.*)\}/.exec(lines[i]);
      if (!item) continue;
      const field = (k) => new RegExp(`${k}:\\s*([^,}]+)`).exec(item[1])?.[1].trim();
      const v = ver(field('Version'));
      const minCompat = ver(field('MinCompatibilityVersion'));
      if (v === undefined) throw new Error(`no version in ${lines[i]}`);
      if (v > minor) continue;
      if (minCompat !== undefined && minor - 1 < minCompat) continue; // NewVersionedFeatureGate: minCompat = emulated - 1
      const stage = field('PreRelease')?.replace('featuregate.', '');
      if (!STAGE[stage]) throw new Error(`cannot read ${lines[i]}`);
      chosen = { def: field('Default') === 'true', stage, locked: field('LockToDefault') === 'true' };
    }
    if (!chosen) { console.error(`PreAlpha at 1.${minor}: ${names.get(head[1])}`); continue; } // PreAlpha: none expected in a release
    out.push(`${names.get(head[1])} ${chosen.def ? 't' : 'f'} ${STAGE[chosen.stage]}${chosen.locked ? 'L' : ''}`);
  }
  return out;
}

const lines = [
  '# Derived extract (mechanical, scripts/generate/feature-gates-extract.mjs): gates that staging packages register',
  '# into kubelet\'s gate, per kubelet minor, read with `git show v0.NN.0:<path>` from the fetched tagged mirrors',
  '# kubernetes/apiserver (pkg/features/kube_features.go: init() Adds all generic gates; kube_features.go imports it),',
  '# kubernetes/component-base (logs/kube_features.go or logs/api/v1/kube_features.go; metrics/ and zpages/features/kube_features.go).',
  '# 1.24-1.36; versioned maps give the spec kubelet 1.NN uses (last entry <= 1.NN, MinCompatibilityVersion honoured). client-go is in client-go.txt.',
  '# Format: "@<minor> <repo>@<tag>:<path>" then "Name <default t|f> <stage>[L]" lines.',
];
for (let minor = 24; minor <= 36; minor++) {
  const tag = `v0.${minor}.0`;
  const sources = [
    ['kubernetes+apiserver', 'pkg/features/kube_features.go'],
    ['kubernetes+component-base', 'logs/kube_features.go'],
    ['kubernetes+component-base', 'logs/api/v1/kube_features.go'],
    ['kubernetes+component-base', 'metrics/features/kube_features.go'],
    ['kubernetes+component-base', 'zpages/features/kube_features.go'],
  ];
  for (const [repo, path] of sources) {
    const src = show(repo, tag, path);
    if (!src) continue;
    const gates = [...new Set([...parseUnversioned(src), ...parseVersioned(src, minor)])].sort();
    lines.push(`@${minor} ${repo.replace('+', '/')}@${tag}:${path}`, ...gates);
  }
}
writeFileSync(OUT, lines.join('\n') + '\n');
console.log(`wrote ${OUT}`);
