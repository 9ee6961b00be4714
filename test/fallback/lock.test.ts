import t from 'tap';
import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import { spawn } from 'node:child_process';
import { once } from 'node:events';
import { LockBusyError, processStartTime, withLock } from '../../src/fallback/lock.js';

const LOCK = 'run/node-check/lock';

function tempRoot(t: { teardown: (fn: () => void) => void }): string {
  const root = fs.mkdtempSync(path.join(os.tmpdir(), 'node-check-lock-'));
  t.teardown(() => fs.rmSync(root, { recursive: true, force: true }));
  return root;
}

function plantLock(root: string, holder: Record<string, unknown> | string, mtime?: Date): void {
  const file = path.join(root, LOCK);
  fs.mkdirSync(path.dirname(file), { recursive: true });
  fs.writeFileSync(file, typeof holder === 'string' ? holder : JSON.stringify(holder));
  if (mtime) fs.utimesSync(file, mtime, mtime);
}

/** A process that lives until killed. */
async function liveProcess(t: { teardown: (fn: () => void) => void }) {
  const child = spawn('sleep', ['60'], { stdio: 'ignore' });
  await once(child, 'spawn');
  t.teardown(() => child.kill());
  return child;
}

const fast = { waitMs: 300, pollMs: 20 };

t.test('callers take turns, and the lock is gone afterwards (with its empty directory)', async (t) => {
  const root = tempRoot(t);
  let inside = 0;
  let overlapped = false;
  const work = async () => {
    inside++;
    if (inside > 1) overlapped = true;
    t.ok(fs.existsSync(path.join(root, LOCK)), 'the lock file exists while held');
    await new Promise((r) => setTimeout(r, 10));
    inside--;
  };
  await Promise.all([withLock(root, work), withLock(root, work), withLock(root, work)]);
  t.notOk(overlapped);
  t.notOk(fs.existsSync(path.join(root, 'run/node-check')));
});

t.test('the holder is recorded with pid and process start time', async (t) => {
  const root = tempRoot(t);
  await withLock(root, () => {
    const holder = JSON.parse(fs.readFileSync(path.join(root, LOCK), 'utf8'));
    t.equal(holder.pid, process.pid);
    t.equal(holder.startTime, processStartTime(process.pid));
    t.match(holder.createdAt, /^\d{4}-\d\d-\d\dT/);
  });
});

t.test('an error inside still releases the lock', async (t) => {
  const root = tempRoot(t);
  await t.rejects(withLock(root, () => { throw new Error('boom'); }), /boom/);
  t.notOk(fs.existsSync(path.join(root, LOCK)));
  t.equal(await withLock(root, () => 42), 42);
});

t.test('a lock held by a live process makes others wait, then give up', async (t) => {
  const root = tempRoot(t);
  const child = await liveProcess(t);
  plantLock(root, { pid: child.pid, startTime: processStartTime(child.pid!), createdAt: new Date().toISOString(), token: 'x' });
  let ran = false;
  const error = await withLock(root, () => { ran = true; }, fast).catch((e: unknown) => e);
  t.type(error, LockBusyError);
  t.equal((error as LockBusyError).holder?.pid, child.pid);
  t.notOk(ran);
  t.ok(fs.existsSync(path.join(root, LOCK)), 'the holder\'s lock is untouched');
});

t.test('stale locks are recovered', async (t) => {
  t.test('the holder is gone', async (t) => {
    const root = tempRoot(t);
    const child = spawn('true', { stdio: 'ignore' });
    await once(child, 'exit');
    plantLock(root, { pid: child.pid, startTime: '1', createdAt: new Date().toISOString(), token: 'x' });
    t.equal(await withLock(root, () => 'ran', fast), 'ran');
  });

  t.test('the pid now belongs to another process (start time differs)', async (t) => {
    const root = tempRoot(t);
    plantLock(root, { pid: process.pid, startTime: 'not-' + processStartTime(process.pid), createdAt: new Date().toISOString(), token: 'x' });
    t.equal(await withLock(root, () => 'ran', fast), 'ran');
  });

  t.test('older than the bound, even if the process lives', async (t) => {
    const root = tempRoot(t);
    const child = await liveProcess(t);
    plantLock(root, { pid: child.pid, startTime: processStartTime(child.pid!), createdAt: new Date(Date.now() - 60_000).toISOString(), token: 'x' });
    t.equal(await withLock(root, () => 'ran', { ...fast, staleAfterMs: 30_000 }), 'ran');
  });

  t.test('unreadable and old; but an unreadable fresh one is waited for (it may be half-written)', async (t) => {
    const old = tempRoot(t);
    plantLock(old, 'garbage', new Date(Date.now() - 60_000));
    t.equal(await withLock(old, () => 'ran', fast), 'ran');

    const fresh = tempRoot(t);
    plantLock(fresh, '');
    await t.rejects(withLock(fresh, () => 'ran', fast), LockBusyError);
  });
});

t.test('a lock released by its holder while we wait is taken', async (t) => {
  const root = tempRoot(t);
  const child = await liveProcess(t);
  plantLock(root, { pid: child.pid, startTime: processStartTime(child.pid!), createdAt: new Date().toISOString(), token: 'x' });
  setTimeout(() => fs.rmSync(path.join(root, LOCK)), 50);
  t.equal(await withLock(root, () => 'ran', { waitMs: 10_000, pollMs: 10 }), 'ran');
});
