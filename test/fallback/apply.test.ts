import t from 'tap';
import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import { applyPlan, applySteps, fallbackSteps } from '../../src/fallback/apply.js';
import type { FallbackPlan } from '../../src/fallback/plan.js';
import { planRevert } from '../../src/fallback/revert-plan.js';
import { fallbackDigest, readFallbackState, serializeFallbackState, type FallbackState } from '../../src/fallback/state.js';
import { RootFs } from '../../src/host/root-fs.js';

const DROP_IN = '/run/systemd/system/kubelet.service.d/99-node-check-fallback.conf';
const FILTERED = '/run/node-check/credential-providers/kubelet.service.yaml';
const STATE = '/run/node-check/fallback.json';

function tempRoot(t: { teardown: (fn: () => void) => void }): string {
  const root = fs.mkdtempSync(path.join(os.tmpdir(), 'node-check-fallback-'));
  t.teardown(() => fs.rmSync(root, { recursive: true, force: true }));
  return root;
}

/** Every file and directory under root, as node paths. */
function tree(root: string): string[] {
  const out: string[] = [];
  const walk = (dir: string) => {
    for (const entry of fs.readdirSync(dir, { withFileTypes: true })) {
      const full = path.join(dir, entry.name);
      out.push(`/${path.relative(root, full)}${entry.isDirectory() ? '/' : ''}`);
      if (entry.isDirectory()) walk(full);
    }
  };
  walk(root);
  return out.sort();
}

/** A plan as plan.ts would make it for a filtered config (content is not the point here). */
function applyPlanFor(): FallbackPlan {
  const dropIn = `# node-check fallback for kubelet.service, active since 2026-03-01T10:00:00.000Z.\n# Removed credential providers: acr-credential-provider\n[Service]\nExecStart=\nExecStart=/usr/bin/kubelet --image-credential-provider-config=${FILTERED}\n`;
  const filtered = 'apiVersion: kubelet.config.k8s.io/v1\nkind: CredentialProviderConfig\nproviders: []\n';
  const written = [{ path: FILTERED, content: filtered, mode: 0o644 }, { path: DROP_IN, content: dropIn, mode: 0o644 }];
  const state: FallbackState = {
    since: '2026-03-01T10:00:00.000Z',
    reason: 'test',
    removedProviders: ['acr-credential-provider'],
    dropInPath: DROP_IN,
    filteredConfigPath: FILTERED,
    unit: 'kubelet.service',
    digest: fallbackDigest(written),
  };
  return {
    action: 'apply',
    reason: 'test',
    writes: [{ path: STATE, content: serializeFallbackState(state), mode: 0o644 }, ...written],
    removes: [],
    removedProviders: ['acr-credential-provider'],
    keptProviders: [],
    state,
    unit: 'kubelet.service',
  };
}

const options = (root: string) => ({ root, reload: true, timeoutMs: 1000 });

t.test('apply writes the files under the root only, with their modes; a second apply changes nothing', async (t) => {
  const root = tempRoot(t);
  const plan = applyPlanFor();
  const first = await applyPlan(plan, options(root));
  t.same(first, { action: 'apply', ok: true, changed: [STATE, FILTERED, DROP_IN], reloaded: false, problems: [] }, 'no daemon-reload outside the live root');
  for (const w of plan.writes) {
    t.equal(fs.readFileSync(path.join(root, w.path), 'utf8'), w.content);
    t.equal(fs.statSync(path.join(root, w.path)).mode & 0o7777, 0o644);
  }
  t.notOk(tree(root).some((p) => p.endsWith('.tmp')), 'no temp file is left');
  t.ok(tree(root).every((p) => p.startsWith('/run/')), 'nothing outside /run');

  const reading = readFallbackState(new RootFs(root));
  t.same([reading.active, reading.intact, reading.problems], [true, true, []]);

  const again = await applyPlan(plan, options(root));
  t.same(again.changed, [], 'idempotent');
});

t.test('revert removes everything it wrote, including the directories, and is idempotent', async (t) => {
  const root = tempRoot(t);
  await applyPlan(applyPlanFor(), options(root));
  const revert = planRevert({ unit: 'kubelet.service', existing: applyPlanFor().state! });
  const done = await applyPlan(revert, options(root));
  t.ok(done.ok);
  t.same(done.changed, [DROP_IN, FILTERED, '/run/node-check/credential-providers', '/run/systemd/system/kubelet.service.d', STATE]);
  t.same(tree(root), ['/run/', '/run/node-check/', '/run/systemd/', '/run/systemd/system/'], 'only directories that are not the fallback\'s own remain');
  const again = await applyPlan(revert, options(root));
  t.same([again.ok, again.changed], [true, []]);
});

t.test('revert leaves files it does not own, and non-empty directories', async (t) => {
  const root = tempRoot(t);
  await applyPlan(applyPlanFor(), options(root));
  const other = path.join(root, 'run/systemd/system/kubelet.service.d/20-nodenet.conf');
  fs.writeFileSync(other, '[Service]\nEnvironment=KUBELET_NODE_IP=10.0.0.1\n');
  await applyPlan(planRevert({ unit: 'kubelet.service' }), options(root));
  t.ok(fs.existsSync(other));
  t.notOk(fs.existsSync(path.join(root, DROP_IN)));
});

t.test('nothing outside /run is ever written, and no step runs when one path is bad', async (t) => {
  const root = tempRoot(t);
  for (const bad of ['/etc/kubernetes/kubelet.conf', '/run/../etc/passwd', 'run/x', '/run', '/runx/y', '/run/a//b']) {
    const result = applySteps([{ kind: 'write', path: '/run/node-check/ok', content: 'x', mode: 0o644 }, { kind: 'write', path: bad, content: 'x', mode: 0o644 }], root);
    t.match(result.problem, /refusing to touch/, bad);
  }
  t.same(tree(root), [], 'not even the good write happened');
  const viaPlan = await applyPlan({ ...applyPlanFor(), removes: ['/etc/kubernetes/kubelet.conf'] }, options(root));
  t.equal(viaPlan.ok, false);
  t.same(tree(root), []);
});

t.test('a symlink on the way is refused (a planted link must not redirect a write)', async (t) => {
  const root = tempRoot(t);
  const elsewhere = path.join(root, 'etc');
  fs.mkdirSync(elsewhere);
  fs.mkdirSync(path.join(root, 'run'));
  fs.symlinkSync(elsewhere, path.join(root, 'run/node-check'));
  const result = applySteps([{ kind: 'write', path: STATE, content: '{}', mode: 0o644 }], root);
  t.match(result.problem, /not a plain directory/);
  t.same(fs.readdirSync(elsewhere), []);
});

t.test('crash safety: stopping after any step leaves a consistent node', async (t) => {
  const apply = applyPlanFor();
  const revert = planRevert({ unit: 'kubelet.service', existing: apply.state! });
  const check = (t: Pick<typeof import('tap').default, 'ok' | 'equal'>, root: string, label: string) => {
    const exists = (p: string) => fs.existsSync(path.join(root, p));
    if (exists(DROP_IN)) {
      const dropIn = fs.readFileSync(path.join(root, DROP_IN), 'utf8');
      if (dropIn.includes(FILTERED)) t.ok(exists(FILTERED), `${label}: the drop-in never points to a missing config`);
    }
    if (exists(DROP_IN) || exists(FILTERED)) t.ok(exists(STATE), `${label}: any fallback file is recorded`);
    const reading = readFallbackState(new RootFs(root));
    t.equal(reading.active, exists(DROP_IN), `${label}: the record tells whether the drop-in is in effect`);
    t.ok(tree(root).every((p) => !p.endsWith('.tmp')), `${label}: no temp files`);
  };

  const applySteps_ = fallbackSteps(apply);
  for (let k = 0; k <= applySteps_.length; k++) {
    const root = tempRoot(t);
    t.same(applySteps(applySteps_.slice(0, k), root).problem, undefined);
    check(t, root, `apply stopped after ${k} step(s)`);
    // The next run completes whichever way it goes.
    await applyPlan(apply, options(root));
    t.ok(readFallbackState(new RootFs(root)).intact, `apply after ${k}: finished`);
  }

  const revertSteps = fallbackSteps(revert);
  for (let k = 0; k <= revertSteps.length; k++) {
    const root = tempRoot(t);
    await applyPlan(apply, options(root));
    applySteps(revertSteps.slice(0, k), root);
    check(t, root, `revert stopped after ${k} step(s)`);
    await applyPlan(planRevert({ unit: 'kubelet.service', ...(readFallbackState(new RootFs(root)).state ? { existing: readFallbackState(new RootFs(root)).state! } : {}) }), options(root));
    t.same(tree(root).filter((p) => !p.endsWith('/')), [], `revert after ${k}: nothing left`);
  }
});

t.test('refuse and none touch nothing', async (t) => {
  const root = tempRoot(t);
  const base = { reason: 'x', writes: [], removes: [], removedProviders: [], keptProviders: [], unit: 'kubelet.service' };
  t.same(await applyPlan({ ...base, action: 'refuse', refusal: 'undecidable' }, options(root)), { action: 'refuse', ok: true, changed: [], reloaded: false, problems: [] });
  t.same((await applyPlan({ ...base, action: 'none' }, options(root))).changed, []);
  t.same(tree(root), []);
});
