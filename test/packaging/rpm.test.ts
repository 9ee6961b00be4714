// The RPM, built for real by scripts/build-rpm.sh (rpmbuild from Debian's `rpm` package) and read
// back with rpm: the file list and modes, the files byte for byte, the config file's flags, the
// licences and bundled() Provides, the requirements (tried against stand-in nodejs packages with
// RHEL's epoch) and the scriptlets, which come from the systemd rpm macros. Then it is installed,
// upgraded and erased with `rpm --root` in a scratch root, where its scriptlets really run.
import t, { type Test } from 'tap';
import { spawnSync } from 'node:child_process';
import { createHash } from 'node:crypto';
import { chmodSync, copyFileSync, existsSync, lstatSync, mkdirSync, mkdtempSync, readdirSync, readFileSync, readlinkSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { requireTools } from '../harness/tools.js';
import { withoutCoverage } from '../harness/no-coverage.js';
import { INSTALLED_DOC_DIR } from '../../src/sinks/journal-entry.js';

const REPO = fileURLToPath(new URL('../..', import.meta.url));
const BUNDLE = join(REPO, 'dist/node-check.cjs');
const VERSION = (JSON.parse(readFileSync(join(REPO, 'package.json'), 'utf8')) as { version: string }).version;
const SPEC = join(REPO, 'packaging/rpm/node-check.spec');
const DOCS = ['README.md', 'fallback.md', 'json.md', 'operations.md', 'findings.md', 'node-check-report.schema.json', 'alertmanager-inhibit.yaml'];
const RUNBOOKS = readdirSync(join(REPO, 'docs/runbooks')).sort();
/** dist/bundled-packages.json: the npm packages in the bundle, as scripts/build.mjs listed them. */
const bundled = () => JSON.parse(readFileSync(join(REPO, 'dist/bundled-packages.json'), 'utf8')) as { name: string; version: string; license: string }[];

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
let builtSource: string | undefined;
function buildRpm(t: Test): string | undefined {
  if (built) return built;
  if (!existsSync(BUNDLE)) {
    t.fail(`${BUNDLE} is missing: run \`npm run build\` (npm test does)`);
    return undefined;
  }
  const out = mkdtempSync(join(tmpdir(), 'node-check-rpm-test-'));
  rootTest.teardown(() => rmSync(out, { recursive: true, force: true }));
  // Run as npm runs it (package.json "package:rpm"): the script is executable, with its shebang.
  const result = run(join(REPO, 'scripts/build-rpm.sh'), [out]);
  t.equal(result.code, 0, `scripts/build-rpm.sh: ${result.stderr}`);
  const paths = result.stdout.split('\n').filter(Boolean);
  t.same(paths, [join(out, `node-check-${VERSION}-1.noarch.rpm`), join(out, 'srpm', `node-check-${VERSION}-1.src.rpm`)], 'a noarch RPM and its source RPM, named after package.json');
  if (result.code !== 0 || paths.length !== 2 || !paths.every((p) => existsSync(p))) return undefined;
  [built, builtSource] = paths;
  return built;
}
const rootTest = t;

t.test('scripts/build-rpm.sh builds a noarch RPM from the bundle and the repository files', async (t) => {
  if (!requireTools(t, ['rpmbuild', 'rpm'])) return;
  const path = buildRpm(t);
  if (!path) return;
  // The licence of node-check and of every package bundled into it.
  const licences = [...new Set(bundled().map((p) => p.license))].filter((l) => l !== 'Apache-2.0').sort();
  t.ok(licences.includes('MIT') && licences.includes('ISC'), 'yargs (MIT) and yaml (ISC) among the bundled licences');
  t.same(rpm(['-qp', '--qf', '%{NAME} %{VERSION} %{RELEASE} %{ARCH} %{LICENSE}\n', path]), [`node-check ${VERSION} 1 noarch ${['Apache-2.0', ...licences].join(' AND ')}`]);
  // Offline by construction: every Source is a file name that build-rpm.sh copies into _sourcedir.
  const spec = readFileSync(SPEC, 'utf8');
  const sources = spec.split('\n').filter((l) => /^Source\d+:/.test(l));
  t.ok(sources.length > 0);
  for (const line of sources) t.match(line, /^Source\d+:\s+[\w.-]+$/, `${line.trim()}: a plain file name, no URL`);
  t.notMatch(spec, /^URL:/m, 'no URL: the project has no public home yet');
  t.notMatch(spec, /github\.com\/node-check/, 'no placeholder organisation');
  t.match(spec, /^Release:\s+\d+%\{\?dist\}$/m, 'Release carries %{?dist}');
  // A release without its changelog entry fails here.
  t.match(rpm(['-qp', '--changelog', path])[0], new RegExp(`^\\* \\w{3} \\w{3} \\d{2} \\d{4} .+ - ${VERSION.replace(/\./g, '\\.')}-1$`), `the newest %changelog entry is ${VERSION}-1`);
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
  // The spec fixes %_docdir_fmt: the same path on every build host, the one the alerts, units and
  // journal catalog name (INSTALLED_DOC_DIR).
  const docDir = INSTALLED_DOC_DIR;
  const licenseDir = [...listed.keys()].find((p) => /^\/usr\/share\/licenses\/node-check(-[^/]+)?$/.test(p));
  t.ok(licenseDir, 'a licence directory');
  // brp-compress gzips man pages where the build host's rpm has it (RHEL), not on Debian.
  const manPage = [...listed.keys()].find((p) => /^\/usr\/share\/man\/man1\/node-check\.1(\.gz)?$/.test(p));
  t.ok(manPage, 'the man page');
  const expected: Record<string, string> = {
    '/usr/bin/node-check': 'lrwxrwxrwx',
    '/usr/lib/node-check': 'drwxr-xr-x',
    '/usr/lib/node-check/node-check.cjs': '-rwxr-xr-x',
    '/usr/lib/node-check/node-check.bundle.cjs': '-rw-r--r--',
    '/usr/lib/node-check/node-check.bundle.cjs.map': '-rw-r--r--',
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
    '/usr/share/node-check/npd': 'drwxr-xr-x',
    '/usr/share/node-check/npd/node-check-plugin.json': '-rw-r--r--',
    '/usr/share/bash-completion/completions/node-check': '-rw-r--r--',
    '/usr/share/zsh/site-functions/_node-check': '-rw-r--r--',
    [manPage!]: '-rw-r--r--',
    [`${docDir}`]: 'drwxr-xr-x',
    ...Object.fromEntries(DOCS.map((f) => [`${docDir}/${f}`, '-rw-r--r--'])),
    [`${docDir}/runbooks`]: 'drwxr-xr-x',
    ...Object.fromEntries(RUNBOOKS.map((f) => [`${docDir}/runbooks/${f}`, '-rw-r--r--'])),
    [`${licenseDir}`]: 'drwxr-xr-x',
    [`${licenseDir}/LICENSE`]: '-rw-r--r--',
    [`${licenseDir}/THIRD_PARTY_LICENSES`]: '-rw-r--r--',
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
    '/usr/lib/node-check/node-check.bundle.cjs': 'dist/node-check.bundle.cjs',
    '/usr/lib/node-check/node-check.bundle.cjs.map': 'dist/node-check.bundle.cjs.map',
    '/usr/lib/systemd/system/kubelet.service.d/90-node-check.conf': 'systemd/kubelet.service.d/90-node-check.conf',
    '/usr/lib/systemd/system/node-check.service': 'systemd/node-check.service',
    '/usr/lib/systemd/system/node-check-precheck.service': 'systemd/node-check-precheck.service',
    '/usr/lib/systemd/catalog/node-check.catalog': 'systemd/node-check.catalog',
    '/etc/node-check/config.yaml': 'packaging/config/config.yaml',
    '/usr/share/node-check/prometheus/node-check.rules.yaml': 'packaging/prometheus/node-check.rules.yaml',
    '/usr/share/node-check/npd/node-check-plugin.json': 'packaging/npd/node-check-plugin.json',
  };
  for (const [installed, source] of Object.entries(sources)) {
    t.equal(digests.get(installed), sha256(join(REPO, source)), `${installed} = ${source}`);
  }
  // The completions are what the CLI itself prints.
  for (const [installed, shell] of [['/usr/share/bash-completion/completions/node-check', 'bash'], ['/usr/share/zsh/site-functions/_node-check', 'zsh']] as const) {
    const printed = run(process.execPath, [BUNDLE, 'completion', shell]).stdout;
    t.equal(digests.get(installed), createHash('sha256').update(printed).digest('hex'), `${installed} = node-check completion ${shell}`);
  }
  const thirdParty = [...digests.keys()].find((p) => p.endsWith('/THIRD_PARTY_LICENSES'));
  t.equal(digests.get(thirdParty!), sha256(join(REPO, 'dist/THIRD_PARTY_LICENSES')), `${thirdParty} = dist/THIRD_PARTY_LICENSES`);
  // The launcher, but for its interpreter: the system Node.js, never `env node`.
  const launcher = readFileSync(BUNDLE, 'utf8');
  t.equal(launcher.split('\n')[0], '#!/usr/bin/env node', 'dist/node-check.cjs as built');
  t.equal(digests.get('/usr/lib/node-check/node-check.cjs'), createHash('sha256').update(launcher.replace(/^#!\/usr\/bin\/env node\n/, '#!/usr/bin/node\n')).digest('hex'), 'the launcher with #!/usr/bin/node');
});

t.test('config.yaml is %config(noreplace), docs and licence are marked as such', async (t) => {
  if (!requireTools(t, ['rpmbuild', 'rpm'])) return;
  const path = buildRpm(t);
  if (!path) return;
  const flags = new Map(rpm(['-qp', '--qf', '[%{FILENAMES}\t%{FILEFLAGS:fflags}\n]', path]).map((line) => line.split('\t') as [string, string]));
  t.equal(flags.get('/etc/node-check/config.yaml'), 'cn', 'config, noreplace: local edits survive upgrades');
  t.same(rpm(['-qp', '--configfiles', path]), ['/etc/node-check/config.yaml'], 'the only config file');
  const docs = [...flags].filter(([, f]) => f === 'd').map(([p]) => p.split('/').pop());
  t.same(docs.sort(), [...DOCS, ...RUNBOOKS, 'node-check.1'].sort(), 'docs: the manuals, the runbooks the alerts link to, the man page');
  t.same([...flags].filter(([, f]) => f === 'l').map(([p]) => p.split('/').pop()), ['LICENSE', 'THIRD_PARTY_LICENSES'], '%license: ours and the bundled packages\'');
  t.equal(flags.get('/usr/bin/node-check'), '', 'the command is a plain (non-config) file');
});

t.test('requirements: nodejs >= 1:20 and util-linux; RHEL\'s nodejs 1:16 does not satisfy it; bundled() Provides', async (t) => {
  if (!requireTools(t, ['rpmbuild', 'rpm'])) return;
  const path = buildRpm(t);
  if (!path) return;
  const requires = rpm(['-qp', '--requires', path]);
  // Installed after systemd when both are in one transaction (%systemd_ordering), never required.
  t.same(rpm(['-qp', '--qf', '[%{ORDERNAME}\n]', path]), ['systemd', 'systemd', 'systemd'], 'ordered after systemd for post, preun, postun');
  t.same(
    rpm(['-qp', '--provides', path]).filter((p) => p.startsWith('bundled(')).sort(),
    bundled().map((p) => `bundled(npm(${p.name})) = ${p.version}`).sort(),
    'Provides: bundled(npm(NAME)) = VERSION for exactly the bundled packages',
  );
  t.ok(requires.includes('nodejs >= 1:20'), 'nodejs >= 1:20');
  t.ok(requires.includes('util-linux'), 'util-linux (logger)');
  t.ok(requires.includes('/usr/bin/node'), "the launcher's interpreter");
  t.notOk(requires.includes('/usr/bin/env'), 'no #!/usr/bin/env');
  const unexpected = requires.filter((r) => !['nodejs >= 1:20', 'util-linux', '/bin/sh', '/usr/bin/node'].includes(r) && !/^rpmlib\(|^config\(node-check\) = /.test(r));
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

t.test('rpmlint: nothing beyond the filters explained in node-check.rpmlintrc', async (t) => {
  if (!requireTools(t, ['rpmbuild', 'rpm', 'rpmlint'])) return;
  const path = buildRpm(t);
  if (!path || !builtSource) return;
  const lint = run('rpmlint', ['-r', join(REPO, 'packaging/rpm/node-check.rpmlintrc'), path, builtSource]);
  const clean = /\b2 packages and 0 specfiles checked; 0 errors, 0 warnings\b/;
  if (lint.code !== 0 || !clean.test(lint.stdout)) t.comment(`${lint.stdout}${lint.stderr}`);
  t.equal(lint.code, 0, 'rpmlint exits 0');
  t.match(lint.stdout, clean, 'the RPM and the source RPM: 0 errors, 0 warnings');
});

t.test('the source RPM rebuilds, offline and without build-rpm.sh, into the same package', async (t) => {
  if (!requireTools(t, ['rpmbuild', 'rpm'])) return;
  const path = buildRpm(t);
  if (!path || !builtSource) return;
  const sources = rpm(['-qlp', builtSource]);
  t.ok(sources.includes('node-check.spec') && sources.includes('node-check.bundle.cjs') && sources.includes('bundled.inc'), 'spec and every source inside');
  const top = t.testdir({});
  // As build-rpm.sh does on a host without the systemd rpm macros or an rpm database of its own.
  const haveMacros = run('rpm', ['--eval', '%{?systemd_post:defined}']).stdout.trim() === 'defined';
  const options = [...(haveMacros ? [] : ['--load', join(REPO, 'packaging/rpm/macros.systemd-fallback')]), ...(run('rpm', ['-q', 'rpm']).code === 0 ? [] : ['--nodeps'])];
  const rebuilt = run('rpmbuild', ['--rebuild', '--quiet', ...options, '--define', `_topdir ${top}`, builtSource]);
  t.equal(rebuilt.code, 0, `rpmbuild --rebuild: ${rebuilt.stderr}`);
  const again = join(top, 'RPMS', 'noarch', `node-check-${VERSION}-1.noarch.rpm`);
  if (!existsSync(again)) return;
  // path, size, digest, mode, owner, group, flags (not mtime): the same files, and the same header facts.
  const payload = (p: string) => rpm(['-qp', '--dump', p]).map((l) => l.split(' ')).map((f) => [f[0], f[1], f[3], f[4], f[5], f[6], f[7], f[8], f[10]].join(' '));
  t.same(payload(again), payload(path), 'same files, byte for byte');
  const facts = (p: string) => rpm(['-qp', '--qf', '%{NVRA} %{LICENSE}\n', '--requires', '--provides', '--scripts', p]);
  t.same(facts(again), facts(path), 'same name, licence, requirements, provides and scriptlets');
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

/** The spec's text of one section (`%post`, …), up to the next section. */
function specSection(spec: string, name: string): string {
  const start = spec.indexOf(`\n${name}\n`);
  if (start < 0) return '';
  const rest = spec.slice(start + name.length + 2);
  const end = rest.search(/^%(post|preun|postun|files|changelog|install|prep|build|description)\b/m);
  return end < 0 ? rest : rest.slice(0, end);
}

const UNITS = 'node-check.service node-check-precheck.service';

t.test('scriptlets: the systemd rpm macros, no hand-written systemctl, node-check.prom removed on erase', async (t) => {
  if (!requireTools(t, ['rpmbuild', 'rpm'])) return;
  const path = buildRpm(t);
  if (!path) return;
  const spec = readFileSync(SPEC, 'utf8');
  t.match(specSection(spec, '%post'), new RegExp(`^%systemd_post ${UNITS}$`, 'm'));
  t.match(specSection(spec, '%preun'), new RegExp(`^%systemd_preun ${UNITS}$`, 'm'));
  t.match(specSection(spec, '%postun'), /^%systemd_postun_with_restart node-check\.service$/m, 'serve restarts on upgrade');
  t.match(specSection(spec, '%postun'), /^%systemd_postun node-check-precheck\.service$/m, 'the oneshot is not restarted');
  for (const name of ['%post', '%preun', '%postun']) {
    const code = specSection(spec, name).split('\n').filter((l) => !/^\s*#/.test(l)).join('\n');
    t.notMatch(code, /systemctl|journalctl|daemon-reload/, `${name}: nothing by hand (systemd's file triggers reload it and update the catalog)`);
  }
  t.match(spec, /^BuildRequires:\s+systemd-rpm-macros$/m);

  // What the packaged scriptlets hold is what the macros expand to on this build host (the real
  // ones where installed, packaging/rpm/macros.systemd-fallback where rpmbuild has none, as here).
  const haveMacros = run('rpm', ['--eval', '%{?systemd_post:defined}']).stdout.trim() === 'defined';
  const load = haveMacros ? [] : ['--load', join(REPO, 'packaging/rpm/macros.systemd-fallback')];
  const expand = (macro: string) => rpm([...load, '--eval', macro]).map((l) => l.trimEnd()).join('\n');
  const scripts = scriptlets(path);
  t.same(Object.keys(scripts).sort(), ['postinstall', 'postuninstall', 'preuninstall']);
  const trimmed = (name: string) => scripts[name]!.split('\n').map((l) => l.trimEnd()).filter(Boolean).join('\n');
  t.ok(trimmed('postinstall').includes(expand(`%systemd_post ${UNITS}`)), 'postinstall = %systemd_post');
  t.ok(trimmed('preuninstall').includes(expand(`%systemd_preun ${UNITS}`)), 'preuninstall = %systemd_preun');
  t.ok(trimmed('postuninstall').includes(expand('%systemd_postun_with_restart node-check.service')), 'postuninstall has %systemd_postun_with_restart');
  t.match(scripts.postuninstall, /if \[ "\$1" -eq 0 \]; then\n(.*\n)*\s+rm -f \/var\/lib\/node_exporter\/textfile_collector\/node-check\.prom/, 'erase removes the textfile');
  for (const name of Object.keys(scripts)) t.notMatch(scripts[name]!, /kubelet\.service|restart kubelet/, `${name} never touches kubelet`);
});

/**
 * A scratch root where rpm can run the scriptlets (it chroots into it): a shell, `rm`, the C
 * library they need, and a stand-in for systemd's update helper that records its calls in
 * /helper.calls, as the systemd macros call it on RHEL 9.
 */
function scratchRoot(dir: string): void {
  const copyIn = (from: string, to = from) => {
    mkdirSync(join(dir, dirname(to)), { recursive: true });
    copyFileSync(from, join(dir, to));
    chmodSync(join(dir, to), lstatSync(from).mode & 0o7777);
  };
  copyIn('/bin/sh', '/bin/sh');
  copyIn('/bin/rm', '/bin/rm');
  for (const binary of ['/bin/sh', '/bin/rm']) {
    // ldd: "libc.so.6 => /lib/x86_64-linux-gnu/libc.so.6 (0x…)" and "/lib64/ld-linux-x86-64.so.2 (0x…)"
    for (const match of run('ldd', [binary]).stdout.matchAll(/(?:=> )?(\/\S+) \(0x/g)) copyIn(match[1]!);
  }
  const helper = join(dir, 'usr/lib/systemd/systemd-update-helper');
  mkdirSync(dirname(helper), { recursive: true });
  writeFileSync(helper, '#!/bin/sh\necho "$*" >> /helper.calls\n', { mode: 0o755 });
}

t.test('installed, upgraded and erased in a scratch root: paths, modes, scriptlets, config and node-check.prom', async (t) => {
  if (!requireTools(t, ['rpmbuild', 'rpm', 'ldd', 'unshare'])) return;
  const path = buildRpm(t);
  if (!path) return;
  const root = t.testdir({});
  scratchRoot(root);
  // rpm chroots into the root to run scriptlets: as root directly, otherwise as root of a user namespace.
  const asRoot = process.getuid?.() === 0 ? [] : ['unshare', '--map-root-user'];
  const rpmIn = (args: readonly string[]) => {
    const argv = [...asRoot, 'rpm', '--root', root, '--dbpath', '/var/lib/rpm', ...args];
    const result = run(argv[0]!, argv.slice(1));
    t.equal(result.code, 0, `rpm ${args.join(' ')}: ${result.stderr}`);
    // Debian's rpm warns that it is not the package manager; nothing else may be said.
    return result.stderr.split('\n').filter((l) => l !== '' && !/^rpm: (RPM should not be used|However assuming)/.test(l));
  };
  const calls = () => (existsSync(join(root, 'helper.calls')) ? readFileSync(join(root, 'helper.calls'), 'utf8').trim().split('\n') : []);
  const at = (p: string) => join(root, p);
  const mode = (p: string) => (lstatSync(at(p)).mode & 0o7777).toString(8);

  rpmIn(['--initdb']);
  t.same(rpmIn(['-i', '--nodeps', path]), [], 'install: no warnings, scriptlets succeed');
  t.same(calls(), [`install-system-units ${UNITS}`], 'install: %systemd_post presets both units');
  t.equal(readlinkSync(at('usr/bin/node-check')), '../lib/node-check/node-check.cjs');
  t.equal(mode('usr/lib/node-check/node-check.cjs'), '755', 'launcher 0755');
  t.equal(readFileSync(at('usr/lib/node-check/node-check.cjs'), 'utf8').split('\n')[0], '#!/usr/bin/node', 'run by the system Node.js');
  for (const file of ['usr/lib/node-check/node-check.bundle.cjs', 'usr/lib/node-check/node-check.bundle.cjs.map', 'usr/lib/systemd/system/node-check.service',
    'usr/lib/systemd/system/node-check-precheck.service', 'usr/lib/systemd/system/kubelet.service.d/90-node-check.conf', 'etc/node-check/config.yaml']) {
    t.equal(mode(file), '644', `${file} 0644`);
  }
  for (const dir of ['usr/lib/node-check', 'var/cache/node-check', 'etc/node-check']) t.equal(mode(dir), '755', `${dir}/ 0755`);
  const licences = run('find', [at('usr/share/licenses'), '-type', 'f']).stdout.split('\n').filter(Boolean).map((p) => p.split('/').pop()).sort();
  t.same(licences, ['LICENSE', 'THIRD_PARTY_LICENSES'], 'licence files on disk');
  // The installed command runs (the launcher, from its link), and the bundle runs with its source map.
  t.equal(run(...withoutCoverage(process.execPath, [at('usr/bin/node-check'), '--version'])).stdout.trim(), VERSION, 'installed node-check --version');
  t.equal(run(...withoutCoverage(process.execPath, ['--enable-source-maps', at('usr/lib/node-check/node-check.bundle.cjs'), '--version'])).stdout.trim(), VERSION, 'the bundle under --enable-source-maps');
  // Outside a real /usr the launcher keeps its code cache beside the bundle: not the package's, so gone.
  for (const name of readdirSync(at('usr/lib/node-check'))) if (name.endsWith('.v8cache')) rmSync(at(`usr/lib/node-check/${name}`));

  // What a running node leaves: metrics, a code cache, a local edit of the settings.
  const prom = 'var/lib/node_exporter/textfile_collector/node-check.prom';
  mkdirSync(dirname(at(prom)), { recursive: true });
  writeFileSync(at(prom), 'nodecheck_kubelet_start_ok 1\n');
  writeFileSync(at('var/cache/node-check/node-check.0123.check.v20-x64.v8cache'), 'cache');
  writeFileSync(at('etc/node-check/config.yaml'), `${readFileSync(at('etc/node-check/config.yaml'), 'utf8')}# local edit\n`);

  t.same(rpmIn(['-U', '--replacepkgs', '--nodeps', path]), [], 'upgrade (reinstall): no warnings');
  t.same(calls().slice(1), ['mark-restart-system-units node-check.service'], 'upgrade: serve marked for restart, nothing disabled');
  t.ok(existsSync(at(prom)), 'upgrade keeps node-check.prom');
  t.notOk(existsSync(at('var/cache/node-check/node-check.0123.check.v20-x64.v8cache')), 'upgrade drops old code caches');
  t.match(readFileSync(at('etc/node-check/config.yaml'), 'utf8'), /# local edit\n$/, 'upgrade keeps the edited settings (noreplace)');

  t.same(rpmIn(['-e', 'node-check']), ['warning: /etc/node-check/config.yaml saved as /etc/node-check/config.yaml.rpmsave'], 'erase: only the .rpmsave warning');
  t.same(calls().slice(2), [`remove-system-units ${UNITS}`], 'erase: %systemd_preun disables and stops both units');
  t.notOk(existsSync(at(prom)), 'erase removes node-check.prom');
  t.ok(existsSync(dirname(at(prom))), "erase leaves node_exporter's directory");
  t.ok(existsSync(at('etc/node-check/config.yaml.rpmsave')), 'the edited settings are kept as .rpmsave');
  for (const gone of ['usr/bin/node-check', 'usr/lib/node-check', 'var/cache/node-check', 'usr/lib/systemd/system/node-check.service', 'usr/lib/systemd/system/kubelet.service.d']) {
    t.notOk(existsSync(at(gone)), `erase removes /${gone}`);
  }
});
