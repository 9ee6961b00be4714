import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import t from 'tap';
import { RootFs } from '../../src/host/root-fs.js';
import { loadService } from '../../src/systemd/load-service.js';
import { makeTempRoot, type TempRootSpec } from './temp-root.js';

const ETC = '/etc/systemd/system';
const LIB = '/usr/lib/systemd/system';
const unit = (exec: string, extra = '') => `[Unit]\nDescription=kubelet\n\n[Service]\n${extra}ExecStart=${exec}\n`;
const load = (t: { teardown(fn: () => void): void }, spec: TempRootSpec, name = 'kubelet.service', version: number | 'detect' = 252) =>
  loadService(makeTempRoot(spec, t.teardown), name, version === 'detect' ? {} : { systemdVersion: version });
const fatalMessages = (m: ReturnType<typeof loadService>) => m.diagnostics.filter((d) => d.severity === 'fatal').map((d) => d.message);

t.test('the first search path holding the unit wins: /etc over /usr/lib', async (t) => {
  const m = load(t, { files: { [`${LIB}/kubelet.service`]: unit('/usr/bin/kubelet --from=lib'), [`${ETC}/kubelet.service`]: unit('/usr/bin/kubelet --from=etc') } });
  t.equal(m.fragmentPath, `${ETC}/kubelet.service`);
  t.same(m.execStart?.argv, ['/usr/bin/kubelet', '--from=etc']);
  t.same(m.diagnostics, []);
});

t.test('/run and /usr/local/lib sit between /etc and /usr/lib', async (t) => {
  const m = load(t, { files: { [`${LIB}/kubelet.service`]: unit('/bin/lib'), '/usr/local/lib/systemd/system/kubelet.service': unit('/bin/local'), '/run/systemd/system/kubelet.service': unit('/bin/run') } });
  t.equal(m.fragmentPath, '/run/systemd/system/kubelet.service');
  const m2 = load(t, { files: { [`${LIB}/kubelet.service`]: unit('/bin/lib'), '/usr/local/lib/systemd/system/kubelet.service': unit('/bin/local') } });
  t.equal(m2.fragmentPath, '/usr/local/lib/systemd/system/kubelet.service');
  const m3 = load(t, { files: { '/lib/systemd/system/kubelet.service': unit('/bin/lib') } });
  t.equal(m3.fragmentPath, '/lib/systemd/system/kubelet.service');
});

t.test('a unit found nowhere is fatal', async (t) => {
  const m = load(t, { dirs: [ETC] });
  t.match(fatalMessages(m)[0], /unit kubelet.service not found/);
  t.equal(m.execStart, undefined);
});

t.test('an invalid unit name is fatal', async (t) => {
  t.match(fatalMessages(load(t, { dirs: [ETC] }, 'not a unit'))[0], /not a valid unit name/);
});

t.test('a unit linked to /dev/null is masked, even with a real file below it', async (t) => {
  const m = load(t, { files: { [`${LIB}/kubelet.service`]: unit('/usr/bin/kubelet') }, symlinks: { [`${ETC}/kubelet.service`]: '/dev/null' } });
  t.equal(m.fragmentPath, `${ETC}/kubelet.service`);
  t.equal(m.diagnostics.length, 1);
  t.match(fatalMessages(m)[0], /^unit is masked/);
  t.equal(m.execStart, undefined);
});

t.test('an empty unit file is masked too', async (t) => {
  t.match(fatalMessages(load(t, { files: { [`${ETC}/kubelet.service`]: '' } }))[0], /^unit is masked/);
});

t.test('a link to a file outside the search paths is the unit file itself (linked unit)', async (t) => {
  const m = load(t, { files: { '/opt/kube/kubelet.service': unit('/opt/kube/kubelet') }, symlinks: { [`${ETC}/kubelet.service`]: '/opt/kube/kubelet.service' } });
  t.equal(m.fragmentPath, `${ETC}/kubelet.service`);
  t.same(m.execStart?.argv, ['/opt/kube/kubelet']);
});

t.test('a link to the same name in a lower search path is ignored (self-alias)', async (t) => {
  const m = load(t, { files: { [`${LIB}/kubelet.service`]: unit('/usr/bin/kubelet') }, symlinks: { [`${ETC}/kubelet.service`]: `${LIB}/kubelet.service` } });
  t.equal(m.fragmentPath, `${LIB}/kubelet.service`);
});

t.test('an alias loads the target unit, with the drop-ins of both names', async (t) => {
  const m = load(t, {
    files: {
      [`${LIB}/kube.service`]: unit('/usr/bin/kubelet $A $B'),
      [`${ETC}/kubelet.service.d/10-a.conf`]: '[Service]\nEnvironment=A=--a\n',
      [`${ETC}/kube.service.d/20-b.conf`]: '[Service]\nEnvironment=B=--b\n',
    },
    symlinks: { [`${ETC}/kubelet.service`]: 'kube.service' },
  });
  // A relative link resolves in its directory: /etc/systemd/system/kube.service does not exist, so
  // the name kube.service is looked up through all search paths.
  t.equal(m.fragmentPath, `${LIB}/kube.service`);
  t.same(m.execStart?.argv, ['/usr/bin/kubelet', '--a', '--b']);
});

t.test('an instance without its own file uses the template, with %i', async (t) => {
  const m = load(t, { files: { [`${LIB}/kubelet@.service`]: unit('/usr/bin/kubelet --node=%i --unit=%n') } }, 'kubelet@worker-1.service');
  t.equal(m.fragmentPath, `${LIB}/kubelet@.service`);
  t.same(m.execStart?.argv, ['/usr/bin/kubelet', '--node=worker-1', '--unit=kubelet@worker-1.service']);
});

t.test('drop-ins: /etc hides the same name in /usr/lib, all apply in file-name order after the unit', async (t) => {
  const m = load(t, {
    files: {
      [`${LIB}/kubelet.service`]: unit('/usr/bin/kubelet $A', 'Environment=A=unit\n'),
      [`${LIB}/kubelet.service.d/10-a.conf`]: '[Service]\nEnvironment=A=lib-10\n',
      [`${LIB}/kubelet.service.d/30-c.conf`]: '[Service]\nEnvironment=A=lib-30\n',
      [`${ETC}/kubelet.service.d/30-c.conf`]: '[Service]\nEnvironment=A=etc-30\n',
      [`/run/systemd/system/kubelet.service.d/20-b.conf`]: '[Service]\nEnvironment=A=run-20\n',
      [`${ETC}/kubelet.service.d/notes.txt`]: 'not a drop-in',
    },
  });
  t.same(m.dropInPaths, [`${LIB}/kubelet.service.d/10-a.conf`, '/run/systemd/system/kubelet.service.d/20-b.conf', `${ETC}/kubelet.service.d/30-c.conf`]);
  t.same(m.execStart?.argv, ['/usr/bin/kubelet', 'etc-30']);
});

t.test('a drop-in linked to /dev/null or empty masks the same name below and adds nothing', async (t) => {
  const m = load(t, {
    files: {
      [`${LIB}/kubelet.service`]: unit('/usr/bin/kubelet $A $B'),
      [`${LIB}/kubelet.service.d/10-a.conf`]: '[Service]\nEnvironment=A=--a\n',
      [`${LIB}/kubelet.service.d/20-b.conf`]: '[Service]\nEnvironment=B=--b\n',
      [`${ETC}/kubelet.service.d/20-b.conf`]: '',
    },
    symlinks: { [`${ETC}/kubelet.service.d/10-a.conf`]: '/dev/null' },
  });
  t.same(m.dropInPaths, []);
  t.same(m.execStart?.argv, ['/usr/bin/kubelet']);
  t.same(m.diagnostics, []);
});

t.test('the type-wide service.d drop-ins apply too', async (t) => {
  const m = load(t, { files: { [`${LIB}/kubelet.service`]: unit('/usr/bin/kubelet $A'), [`${ETC}/service.d/50-all.conf`]: '[Service]\nEnvironment=A=--all\n' } });
  t.same(m.dropInPaths, [`${ETC}/service.d/50-all.conf`]);
  t.same(m.execStart?.argv, ['/usr/bin/kubelet', '--all']);
});

t.test('a dangling drop-in link is skipped with a warning', async (t) => {
  const m = load(t, { files: { [`${LIB}/kubelet.service`]: unit('/usr/bin/kubelet') }, symlinks: { [`${ETC}/kubelet.service.d/10-x.conf`]: '/nowhere.conf' } });
  t.same(m.dropInPaths, []);
  t.equal(m.diagnostics.length, 1);
  t.equal(m.diagnostics[0]!.severity, 'warning');
  t.match(m.diagnostics[0]!.message, /systemd skips this drop-in/);
});

t.test('a drop-in with a NUL byte is fatal and names the file', async (t) => {
  const m = load(t, { files: { [`${LIB}/kubelet.service`]: unit('/usr/bin/kubelet'), [`${ETC}/kubelet.service.d/10-x.conf`]: Buffer.from('[Service]\n\0') } });
  const fatal = m.diagnostics.find((d) => d.severity === 'fatal');
  t.equal(fatal?.file, `${ETC}/kubelet.service.d/10-x.conf`);
  t.equal(m.execStart, undefined);
});

t.test('a unit file larger than node-check reads is fatal', async (t) => {
  const m = load(t, { files: { [`${ETC}/kubelet.service`]: unit('/usr/bin/kubelet', `# ${'x'.repeat(100)}\n`.repeat(45_000)) } });
  t.match(fatalMessages(m)[0], /larger than 4 MiB/);
});

t.test('EnvironmentFile= values override Environment= regardless of order; later files win', async (t) => {
  const m = load(t, {
    files: {
      [`${ETC}/kubelet.service`]: unit('/usr/bin/kubelet $A $B $C', 'EnvironmentFile=/etc/one.env\nEnvironment=A=--unit-a B=--unit-b\nEnvironmentFile=/etc/two.env\n'),
      '/etc/one.env': 'A=--one-a\nC=--one-c\n',
      '/etc/two.env': 'C=--two-c\n',
    },
  });
  t.same(m.execStart?.argv, ['/usr/bin/kubelet', '--one-a', '--unit-b', '--two-c']);
  t.same(m.environment, { A: '--one-a', B: '--unit-b', C: '--two-c' });
  t.same(
    m.environmentFiles.map((f) => [f.path, f.optional, f.loaded]),
    [
      ['/etc/one.env', false, true],
      ['/etc/two.env', false, true],
    ],
  );
});

t.test('a missing optional environment file is fine; a missing required one makes systemd refuse to start', async (t) => {
  const m = load(t, { files: { [`${ETC}/kubelet.service`]: unit('/usr/bin/kubelet $X', 'EnvironmentFile=-/etc/optional.env\nEnvironmentFile=/etc/required.env\n') } });
  t.same(
    m.environmentFiles.map((f) => [f.path, f.optional, f.loaded]),
    [
      ['/etc/optional.env', true, false],
      ['/etc/required.env', false, false],
    ],
  );
  t.equal(m.diagnostics.length, 1);
  t.equal(m.diagnostics[0]!.severity, 'warning');
  t.match(m.diagnostics[0]!.message, /^systemd will refuse to start the unit: .*\/etc\/required\.env: no such file or directory/);
  t.same(m.execStart?.argv, ['/usr/bin/kubelet']);
  t.same(m.execStart?.unsetVariables, ['X']);
});

t.test('EnvironmentFile= patterns load every match in order', async (t) => {
  const m = load(t, {
    files: {
      [`${ETC}/kubelet.service`]: unit('/usr/bin/kubelet $A', 'EnvironmentFile=/etc/kubelet.d/*.env\n'),
      '/etc/kubelet.d/10.env': 'A=--ten\n',
      '/etc/kubelet.d/20.env': 'A=--twenty\n',
    },
  });
  t.same(m.execStart?.argv, ['/usr/bin/kubelet', '--twenty']);
  t.equal(m.environmentFiles[0]?.loaded, true);
});

t.test('environment files are read under the root, following symlinks there', async (t) => {
  const m = load(t, {
    files: { [`${ETC}/kubelet.service`]: unit('/usr/bin/kubelet $A', 'EnvironmentFile=/etc/kubelet.env\n'), '/var/lib/real.env': 'A=--real\n' },
    symlinks: { '/etc/kubelet.env': '/var/lib/real.env' },
  });
  t.same(m.execStart?.argv, ['/usr/bin/kubelet', '--real']);
});

t.test('with ":" nothing is expanded', async (t) => {
  const m = load(t, { files: { [`${ETC}/kubelet.service`]: unit(':/usr/bin/kubelet $A ${A}', 'Environment=A=x\n') } });
  t.same(m.execStart?.argv, ['/usr/bin/kubelet', '$A', '${A}']);
  t.equal(m.execStart?.prefixes, ':');
});

t.test('the detected systemd version is recorded and picks the unit-file rules', async (t) => {
  const text = '[Service]\nExecStart=/usr/bin/kubelet \\\n# --dropped \\\n  --v=2\n';
  const files = { [`${ETC}/kubelet.service`]: text, '/usr/lib/systemd/libsystemd-shared-239.so': '' };
  const old = load(t, { files }, 'kubelet.service', 'detect');
  t.equal(old.systemdVersion, 239);
  t.same(old.execStart?.argv, ['/usr/bin/kubelet', '#', '--dropped', '--v=2']);
  const modern = load(t, { files: { [`${ETC}/kubelet.service`]: text } }, 'kubelet.service', 252);
  t.same(modern.execStart?.argv, ['/usr/bin/kubelet', '--v=2']);
});

t.test('when the version is unknown a reading that differs on systemd 239 is reported', async (t) => {
  const m = load(t, { files: { [`${ETC}/kubelet.service`]: '[Service]\nExecStart=/usr/bin/kubelet \\\n# note\n  --v=2\n' } }, 'kubelet.service', 'detect');
  t.equal(m.systemdVersion, undefined);
  t.same(m.execStart?.argv, ['/usr/bin/kubelet', '--v=2']);
  t.equal(m.diagnostics.length, 1);
  t.match(m.diagnostics[0]!.message, /systemd 239 \(RHEL 8\) reads this file differently/);
  t.equal(m.diagnostics[0]!.line, 2);
});

t.test('same-named drop-ins in service.d and kubelet.service.d: the unit\'s wins on 252, service.d on RHEL 8\'s 239', async (t) => {
  const files = {
    [`${LIB}/kubelet.service`]: unit('/usr/bin/kubelet $A'),
    [`${ETC}/service.d/10-x.conf`]: '[Service]\nEnvironment=A=--type-wide\n',
    [`${LIB}/kubelet.service.d/10-x.conf`]: '[Service]\nEnvironment=A=--unit\n',
  };
  t.same(load(t, { files }, 'kubelet.service', 252).execStart?.argv, ['/usr/bin/kubelet', '--unit']);
  t.same(load(t, { files }, 'kubelet.service', 239).execStart?.argv, ['/usr/bin/kubelet', '--type-wide']);
});

t.test('a drop-in whose name is not UTF-8 is loaded, as systemd loads it (names are bytes)', async (t) => {
  const root = fs.mkdtempSync(path.join(os.tmpdir(), 'node-check-bytes-'));
  t.teardown(() => fs.rmSync(root, { recursive: true, force: true }));
  fs.mkdirSync(path.join(root, LIB), { recursive: true });
  fs.mkdirSync(path.join(root, ETC, 'kubelet.service.d'), { recursive: true });
  fs.writeFileSync(path.join(root, LIB, 'kubelet.service'), unit('/usr/bin/kubelet --from=unit'));
  // "10-\xff\xfe.conf": not UTF-8 (Node's default readdir would give U+FFFD, a name that does not open).
  const name = Buffer.concat([Buffer.from(`${path.join(root, ETC, 'kubelet.service.d')}/10-`), Buffer.from([0xff, 0xfe]), Buffer.from('.conf')]);
  fs.writeFileSync(name, '[Service]\nExecStart=\nExecStart=/usr/bin/kubelet --from=dropin\n');
  const loaded = loadService(new RootFs(root), 'kubelet.service', { systemdVersion: 252 });
  t.same(loaded.execStart?.argv, ['/usr/bin/kubelet', '--from=dropin'], 'the drop-in is read through its raw name');
  t.equal(loaded.dropInPaths.length, 1);
  t.match(loaded.dropInPaths[0], /\/10-\udcff\udcfe\.conf$/, 'each byte that is not UTF-8 is kept, escaped, in the path');
});
