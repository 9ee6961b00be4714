// The RPM, built for real by scripts/build-rpm.sh (rpmbuild from Debian's `rpm` package) and read
// back with rpm: the file list and modes, the bundle byte for byte, the config file's flags, the
// requirements (tried against stand-in nodejs packages with RHEL's epoch), and the scriptlets,
// which are also run with stand-in systemctl and journalctl in a private /run.
import t, { type Test } from 'tap';
import { spawnSync } from 'node:child_process';
import { createHash } from 'node:crypto';
import { existsSync, mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { requireTools } from '../harness/tools.js';
import { callsOf, PRIVATE_RUN_TOOLS, runInPrivateRun, writeStub } from './sandbox.js';

const REPO = fileURLToPath(new URL('../..', import.meta.url));
const BUNDLE = join(REPO, 'dist/node-check.cjs');
const VERSION = (JSON.parse(readFileSync(join(REPO, 'package.json'), 'utf8')) as { version: string }).version;

interface Run {
  readonly code: number | null;
  readonly stdout: string;
  readonly stderr: string;
}

function run(command: string, args: readonly string[], env: NodeJS.ProcessEnv = process.env): Run {
  const result = spawnSync(command, [...args], { encoding: 'utf8', env, timeout: 120_000 });
  if (result.error) throw result.error;
  return { code: result.status, stdout: result.stdout, stderr: result.stderr };
}

/** `rpm ARGS`, stdout lines. Debian's rpm warns on stderr about using rpm directly; that is ignored. */
function rpm(args: readonly string[]): string[] {
  const result = run('rpm', args);
  if (result.code !== 0) throw new Error(`rpm ${args.join(' ')} exited ${result.code}: ${result.stderr}`);
  return result.stdout.split('\n').filter((line) => line !== '');
}

const sha256 = (path: string) => createHash('sha256').update(readFileSync(path)).digest('hex');

/** Builds the RPM once per test file, into a directory removed when the file ends. */
let built: string | undefined;
function buildRpm(t: Test): string | undefined {
  if (built) return built;
  if (!existsSync(BUNDLE)) {
    t.fail(`${BUNDLE} is missing: run \`npm run build\` (npm test does)`);
    return undefined;
  }
  const out = mkdtempSync(join(tmpdir(), 'node-check-rpm-test-'));
  rootTest.teardown(() => rmSync(out, { recursive: true, force: true }));
  const result = run('bash', [join(REPO, 'scripts/build-rpm.sh'), out]);
  t.equal(result.code, 0, `scripts/build-rpm.sh: ${result.stderr}`);
  const paths = result.stdout.split('\n').filter(Boolean);
  t.same(paths, [join(out, `node-check-${VERSION}-1.noarch.rpm`)], 'one noarch RPM, named after package.json');
  if (result.code !== 0 || paths.length !== 1 || !existsSync(paths[0]!)) return undefined;
  built = paths[0]!;
  return built;
}
const rootTest = t;

t.test('scripts/build-rpm.sh builds a noarch RPM from the bundle and the repository files', async (t) => {
  if (!requireTools(t, ['rpmbuild', 'rpm'])) return;
  const path = buildRpm(t);
  if (!path) return;
  t.same(rpm(['-qp', '--qf', '%{NAME} %{VERSION} %{RELEASE} %{ARCH} %{LICENSE}\n', path]), [`node-check ${VERSION} 1 noarch Apache-2.0`]);
  // Offline by construction: every Source is a file name that build-rpm.sh copies into _sourcedir.
  const sources = readFileSync(join(REPO, 'packaging/rpm/node-check.spec'), 'utf8').split('\n').filter((l) => /^Source\d+:/.test(l));
  t.ok(sources.length > 0);
  for (const line of sources) t.match(line, /^Source\d+:\s+[\w.-]+$/, `${line.trim()}: a plain file name, no URL`);
});

t.test('the RPM installs exactly the expected files, with the expected modes', async (t) => {
  if (!requireTools(t, ['rpmbuild', 'rpm'])) return;
  const path = buildRpm(t);
  if (!path) return;
  // rpm -qlvp: "-rwxr-xr-x    1 root     root   562537 Nov 30 05:16 /usr/bin/node-check"
  const listed = new Map(rpm(['-qlvp', path]).map((line) => {
    // A link is listed as "… /usr/bin/node-check -> ../lib/node-check/node-check.cjs".
    const fields = line.trim().replace(/ -> \S+$/, '').split(/\s+/);
    return [fields[fields.length - 1]!, { mode: fields[0]!, owner: `${fields[2]}:${fields[3]}` }] as const;
  }));
  // %{_docdir}/%{name} on RHEL; Debian's rpm appends the version (%_docdir_fmt).
  const docDir = [...listed.keys()].find((p) => /^\/usr\/share\/doc\/node-check(-[^/]+)?$/.test(p));
  const licenseDir = [...listed.keys()].find((p) => /^\/usr\/share\/licenses\/node-check(-[^/]+)?$/.test(p));
  t.ok(docDir, 'a doc directory');
  t.ok(licenseDir, 'a licence directory');
  const expected: Record<string, string> = {
    '/usr/bin/node-check': 'lrwxrwxrwx',
    '/usr/lib/node-check': 'drwxr-xr-x',
    '/usr/lib/node-check/node-check.cjs': '-rwxr-xr-x',
    '/usr/lib/node-check/node-check.bundle.cjs': '-rw-r--r--',
    '/var/cache/node-check': 'drwxr-xr-x',
    '/usr/lib/systemd/system/kubelet.service.d': 'drwxr-xr-x',
    '/usr/lib/systemd/system/kubelet.service.d/90-node-check.conf': '-rw-r--r--',
    '/usr/lib/systemd/system/node-check.service': '-rw-r--r--',
    '/usr/lib/systemd/system/node-check-precheck.service': '-rw-r--r--',
    '/usr/lib/systemd/catalog/node-check.catalog': '-rw-r--r--',
    '/etc/node-check': 'drwxr-xr-x',
    '/etc/node-check/config.yaml': '-rw-r--r--',
    '/usr/share/node-check': 'drwxr-xr-x',
    '/usr/share/node-check/prometheus': 'drwxr-xr-x',
    '/usr/share/node-check/prometheus/node-check.rules.yaml': '-rw-r--r--',
    [`${docDir}`]: 'drwxr-xr-x',
    ...Object.fromEntries(['README.md', 'fallback.md', 'json.md', 'operations.md', 'findings.md'].map((f) => [`${docDir}/${f}`, '-rw-r--r--'])),
    [`${licenseDir}`]: 'drwxr-xr-x',
    [`${licenseDir}/LICENSE`]: '-rw-r--r--',
  };
  t.same([...listed.keys()].sort(), Object.keys(expected).sort(), 'rpm -qlp: the file list');
  for (const [file, mode] of Object.entries(expected)) {
    t.equal(listed.get(file)?.mode, mode, `${file} ${mode}`);
    t.equal(listed.get(file)?.owner, 'root:root', `${file} owned by root`);
  }
  t.notOk([...listed.keys()].some((p) => p.startsWith('/etc/systemd') || p.startsWith('/etc/kubernetes')), 'nothing under /etc/systemd or /etc/kubernetes');
});

t.test('the packaged files are the repository files, byte for byte', async (t) => {
  if (!requireTools(t, ['rpmbuild', 'rpm'])) return;
  const path = buildRpm(t);
  if (!path) return;
  // rpm --dump: path size mtime digest mode owner group isconfig isdoc rdev symlink
  const digests = new Map(rpm(['-qp', '--dump', path]).map((line) => {
    const [file, , , digest] = line.split(' ');
    return [file!, digest!] as const;
  }));
  const sources: Record<string, string> = {
    '/usr/lib/node-check/node-check.cjs': 'dist/node-check.cjs',
    '/usr/lib/node-check/node-check.bundle.cjs': 'dist/node-check.bundle.cjs',
    '/usr/lib/systemd/system/kubelet.service.d/90-node-check.conf': 'systemd/kubelet.service.d/90-node-check.conf',
    '/usr/lib/systemd/system/node-check.service': 'systemd/node-check.service',
    '/usr/lib/systemd/system/node-check-precheck.service': 'systemd/node-check-precheck.service',
    '/usr/lib/systemd/catalog/node-check.catalog': 'systemd/node-check.catalog',
    '/etc/node-check/config.yaml': 'packaging/config/config.yaml',
    '/usr/share/node-check/prometheus/node-check.rules.yaml': 'packaging/prometheus/node-check.rules.yaml',
  };
  for (const [installed, source] of Object.entries(sources)) {
    t.equal(digests.get(installed), sha256(join(REPO, source)), `${installed} = ${source}`);
  }
  t.equal(readFileSync(BUNDLE, 'utf8').split('\n')[0], '#!/usr/bin/env node', 'so the launcher keeps its shebang');
});

t.test('config.yaml is %config(noreplace), docs and licence are marked as such', async (t) => {
  if (!requireTools(t, ['rpmbuild', 'rpm'])) return;
  const path = buildRpm(t);
  if (!path) return;
  const flags = new Map(rpm(['-qp', '--qf', '[%{FILENAMES}\t%{FILEFLAGS:fflags}\n]', path]).map((line) => line.split('\t') as [string, string]));
  t.equal(flags.get('/etc/node-check/config.yaml'), 'cn', 'config, noreplace: local edits survive upgrades');
  t.same(rpm(['-qp', '--configfiles', path]), ['/etc/node-check/config.yaml'], 'the only config file');
  const docs = [...flags].filter(([, f]) => f === 'd').map(([p]) => p.split('/').pop());
  t.same(docs.sort(), ['README.md', 'fallback.md', 'findings.md', 'json.md', 'operations.md']);
  t.same([...flags].filter(([, f]) => f === 'l').map(([p]) => p.split('/').pop()), ['LICENSE']);
  t.equal(flags.get('/usr/bin/node-check'), '', 'the command is a plain (non-config) file');
});

t.test('requirements: nodejs >= 1:20 and util-linux; RHEL\'s nodejs 1:16 does not satisfy it', async (t) => {
  if (!requireTools(t, ['rpmbuild', 'rpm'])) return;
  const path = buildRpm(t);
  if (!path) return;
  const requires = rpm(['-qp', '--requires', path]);
  t.ok(requires.includes('nodejs >= 1:20'), 'nodejs >= 1:20');
  t.ok(requires.includes('util-linux'), 'util-linux (logger)');
  const unexpected = requires.filter((r) => !['nodejs >= 1:20', 'util-linux', '/bin/sh', '/usr/bin/env'].includes(r) && !/^rpmlib\(|^config\(node-check\) = /.test(r));
  t.same(unexpected, [], 'nothing else but rpmlib() and scriptlet/interpreter paths');

  // Fedora and RHEL build nodejs with Epoch 1 (nodejs.spec: %global nodejs_epoch 1). Stand-in
  // nodejs packages with that epoch, installed into a private rpm database, show which satisfy us.
  const dir = t.testdir({ SPECS: {} });
  const fakeNodejs = (version: string): string => {
    const spec = join(dir, 'SPECS', `nodejs-${version}.spec`);
    writeFileSync(spec, `Name: nodejs\nEpoch: 1\nVersion: ${version}\nRelease: 1\nSummary: stand-in\nLicense: MIT\nBuildArch: noarch\n%description\nstand-in\n%files\n`);
    const built = run('rpmbuild', ['-bb', '--quiet', '--define', `_topdir ${join(dir, 'top')}`, spec]);
    if (built.code !== 0) throw new Error(`rpmbuild ${spec}: ${built.stderr}`);
    return join(dir, 'top', 'RPMS', 'noarch', `nodejs-${version}-1.noarch.rpm`);
  };
  const missingNodejs = (nodejsVersion: string): string[] => {
    const db = join(dir, `db-${nodejsVersion}`);
    mkdirSync(db);
    rpm(['--dbpath', db, '--initdb']);
    rpm(['--dbpath', db, '-i', '--justdb', '--nodeps', fakeNodejs(nodejsVersion)]);
    const test = run('rpm', ['--dbpath', db, '-i', '--test', '--justdb', path]);
    // Other requirements (util-linux, /bin/sh) are missing from the private database; only nodejs counts.
    return test.stderr.split('\n').filter((line) => /\bnodejs\b.*is needed by/.test(line)).map((line) => line.trim());
  };
  t.same(missingNodejs('10.24.0'), [`nodejs >= 1:20 is needed by node-check-${VERSION}-1.noarch`], 'nodejs 1:10 (RHEL 8 default stream) is refused');
  t.same(missingNodejs('16.20.2'), [`nodejs >= 1:20 is needed by node-check-${VERSION}-1.noarch`], 'nodejs 1:16 (RHEL 9 default) is refused');
  t.same(missingNodejs('20.11.1'), [], 'nodejs 1:20 (the nodejs:20 module stream) satisfies it');
  t.same(missingNodejs('22.12.0'), [], 'nodejs 1:22 satisfies it');
});

/** The scriptlets by name, as `rpm -qp --scripts` prints them. */
function scriptlets(path: string): Record<string, string> {
  const found: Record<string, string> = {};
  let current: string | undefined;
  for (const line of rpm(['-qp', '--scripts', path])) {
    const header = /^(\w+) scriptlet \(using \/bin\/sh\):$/.exec(line);
    if (header) {
      current = header[1]!;
      found[current] = '';
    } else if (current) {
      found[current] += `${line}\n`;
    }
  }
  return found;
}

t.test('scriptlets: reload systemd and update the catalog only when there is a systemd, never fail', async (t) => {
  if (!requireTools(t, ['rpmbuild', 'rpm', ...PRIVATE_RUN_TOOLS])) return;
  const path = buildRpm(t);
  if (!path) return;
  const scripts = scriptlets(path);
  t.same(Object.keys(scripts).sort(), ['postinstall', 'postuninstall', 'preuninstall']);

  /** Runs one scriptlet as rpm does (`/bin/sh FILE $1`), with only stand-ins on PATH. */
  const runScriptlet = (name: string, arg: number, options: { systemdRunning: boolean; stubsFail?: boolean; withoutJournalctl?: boolean }) => {
    const dir = t.testdir({ stubs: {} });
    const stubs = join(dir, 'stubs');
    writeStub(stubs, 'systemctl', { exitCode: options.stubsFail ? 1 : 0 });
    if (!options.withoutJournalctl) writeStub(stubs, 'journalctl', { exitCode: options.stubsFail ? 1 : 0 });
    const file = join(dir, `${name}.sh`);
    writeFileSync(file, scripts[name]!);
    const result = runInPrivateRun(['/bin/sh', file, String(arg)], { env: { PATH: stubs }, systemdRunning: options.systemdRunning });
    return { code: result.code, systemctl: callsOf(stubs, 'systemctl'), journalctl: callsOf(stubs, 'journalctl') };
  };
  const RELOAD = 'daemon-reload';
  const UPDATE_CATALOG = '--update-catalog';

  t.same(runScriptlet('postinstall', 1, { systemdRunning: true }), { code: 0, systemctl: [RELOAD], journalctl: [UPDATE_CATALOG] }, 'install on a running systemd');
  t.same(runScriptlet('postinstall', 1, { systemdRunning: false }), { code: 0, systemctl: [], journalctl: [UPDATE_CATALOG] }, 'install into an image or chroot: no systemctl');
  t.same(runScriptlet('postinstall', 2, { systemdRunning: true, stubsFail: true }), { code: 0, systemctl: [RELOAD], journalctl: [UPDATE_CATALOG] }, 'failing systemctl and journalctl never fail the transaction');
  t.same(runScriptlet('postinstall', 1, { systemdRunning: true, withoutJournalctl: true }), { code: 0, systemctl: [RELOAD], journalctl: [] }, 'no journalctl: skipped');

  t.same(runScriptlet('preuninstall', 0, { systemdRunning: true }), { code: 0, systemctl: ['--no-reload disable --now node-check.service'], journalctl: [] }, 'erase: serve is stopped and disabled');
  t.same(runScriptlet('preuninstall', 1, { systemdRunning: true }), { code: 0, systemctl: [], journalctl: [] }, 'upgrade: serve keeps running');
  t.same(runScriptlet('preuninstall', 0, { systemdRunning: false }), { code: 0, systemctl: [], journalctl: [] }, 'erase without systemd: nothing to stop');

  t.same(runScriptlet('postuninstall', 1, { systemdRunning: true }), { code: 0, systemctl: [RELOAD, 'try-restart node-check.service'], journalctl: [] }, 'upgrade: serve restarts on the new version');
  t.same(runScriptlet('postuninstall', 0, { systemdRunning: true }), { code: 0, systemctl: [RELOAD], journalctl: [UPDATE_CATALOG] }, 'erase: reload, catalog without ours');
  t.same(runScriptlet('postuninstall', 0, { systemdRunning: false, stubsFail: true }), { code: 0, systemctl: [], journalctl: [UPDATE_CATALOG] }, 'erase without systemd');
  for (const name of Object.keys(scripts)) t.notMatch(scripts[name]!, /restart kubelet|kubelet\.service/, `${name} never touches kubelet`);
});
