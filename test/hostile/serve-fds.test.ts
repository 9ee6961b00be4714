/**
 * With 128 file descriptors, serve flipped to "cannot tell". Idle HTTP
 * connections took every descriptor, and each re-check then failed to open the unit (EMFILE).
 * A real serve under `prlimit --nofile=128`, 200 connections held open, many re-checks.
 */
import t, { type Test } from 'tap';
import { spawn } from 'node:child_process';
import * as fs from 'node:fs';
import * as net from 'node:net';
import * as path from 'node:path';
import { setTimeout as sleep } from 'node:timers/promises';
import { brokenAcrNode } from '../helpers/node-root.js';
import { bundle, env, NO_CRASH } from './bundle.js';
import { skipLoudly, toolPath } from '../harness/tools.js';
import { MAX_CONNECTIONS_PER_PEER } from '../../src/serve/connection-limits.js';

async function get(port: number, urlPath: string): Promise<{ status: number; body: string }> {
  const response = await fetch(`http://127.0.0.1:${port}${urlPath}`, { signal: AbortSignal.timeout(3000) });
  return { status: response.status, body: await response.text() };
}

/** serve on 127.0.0.1:port (through `launcher`), its first check done; the sockets a test opens are closed at teardown. */
async function startServe(t: Test, launcher: readonly string[], root: string, port: number, interval: string) {
  const child = spawn(launcher[0]!, [...launcher.slice(1), bundle, 'serve', '--root', root, '--kubelet-version', '1.28.7', '--no-journal', '--listen', `127.0.0.1:${port}`, '--interval', interval], { env, stdio: ['ignore', 'pipe', 'pipe'] });
  let output = '';
  child.stderr.on('data', (chunk) => (output += chunk));
  child.stdout.resume();
  const sockets: net.Socket[] = [];
  t.teardown(() => {
    for (const socket of sockets) socket.destroy();
    child.kill('SIGKILL');
  });
  for (let i = 0; i < 300 && !/first check/.test(output); i++) await sleep(100);
  t.match(output, /first check: kubelet will NOT start/);
  return { child, sockets, stderr: () => output };
}

t.test('serve under a 128-fd limit keeps its answer while clients hold 200 connections', async (t) => {
  const prlimit = toolPath('prlimit');
  if (!prlimit) return skipLoudly(t, 'prlimit (util-linux) is needed to lower the fd limit');
  const root = brokenAcrNode(t.testdir());
  const port = 20000 + (process.pid % 20000);
  const { child, sockets, stderr } = await startServe(t, [prlimit, '--nofile=128', process.execPath], root, port, '1');

  for (let i = 0; i < 200; i++) {
    const socket = net.connect(port, '127.0.0.1');
    socket.on('error', () => undefined);
    sockets.push(socket);
  }
  // Many re-checks while the connections are held: the interval (1 s) and changes to watched files.
  const unit = path.join(root, 'etc/systemd/system/kubelet.service');
  for (let i = 0; i < 8; i++) {
    await sleep(600);
    fs.utimesSync(unit, new Date(), new Date());
  }
  const fds = fs.readdirSync(`/proc/${child.pid}/fd`).length;
  t.ok(fds < 64, `serve holds ${fds} descriptors with 200 clients knocking`);
  for (const socket of sockets) socket.destroy();
  await sleep(300);

  const metrics = await get(port, '/metrics');
  t.equal(metrics.status, 200);
  t.match(metrics.body, /^nodecheck_kubelet_start_ok 0$/m, 'still "will NOT start"');
  t.notMatch(stderr(), /cannot be predicted|EMFILE/, stderr());
  t.notMatch(stderr(), NO_CRASH);
});

t.test('one local client holding 40 idle connections does not starve the scrape or the probe', async (t) => {
  const root = brokenAcrNode(t.testdir());
  const port = 20000 + ((process.pid + 7919) % 20000);
  const { child, sockets, stderr } = await startServe(t, [process.execPath], root, port, '60');

  const before = fs.readdirSync(`/proc/${child.pid}/fd`).length;
  let connected = 0;
  for (let i = 0; i < 40; i++) {
    const socket = net.connect(port, '127.0.0.1', () => void connected++);
    socket.on('error', () => undefined);
    sockets.push(socket);
  }
  for (let i = 0; i < 100 && connected < 40; i++) await sleep(50);
  t.equal(connected, 40, 'the 40 idle connections are accepted');
  await sleep(200);
  for (const [urlPath, pattern] of [['/metrics', /^nodecheck_kubelet_start_ok 0$/m], ['/healthz', /^ok$/m]] as const) {
    const answer = await get(port, urlPath).catch((error: Error) => ({ status: 0, body: error.message }));
    t.equal(answer.status, 200, `${urlPath} gets through`);
    t.match(answer.body, pattern);
  }
  const held = fs.readdirSync(`/proc/${child.pid}/fd`).length - before;
  t.ok(held <= MAX_CONNECTIONS_PER_PEER + 1, `serve holds ${held} more descriptors: one peer's oldest idle connections were closed`);
  t.notMatch(stderr(), NO_CRASH);
});
