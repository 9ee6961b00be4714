// The systemd-level checks over units read by the real reader (loadService) from temp roots:
// systemd's exact journal lines per version for a missing EnvironmentFile=, a missing or
// non-executable ExecStart= binary and a masked unit; cannot-tell where the text is not known.
import t from 'tap';
import * as fs from 'node:fs';
import * as path from 'node:path';
import { loadService } from '../../src/systemd/load-service.js';
import { checkSystemdPreconditions, type SystemdOutcome } from '../../src/systemd-preconditions/check-systemd.js';
import { failureToFinding, isFailure, type PreconditionFailure } from '../../src/systemd-preconditions/outcome.js';
import { systemdTexts } from '../../src/systemd-preconditions/systemd-texts.js';
import { collectExecFacts } from '../../src/discover/host-facts.js';
import { makeTempRoot, type TempRootSpec } from '../systemd/temp-root.js';
import type { RootFs } from '../../src/host/root-fs.js';

const UNIT = '/etc/systemd/system/kubelet.service';
const ELF_X86_64 = (() => {
  // A minimal ELF64 header: e_machine 62 (x86_64), no program headers (static).
  const b = Buffer.alloc(64);
  b.write('\x7fELF', 0, 'latin1');
  b[4] = 2; b[5] = 1; b[6] = 1;
  b.writeUInt16LE(2, 16);
  b.writeUInt16LE(62, 18);
  b.writeUInt32LE(1, 20);
  b.writeUInt16LE(64, 52);
  b.writeUInt16LE(56, 54);
  return b;
})();

interface NodeSpec extends TempRootSpec {
  readonly executables?: readonly string[];
}

function node(t: { teardown(fn: () => void): void }, spec: NodeSpec): RootFs {
  const rootFs = makeTempRoot(spec, t.teardown);
  for (const exe of spec.executables ?? []) fs.chmodSync(path.join(rootFs.root, exe), 0o755);
  return rootFs;
}

function check(rootFs: RootFs, version: number, kubeletPath?: string): SystemdOutcome[] {
  const service = loadService(rootFs, 'kubelet.service', { systemdVersion: version });
  const files = collectExecFacts(rootFs, service, kubeletPath);
  return checkSystemdPreconditions({ service, files, ...(kubeletPath ? { kubeletPath } : {}), nodeMachine: 'x86_64' });
}

const failure = (outcomes: SystemdOutcome[]): PreconditionFailure => {
  const first = outcomes.find(isFailure);
  if (!first) throw new Error(`no failure in ${JSON.stringify(outcomes)}`);
  return first;
};

const OPENSHIFT_LIKE = `[Unit]
Description=Kubernetes Kubelet

[Service]
Type=notify
ExecStartPre=/bin/mkdir --parents /etc/kubernetes/manifests
EnvironmentFile=/etc/os-release
EnvironmentFile=-/etc/kubernetes/kubelet-workaround
EnvironmentFile=/etc/node-sizing.env
ExecStart=/usr/bin/kubelet --config=/etc/kubernetes/kubelet.conf
Restart=always
RestartSec=10
`;

t.test('a missing required EnvironmentFile=: systemd 252 lines, result resources, the file named only by node-check', async (t) => {
  const root = node(t, { files: { [UNIT]: OPENSHIFT_LIKE, '/etc/os-release': 'ID=rhel\n', '/usr/bin/kubelet': ELF_X86_64, '/bin/mkdir': ELF_X86_64 }, executables: ['/usr/bin/kubelet'] });
  const outcomes = check(root, 252);
  t.equal(outcomes.length, 1, 'only the environment file fails (kubelet itself is executable)');
  const f = failure(outcomes);
  t.equal(f.findingId, 'systemd-environment-file-missing');
  t.equal(f.kubeletError, 'kubelet.service: Failed to load environment files: No such file or directory');
  t.same(f.systemdLines, [
    'kubelet.service: Failed to load environment files: No such file or directory',
    "kubelet.service: Failed to run 'start-pre' task: No such file or directory",
    "kubelet.service: Failed with result 'resources'.",
  ]);
  t.equal(f.systemdResult, 'resources');
  t.equal(f.path, '/etc/node-sizing.env');
  t.equal(f.inexact, undefined, '252 is a verified version');
  t.match(f.message, `${UNIT}:9`, 'the message names the EnvironmentFile= line');
});

t.test('the task name follows ExecStartPre= and the verb follows the systemd version', async (t) => {
  const noPre = OPENSHIFT_LIKE.replace(/^ExecStartPre=.*\n/m, '');
  const root = node(t, { files: { [UNIT]: noPre, '/etc/os-release': 'ID=rhel\n', '/usr/bin/kubelet': ELF_X86_64 }, executables: ['/usr/bin/kubelet'] });
  t.equal(failure(check(root, 252)).systemdLines?.[1], "kubelet.service: Failed to run 'start' task: No such file or directory");
  const rhel10 = failure(check(root, 257));
  t.equal(rhel10.systemdLines?.[1], "kubelet.service: Failed to spawn 'start' task: No such file or directory", 'PidRef-era systemd says spawn');
  t.equal(rhel10.inexact, true, 'the 257 wording is inferred, not pinned');
  const rhel8 = failure(check(node(t, { files: { [UNIT]: OPENSHIFT_LIKE, '/etc/os-release': 'ID=rhel\n', '/usr/bin/kubelet': ELF_X86_64 }, executables: ['/usr/bin/kubelet'] }), 239));
  t.equal(rhel8.systemdLines?.[1], "kubelet.service: Failed to run 'start-pre' task: No such file or directory");
  t.equal(rhel8.inexact, undefined);
});

t.test('ExecStartPre= reset by an empty assignment in a drop-in counts as none', async (t) => {
  const root = node(t, {
    files: { [UNIT]: OPENSHIFT_LIKE, [`${UNIT}.d/10-reset.conf`]: '[Service]\nExecStartPre=\n', '/etc/os-release': 'ID=rhel\n', '/usr/bin/kubelet': ELF_X86_64 },
    executables: ['/usr/bin/kubelet'],
  });
  t.equal(failure(check(root, 252)).systemdLines?.[1], "kubelet.service: Failed to run 'start' task: No such file or directory");
});

t.test('optional ("-") environment files never fail; a glob that matches nothing is ENOENT', async (t) => {
  const optionalOnly = OPENSHIFT_LIKE.replace('EnvironmentFile=/etc/node-sizing.env', 'EnvironmentFile=-/etc/node-sizing.env');
  const ok = node(t, { files: { [UNIT]: optionalOnly, '/etc/os-release': 'ID=rhel\n', '/usr/bin/kubelet': ELF_X86_64 }, executables: ['/usr/bin/kubelet'] });
  t.same(check(ok, 252), [], 'nothing fails');
  const glob = OPENSHIFT_LIKE.replace('EnvironmentFile=/etc/node-sizing.env', 'EnvironmentFile=/etc/kubelet.d/*.env');
  const g = node(t, { files: { [UNIT]: glob, '/etc/os-release': 'ID=rhel\n', '/usr/bin/kubelet': ELF_X86_64 }, dirs: ['/etc/kubelet.d'], executables: ['/usr/bin/kubelet'] });
  t.equal(failure(check(g, 252)).kubeletError, 'kubelet.service: Failed to load environment files: No such file or directory');
});

t.test('an environment file that is a directory: Is a directory, a different finding', async (t) => {
  const root = node(t, { files: { [UNIT]: OPENSHIFT_LIKE, '/etc/os-release': 'ID=rhel\n', '/usr/bin/kubelet': ELF_X86_64 }, dirs: ['/etc/node-sizing.env'], executables: ['/usr/bin/kubelet'] });
  const f = failure(check(root, 252));
  t.equal(f.findingId, 'systemd-environment-file-unreadable');
  t.equal(f.kubeletError, 'kubelet.service: Failed to load environment files: Is a directory');
});

t.test('ExecStart= binary missing: 203/EXEC with "Failed to locate executable" on 252, only "Failed at step" on 239', async (t) => {
  const unitText = OPENSHIFT_LIKE.replace('EnvironmentFile=/etc/node-sizing.env\n', '');
  const root = node(t, { files: { [UNIT]: unitText, '/etc/os-release': 'ID=rhel\n' } });
  const f = failure(check(root, 252));
  t.equal(f.findingId, 'systemd-exec-missing');
  t.equal(f.exitStatus, 203);
  t.same(f.systemdLines, [
    'kubelet.service: Failed to locate executable /usr/bin/kubelet: No such file or directory',
    'kubelet.service: Failed at step EXEC spawning /usr/bin/kubelet: No such file or directory',
    'kubelet.service: Main process exited, code=exited, status=203/EXEC',
    "kubelet.service: Failed with result 'exit-code'.",
  ]);
  const old = failure(check(root, 239));
  t.equal(old.kubeletError, 'kubelet.service: Failed at step EXEC spawning /usr/bin/kubelet: No such file or directory');
  t.equal(old.systemdLines?.length, 3);
});

t.test('ExecStart= binary without an execute bit: Permission denied, 203', async (t) => {
  const unitText = OPENSHIFT_LIKE.replace('EnvironmentFile=/etc/node-sizing.env\n', '');
  const root = node(t, { files: { [UNIT]: unitText, '/etc/os-release': 'ID=rhel\n', '/usr/bin/kubelet': ELF_X86_64 } });
  const f = failure(check(root, 252));
  t.equal(f.findingId, 'systemd-exec-not-executable');
  t.equal(f.kubeletError, 'kubelet.service: Failed to locate executable /usr/bin/kubelet: Permission denied');
  t.match(f.message, /no execute permission \(mode 0644\)/);
});

t.test('a script whose interpreter is missing fails at execve: only the "Failed at step" line', async (t) => {
  const unitText = OPENSHIFT_LIKE.replace('EnvironmentFile=/etc/node-sizing.env\n', '');
  const root = node(t, { files: { [UNIT]: unitText, '/etc/os-release': 'ID=rhel\n', '/usr/bin/kubelet': '#!/opt/nowhere/sh\nexit 0\n' }, executables: ['/usr/bin/kubelet'] });
  const f = failure(check(root, 252));
  t.equal(f.kubeletError, 'kubelet.service: Failed at step EXEC spawning /usr/bin/kubelet: No such file or directory');
  t.equal(f.findingId, 'systemd-exec-not-executable');
});

t.test('the environment file comes first: systemd never gets to the missing binary', async (t) => {
  const root = node(t, { files: { [UNIT]: OPENSHIFT_LIKE, '/etc/os-release': 'ID=rhel\n' } });
  const outcomes = check(root, 252);
  t.same(outcomes.filter(isFailure).map((o) => o.findingId), ['systemd-environment-file-missing', 'systemd-exec-missing']);
  t.equal(failure(outcomes).findingId, 'systemd-environment-file-missing');
});

t.test('kubenswrapper present, /usr/bin/kubelet missing: cannot tell (the wrapper fails, not systemd)', async (t) => {
  const unitText = OPENSHIFT_LIKE.replace('EnvironmentFile=/etc/node-sizing.env\n', '').replace('ExecStart=/usr/bin/kubelet', 'ExecStart=/usr/local/bin/kubenswrapper /usr/bin/kubelet');
  const root = node(t, { files: { [UNIT]: unitText, '/etc/os-release': 'ID=rhel\n', '/usr/local/bin/kubenswrapper': '#!/bin/sh\nexec "$@"\n', '/bin/sh': ELF_X86_64 }, executables: ['/usr/local/bin/kubenswrapper', '/bin/sh'] });
  const outcomes = check(root, 252, '/usr/bin/kubelet');
  t.equal(outcomes.filter(isFailure).length, 0, 'no systemd failure is claimed');
  t.match(outcomes, [{ undecidable: /\/usr\/bin\/kubelet does not exist.*kubenswrapper/, findingId: 'systemd-wrapped-kubelet-missing', path: '/usr/bin/kubelet' }]);
  // The wrapper itself missing is systemd's 203.
  const noWrapper = node(t, { files: { [UNIT]: unitText, '/etc/os-release': 'ID=rhel\n' } });
  t.equal(failure(check(noWrapper, 252, '/usr/bin/kubelet')).kubeletError, 'kubelet.service: Failed to locate executable /usr/local/bin/kubenswrapper: No such file or directory');
});

t.test('a masked unit: systemd refuses the start job', async (t) => {
  const root = node(t, { files: { '/usr/lib/systemd/system/kubelet.service': OPENSHIFT_LIKE }, symlinks: { [UNIT]: '/dev/null' } });
  const outcomes = check(root, 252);
  t.equal(outcomes.length, 1);
  t.match(outcomes[0], { findingId: 'systemd-unit-masked', kubeletError: 'Unit kubelet.service is masked.', path: UNIT });
});

t.test('an environment file node-check cannot judge is cannot-tell, unless a later one certainly fails', async (t) => {
  const service = {
    unitName: 'kubelet.service',
    dropInPaths: [],
    load: { state: 'loaded' as const },
    environment: {},
    diagnostics: [],
    execStartPreCount: 1,
    environmentFiles: [
      { path: '/etc/a.env', optional: false, loaded: false, source: { file: UNIT, line: 5 } },
      { path: '/etc/b.env', optional: false, loaded: false, errno: 'ENOENT', source: { file: UNIT, line: 6 } },
    ],
  };
  const both = checkSystemdPreconditions({ service, files: {}, systemdVersion: 252 });
  t.match(failure(both), { path: '/etc/b.env', inexact: true, kubeletError: 'kubelet.service: Failed to load environment files: No such file or directory' });
  const onlyFirst = checkSystemdPreconditions({ service: { ...service, environmentFiles: [service.environmentFiles[0]!] }, files: {}, systemdVersion: 252 });
  t.match(onlyFirst, [{ undecidable: /could not be read by node-check/, path: '/etc/a.env' }]);
});

t.test('systemd text table: the pinned versions and the unknown ones', async (t) => {
  t.same(systemdTexts(239), { taskVerb: 'run', locatesExecutable: false, verified: true });
  t.same(systemdTexts(252), { taskVerb: 'run', locatesExecutable: true, verified: true });
  t.same(systemdTexts(257), { taskVerb: 'spawn', locatesExecutable: true, verified: false });
  t.equal(systemdTexts(undefined).verified, false);
  t.same(systemdTexts(254), { taskVerb: 'run', locatesExecutable: true, verified: false });
});

t.test('a failure becomes an error Finding with the systemd line as kubeletError', async (t) => {
  const root = node(t, { files: { [UNIT]: OPENSHIFT_LIKE, '/etc/os-release': 'ID=rhel\n', '/usr/bin/kubelet': ELF_X86_64 }, executables: ['/usr/bin/kubelet'] });
  const finding = failureToFinding(failure(check(root, 252)));
  t.match(finding, { id: 'systemd-environment-file-missing', severity: 'error', path: '/etc/node-sizing.env', kubeletError: 'kubelet.service: Failed to load environment files: No such file or directory' });
  t.notMatch(finding.message, /may differ/);
  t.match(failureToFinding(failure(check(root, 257))).message, /may differ on this version/);
});

t.test('paths named as not carried by the root count as absent from the facts, as a table without them', async (t) => {
  const unitText = OPENSHIFT_LIKE.replace('EnvironmentFile=/etc/node-sizing.env\n', '').replace('ExecStart=/usr/bin/kubelet', 'ExecStart=/usr/local/bin/kubenswrapper /usr/bin/kubelet');
  const root = node(t, { files: { [UNIT]: unitText, '/etc/os-release': 'ID=rhel\n', '/usr/local/bin/kubenswrapper': '#!/opt/nowhere/sh\n' }, executables: ['/usr/local/bin/kubenswrapper'] });
  const service = loadService(root, 'kubelet.service', { systemdVersion: 252 });
  const files = collectExecFacts(root, service, '/usr/bin/kubelet');
  const input = { service, kubeletPath: '/usr/bin/kubelet', nodeMachine: 'x86_64' };
  const all = checkSystemdPreconditions({ ...input, files });
  t.equal(failure(all).findingId, 'systemd-exec-not-executable', 'the wrapper\'s interpreter is missing');
  for (const notCarried of [['/usr/local/bin/kubenswrapper'], ['/opt/nowhere/sh'], ['/usr/bin/kubelet', '/usr/local/bin/kubenswrapper']]) {
    const without = Object.fromEntries(Object.entries(files).filter(([p]) => !notCarried.includes(p)));
    const outcomes = checkSystemdPreconditions({ ...input, files, notCarried });
    t.same(outcomes, checkSystemdPreconditions({ ...input, files: without }), notCarried.join(' '));
    t.notSame(outcomes, all, 'and it changes the answer');
  }
});
