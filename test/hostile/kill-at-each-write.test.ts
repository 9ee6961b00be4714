/**
 * A kill (SIGKILL, as a power cut or the OOM killer) at each write step
 * of `fallback apply`, `fallback revert`, the textfile write and the launcher's V8 cache. The steps are the kill points the
 * process itself names (NODE_CHECK_TEST_KILL_AT=list, src/host/kill-points.ts), so a new write
 * step is covered without editing this test. After each kill, what systemd and node_exporter see
 * is the old state or the new one, never a mix (no drop-in pointing at a missing or partial
 * config, no partial node-check.prom); the next run removes the temp files and the stale lock and
 * ends exactly where an uninterrupted run ends.
 */
import t from 'tap';
import { spawnSync } from 'node:child_process';
import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import { BIN_DIR, brokenAcrNode, ACR_CONFIG, CONFIG } from '../helpers/node-root.js';
import { bundle, env, NO_CRASH, repo } from './bundle.js';

const VERSION = ['--kubelet-version', '1.28.7'];
const DROP_IN = 'run/systemd/system/kubelet.service.d/99-node-check-fallback.conf';
const FILTERED = 'run/node-check/credential-providers/kubelet.service.yaml';

/** Two providers, one whose plugin is missing: the fallback writes a record, a filtered config and a drop-in. */
function twoProviderNode(root: string): string {
  const ecr = `  - name: ecr-credential-provider\n    apiVersion: credentialprovider.kubelet.k8s.io/v1\n    defaultCacheDuration: "12h"\n    matchImages:\n      - "*.dkr.ecr.*.amazonaws.com"\n`;
  brokenAcrNode(root, { [CONFIG]: ACR_CONFIG + ecr });
  fs.writeFileSync(path.join(root, BIN_DIR, 'ecr-credential-provider'), '#!/bin/sh\n', { mode: 0o755 });
  return root;
}

/**
 * Output goes to files, not pipes: a killed preflight's watchdog (a sleeping sh, src/cli/watchdog.ts)
 * holds its stderr until the budget ends, and a pipe would make every kill cost the budget.
 */
function run(args: readonly string[], killAt?: string, script = bundle) {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'node-check-kill-'));
  try {
    const [out, err] = [fs.openSync(path.join(dir, 'out'), 'w'), fs.openSync(path.join(dir, 'err'), 'w')];
    const result = spawnSync(process.execPath, [script, ...args], { stdio: ['ignore', out, err], env: { ...env, ...(killAt ? { NODE_CHECK_TEST_KILL_AT: killAt } : {}) }, timeout: 60_000 });
    fs.closeSync(out);
    fs.closeSync(err);
    return { status: result.status, signal: result.signal, stdout: fs.readFileSync(path.join(dir, 'out'), 'utf8'), stderr: fs.readFileSync(path.join(dir, 'err'), 'utf8') };
  } finally {
    fs.rmSync(dir, { recursive: true, force: true });
  }
}

/** Times, digests and metric values differ between runs of the same command. */
const comparable = (text: string) => text.replace(/\d{4}-\d\d-\d\dT[\d:.]+Z/g, 'TIME').replace(/[0-9a-f]{64}/g, 'DIGEST').replace(/^(nodecheck_[^ ]+) [\d.e+-]+$/gm, '$1 N');

/** Every file under `dir` with its content made comparable. */
function snapshot(dir: string): Record<string, string> {
  const out: Record<string, string> = {};
  if (!fs.existsSync(dir)) return out;
  for (const entry of fs.readdirSync(dir, { recursive: true }).map(String).sort()) {
    const full = path.join(dir, entry);
    const st = fs.lstatSync(full);
    out[entry] = st.isDirectory() ? '(dir)' : comparable(fs.readFileSync(full, 'utf8'));
  }
  return out;
}

/** What systemd would run: the drop-in and, when it names it, the filtered config. */
function effective(root: string): string {
  const read = (p: string) => (fs.existsSync(path.join(root, p)) ? fs.readFileSync(path.join(root, p), 'utf8') : null);
  const dropIn = read(DROP_IN)?.replace(/\d{4}-\d\d-\d\dT[\d:.]+Z/g, 'TIME') ?? null;
  return JSON.stringify({ dropIn, config: dropIn?.includes(`/${FILTERED}`) ? read(FILTERED) : undefined });
}

function killPoints(args: readonly string[], prepare: () => void, script?: string): string[] {
  prepare();
  return [...run(args, 'list', script).stderr.matchAll(/^node-check-kill-point: (.+)$/gm)].map((m) => m[1]!);
}

interface Scenario {
  readonly name: string;
  readonly args: (root: string, base: string) => string[];
  readonly status: number;
  /** Brings `base` (root in base/root) to the state before the command. */
  readonly prepare: (base: string) => void;
  readonly expected: readonly string[];
  /** The directory whose whole content the command owns. */
  readonly owned: (base: string) => string;
  /** What a reader sees, to compare with the old and the new state. */
  readonly seen: (base: string) => string;
  /** The node-check to run, when not the built one. */
  readonly script?: (base: string) => string;
  /** The owned directory as compared after the next run (default: snapshot). */
  readonly snapshot?: (dir: string) => unknown;
}

const root = (base: string) => path.join(base, 'root');
const textfiles = (base: string) => path.join(base, 'textfile_collector');
const scenarios: Scenario[] = [
  {
    name: 'fallback apply',
    args: (r) => ['fallback', 'apply', '--root', r, ...VERSION],
    status: 0,
    prepare: (base) => void twoProviderNode(root(base)),
    expected: ['lock:created', 'lock:held', 'write:fallback.json:temp-written', 'write:kubelet.service.yaml:renamed', 'write:99-node-check-fallback.conf:temp-created'],
    owned: (base) => path.join(root(base), 'run'),
    seen: (base) => effective(root(base)),
  },
  {
    name: 'fallback revert',
    args: (r) => ['fallback', 'revert', '--root', r, ...VERSION],
    status: 0,
    prepare: (base) => {
      twoProviderNode(root(base));
      if (run(['fallback', 'apply', '--root', root(base), ...VERSION]).status !== 0) throw new Error('apply failed');
    },
    expected: ['lock:held', 'remove:99-node-check-fallback.conf', 'remove:kubelet.service.yaml', 'remove:fallback.json'],
    owned: (base) => path.join(root(base), 'run'),
    seen: (base) => effective(root(base)),
  },
  {
    name: 'preflight textfile',
    args: (r, base) => ['preflight', '--root', r, ...VERSION, '--no-journal', '--textfile-dir', textfiles(base)],
    status: 1,
    prepare: (base) => {
      brokenAcrNode(root(base));
      fs.mkdirSync(textfiles(base), { recursive: true });
      fs.writeFileSync(path.join(textfiles(base), 'node-check.prom'), 'old 1\n');
    },
    expected: ['write:node-check.prom:temp-created', 'write:node-check.prom:temp-written', 'write:node-check.prom:renamed'],
    owned: (base) => textfiles(base),
    // Numbers (timestamps, durations) differ between runs; the lines must all be there.
    seen: (base) => comparable(fs.readFileSync(path.join(textfiles(base), 'node-check.prom'), 'utf8')),
  },
  {
    // The launcher's V8 code cache (binary, and not byte-for-byte the same on every run): names only.
    name: "the launcher's V8 cache",
    // A command that compiles the bundle (--version is answered by the launcher alone: no cache).
    args: () => ['explain', 'plugin-binary-missing'],
    status: 0,
    prepare: (base) => {
      fs.mkdirSync(path.join(base, 'dist'));
      for (const name of ['node-check.cjs', 'node-check.bundle.cjs']) fs.copyFileSync(path.join(repo, 'dist', name), path.join(base, 'dist', name));
    },
    expected: ['write:v8cache:temp-created', 'write:v8cache:temp-written', 'write:v8cache:renamed'],
    owned: (base) => path.join(base, 'dist'),
    seen: (base) => fs.readdirSync(path.join(base, 'dist')).filter((n) => n.endsWith('.v8cache')).join(),
    script: (base) => path.join(base, 'dist', 'node-check.cjs'),
    snapshot: (dir) => fs.readdirSync(dir).sort(),
  },
];

for (const scenario of scenarios) {
  t.test(`${scenario.name}: killed at each write step, old or new state, and the next run recovers`, async (t) => {
    const fresh = () => {
      const base = fs.mkdtempSync(path.join(t.testdirName + '-'));
      t.teardown(() => fs.rmSync(base, { recursive: true, force: true }));
      return base;
    };
    fs.mkdirSync(path.dirname(t.testdirName), { recursive: true });
    const reference = fresh();
    scenario.prepare(reference);
    const old = scenario.seen(reference);
    const script = (base: string) => scenario.script?.(base);
    const snap = scenario.snapshot ?? snapshot;
    const done = run(scenario.args(root(reference), reference), undefined, script(reference));
    t.equal(done.status, scenario.status, done.stderr);
    const finished = snap(scenario.owned(reference));
    const newState = scenario.seen(reference);
    t.not(newState, old, 'the command changes what is seen');

    const listed = fresh();
    const points = killPoints(scenario.args(root(listed), listed), () => scenario.prepare(listed), script(listed));
    for (const name of scenario.expected) t.ok(points.includes(name), `kill point ${name} is reached`);

    for (const point of points) {
      const base = fresh();
      scenario.prepare(base);
      const killed = run(scenario.args(root(base), base), point, script(base));
      t.equal(killed.signal, 'SIGKILL', `${point}: the process was killed there`);
      const seen = scenario.seen(base);
      t.ok(seen === old || seen === newState, `${point}: what is seen is the old or the new state`);
      const again = run(scenario.args(root(base), base), undefined, script(base));
      t.equal(again.status, scenario.status, `${point}: the next run ends as an uninterrupted one`);
      t.notMatch(again.stdout + again.stderr, NO_CRASH);
      t.same(snap(scenario.owned(base)), finished, `${point}: no temp file, no stale lock, the same files as without the kill`);
    }
  });
}
