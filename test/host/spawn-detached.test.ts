/** The watchdog's child, through libuv's process handle and through child_process alike. */
import t from 'tap';
import { spawnSync } from 'node:child_process';
import { existsSync, readFileSync, readlinkSync } from 'node:fs';
import * as path from 'node:path';
import { bundle, repo } from '../hostile/bundle.js';
import { withoutCoverage } from '../harness/no-coverage.js';
import { spawnDetached, spawnThroughChildProcess, spawnThroughProcessWrap, type DetachedSpawn } from '../../src/host/spawn-detached.js';


/** Writes what it sees of itself to $1, then sleeps until killed. */
const REPORT = 'printf "%s\\n" "pid=$$" "pgid=$(ps -o pgid= -p $$ | tr -d " ")" "fd0=$(readlink /proc/$$/fd/0)" "fd1=$(readlink /proc/$$/fd/1)" "fd2=$(readlink /proc/$$/fd/2)" > "$1.tmp"; env -0 > "$1.env"; mv "$1.tmp" "$1"; exec sleep 30';

async function until(condition: () => boolean, ms = 5000): Promise<boolean> {
  const end = Date.now() + ms;
  while (!condition()) {
    if (Date.now() > end) return false;
    await new Promise((r) => setTimeout(r, 20));
  }
  return true;
}

const ways: [string, (spawn: DetachedSpawn) => ReturnType<typeof spawnDetached>][] = [
  ['process_wrap', spawnThroughProcessWrap],
  ['child_process', spawnThroughChildProcess],
  ['spawnDetached', spawnDetached],
];

for (const [name, spawn] of ways) {
  t.test(`${name}: own process group, /dev/null in and out, our stderr, exactly the given environment`, async (t) => {
    const report = path.join(t.testdir(), 'report');
    const child = spawn({ file: '/bin/sh', argv: ['/bin/sh', '-c', REPORT, 'reporter', report], env: { PATH: '/usr/bin:/bin', NODE_CHECK_X: 'a b' } });
    t.ok(child, 'started');
    if (!child) return;
    t.ok(await until(() => existsSync(report)), 'the child ran');
    const seen = Object.fromEntries(readFileSync(report, 'utf8').trim().split('\n').map((line) => [line.slice(0, line.indexOf('=')), line.slice(line.indexOf('=') + 1)]));
    t.equal(seen['pid'], String(child.pid));
    t.equal(seen['pgid'], String(child.pid), 'leads its own process group');
    t.equal(seen['fd0'], '/dev/null');
    t.equal(seen['fd1'], '/dev/null');
    t.equal(seen['fd2'], readlinkSync('/proc/self/fd/2'), 'shares our stderr');
    // tap's coverage hook adds its own variables to child_process children: not ours to judge.
    const names = readFileSync(`${report}.env`, 'utf8').split('\0').map((line) => line.slice(0, line.indexOf('='))).filter((n) => n !== '' && n !== 'NODE_OPTIONS' && !n.startsWith('_TAPJS_'));
    t.same(names.filter((n) => !['PWD', 'SHLVL', '_'].includes(n)).sort(), ['NODE_CHECK_X', 'PATH'], 'only the environment given (and what sh adds)');
    t.ok(readFileSync(`${report}.env`, 'utf8').split('\0').includes('NODE_CHECK_X=a b'));
    t.equal(child.exited(), false);
    process.kill(-child.pid, 'SIGKILL');
    t.ok(await until(() => child.exited()), 'its exit is noticed');
  });

  t.test(`${name}: a file that cannot be run starts nothing, without throwing`, async (t) => {
    const child = spawn({ file: '/nonexistent/node-check-test', argv: ['x'], env: {} });
    if (child === undefined) t.pass('nothing started');
    else t.ok(await until(() => child.exited()), 'or it ended at once (child_process reports ENOENT later)');
  });
}

t.test('under --pending-deprecation, preflight (which arms the watchdog) prints no DEP0111 warning on stderr (the journal)', async (t) => {
  // Through the shipped bundle: tap's own TypeScript loader calls process.binding() and warns by itself.
  const demo = path.join(repo, 'examples/ocp-4.16-azure-rhel8-worker');
  // Without tap's process hook, whose preload warns too.
  const run = spawnSync(...withoutCoverage(process.execPath, ['--pending-deprecation', bundle, 'preflight', '--root', demo, '--kubelet-version', '1.29.5', '--no-journal', '--no-metrics']), { encoding: 'utf8', env: { PATH: process.env.PATH ?? '', NODE_CHECK_CONFIG: '' } });
  t.equal(run.status, 1, 'answered (the demo node will not start)');
  t.notMatch(run.stderr, /DEP0111|DeprecationWarning/);
  const control = spawnSync(...withoutCoverage(process.execPath, ['--pending-deprecation', '-e', "process.binding('util')"]), { encoding: 'utf8' });
  t.match(control.stderr, /DEP0111/, 'the flag is in force: a plain process.binding() call warns');
});
