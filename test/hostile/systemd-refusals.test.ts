/**
 * Refusals systemd computes before kubelet runs are the answer, never a warning beside a "will
 * start": two ExecStart= commands, an unknown specifier, an argument list execve(2) may refuse on
 * a node whose page size is not known. Each is checked against systemd-analyze verify 252 where the
 * machine has it (the same tool test/packaging/units.test.ts uses).
 */
import t from 'tap';
import { spawnSync } from 'node:child_process';
import * as fs from 'node:fs';
import * as path from 'node:path';
import { brokenAcrNode, kubeletUnit } from '../helpers/node-root.js';
import { NO_CRASH, runBundle } from './bundle.js';
import { toolPath } from '../harness/tools.js';

const UNIT = '/etc/systemd/system/kubelet.service';
const DROPIN_DIR = '/etc/systemd/system/kubelet.service.d';

/** A minimal ELF64 header for `machine` (62 x86_64, 183 aarch64), static, executable. */
function elf(machine: number): Buffer {
  const b = Buffer.alloc(64);
  b.write('\x7fELF', 0, 'latin1');
  b[4] = 2;
  b[5] = 1;
  b[6] = 1;
  b.writeUInt16LE(2, 16);
  b.writeUInt16LE(machine, 18);
  b.writeUInt32LE(1, 20);
  b.writeUInt16LE(64, 52);
  b.writeUInt16LE(56, 54);
  return b;
}

function nodeWith(t: { testdir(): string }, extra: Record<string, string>, machine = 62): string {
  const root = brokenAcrNode(t.testdir(), { ...extra });
  fs.mkdirSync(path.join(root, '/usr/bin'), { recursive: true });
  fs.writeFileSync(path.join(root, '/usr/bin/kubelet'), elf(machine), { mode: 0o755 });
  // A node whose credential providers are fine, so the systemd step alone decides.
  fs.writeFileSync(path.join(root, UNIT), extra[UNIT] ?? kubeletUnit(''));
  return root;
}

function check(root: string, version = '1.30.4'): { status: number | null; report: { kubeletWillStart: boolean | null; findings: { id: string; path?: string; message: string; kubeletError?: string }[] }; out: string } {
  const run = runBundle(['check', '--root', root, '--kubelet-version', version, '--output', 'json'], { timeoutMs: 60_000 });
  return { status: run.status, report: JSON.parse(run.stdout), out: run.stdout + run.stderr };
}

const analyze = toolPath('systemd-analyze');
/** What systemd-analyze verify --root says about the unit (252 on this machine), or undefined without it. */
function verify(root: string): string | undefined {
  if (!analyze) return undefined;
  const r = spawnSync(analyze, ['verify', `--root=${root}`, 'kubelet.service'], { encoding: 'utf8', timeout: 30_000 });
  return r.stderr;
}

t.test('a drop-in that adds a second ExecStart= (no reset): systemd refuses the unit, the answer is false', async (t) => {
  const root = nodeWith(t, { [`${DROPIN_DIR}/20-extra.conf`]: '[Service]\nExecStart=/usr/bin/kubelet --v=4\n' });
  const { status, report, out } = check(root);
  t.equal(report.kubeletWillStart, false);
  t.equal(status, 1);
  t.match(report.findings[0], {
    id: 'systemd-unit-refused',
    path: `${DROPIN_DIR}/20-extra.conf`,
    kubeletError: 'kubelet.service: Service has more than one ExecStart= setting, which is only allowed for Type=oneshot services. Refusing.',
  });
  t.notMatch(out, NO_CRASH);
  const said = verify(root);
  if (said !== undefined) t.match(said, 'kubelet.service: Service has more than one ExecStart= setting, which is only allowed for Type=oneshot services. Refusing.');
  // The same drop-in with the reset is healthy.
  fs.writeFileSync(path.join(root, DROPIN_DIR, '20-extra.conf'), '[Service]\nExecStart=\nExecStart=/usr/bin/kubelet --v=4\n');
  t.equal(check(root).report.kubeletWillStart, true);
});

t.test('an unknown specifier in the drop-in that replaces ExecStart=: no ExecStart= is left, systemd refuses', async (t) => {
  const root = nodeWith(t, { [`${DROPIN_DIR}/10-x.conf`]: '[Service]\nExecStart=\nExecStart=/usr/bin/kubelet --%Z\n', '/usr/lib/systemd/libsystemd-shared-252.so': '' });
  const { report } = check(root);
  t.equal(report.kubeletWillStart, false);
  t.match(report.findings[0], { id: 'systemd-unit-refused', kubeletError: 'kubelet.service: Service has no ExecStart=, ExecStop=, or SuccessAction=. Refusing.' });
  t.match(report.findings.map((f) => f.message).join('\n'), /10-x\.conf:3: Failed to resolve unit specifiers in --%Z: Invalid slot/);
  const said = verify(root);
  if (said !== undefined) {
    t.match(said, 'Failed to resolve unit specifiers in --%Z: Invalid slot');
    t.match(said, 'kubelet.service: Service has no ExecStart=, ExecStop=, or SuccessAction=. Refusing.');
  }
  // Without a systemd version node-check cannot tell (a newer systemd might know the letter).
  fs.rmSync(path.join(root, '/usr/lib/systemd/libsystemd-shared-252.so'));
  t.equal(check(root).report.kubeletWillStart, null);
});

t.test('an aarch64 kubelet with a 241 KB argument: execve refuses it with 4 KiB pages only, so cannot tell', async (t) => {
  // An environment variable kubelet does not read: only execve's limit is in question.
  const unit = kubeletUnit('').replace('[Service]\n', `[Service]\nEnvironment=FILLER=${'a'.repeat(241 * 1024)}\n`);
  const root = nodeWith(t, { [UNIT]: unit }, 183);
  const { status, report } = check(root);
  t.equal(report.kubeletWillStart, null);
  t.equal(status, 2);
  t.equal(report.findings[0]?.id, 'cannot-decide');
  t.equal(report.findings[0]?.path, UNIT);
  t.ok(/page size/.test(report.findings[0]?.message ?? ''), 'the page size is the question');
  // Without the binary in the root the argument list is still the question.
  fs.rmSync(path.join(root, '/usr/bin'), { recursive: true });
  t.equal(check(root).report.kubeletWillStart, null);
});
