import t from 'tap';
import { execFileSync, spawnSync } from 'node:child_process';
import { existsSync, readFileSync } from 'node:fs';
import { SPECIAL_GATES, gatesFor } from '../../../src/kubelet/gates/gate-table.js';
import { MODELLED_MINORS } from '../../../src/kubelet/data/minors.js';
import { GATE_HISTORY, GATE_SOURCES } from '../../../src/kubelet/data/feature-gates.generated.js';
import { OPENSHIFT_KUBELETS } from '../../../src/kubelet/data/openshift-feature-gates.generated.js';

/** Whether every module version the lock names can be read without the network (the Go module cache holds them all). */
function moduleCacheReady(): string | undefined {
  const go = spawnSync('go', ['version'], { encoding: 'utf8' });
  if (go.error || go.status !== 0) return 'the go command is not installed';
  const lock = JSON.parse(readFileSync(new URL('../../../scripts/generate/kubernetes-source.lock.json', import.meta.url), 'utf8')) as {
    minors: Record<string, { kubernetes: { version: string }; staging: Record<string, { version: string; unavailable?: string }> }>;
  };
  const modules = Object.values(lock.minors).flatMap(({ kubernetes, staging }) => [
    `k8s.io/kubernetes@${kubernetes.version}`,
    ...Object.entries(staging).filter(([, pin]) => !pin.unavailable).map(([name, pin]) => `k8s.io/${name}@${pin.version}`),
  ]);
  // One `go mod download` for all: with GOPROXY=off a module not in the cache answers with an Error.
  const r = spawnSync('go', ['mod', 'download', '-json', ...modules], { encoding: 'utf8', maxBuffer: 1 << 26, env: { ...process.env, GOPROXY: 'off', GOFLAGS: '-mod=mod' } });
  const missing = [...r.stdout.matchAll(/"Path": "([^"]+)",\s*"Version": "([^"]+)",\s*"Error"/g)].map(([, path, version]) => `${path}@${version}`);
  if (missing.length > 0) return `${missing[0]} (and ${missing.length - 1} more) not in the Go module cache`;
  if (r.status !== 0) return `go mod download failed: ${(r.stderr || r.stdout).trim().split('\n')[0]}`;
  return undefined;
}

const MICROSHIFT = process.env['MICROSHIFT_GIT_DIR'] || '/work/.mirror/openshift+microshift/repo';

const noModuleCache = moduleCacheReady();
const noMirror = noModuleCache ?? (existsSync(MICROSHIFT) ? undefined : `no openshift/microshift mirror at ${MICROSHIFT} (MICROSHIFT_GIT_DIR)`);

t.test('feature-gates.generated.ts is what scripts/generate/feature-gates.mjs reads from the tagged source', { skip: noModuleCache ? `SKIPPED: ${noModuleCache}; the generator reads kubelet's source from the module cache` : false }, async (t) => {
  const out = execFileSync(process.execPath, ['scripts/generate/feature-gates.mjs', '--check'], { encoding: 'utf8', env: { ...process.env, GOPROXY: 'off' } });
  t.equal(out, '');
});

t.test("openshift-feature-gates.generated.ts is what scripts/generate/feature-gates-openshift.mjs reads from MicroShift's vendored fork", { skip: noMirror ? `SKIPPED: ${noMirror}` : false }, async (t) => {
  const out = execFileSync(process.execPath, ['scripts/generate/feature-gates-openshift.mjs', '--check', '--git-dir', MICROSHIFT], { encoding: 'utf8', env: { ...process.env, GOPROXY: 'off' } });
  t.equal(out, '');
});

t.test('every modelled minor was read from its tag, and OpenShift 4.12-4.23 from the fork', async (t) => {
  for (const minor of MODELLED_MINORS) t.match(GATE_SOURCES[minor], new RegExp(`^v1\\.${minor}\\.\\d+$`), `1.${minor}`);
  const releases = Object.values(OPENSHIFT_KUBELETS).flatMap((k) => k.releases);
  t.same(releases, ['4.12', '4.13', '4.14', '4.15', '4.16', '4.17', '4.18', '4.19', '4.20', '4.21', '4.22', '4.23', '5.0']);
  for (const [minor, fork] of Object.entries(OPENSHIFT_KUBELETS)) t.match(fork.kubernetes, new RegExp(`^v1\\.${minor}\\.\\d+$`));
});

/** The table as it was built before gates were built on lookup: every gate of the minor at once. */
function eagerTable(minor: number): Map<string, unknown> {
  const map = new Map<string, unknown>();
  for (const special of SPECIAL_GATES) map.set(special, { default: false, preRelease: 'Alpha', lockToDefault: false });
  for (const [name, rows] of Object.entries(GATE_HISTORY)) {
    const row = rows.find(([from, to]) => from <= minor && minor <= to);
    if (!row) continue;
    const [, , def, stage, locked, dependencies] = row;
    map.set(name, { default: def === 1, preRelease: stage, lockToDefault: locked === 1, ...(dependencies ? { dependencies } : {}) });
  }
  return map;
}

t.test('gatesFor builds each gate when looked up, as the whole table would hold it, for every minor', async (t) => {
  for (const minor of MODELLED_MINORS) {
    const expected = eagerTable(minor);
    const gates = gatesFor(minor)!;
    // Looked up one by one first (nothing has walked this minor's table yet), then walked.
    for (const name of [...expected.keys(), 'NoSuchGate', 'constructor', '__proto__']) {
      t.same(gates.get(name), expected.get(name), `1.${minor} ${name}`);
      t.equal(gates.has(name), expected.has(name));
    }
    t.equal(gates.size, expected.size, `1.${minor}: as many gates`);
    t.same([...gates.keys()], [...expected.keys()], `1.${minor}: walked in table order`);
    t.same(new Map(gates), expected);
  }
});
