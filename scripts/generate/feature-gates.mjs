#!/usr/bin/env node
// Builds src/kubelet/data/feature-gates.generated.ts from the derived extracts in
// scripts/generate/sources/feature-gates/ (each file's header gives its provenance).
// Usage: node scripts/generate/feature-gates.mjs           write the file
//        node scripts/generate/feature-gates.mjs --check   exit 1 when the committed file differs
//
// Model. A snapshot is one stored version of upstream's generated gate list, placed on the release line:
// "mid N"/"early N" lie strictly inside cycle N (between releases N-1 and N, resp. just after N-1), "late N" is
// taken to be release N itself [I]. For a gate g and a minor m (1.31..1.36):
//   present(m): some snapshot at or after release m lists g, and g existed by m (its versioned history starts at
//               or before m, or an earlier snapshot lists it);
//   absent(m):  g was removed (a complete snapshot at or before release m, newer than every snapshot listing g,
//               lacks it), or added later (a complete snapshot at or after release m, older than every snapshot
//               listing g, lacks it), or its versioned history starts after m (1.31+: real introduction);
//   otherwise uncertain. Rows (default, stage, lock) come from g's newest versioned snapshot and are trusted only
//   up to the last release that snapshot post-dates; a locked spec stays locked (component-base forbids
//   unlocking), anything else beyond that is unverified. Minors 1.24-1.30: see pre131 handling below.
import { readFileSync, writeFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';

const ROOT = join(dirname(fileURLToPath(import.meta.url)), '..', '..');
const SRC = join(ROOT, 'scripts/generate/sources/feature-gates');
const OUT = join(ROOT, 'src/kubelet/data/feature-gates.generated.ts');
const FIRST = 24;
const LAST = 36;
const VERSIONED_FROM = 31;
const STAGES = { A: 'Alpha', B: 'Beta', G: 'GA', D: 'Deprecated' };
const COMPONENT_BASE = ['ContextualLogging', 'LoggingAlphaOptions', 'LoggingBetaOptions', 'ComponentSLIs'];

const read = (file) => readFileSync(join(SRC, file), 'utf8');
const lines = (file) =>
  read(file).split('\n').map((l) => l.replace(/\s+#.*$/, '').trim()).filter((l) => l && !l.startsWith('#'));

function parseSpecs(tokens) {
  const specs = [];
  for (let i = 0; i < tokens.length; i += 3) {
    const [ver, def, st] = tokens.slice(i, i + 3);
    const m = /^(?:1\.(\d+)|@(\d+))$/.exec(ver ?? '');
    if (!m || (def !== 't' && def !== 'f') || !STAGES[st?.[0]]) throw new Error(`bad spec ${tokens.join(' ')}`);
    specs.push({ minor: Number(m[1] ?? m[2]), only: m[2] !== undefined, def: def === 't', stage: STAGES[st[0]], locked: st.endsWith('L') });
  }
  return specs;
}

// ---- snapshots ------------------------------------------------------------------------------------------
const SNAP_POS = { mid: 0.5, early: 0.5, late: 0 }; // pos = cycle - 1 + 0.5 (inside the cycle) or = cycle (release)
const snapshots = [];
for (const block of read('snapshots.txt').split('\n@').slice(1)) {
  const [head, ...rest] = block.split('\n');
  const [id, where, cycle] = head.split(/\s+/);
  const c = Number(cycle);
  const pos = where === 'late' ? c : c - 1 + SNAP_POS[where] - (id === 'c33k' ? 0.1 : 0); // c33k precedes c33
  const names = new Set(rest.filter((l) => !l.startsWith('#')).join(' ').split(/\s+/).filter(Boolean));
  snapshots.push({ id, pos, late: where === 'late', names });
}
// Unversioned kube_features.go maps before 1.31 (kube gates only; generic gates come from staging.txt).
const legacySpecs = new Map(); // snapshot id -> Map(name -> spec)
for (const block of read('legacy-maps.txt').split('\n@').slice(1)) {
  const [head, ...rest] = block.split('\n');
  const [id, where, cycle] = head.split(/\s+/);
  const c = Number(cycle);
  const specsHere = new Map();
  for (const tok of rest.filter((l) => !l.startsWith('#')).join(' ').split(/\s+/).filter(Boolean)) {
    const m = /^(\w+):([tf])([ABGD])(L?)$/.exec(tok);
    if (!m) throw new Error(`bad token ${tok}`);
    specsHere.set(m[1], { def: m[2] === 't', stage: STAGES[m[3]], locked: m[4] === 'L' });
  }
  legacySpecs.set(id, specsHere);
  snapshots.push({ id, pos: where === 'late' ? c : c - 0.5, late: where === 'late', names: new Set(specsHere.keys()), legacy: true });
}
snapshots.sort((a, b) => a.pos - b.pos);
const snap = (id) => snapshots.find((s) => s.id === id);
// Which snapshots can prove absence: c32 lists versioned gates only; c31 (unversioned list) may miss gates that
// were already versioned, so it proves removals but not late additions; c35 omits component-base gates.
const inLegacyMap = (g) => [...legacySpecs.values()].some((m) => m.has(g));
// The legacy maps list kube gates only: generic/logs/metrics/client-go gates come from the tags, and
// apiextensions-apiserver gates (linked into kubelet once kube_features.go relists one, 1.28+) are not all
// relisted, so a legacy map says nothing about them.
const APIEXTENSIONS = ['CRDValidationRatcheting', 'CustomResourceFieldSelectors'];
const provesRemoval = (s, g) =>
  !['c32', 'c33k'].includes(s.id) &&
  !(s.id === 'c35' && COMPONENT_BASE.includes(g)) &&
  !(s.legacy && (APIEXTENSIONS.includes(g) || stagingNames.has(g) || clientGoNames.has(g)));
const provesAddition = (s, g) => provesRemoval(s, g) && s.id !== 'c31';

// ---- specs ----------------------------------------------------------------------------------------------
const specs = new Map(); // name -> { source, specs }
for (const l of lines('specs-c37.txt')) {
  const [name, ...rest] = l.split(/\s+/);
  specs.set(name, { source: 'c37', specs: parseSpecs(rest) });
  snap('c37').names.add(name);
}
for (const l of lines('specs-older.txt')) {
  const [name, source, ...rest] = l.split(/\s+/);
  if (specs.has(name)) throw new Error(`duplicate ${name}`);
  if (!snap(source).names.has(name)) throw new Error(`${name} is not in ${source}`);
  specs.set(name, { source, specs: parseSpecs(rest) });
}
for (const s of snapshots) {
  if (s.legacy) continue;
  for (const n of s.names) if (!specs.has(n)) throw new Error(`no spec for ${n} (${s.id})`);
}

/** Last minor whose rows the snapshot fixes: the last release it post-dates. */
const trustedUpTo = (s) => (s.late ? s.pos : Math.floor(s.pos));

function introduced(entry) {
  if (!entry) return undefined;
  const [first, second] = entry.specs;
  if (first.only) return undefined;
  if (first.minor !== 0) return first.minor;
  return second?.minor; // gates born GA/deprecated carry a 1.0 entry for their prior state
}

function membership(name, m) {
  const entry = specs.get(name);
  const inSnaps = snapshots.filter((s) => s.names.has(name));
  const posIn = inSnaps.map((s) => s.pos);
  const lastIn = Math.max(...posIn);
  const firstIn = Math.min(...posIn);
  const at = (s) => (s.late ? s.pos >= m : s.pos > m); // snapshot at or after release m
  const before = (s) => (s.late ? s.pos <= m : s.pos < m); // snapshot at or before release m
  const intro = introduced(entry);
  // Snapshot evidence beats the versioned history: histories get edited (MutatingAdmissionPolicy is listed in
  // 1.31 although its 1.37 history starts at 1.32) and renamed gates inherit their predecessor's history
  // (CPUCFSQuotaPeriod -> CustomCPUCFSQuotaPeriod, RuntimeClassInImageCriAPI -> RuntimeClassInImageCriApi).
  const existedProof = inSnaps.some(before);
  const snapAddedLater = snapshots.some((s) => provesAddition(s, name) && s.pos < firstIn && !s.names.has(name) && at(s));
  const introAbsent =
    intro !== undefined &&
    intro > m &&
    !existedProof &&
    // In the versioned era the history records the real introduction; before it, the backfilled history must be
    // backed by a map from before release m that does not list the gate yet [I].
    (intro >= VERSIONED_FROM || snapshots.some((s) => provesAddition(s, name) && before(s) && !s.names.has(name)));
  // A history is suspect when a complete snapshot that post-dates its start lacks the gate (renamed gates).
  const suspect =
    intro !== undefined &&
    snapshots.some((s) => provesAddition(s, name) && s.pos < firstIn && s.pos > intro && !s.names.has(name));
  const present = inSnaps.some(at) && (existedProof || (intro !== undefined && intro <= m && !suspect));
  const removed = snapshots.some((s) => provesRemoval(s, name) && s.pos > lastIn && !s.names.has(name) && before(s));
  if (present && removed) throw new Error(`contradiction for ${name} at 1.${m}`);
  if (present) return 'present';
  return removed || snapAddedLater || introAbsent ? 'absent' : 'uncertain';
}

function rowFor(name, m) {
  const entry = specs.get(name);
  const spec = [...entry.specs].reverse().find((s) => (s.only ? s.minor === m : s.minor <= m));
  const source = snap(entry.source);
  if (!spec) return [m, m, -1, '?', 0, 0];
  let verified = m >= VERSIONED_FROM && m <= trustedUpTo(source);
  if (!verified && m > trustedUpTo(source) && spec.locked) verified = true; // a lock is terminal
  return [m, m, spec.def ? 1 : 0, spec.stage, spec.locked ? 1 : 0, verified ? 1 : 0];
}

// ---- exact per-tag data: client-go (1.30+), apiserver generic + component-base logs/metrics (1.24-1.30) -----
const clientGo = new Map();
for (const l of lines('client-go.txt')) {
  const [name, , span, ...rest] = l.split(/\s+/);
  const [from, to] = span.split('-').map(Number);
  clientGo.set(name, { from, to, specs: parseSpecs(rest) });
}
const staging = new Map(); // minor -> Map(name -> spec)
{
  let minor;
  for (const l of lines('staging.txt')) {
    if (l.startsWith('@')) {
      minor = Number(l.slice(1).split(/\s+/)[0]);
      if (!staging.has(minor)) staging.set(minor, new Map());
      continue;
    }
    const [name, def, st] = l.split(/\s+/);
    staging.get(minor).set(name, { def: def === 't', stage: STAGES[st[0]], locked: st.endsWith('L') });
  }
}
const stagingNames = new Set([...staging.values()].flatMap((m) => [...m.keys()]));
const clientGoNames = new Set(clientGo.keys());
const legacy = new Map(); // name -> minors asserted present
for (const l of lines('legacy.txt')) {
  const [name, minors] = l.split(/\s+/);
  legacy.set(name, minors.split(',').map(Number));
}

/**
 * Pre-1.31 row of a kube gate. Lock (the only verdict-relevant part) from the unversioned legacy maps: a lock is
 * terminal, so locked in a map before release m => locked at m (verified); unlocked in a map after release m (or
 * at a verified 1.31 row) => unlocked at m (verified); otherwise unknown (verified = 0).
 * Default/stage (informative): the versioned history if it covers m, else the map of cycle m, else the nearest map.
 */
function legacyRow(name, m) {
  const withSpec = snapshots.filter((s) => s.legacy && legacySpecs.get(s.id).has(name));
  const specAt = (s) => legacySpecs.get(s.id).get(name);
  const after = withSpec.filter((s) => s.pos > m);
  const before = withSpec.filter((s) => s.pos <= m);
  const r31 = specs.has(name) ? rowFor(name, VERSIONED_FROM) : undefined;
  const spec31 = r31 && r31[5] === 1 && r31[2] !== -1 ? { def: r31[2] === 1, stage: r31[3], locked: r31[4] === 1 } : undefined;
  const hist = specs.get(name)?.specs.filter((x) => !x.only && x.minor !== 0).reverse().find((x) => x.minor <= m);
  const ownCycle = withSpec.find((s) => s.pos === m - 0.5);
  const informative =
    hist ?? (ownCycle && specAt(ownCycle)) ?? (after.length ? specAt(after[0]) : spec31 ?? (before.length ? specAt(before[before.length - 1]) : undefined));
  if (!informative) return [m, m, -1, '?', 0, 0];
  const lockedBefore = before.filter((s) => specAt(s).locked);
  if (lockedBefore.length) {
    const x = specAt(lockedBefore[lockedBefore.length - 1]);
    return [m, m, x.def ? 1 : 0, x.stage, 1, 1];
  }
  const unlockedAfter = after.some((s) => !specAt(s).locked) || (spec31 !== undefined && !spec31.locked);
  if (unlockedAfter) return [m, m, informative.def ? 1 : 0, informative.stage, 0, 1];
  return [m, m, informative.def ? 1 : 0, informative.stage, informative.locked ? 1 : 0, 0];
}

// ---- assemble ------------------------------------------------------------------------------------------
const out = {};
const names = new Set([...specs.keys(), ...clientGo.keys(), ...legacy.keys(), ...stagingNames, ...[...legacySpecs.values()].flatMap((m) => [...m.keys()])]);
for (const name of [...names].sort()) {
  const rows = [];
  const uncertain = [];
  const absent = [];
  const lockedIfPresent = [];
  for (let m = FIRST; m <= LAST; m++) {
    let row;
    let state;
    if (clientGo.has(name)) {
      const g = clientGo.get(name);
      state = m >= g.from && m <= g.to ? 'present' : 'absent';
      if (state === 'present') {
        const x = [...g.specs].reverse().find((y) => y.minor <= m);
        row = [m, m, x.def ? 1 : 0, x.stage, x.locked ? 1 : 0, 1];
      }
    } else if (legacy.get(name)?.includes(m)) {
      state = 'present';
      row = legacyRow(name, m);
    } else if (stagingNames.has(name) && (staging.get(m)?.has(name) || m < VERSIONED_FROM)) {
      // Exact for the .0 tag when the tag has it. When it does not: a gate an earlier tag had was removed
      // (removals are not backported) [I]; one that only later tags have may have been backported into a patch
      // release (UnauthenticatedHTTP2DOSMitigation was), so that stays uncertain.
      const x = staging.get(m)?.get(name);
      const earlier = [...staging.entries()].some(([k, v]) => k < m && v.has(name));
      const intro = introduced(specs.get(name));
      state = x ? 'present' : earlier || (intro !== undefined && intro >= VERSIONED_FROM) ? 'absent' : 'uncertain';
      if (x) row = [m, m, x.def ? 1 : 0, x.stage, x.locked ? 1 : 0, 1];
    } else if (!specs.has(name) && !inLegacyMap(name)) {
      state = 'absent';
    } else {
      state = membership(name, m);
      if (state === 'present') row = m >= VERSIONED_FROM && specs.has(name) ? rowFor(name, m) : legacyRow(name, m);
    }
    if (state === 'present') {
      const prev = rows[rows.length - 1];
      if (prev && prev[1] === m - 1 && prev.slice(2).join() === row.slice(2).join()) prev[1] = m;
      else rows.push(row);
    } else if (state === 'uncertain') {
      uncertain.push(m);
      // Locks are terminal: if the gate was certainly locked before m, it is locked at m if still registered.
      const lastLocked = [...rows].reverse().find((r) => r[4] === 1 && r[5] === 1);
      const mapLocked = snapshots.filter((x) => x.legacy && x.pos <= m && legacySpecs.get(x.id).get(name)?.locked);
      if (lastLocked) lockedIfPresent.push([m, lastLocked[2]]);
      else if (mapLocked.length) lockedIfPresent.push([m, legacySpecs.get(mapLocked[mapLocked.length - 1].id).get(name).def ? 1 : 0]);
    } else absent.push(m);
  }
  const entry = { rows };
  if (lockedIfPresent.length) entry.lockedIfPresent = lockedIfPresent;
  if (uncertain.length) entry.uncertain = uncertain;
  if (absent.length) entry.absent = absent;
  out[name] = entry;
}

// Self-check against c31's lock list (1.31 state as listed in the 1.31 cycle).
{
  const c31Locked = new Set(lines('c31-locked.txt').join(' ').split(/\s+/));
  const problems = [];
  for (const [name, entry] of Object.entries(out)) {
    const row = entry.rows.find(([a, b]) => a <= 31 && 31 <= b);
    if (!row || row[5] !== 1 || !snap('c31').names.has(name)) continue; // c31 lists unversioned gates only
    if ((row[4] === 1) !== c31Locked.has(name)) problems.push(`${name}: generated lock ${row[4]} at 1.31, c31 ${c31Locked.has(name)}`);
  }
  for (const name of c31Locked) if (!out[name]?.rows.some(([a, b]) => a <= 31 && 31 <= b)) problems.push(`${name}: locked in c31 but not registered at 1.31`);
  if (problems.length) throw new Error(`1.31 lock self-check failed:\n${problems.join('\n')}`);
}

const deps35 = {};
for (const l of lines('dependencies-1.35.txt')) {
  const [gate, rest] = l.split(':');
  deps35[gate.trim()] = rest.trim().split(/\s+/).sort();
}

const COMPLETE = [25, 26, 27, 28, 29, 30, 31, 32, 33, 34, 35, 36];
const body = Object.entries(out)
  .map(([k, v]) => `  ${JSON.stringify(k)}: ${JSON.stringify(v)},`)
  .join('\n');
const ts = `// GENERATED by scripts/generate/feature-gates.mjs from scripts/generate/sources/feature-gates/*.txt. Do not edit.
// The feature gates registered in kubelet's DefaultMutableFeatureGate per kubelet minor (1.24..1.36):
// pkg/features (kube), k8s.io/apiserver + apiextensions-apiserver, component-base logs/metrics/zpages,
// controller-manager and client-go gates. Provenance: the headers of the extracts (repo, commit, index id).
// Row: [fromMinor, toMinor, default (1|0, -1 unknown), stage ('?' unknown), lockToDefault (1|0), verified (1|0)].
// verified = 0: the row comes from backfilled history (1.24-1.30) or from a snapshot older than the minor.
// uncertain: minors where the gate may or may not be registered; absent: minors where it certainly is not.

export type GateRow = readonly [number, number, number, string, number, number];
export interface GateHistory {
  readonly rows: readonly GateRow[];
  readonly uncertain?: readonly number[];
  readonly absent?: readonly number[];
  /** [minor, default]: uncertain minors where the gate, if still registered, is certainly locked to default. */
  readonly lockedIfPresent?: readonly (readonly [number, number])[];
}

export const GATE_HISTORY: Readonly<Record<string, GateHistory>> = {
${body}
};

/** Where the table comes from (each extract's header has the detail: repo, path, commit, index id, minor). */
export const PROVENANCE: readonly string[] = ${JSON.stringify([
  'kubernetes/kubernetes test/compatibility_lifecycle/reference/versioned_feature_list.yaml: rpb-ant fork a47c9d40 (idx 57860768184, 1.37 cycle), BenTheElder fork 8d570438 (idx 53443857162, early 1.36), 002acc1a (idx 52310178358, 1.34 cycle), fbba6b47 (idx 66833466, 1.33 cycle)',
  'kubernetes/kubernetes test/featuregates_linter/test_data: versioned_feature_list.yaml 0021731d (idx 51913964927, 1.32 cycle), unversioned_feature_list.yaml 128e189f (idx 412812502, 1.31 cycle)',
  'kubernetes/kubernetes pkg/features/kube_features.go: idx 378079260 (1.35 cycle, dependency map), idx 688781 (1.33 cycle excerpt), idx 374568779 (1.25), 158571778 (1.27), 333759641 (1.28), 6300876 (1.30)',
  'kubernetes/apiserver pkg/features/kube_features.go, kubernetes/component-base logs+metrics features, kubernetes/client-go features/known_features.go at tags v0.24.0..v0.36.0',
], null, 2)};

/** Minors whose gate list is complete: a name in no row and not uncertain there is not registered. */
export const GATE_TABLE_COMPLETE: readonly number[] = ${JSON.stringify(COMPLETE)};

/** Gate dependencies (component-base AddDependencies, 1.35+), each list sorted as AddDependencies sorts it. */
export const GATE_DEPENDENCIES: Readonly<Record<number, Readonly<Record<string, readonly string[]>>>> = {
  35: ${JSON.stringify(deps35)},
};
/** Minors whose dependency map was read (1.36's was not: dependency verdicts there are not certain). */
export const GATE_DEPENDENCIES_VERIFIED: readonly number[] = [35];
`;

if (process.argv.includes('--check')) {
  if (readFileSync(OUT, 'utf8') !== ts) {
    console.error('src/kubelet/data/feature-gates.generated.ts is stale: run node scripts/generate/feature-gates.mjs');
    process.exit(1);
  }
} else {
  writeFileSync(OUT, ts);
  console.log(`wrote ${OUT} (${Object.keys(out).length} gates)`);
}
