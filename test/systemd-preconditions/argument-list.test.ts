// Whether execve(2) accepts ExecStart='s argv and environment: the certain parts decided, the rest
// "cannot tell"; and the kernel limits themselves, checked against the kernel this test runs on.
import t from 'tap';
import { spawnSync } from 'node:child_process';
import { argumentListVerdict } from '../../src/systemd-preconditions/argument-list.js';
import { checkSystemdPreconditions } from '../../src/systemd-preconditions/check-systemd.js';
import type { ExecCommand, ServiceModel } from '../../src/model/service.js';
import type { PathFact } from '../../src/model/node.js';
import { toolPath } from '../harness/tools.js';

const exec = (argv: string[], extra: Partial<ExecCommand> = {}): ExecCommand => ({ raw: argv.join(' '), source: { file: '/etc/systemd/system/kubelet.service', line: 7 }, prefixes: '', path: argv[0], words: argv, argv, ...extra });
const KUBELET = '/usr/bin/kubelet';
const of = (n: number) => 'x'.repeat(n);

t.test('a real command line fits', async (t) => {
  t.same(argumentListVerdict(exec([KUBELET, '--config=/etc/kubernetes/kubelet.conf', '--v=2']), { KUBELET_EXTRA_ARGS: '--node-ip=10.0.0.1' }, 'x86_64'), { fits: true });
});

t.test('one string: 32 pages of 4 KiB on x86_64 and s390x; up to 64 KiB pages elsewhere', async (t) => {
  // 131071 bytes + NUL = 131072 fits; one more is E2BIG (fs/exec.c valid_arg_len).
  t.match(argumentListVerdict(exec([KUBELET, of(131071)]), {}, 'x86_64'), { undecidable: /stack limit/ }, 'the string fits; only the total (over ARG_MAX) is open');
  t.match(argumentListVerdict(exec([KUBELET, of(131072)]), {}, 'x86_64'), { tooLong: /argument 1 of ExecStart= \("x+…"\) is 131073 bytes .* over 131072 bytes \(32 pages of 4 KiB\)/ });
  t.match(argumentListVerdict(exec([KUBELET]), { BIG: of(131072) }, 's390x'), { tooLong: /the environment variable BIG is 131077 bytes/ });
  t.match(argumentListVerdict(exec([KUBELET, of(131072)]), {}, 'aarch64'), { undecidable: /4 KiB pages .* page size is not known \(aarch64\)/ });
  t.match(argumentListVerdict(exec([KUBELET, of(131072)]), {}, undefined), { undecidable: /machine unknown/ });
  t.match(argumentListVerdict(exec([KUBELET, of(2 * 1024 * 1024)]), {}, 'ppc64le'), { tooLong: /over 2097152 bytes \(32 pages of 64 KiB\)/ });
});

t.test('the total: over 6 MiB always refused, up to ARG_MAX always accepted, between open', async (t) => {
  const many = Array.from({ length: 70 }, () => of(100_000));
  t.match(argumentListVerdict(exec([KUBELET, ...many]), {}, 'x86_64'), { tooLong: /take \d+ bytes; Linux refuses more than 6291456 whatever the stack limit/ });
  t.match(argumentListVerdict(exec([KUBELET, of(64_000), of(64_000)]), {}, 'x86_64'), { undecidable: /take 128060 bytes: .*LimitSTACK=/ });
  t.same(argumentListVerdict(exec([KUBELET, of(100_000)]), {}, 'x86_64'), { fits: true });
  t.match(argumentListVerdict(exec([KUBELET], { argvTooLarge: 'more than 6291456 bytes of arguments' }), {}, 'x86_64'), { tooLong: 'ExecStart= expands to more than 6291456 bytes of arguments' });
});

t.test('in the systemd checks: after the binary lookup, before the exec format', async (t) => {
  const service = (argv: string[]): ServiceModel => ({ unitName: 'kubelet.service', dropInPaths: [], load: { state: 'loaded' }, execStart: exec(argv), environment: {}, environmentFiles: [], diagnostics: [], systemdVersion: 252 });
  const file: PathFact = { exists: true, type: 'file', mode: 0o755, uid: 0, gid: 0, size: 100, elf: { machine: 'aarch64' } } as PathFact;
  const missing = { exists: false, code: 'ENOENT' } as PathFact;
  const tooLong = [KUBELET, of(3 * 1024 * 1024)];
  t.match(checkSystemdPreconditions({ service: service(tooLong), files: { [KUBELET]: file }, nodeMachine: 'x86_64' }), [{
    findingId: 'systemd-exec-argument-list-too-long',
    kubeletError: 'kubelet.service: Failed at step EXEC spawning /usr/bin/kubelet: Argument list too long',
    systemdLines: ['kubelet.service: Failed at step EXEC spawning /usr/bin/kubelet: Argument list too long', 'kubelet.service: Main process exited, code=exited, status=203/EXEC', "kubelet.service: Failed with result 'exit-code'."],
    exitStatus: 203,
    path: '/etc/systemd/system/kubelet.service',
  }], 'E2BIG before the wrong architecture (ENOEXEC)');
  t.notOk(checkSystemdPreconditions({ service: service(tooLong), files: { [KUBELET]: file }, nodeMachine: 'x86_64' })[0] && 'inexact' in checkSystemdPreconditions({ service: service(tooLong), files: { [KUBELET]: file }, nodeMachine: 'x86_64' })[0]!);
  t.match(checkSystemdPreconditions({ service: service(tooLong), files: { [KUBELET]: missing } }), [{ findingId: 'systemd-exec-missing' }], 'a missing binary fails its lookup first');
  t.match(checkSystemdPreconditions({ service: service(tooLong), files: {} }), [{ findingId: 'systemd-exec-argument-list-too-long', inexact: true }], 'no facts about the binary: 203/EXEC either way, the text is open');
  t.match(checkSystemdPreconditions({ service: service([KUBELET, of(131072)]), files: { [KUBELET]: { ...file, elf: { machine: 'aarch64' } } as PathFact }, nodeMachine: 'aarch64' }), [{ undecidable: /page size/ }]);
  // A binary the root does not carry: "not checked", but an argument list execve may refuse still
  // leaves the answer open, on aarch64 as with the binary present.
  t.match(checkSystemdPreconditions({ service: service([KUBELET, of(241 * 1024)]), files: {}, nodeMachine: 'aarch64' }), [{ undecidable: /page size.*ExecStart= at \/etc\/systemd\/system\/kubelet.service/, findingId: 'systemd-exec-argument-list-too-long', path: '/etc/systemd/system/kubelet.service' }]);
  t.match(checkSystemdPreconditions({ service: service([KUBELET, of(1000)]), files: {}, nodeMachine: 'aarch64' }), [{ notChecked: /no facts about \/usr\/bin\/kubelet/ }]);
});

t.test('the kernel this runs on refuses what the verdict calls certain (execve, for real)', async (t) => {
  const pageSize = Number(spawnSync('getconf', ['PAGESIZE'], { encoding: 'utf8' }).stdout.trim());
  const run = (args: string[], stack?: string) => {
    const prlimit = toolPath('prlimit');
    const result = stack && prlimit ? spawnSync(prlimit, [`--stack=${stack}`, '/bin/true', ...args]) : spawnSync('/bin/true', args);
    if (result.error) return (result.error as NodeJS.ErrnoException).code;
    // prlimit execs /bin/true itself and reports execve's error.
    return result.status === 0 ? 'ok' : /Argument list too long/.test(String(result.stderr)) ? 'E2BIG' : `status ${result.status}`;
  };
  if (pageSize === 4096) {
    t.equal(run([of(131071)]), 'ok', '131071 bytes + NUL');
    t.equal(run([of(131072)]), 'E2BIG', 'one byte more');
  } else {
    t.comment(`page size ${pageSize}: the 4 KiB string limit is not checked here`);
  }
  t.equal(run(Array.from({ length: 70 }, () => of(100_000))), 'E2BIG', 'over 6 MiB in all');
  if (toolPath('prlimit')) {
    // prlimit itself is exec'd with a small argv; the limit it sets applies to /bin/true's execve.
    const twoHundredK = [of(100_000), of(100_000)];
    t.equal(run(twoHundredK, '8388608'), 'ok', '200 KB in all under an 8 MiB stack (limit 2 MiB)');
    t.equal(run(twoHundredK, '262144'), 'E2BIG', 'the same under a 256 KiB stack (limit ARG_MAX): the total depends on the stack limit');
  }
});
