/**
 * A FIFO, socket or device where systemd expects a unit file or drop-in (src/systemd/masked-path.ts,
 * find-unit-file.ts): a mask where systemd takes it for one, a refusal where its open fails, "cannot
 * tell" where it blocks; node-check itself never blocks (these tests would hang if it opened a FIFO).
 */
import t from 'tap';
import { spawnSync } from 'node:child_process';
import * as fs from 'node:fs';
import * as path from 'node:path';
import { loadService } from '../../src/systemd/load-service.js';
import { makeTempRoot } from './temp-root.js';
import { toolPath } from '../harness/tools.js';

const ETC = '/etc/systemd/system';
const LIB = '/usr/lib/systemd/system';
const UNIT = '[Service]\nExecStart=/usr/bin/kubelet --v=2\n';
const fatal = (m: ReturnType<typeof loadService>) => m.diagnostics.filter((d) => d.severity === 'fatal').map((d) => d.message).join('\n');

function special(host: string, kind: 'fifo' | 'socket' | 'char' | 'block'): boolean {
  fs.mkdirSync(path.dirname(host), { recursive: true });
  const python = toolPath('python3');
  const r =
    kind === 'fifo' ? spawnSync('mkfifo', [host])
    : kind === 'socket' ? (python ? spawnSync(python, ['-c', 'import socket,sys; socket.socket(socket.AF_UNIX).bind(sys.argv[1])', host]) : { status: 1 })
    : spawnSync('mknod', [host, kind === 'char' ? 'c' : 'b', kind === 'char' ? '1' : '7', kind === 'char' ? '3' : '0']);
  return r.status === 0;
}

function root(t: { teardown(fn: () => void): void }, files: Record<string, string> = {}) {
  return makeTempRoot({ files, dirs: [`${ETC}/kubelet.service.d`] }, t.teardown);
}

t.test('a FIFO drop-in: systemd blocks opening it (systemd-analyze verify 252 hangs), so cannot tell', async (t) => {
  const fs_ = root(t, { [`${ETC}/kubelet.service`]: UNIT });
  if (!special(path.join(fs_.root, ETC, 'kubelet.service.d/10-fifo.conf'), 'fifo')) return void t.pass('not run: mkfifo unavailable');
  const m = loadService(fs_, 'kubelet.service', { systemdVersion: 252 });
  t.match(fatal(m), /10-fifo\.conf is a FIFO: systemd blocks opening it/);
});

t.test('a socket drop-in: systemd cannot open it (ENXIO) and skips it', async (t) => {
  const fs_ = root(t, { [`${ETC}/kubelet.service`]: UNIT });
  if (!special(path.join(fs_.root, ETC, 'kubelet.service.d/10-sock.conf'), 'socket')) return void t.pass('not run: python3 socket unavailable');
  const m = loadService(fs_, 'kubelet.service', { systemdVersion: 252 });
  t.equal(fatal(m), '');
  t.equal(m.load.state, 'loaded');
  t.match(m.diagnostics.map((d) => d.message).join('\n'), /10-sock\.conf: Failed to open configuration file: No such device or address; systemd skips this drop-in/);
});

t.test('a FIFO unit file: 250+ skips the entry (the next search path counts), 239 opens it and blocks, unknown: cannot tell', async (t) => {
  const fs_ = root(t, { [`${LIB}/kubelet.service`]: UNIT });
  if (!special(path.join(fs_.root, ETC, 'kubelet.service'), 'fifo')) return void t.pass('not run: mkfifo unavailable');
  t.equal(loadService(fs_, 'kubelet.service', { systemdVersion: 252 }).fragmentPath, `${LIB}/kubelet.service`);
  t.match(fatal(loadService(fs_, 'kubelet.service', { systemdVersion: 239 })), /is a FIFO: systemd blocks opening it/);
  t.match(fatal(loadService(fs_, 'kubelet.service')), /systemd 250\+ skips it, systemd 239 opens it/);
});

t.test('a socket unit file on 239, or a link to one on 252: the load fails (ENXIO), systemd refuses the unit', async (t) => {
  const fs_ = root(t);
  if (!special(path.join(fs_.root, ETC, 'kubelet.service'), 'socket')) return void t.pass('not run: python3 socket unavailable');
  const m = loadService(fs_, 'kubelet.service', { systemdVersion: 239 });
  t.same(m.load, { state: 'refused', refusal: { loadState: 'error', by: 'unit_load', errno: 'ENXIO', reason: `Failed to open ${ETC}/kubelet.service: No such device or address` } });
  fs.mkdirSync(path.join(fs_.root, '/opt'), { recursive: true });
  fs.renameSync(path.join(fs_.root, ETC, 'kubelet.service'), path.join(fs_.root, '/opt/kubelet.sock'));
  fs.symlinkSync('/opt/kubelet.sock', path.join(fs_.root, ETC, 'kubelet.service'));
  t.match(loadService(fs_, 'kubelet.service', { systemdVersion: 252 }).load, { state: 'refused', refusal: { errno: 'ENXIO' } });
});

t.test('devices: a character device is a mask; a block device only up to v245 (null_or_empty)', { skip: process.getuid?.() === 0 ? false : 'mknod needs root' }, async (t) => {
  const fs_ = root(t);
  if (!special(path.join(fs_.root, ETC, 'kubelet.service'), 'char')) return void t.pass('not run: mknod unavailable');
  t.same(loadService(fs_, 'kubelet.service', { systemdVersion: 239 }).load, { state: 'masked' });
  const blockRoot = root(t);
  if (!special(path.join(blockRoot.root, '/opt/disk'), 'block')) return void t.pass('not run: mknod b unavailable');
  fs.symlinkSync('/opt/disk', path.join(blockRoot.root, ETC, 'kubelet.service'));
  t.same(loadService(blockRoot, 'kubelet.service', { systemdVersion: 239 }).load, { state: 'masked' });
  t.match(fatal(loadService(blockRoot, 'kubelet.service', { systemdVersion: 252 })), /block device, which systemd 252 reads as a unit file/);
});
