/**
 * The user namespace manager NewMainKubelet creates (src/kubelet/node-setup/user-namespaces.ts):
 * the "kubelet" user's lookup without and with cgo, getsubids on kubelet's PATH, maxPods against
 * the default ranges. The Go outcomes were checked with go1.26.8 (CGO_ENABLED=0 and 1, glibc 2.36)
 * in a mount namespace without /etc/passwd: "open /etc/passwd: no such file or directory" and
 * "user: unknown user kubelet"; go1.22.12's cgo_lookup_unix.go has no ENOENT case, go1.23.0's has.
 */
import t from 'tap';
import { checkUserNamespaceManager, getsubidsCandidates, kubeletUserEntry, type UserNamespaceInput } from '../../../src/kubelet/node-setup/user-namespaces.js';
import type { PathFact } from '../../../src/model/node.js';

const file = (text: string, mode = 0o644): PathFact => ({ exists: true, type: 'file', mode, uid: 0, gid: 0, content: { ok: true, data: Buffer.from(text) } });
const dir: PathFact = { exists: true, type: 'directory', mode: 0o755, uid: 0, gid: 0 };
const missing: PathFact = { exists: false, code: 'ENOENT' };
const ROOT_ONLY = 'root:x:0:0:root:/root:/bin/bash\n';
const WITH_KUBELET = `${ROOT_ONLY}kubelet:x:900:900:kubelet:/var/lib/kubelet:/sbin/nologin\n`;
const input = (over: Partial<UserNamespaceInput> = {}): UserNamespaceInput => ({
  gateOn: true, lookup: 'pure-go', goMinors: { first: 25, last: 26 }, passwd: file(ROOT_ONLY), maxPods: 110, wrapped: false, path: undefined, hostRoot: true, ...over,
});
const DIRS = ['/usr/local/sbin', '/usr/local/bin', '/usr/sbin', '/usr/bin', '/sbin', '/bin'];
const tree = (files: Record<string, PathFact>) => (path: string): PathFact | undefined => files[path] ?? (DIRS.includes(path) ? dir : missing);

t.test('the gate off: no lookup at all', async (t) => {
  t.same(checkUserNamespaceManager(input({ gateOn: false, passwd: missing }), tree({})), { ok: true });
});

t.test('no /etc/passwd: the build decides', async (t) => {
  t.same(checkUserNamespaceManager(input({ passwd: missing }), tree({})),
    { ok: false, error: 'create user namespace manager: kubelet mappings: open /etc/passwd: no such file or directory', path: '/etc/passwd' }, 'without cgo, Go opens the file');
  t.same(checkUserNamespaceManager(input({ lookup: 'cgo', passwd: missing }), tree({})), { ok: true }, 'cgo with Go 1.23+: ENOENT is an unknown user');
  t.same(checkUserNamespaceManager(input({ lookup: 'cgo', passwd: missing, goMinors: { first: 20, last: 22 } }), tree({})),
    { ok: false, error: 'create user namespace manager: kubelet mappings: user: lookup username kubelet: no such file or directory', path: '/etc/passwd' }, 'cgo with Go 1.22: an error');
  const mixed = checkUserNamespaceManager(input({ lookup: 'cgo', passwd: missing, goMinors: { first: 22, last: 23 } }), tree({}));
  t.ok('undecidable' in mixed && /Go 1\.22-1\.23/.test(mixed.undecidable), 'Go minors that disagree: cannot tell');
  t.ok('undecidable' in checkUserNamespaceManager(input({ passwd: { exists: false, code: 'EACCES' } }), tree({})));
  t.ok('undecidable' in checkUserNamespaceManager(input({ passwd: dir }), tree({})), 'a directory: not a file node-check reads');
  t.ok('undecidable' in checkUserNamespaceManager(input({ passwd: undefined }), tree({})), 'not read');
});

t.test('no "kubelet" user: the default ranges, which cover 65535 pods', async (t) => {
  t.same(checkUserNamespaceManager(input(), tree({})), { ok: true });
  t.same(checkUserNamespaceManager(input({ maxPods: 65535 }), tree({})), { ok: true });
  t.same(checkUserNamespaceManager(input({ maxPods: 65536 }), tree({})),
    { ok: false, error: 'create user namespace manager: kubelet user assigned IDs are not enough to support 65536 pods', path: '/etc/passwd' });
});

t.test('a "kubelet" user: getsubids on kubelet\'s PATH', async (t) => {
  const passwd = file(WITH_KUBELET);
  t.same(checkUserNamespaceManager(input({ passwd }), tree({})),
    { ok: false, error: 'create user namespace manager: kubelet mappings: exec: "getsubids": executable file not found in $PATH', path: '/etc/passwd' },
    'none: exec.Error, which os.IsNotExist does not unwrap');
  const found = checkUserNamespaceManager(input({ passwd }), tree({ '/usr/bin/getsubids': file('', 0o755) }));
  t.ok('undecidable' in found && found.path === '/usr/bin/getsubids', 'found: its output is not modelled');
  t.same(checkUserNamespaceManager(input({ passwd }), tree({ '/usr/bin/getsubids': file('', 0o644) })).hasOwnProperty('ok'), true, 'not executable: LookPath skips it');
  t.same(checkUserNamespaceManager(input({ passwd, path: '/opt/bin' }), tree({ '/usr/bin/getsubids': file('', 0o755), '/opt/bin': dir })),
    { ok: false, error: 'create user namespace manager: kubelet mappings: exec: "getsubids": executable file not found in $PATH', path: '/etc/passwd' }, 'the unit\'s PATH replaces systemd\'s');
  t.ok('undecidable' in checkUserNamespaceManager(input({ passwd, path: 'bin:/usr/bin' }), tree({})), 'a relative PATH entry');
  t.ok('undecidable' in checkUserNamespaceManager(input({ passwd, wrapped: true }), tree({})), 'a wrapper may set its own PATH');
  const copy = checkUserNamespaceManager(input({ passwd, hostRoot: false }), (p) => (p === '/usr/local/sbin' ? missing : tree({})(p)));
  t.ok('undecidable' in copy && /has no \/usr\/local\/sbin/.test(copy.undecidable), 'a --root copy without the directory');
  t.same(checkUserNamespaceManager(input({ passwd, hostRoot: false }), tree({})).hasOwnProperty('ok'), true, 'a copy that has every directory: decided');
  t.ok('undecidable' in checkUserNamespaceManager(input({ passwd }), () => undefined), 'not read');
});

t.test('the passwd entry as Go parses it', async (t) => {
  t.equal(kubeletUserEntry(Buffer.from(WITH_KUBELET)), 'found');
  t.equal(kubeletUserEntry(Buffer.from('  kubelet:x:900:900::/:/bin/false  \n')), 'found', 'trimmed');
  t.equal(kubeletUserEntry(Buffer.from('#kubelet:x:900:900::/:/bin/false\nkubeletx:x:1:1::/:/bin/sh\n')), 'absent');
  t.equal(kubeletUserEntry(Buffer.from('kubelet:x:nine:900::/:/bin/false\n')), 'malformed', 'Go wants numbers');
  t.equal(kubeletUserEntry(Buffer.from('kubelet:x:900:900:/\n')), 'malformed', 'fewer than six colons');
  t.same(checkUserNamespaceManager(input({ passwd: file('kubelet:x:nine:900::/:/bin/false\n') }), tree({})), { ok: true }, 'pure Go: no such user');
  t.ok('undecidable' in checkUserNamespaceManager(input({ lookup: 'cgo', passwd: file('kubelet:x:nine:900::/:/bin/false\n') }), tree({})), 'glibc may read it otherwise');
});

t.test('where LookPath looks', async (t) => {
  t.same(getsubidsCandidates(undefined), DIRS.map((d) => `${d}/getsubids`));
  t.same(getsubidsCandidates('/opt/bin/:/usr/bin'), ['/opt/bin/getsubids', '/usr/bin/getsubids']);
  t.equal(getsubidsCandidates('::/usr/bin'), undefined, 'an empty entry is "."');
});
