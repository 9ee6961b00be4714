/**
 * Every write path under a read-only, a full or a symlinked
 * destination. Write paths: the fallback lock and files under ROOT/run (apply, revert), the
 * textfile node-check.prom, the launcher's V8 code cache. Expected: exit 1 as documented (the
 * answer, or "fallback FAILED"), a message naming the file, no stack trace, nothing written
 * outside its place, no temp file left, the previous file intact.
 *
 * Read-only and full destinations are real tmpfs mounts (`mount -t tmpfs -o ro` / `-o size=64k`,
 * filled first) in a private mount namespace (`unshare -m`), so nothing leaks to the host.
 */
import t, { type Test } from 'tap';
import { spawn, spawnSync } from 'node:child_process';
import { createServer } from 'node:net';
import { setTimeout as sleep } from 'node:timers/promises';
import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import { brokenAcrNode } from '../helpers/node-root.js';
import { bundle, env, NO_CRASH, repo, runBundle } from './bundle.js';
import { BIN_DIR } from '../helpers/node-root.js';
import { skipLoudly, toolPath } from '../harness/tools.js';
import { serializeFallbackState } from '../../src/fallback/state.js';

const VERSION = ['--kubelet-version', '1.28.7'];
const DROP_IN_DIR = 'run/systemd/system/kubelet.service.d';
const DROP_IN = `${DROP_IN_DIR}/99-node-check-fallback.conf`;

/** Why mounts cannot be made here, or undefined when they can. */
function cannotMount(): string | undefined {
  const unshare = toolPath('unshare');
  if (!unshare || !toolPath('mount')) return 'unshare and mount (util-linux) are needed';
  const probe = spawnSync(unshare, ['-m', '--propagation', 'private', 'sh', '-c', 'mount -t tmpfs -o size=4k tmpfs /mnt']);
  return probe.status === 0 ? undefined : `unshare -m with tmpfs mounts is not permitted here (${String(probe.stderr).trim()})`;
}
const mountProblem = cannotMount();

interface Outcome {
  readonly status: number;
  readonly stdout: string;
  readonly stderr: string;
  /** Every path below the inspected directories after the run, relative, sorted ("dir/" for directories). */
  readonly after: string[];
  /** Contents of the files asked for, after the run. */
  readonly contents: Record<string, string>;
}

/**
 * Runs `setup` (sh, as root) in a private mount namespace, then node-check with `args`, then lists
 * `inspect` (directories) and reads `read` (files), all before the namespace and its mounts go.
 */
function inPrivateMounts(t: Test, setup: string, args: readonly string[], inspect: readonly string[], read: readonly string[] = [], bundlePath = bundle): Outcome {
  const out = fs.mkdtempSync(path.join(os.tmpdir(), 'node-check-mounts-'));
  t.teardown(() => fs.rmSync(out, { recursive: true, force: true }));
  const script = `set -e
${setup}
set +e
"$0" "$@" >"${out}/stdout" 2>"${out}/stderr"; echo $? >"${out}/rc"
for d in ${inspect.map((d) => `"${d}"`).join(' ')}; do [ -d "$d" ] && (cd "$d" && find . -mindepth 1 \\( -type d -printf '%P/\\n' -o -printf '%P\\n' \\)); done | sort >"${out}/after"
i=0; for f in ${read.map((f) => `"${f}"`).join(' ')}; do cat "$f" >"${out}/read.$i" 2>/dev/null || echo '(missing)' >"${out}/read.$i"; i=$((i+1)); done
`;
  const run = spawnSync(toolPath('unshare')!, ['-m', '--propagation', 'private', 'sh', '-c', script, process.execPath, bundlePath, ...args], { encoding: 'utf8', env: { PATH: process.env.PATH ?? '', NODE_CHECK_CONFIG: '' }, timeout: 60_000 });
  if (run.status !== 0) throw new Error(`namespace setup failed: ${run.stderr}`);
  const text = (name: string) => fs.readFileSync(path.join(out, name), 'utf8');
  return {
    status: Number(text('rc')),
    stdout: text('stdout'),
    stderr: text('stderr'),
    after: text('after').split('\n').filter(Boolean),
    contents: Object.fromEntries(read.map((f, i) => [f, text(`read.${i}`)])),
  };
}

const tmpfs = (dir: string, options: string) => `mkdir -p "${dir}"; mount -t tmpfs -o ${options} tmpfs "${dir}"`;
/** Fills a mounted tmpfs to the last block. */
const fill = (dir: string) => `dd if=/dev/zero of="${dir}/.fill" bs=4k 2>/dev/null || true`;
const noTemp = (t: Test, after: readonly string[]) => t.same(after.filter((p) => /\.tmp$|\.stale\./.test(p)), [], 'no temp file left');
const clean = (t: Test, o: Outcome) => t.notMatch(o.stdout + o.stderr, NO_CRASH, 'no stack trace');

t.test('read-only and full destinations (tmpfs in a private mount namespace)', { skip: false }, async (t) => {
  if (mountProblem) return skipLoudly(t, mountProblem);

  t.test('ROOT/run read-only: the lock cannot be taken; apply fails naming it, preflight still answers', async (t) => {
    const root = brokenAcrNode(t.testdir());
    const setup = tmpfs(`${root}/run`, 'ro,size=64k');
    const apply = inPrivateMounts(t, setup, ['fallback', 'apply', '--root', root, ...VERSION], [`${root}/run`]);
    t.equal(apply.status, 1);
    t.match(apply.stderr, `node-check: fallback FAILED, nothing changed: cannot take the lock ${root}/run/node-check/lock: EROFS (read-only file system)`);
    clean(t, apply);
    t.same(apply.after, []);
    const preflight = inPrivateMounts(t, setup, ['preflight', '--fallback', '--root', root, ...VERSION, '--no-journal', '--no-metrics'], [`${root}/run`]);
    t.equal(preflight.status, 1, 'the answer, without the fallback');
    t.match(preflight.stderr, `node-check: fallback not evaluated: cannot take the lock ${root}/run/node-check/lock: EROFS`);
    clean(t, preflight);
  });

  t.test('ROOT/run full: no empty lock or directory left; a revert leaves the record as it was', async (t) => {
    const root = brokenAcrNode(t.testdir());
    const apply = inPrivateMounts(t, `${tmpfs(`${root}/run`, 'size=64k')}\n${fill(`${root}/run`)}`, ['fallback', 'apply', '--root', root, ...VERSION], [`${root}/run`]);
    t.equal(apply.status, 1);
    t.match(apply.stderr, `cannot take the lock ${root}/run/node-check/lock: ENOSPC (no space left on device)`);
    clean(t, apply);
    t.same(apply.after, ['.fill'], 'no empty lock file, no node-check directory');

    const record = serializeFallbackState({ since: '2026-03-01T10:00:00.000Z', reason: 'test', removedProviders: ['acr-credential-provider'], dropInPath: `/${DROP_IN}`, unit: 'kubelet.service' });
    const setup = `${tmpfs(`${root}/run`, 'size=64k')}\nmkdir -p "${root}/run/node-check"; printf '%s' '${record}' >"${root}/run/node-check/fallback.json"\n${fill(`${root}/run`)}`;
    const revert = inPrivateMounts(t, setup, ['fallback', 'revert', '--root', root, ...VERSION], [`${root}/run`], [`${root}/run/node-check/fallback.json`]);
    t.equal(revert.status, 1);
    t.match(revert.stderr, /cannot take the lock .*ENOSPC/);
    t.equal(revert.contents[`${root}/run/node-check/fallback.json`], record, 'the record is intact');
    noTemp(t, revert.after);
  });

  for (const [kind, options, errno] of [['read-only', 'ro,size=64k', 'EROFS'], ['full', 'size=64k', 'ENOSPC']] as const) {
    t.test(`ROOT/run/systemd/system ${kind}: apply FAILED naming the drop-in, no temp file, the old drop-in intact`, async (t) => {
      const root = brokenAcrNode(t.testdir());
      const old = '# an older node-check fallback drop-in\n[Service]\n';
      const unitDir = `${root}/run/systemd/system`;
      // The old drop-in is written before the mount is made read-only or filled.
      const setup = `${tmpfs(unitDir, 'size=64k')}\nmkdir -p "${root}/${DROP_IN_DIR}"; printf '%s' '${old}' >"${root}/${DROP_IN}"\n${kind === 'full' ? fill(unitDir) : `mount -o remount,ro "${unitDir}"`}`;
      const apply = inPrivateMounts(t, setup, ['fallback', 'apply', '--root', root, ...VERSION], [`${root}/run`], [`${root}/${DROP_IN}`]);
      t.equal(apply.status, 1);
      t.match(apply.stdout, /fallback apply FAILED, not completed/);
      t.match(apply.stdout, new RegExp(`error: writing /${DROP_IN}: ${errno} \\(`));
      t.notMatch(apply.stdout, /proc\/self\/fd/, 'the message names the file, not a descriptor');
      clean(t, apply);
      noTemp(t, apply.after);
      t.notOk(apply.after.includes('node-check/lock'), 'the lock is released');
      t.equal(apply.contents[`${root}/${DROP_IN}`], old, 'the previous drop-in is intact');
    });
  }

  for (const [kind, options, errno] of [['read-only', 'ro,size=64k', 'EROFS'], ['full', 'size=64k', 'ENOSPC']] as const) {
    t.test(`textfile directory ${kind}: the answer stands, the file is named, the previous node-check.prom intact`, async (t) => {
      const base = t.testdir();
      const root = brokenAcrNode(path.join(base, 'root'));
      const dir = path.join(base, 'textfile_collector');
      const setup = `${tmpfs(dir, 'size=64k')}\nprintf 'old 1\\n' >"${dir}/node-check.prom"\n${kind === 'full' ? fill(dir) : `mount -o remount,ro "${dir}"`}`;
      const run = inPrivateMounts(t, setup, ['preflight', '--root', root, ...VERSION, '--no-journal', '--textfile-dir', dir], [dir], [`${dir}/node-check.prom`]);
      t.equal(run.status, 1, 'the answer');
      t.match(run.stderr, `node-check: metrics: cannot write ${dir}/node-check.prom: ${errno} (`);
      t.notMatch(run.stderr, /proc\/self\/fd/);
      clean(t, run);
      noTemp(t, run.after);
      t.equal(run.contents[`${dir}/node-check.prom`], 'old 1\n');
    });
  }

  for (const [kind, finish] of [['read-only', (dir: string) => `mount -o remount,ro "${dir}"`], ['full', fill]] as const) {
    t.test(`the launcher's V8 cache directory ${kind}: the command runs, no temp file is left`, async (t) => {
      const dir = path.join(t.testdir(), 'dist');
      const setup = `${tmpfs(dir, 'size=2m,mode=0755')}\ncp "${repo}/dist/node-check.cjs" "${repo}/dist/node-check.bundle.cjs" "${dir}/"\n${finish(dir)}`;
      // A command that compiles the bundle (--version is answered by the launcher alone: no cache).
      const run = inPrivateMounts(t, setup, ['explain', 'plugin-binary-missing'], [dir], [], path.join(dir, 'node-check.cjs'));
      t.equal(run.status, 0, run.stderr);
      t.match(run.stdout, /plugin-binary-missing/);
      t.same(run.after.filter((p) => !p.startsWith('.fill')).sort(), ['node-check.bundle.cjs', 'node-check.cjs'], 'no cache, no temp file');
    });
  }
});

t.test('symlinked destinations: nothing is written through them', async (t) => {
  t.test('ROOT/run/node-check as a symlink: apply FAILED naming it, the target untouched', async (t) => {
    const base = t.testdir({ elsewhere: {} });
    const root = brokenAcrNode(path.join(base, 'root'), { '/run': null });
    fs.symlinkSync(path.join(base, 'elsewhere'), path.join(root, 'run/node-check'));
    const apply = runBundle(['fallback', 'apply', '--root', root, ...VERSION]);
    t.equal(apply.status, 1);
    t.match(apply.stderr, `cannot take the lock ${root}/run/node-check/lock: ${root}/run/node-check is a symlink, not a plain directory`);
    t.notMatch(apply.stdout + apply.stderr, NO_CRASH);
    t.same(fs.readdirSync(path.join(base, 'elsewhere')), []);
  });

  t.test("the launcher's cache file as a symlink: replaced, never written through", async (t) => {
    const base = t.testdir({ target: 'precious\n' });
    const dir = path.join(base, 'dist');
    fs.mkdirSync(dir);
    for (const name of ['node-check.cjs', 'node-check.bundle.cjs']) fs.copyFileSync(path.join(repo, 'dist', name), path.join(dir, name));
    // The cache file's name, from the launcher's own pattern, for this command (explain; --version
    // is answered by the launcher alone, without a cache).
    const id = /const BUNDLE_ID = '([^']+)'/.exec(fs.readFileSync(path.join(dir, 'node-check.cjs'), 'utf8'))![1];
    const cache = path.join(dir, `node-check.${id}.explain.${process.version}-${process.arch}.v8cache`);
    fs.symlinkSync(path.join(base, 'target'), cache);
    const run = spawnSync(process.execPath, [path.join(dir, 'node-check.cjs'), 'explain', 'plugin-binary-missing'], { encoding: 'utf8' });
    t.equal(run.status, 0);
    t.equal(fs.readFileSync(path.join(base, 'target'), 'utf8'), 'precious\n', 'the link target is untouched');
    t.notOk(fs.lstatSync(cache).isSymbolicLink(), 'the link was replaced by a cache file of our own');
    t.same(fs.readdirSync(dir).filter((n) => n.endsWith('.tmp')), []);
  });
});

t.test('serve --auto-restore when the revert cannot take the lock: the check keeps its answer', async (t) => {
  const root = brokenAcrNode(t.testdir());
  t.equal(runBundle(['fallback', 'apply', '--root', root, ...VERSION]).status, 0);
  // The record stays readable (the link resolves inside the root), but no lock goes through a link.
  fs.renameSync(path.join(root, 'run/node-check'), path.join(root, 'run/node-check.real'));
  fs.symlinkSync('node-check.real', path.join(root, 'run/node-check'));
  fs.writeFileSync(path.join(root, BIN_DIR, 'acr-credential-provider'), '#!/bin/sh\n', { mode: 0o755 });
  const port = await new Promise<number>((resolve) => {
    const server = createServer().listen(0, '127.0.0.1', () => {
      const { port } = server.address() as { port: number };
      server.close(() => resolve(port));
    });
  });
  const child = spawn(process.execPath, [bundle, 'serve', '--root', root, ...VERSION, '--no-journal', '--auto-restore', '--listen', `127.0.0.1:${port}`, '--interval', '1'], { env, stdio: ['ignore', 'pipe', 'pipe'] });
  let stderr = '';
  child.stderr.on('data', (chunk) => (stderr += chunk));
  t.teardown(() => child.kill('SIGKILL'));
  let status = 0;
  for (let i = 0; i < 50 && status !== 200; i++) {
    await sleep(100);
    status = await fetch(`http://127.0.0.1:${port}/metrics`).then((r) => r.status, () => 0);
  }
  t.equal(status, 200, `metrics are served; stderr: ${stderr}`);
  t.match(stderr, `node-check: fallback not restored: cannot take the lock ${root}/run/node-check/lock: ${root}/run/node-check is a symlink`);
  t.notMatch(stderr, /check failed/);
  t.notMatch(stderr, NO_CRASH);
});
