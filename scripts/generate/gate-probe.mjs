// The gate probe (scripts/generate/gate-probe/main.go): kubelet's own registration code, built from
// the module proxy at a minor's locked tag, printing every gate DefaultMutableFeatureGate knows.
// It checks scripts/generate/feature-gates.mjs, which reads the same registration from the source.
//
//   node scripts/generate/gate-probe.mjs --prepare 1.N   write gate-probe/go.1.N.mod/.sum: require
//        k8s.io/kubernetes at the locked tag, with that tag's own replace directives (its staging
//        modules ./staging/src/k8s.io/X become k8s.io/X v0.N.P, the others are copied)
//   node scripts/generate/gate-probe.mjs --diff 1.N      build and run the probe, diff with the table
//
// Building needs the go command and the module proxy (or a warm module cache); nothing built is kept.
import { execFileSync } from 'node:child_process';
import { existsSync, readFileSync, writeFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { join } from 'node:path';
import { kubernetesDir, lockedVersion, SourceError } from './kubernetes-source.mjs';
import { gatesOfMinor, moduleCacheSource } from './feature-gates.mjs';

export const PROBE_DIR = fileURLToPath(new URL('./gate-probe/', import.meta.url));
const modFile = (minor) => join(PROBE_DIR, `go.1.${minor}.mod`);

const goEnv = () => ({ ...process.env, GOFLAGS: '-mod=mod', GOTOOLCHAIN: 'local' });

/** The probe's go.mod for 1.<minor>: the tag's go directive and replace block, staging pinned to v0.N.P. */
export function probeModText(minor) {
  const version = lockedVersion(minor);
  const stagingVersion = version.replace(/^v1\./, 'v0.');
  const tagMod = readFileSync(join(kubernetesDir(minor), 'go.mod'), 'utf8');
  const goLine = /^go (\S+)$/m.exec(tagMod)?.[1];
  if (!goLine) throw new SourceError(`k8s.io/kubernetes@${version} go.mod has no go directive`);
  const replaces = [];
  for (const block of tagMod.matchAll(/^replace \(\n([\s\S]*?)^\)/gm)) replaces.push(...block[1].split('\n'));
  for (const single of tagMod.matchAll(/^replace (\S.*)$/gm)) if (!single[1].startsWith('(')) replaces.push(single[1]);
  const lines = [];
  for (const raw of replaces) {
    const line = raw.replace(/\/\/.*$/, '').trim();
    if (line === '') continue;
    const staging = /^(k8s\.io\/\S+) => \.\/staging\/src\/\1$/.exec(line);
    lines.push(staging ? `\t${staging[1]} => ${staging[1]} ${stagingVersion}` : `\t${line}`);
  }
  return `module node-check/gate-probe\n\ngo ${goLine}\n\nrequire k8s.io/kubernetes ${version}\n\nreplace (\n${lines.join('\n')}\n)\n`;
}

export function prepare(minor) {
  writeFileSync(modFile(minor), probeModText(minor));
  execFileSync('go', ['mod', 'tidy', `-modfile=${modFile(minor)}`], { cwd: PROBE_DIR, stdio: ['ignore', 'inherit', 'inherit'], env: goEnv() });
}

const STAGE = { ALPHA: 'Alpha', BETA: 'Beta', '': 'GA', DEPRECATED: 'Deprecated', PreAlpha: 'PreAlpha' };

/** Builds and runs the probe: name -> { default, preRelease, lockToDefault } as kubelet 1.<minor> registers. */
export function runProbe(minor, binary) {
  if (!existsSync(modFile(minor))) throw new SourceError(`${modFile(minor)} is missing: run --prepare 1.${minor}`);
  const out = binary
    ? execFileSync(binary, { encoding: 'utf8', maxBuffer: 64 << 20 })
    : execFileSync('go', ['run', '-mod=readonly', `-modfile=${modFile(minor)}`, '.'], { cwd: PROBE_DIR, encoding: 'utf8', maxBuffer: 64 << 20, env: { ...goEnv(), GOFLAGS: '' } });
  const gates = new Map();
  for (const line of out.split('\n')) {
    if (line === '') continue;
    const g = JSON.parse(line);
    gates.set(g.name, { default: g.default, preRelease: STAGE[g.preRelease] ?? g.preRelease, lockToDefault: g.lockToDefault });
  }
  return gates;
}

/** The special gates component-base registers itself (featuregate.defaultFeatures); node-check models them apart. */
const SPECIAL = new Set(['AllAlpha', 'AllBeta']);

/** Lines where kubelet's own registration (the probe) and the source reader disagree; [] when they agree. */
export function diffProbe(minor, probed) {
  const read = gatesOfMinor(moduleCacheSource(minor), minor).gates;
  const lines = [];
  for (const name of [...new Set([...probed.keys(), ...read.keys()])].sort()) {
    if (SPECIAL.has(name)) continue;
    const a = probed.get(name);
    const b = read.get(name);
    const text = (g) => (g ? `default=${g.default} ${g.preRelease} lock=${g.lockToDefault}` : 'not registered');
    if (!a || !b || a.default !== b.default || a.preRelease !== b.preRelease || a.lockToDefault !== b.lockToDefault) lines.push(`${name}: kubelet ${text(a)}, table ${text(b)}`);
  }
  return lines;
}

function main(argv) {
  const minor = Number(/^1\.(\d+)$/.exec(argv[1] ?? '')?.[1]);
  if (!Number.isInteger(minor)) throw new SourceError('usage: gate-probe.mjs --prepare 1.N | --diff 1.N [probe binary]');
  if (argv[0] === '--prepare') return prepare(minor);
  if (argv[0] !== '--diff') throw new SourceError('usage: gate-probe.mjs --prepare 1.N | --diff 1.N [probe binary]');
  const probed = runProbe(minor, argv[2]);
  const lines = diffProbe(minor, probed);
  process.stdout.write(`kubelet 1.${minor}: ${probed.size} gates registered; ${lines.length} differ from the source reader\n${lines.join('\n')}${lines.length ? '\n' : ''}`);
  if (lines.length) process.exit(1);
}

if (process.argv[1] === fileURLToPath(import.meta.url)) {
  try {
    main(process.argv.slice(2));
  } catch (error) {
    if (!(error instanceof SourceError)) throw error;
    process.stderr.write(`gate-probe: ${error.message}\n`);
    process.exit(1);
  }
}
