// What node-check reads about its own process: the boot id, its systemd unit (the scope of the
// journal's repeat counts) and whether stderr is the journal stream.
import t from 'tap';
import { fstatSync, readFileSync } from 'node:fs';
import { isJournalStream, ownSystemdUnit, outputIsJournal, parseBootId, readBootId, systemdUnitOfCgroup } from '../../src/discover/own-process.js';

t.test('boot id: the kernel\'s, or "" when it cannot be read or is not one', async (t) => {
  t.equal(readBootId(), readFileSync('/proc/sys/kernel/random/boot_id', 'utf8').trim(), 'this boot');
  t.equal(parseBootId('5F1D7C1E-7C1A-4A52-9D0E-3B1F7A2C9E10\n'), '5f1d7c1e-7c1a-4a52-9d0e-3b1f7a2c9e10');
  t.equal(parseBootId('../../etc/passwd'), '');
  t.equal(parseBootId(''), '');
});

t.test('the systemd unit of a /proc/PID/cgroup text', async (t) => {
  t.equal(systemdUnitOfCgroup('0::/system.slice/kubelet.service\n'), 'kubelet.service', 'cgroup v2');
  t.equal(
    systemdUnitOfCgroup('12:pids:/system.slice/other.service\n1:name=systemd:/system.slice/node-check-precheck.service\n0::/system.slice/node-check-precheck.service\n'),
    'node-check-precheck.service',
    'hybrid: the name=systemd hierarchy',
  );
  t.equal(systemdUnitOfCgroup('0::/machine.slice/machine-node.scope/payload/system.slice/kubelet.service\n'), 'kubelet.service', 'nested in a container: the innermost service');
  t.equal(systemdUnitOfCgroup('0::/system.slice/kubelet.service/libpod-1234abcd.scope\n'), 'kubelet.service', 'a scope below it is skipped (its name changes every run)');
  t.equal(systemdUnitOfCgroup('0::/user.slice/user-0.slice/session-4.scope\n'), '', 'an SSH session: no service');
  t.equal(systemdUnitOfCgroup('0::/\n'), '');
  t.equal(systemdUnitOfCgroup(''), '');
  t.type(ownSystemdUnit(), 'string');
});

t.test('$JOURNAL_STREAM counts only when it names stderr itself', async (t) => {
  const stderr = { dev: 2049n, ino: 123456789012345678n };
  t.equal(isJournalStream('2049:123456789012345678', stderr), true, 'inode numbers beyond 2^53 compare exactly');
  t.equal(isJournalStream('2049:123456789012345679', stderr), false, 'another inode: inherited from a parent whose stderr was the journal');
  t.equal(isJournalStream('2050:123456789012345678', stderr), false, 'another device');
  t.equal(isJournalStream(undefined, stderr), false, 'unset: a terminal, a file, a pipe');
  t.equal(isJournalStream('', stderr), false);
  t.equal(isJournalStream('2049:123456789012345678:x', stderr), false, 'malformed');
  t.equal(isJournalStream('2049:123456789012345678', undefined), false, 'stderr closed');
  const own = fstatSync(2, { bigint: true });
  t.equal(isJournalStream(`${own.dev}:${own.ino}`, own), true, 'this process\'s own stderr');
});

t.test('outputIsJournal: this process, with $JOURNAL_STREAM naming its stderr or stdout or not', async (t) => {
  for (const fd of [1, 2] as const) {
    const own = fstatSync(fd, { bigint: true });
    t.equal(outputIsJournal({ JOURNAL_STREAM: `${own.dev}:${own.ino}` }, fd), true, `fd ${fd}`);
    t.equal(outputIsJournal({ JOURNAL_STREAM: `${own.dev}:${own.ino + 1n}` }, fd), false);
    t.equal(outputIsJournal({}, fd), false);
  }
});
