import t from 'tap';
import { collectServiceSettings } from '../../src/systemd/service-settings.js';
import { parseUnitFile } from '../../src/systemd/unit-file.js';
import { parseUnitName } from '../../src/systemd/unit-name.js';

const unit = parseUnitName('kubelet.service')!;
const FRAGMENT = '/usr/lib/systemd/system/kubelet.service';
const DROPIN = '/etc/systemd/system/kubelet.service.d/10-kubeadm.conf';
const collect = (fragment: string, ...dropIns: string[]) => collectVersion(252, fragment, ...dropIns);
const collectVersion = (systemdVersion: number | undefined, fragment: string, ...dropIns: string[]) =>
  collectServiceSettings([parseUnitFile(fragment, FRAGMENT), ...dropIns.map((d, i) => parseUnitFile(d, `${DROPIN}.${i}`))], unit, systemdVersion === undefined ? {} : { systemdVersion });
const refusalOf = (s: ReturnType<typeof collect>) => (s.load.state === 'refused' ? s.load.refusal : undefined);

t.test('ExecStart= accumulates; an empty assignment resets the list', async (t) => {
  const s = collect('[Service]\nExecStart=/usr/bin/kubelet\nRestart=always\n', '[Service]\nExecStart=\nExecStart=/usr/bin/kubelet $KUBELET_KUBEADM_ARGS\n');
  t.same(
    s.execStart.map((c) => [c.words, c.source.file, c.source.line]),
    [[['/usr/bin/kubelet', '$KUBELET_KUBEADM_ARGS'], `${DROPIN}.0`, 3]],
  );
  t.same(s.diagnostics, []);
  t.equal(s.load.state, 'loaded');
});

t.test('only [Service] settings count', async (t) => {
  const s = collect('[Unit]\nExecStart=/bin/wrong\nEnvironment=A=1\n[Service]\nExecStart=/bin/right\n');
  t.same(s.execStart.map((c) => c.path), ['/bin/right']);
  t.equal(s.environment.size, 0);
});

t.test('two ExecStart= for a non-oneshot service: systemd refuses the unit (service_verify), naming the second', async (t) => {
  const s = collect('[Service]\nType=notify\nExecStart=/bin/a\nExecStart=/bin/b\n');
  t.same(s.execStart.map((c) => c.path), ['/bin/a', '/bin/b']);
  t.same(s.diagnostics, []);
  t.same(refusalOf(s), { loadState: 'bad-setting', by: 'service_verify', reason: 'Service has more than one ExecStart= setting, which is only allowed for Type=oneshot services. Refusing.', source: { file: FRAGMENT, line: 4 } });
  t.equal(collect('[Service]\nType=oneshot\nExecStart=/bin/a\nExecStart=/bin/b\n').load.state, 'loaded');
  // A drop-in that adds a command without "ExecStart=" first; one line with ";" is two commands too.
  t.same(refusalOf(collect('[Service]\nExecStart=/bin/a\n', '[Service]\nExecStart=/bin/b\n'))?.source, { file: `${DROPIN}.0`, line: 2 });
  t.match(refusalOf(collect('[Service]\nExecStart=/bin/a ; /bin/b\n'))?.reason, /more than one ExecStart=/);
});

t.test('no ExecStart= at all: the refusal and its text follow the systemd version', async (t) => {
  const s = collect('[Service]\nExecStart=/bin/a\n', '[Service]\nExecStart=\n');
  t.same(s.execStart, []);
  // Type= unset and no ExecStart= makes it oneshot (service_add_extras); then the first check refuses.
  t.equal(refusalOf(s)?.reason, 'Service has no ExecStart=, ExecStop=, or SuccessAction=. Refusing.');
  t.equal(refusalOf(collectVersion(239, '[Service]\nExecStart=/bin/a\n', '[Service]\nExecStart=\n'))?.reason, 'Service lacks both ExecStart= and ExecStop= setting. Refusing.');
  t.equal(refusalOf(collect('[Service]\nType=simple\nExecStop=/bin/b\n'))?.reason, 'Service has no ExecStart= setting, which is only allowed for Type=oneshot services. Refusing.');
  t.equal(refusalOf(collect('[Service]\nExecStop=/bin/b\n'))?.reason, 'Service has no ExecStart= and no SuccessAction= settings and does not have RemainAfterExit=yes set. Refusing.');
  t.equal(collect('[Service]\nExecStop=/bin/b\nRemainAfterExit=yes\n').load.state, 'loaded', 'a oneshot with ExecStop= and RemainAfterExit= loads');
  t.equal(collect('[Unit]\nSuccessAction=reboot\n[Service]\nType=oneshot\n').load.state, 'loaded');
});

t.test('Type=oneshot with Restart=, Type=dbus without BusName=: refused as the version refuses', async (t) => {
  t.match(refusalOf(collect('[Service]\nType=oneshot\nRestart=always\nExecStart=/bin/a\n'))?.reason, /Restart= set to either always or on-success/);
  t.equal(collect('[Service]\nType=oneshot\nRestart=on-failure\nExecStart=/bin/a\n').load.state, 'loaded');
  t.match(refusalOf(collectVersion(239, '[Service]\nType=oneshot\nRestart=on-failure\nExecStart=/bin/a\n'))?.reason, /Restart= setting other than no/);
  const unknown = collectVersion(undefined, '[Service]\nType=oneshot\nRestart=on-failure\nExecStart=/bin/a\n');
  t.ok(unknown.diagnostics.some((d) => d.severity === 'fatal'), 'without the version: cannot tell');
  t.match(refusalOf(collect('[Service]\nType=dbus\nExecStart=/bin/a\n'))?.reason, /no D-Bus service name/);
  t.equal(collect('[Service]\nBusName=org.x\nExecStart=/bin/a\n').load.state, 'loaded', 'BusName= alone makes it dbus, named');
});

t.test('an unknown specifier in a drop-in\'s ExecStart= drops it and the rest of the drop-in; the unit then has none', async (t) => {
  // Observed with systemd-analyze verify 252: "…10-x.conf:3: Failed to resolve unit specifiers in --%Z: Invalid slot",
  // then "Service has no ExecStart=, ExecStop=, or SuccessAction=. Refusing."
  const s = collect('[Service]\nExecStart=/usr/bin/kubelet\n', '[Service]\nExecStart=\nExecStart=/usr/bin/kubelet --%Z\nEnvironment=A=1\n');
  t.equal(refusalOf(s)?.reason, 'Service has no ExecStart=, ExecStop=, or SuccessAction=. Refusing.');
  t.equal(s.environment.size, 0, 'the rest of the drop-in is ignored');
  t.match(s.diagnostics.map((d) => d.message).join('\n'), /Failed to resolve unit specifiers in --%Z: Invalid slot; systemd ignores the rest of this drop-in/);
  // In the unit file itself: the load fails (bad-setting).
  t.same(refusalOf(collect('[Service]\nExecStart=/usr/bin/kubelet --%Z\n')), { loadState: 'bad-setting', by: 'config_parse', reason: 'Failed to resolve unit specifiers in --%Z: Invalid slot', source: { file: FRAGMENT, line: 2 } });
  // %A is known from v249: fine on 252, refused on 239, cannot tell without a version (never a refusal then).
  t.equal(collect('[Service]\nExecStart=/usr/bin/kubelet --%A\n').load.state, 'loaded');
  t.equal(collectVersion(239, '[Service]\nExecStart=/usr/bin/kubelet --%A\n').load.state, 'refused');
  const unknown = collectVersion(undefined, '[Service]\nExecStart=/usr/bin/kubelet --%A\n');
  t.equal(unknown.load.state, 'loaded');
  t.ok(unknown.diagnostics.some((d) => d.severity === 'fatal'));
  const mayRefuse = collectVersion(undefined, '[Service]\nExecStart=/usr/bin/kubelet\n', '[Service]\nExecStart=\nExecStart=/usr/bin/kubelet --%A\nExecStart=/usr/bin/kubelet\n');
  t.equal(mayRefuse.load.state, 'loaded', 'a refusal that depends on what node-check cannot tell is not claimed');
  t.ok(mayRefuse.diagnostics.some((d) => d.severity === 'fatal' && /may refuse/.test(d.message)));
});

t.test('an unknown specifier in Environment=, EnvironmentFile=, UnsetEnvironment= drops that word or line only', async (t) => {
  const s = collect('[Service]\nEnvironment=A=%Z B=2\nEnvironmentFile=/etc/%Z.env\nUnsetEnvironment=%Z C\nExecStart=/bin/a\n');
  t.same(Object.fromEntries(s.environment), { B: '2' });
  t.same(s.environmentFiles, []);
  t.same(s.unsetEnvironment, ['C']);
  t.equal(s.load.state, 'loaded');
  t.equal(s.diagnostics.filter((d) => /Failed to resolve unit specifiers/.test(d.message)).length, 3);
});

t.test('Environment= accumulates with later names winning; empty resets', async (t) => {
  const s = collect('[Service]\nEnvironment="A=1" "B=2"\nEnvironment=A=3\nExecStart=/bin/a\n', '[Service]\nEnvironment=C=4\n');
  t.same(Object.fromEntries(s.environment), { A: '3', B: '2', C: '4' });
  const reset = collect('[Service]\nEnvironment=A=1\nExecStart=/bin/a\n', '[Service]\nEnvironment=\nEnvironment=B=2\n');
  t.same(Object.fromEntries(reset.environment), { B: '2' });
});

t.test('EnvironmentFile= entries keep order, "-" marks optional, empty resets, relative paths are ignored', async (t) => {
  const s = collect('[Service]\nEnvironmentFile=/etc/os-release\nEnvironmentFile=-/etc/kubernetes/kubelet-env\nEnvironmentFile=relative.env\nExecStart=/bin/a\n');
  t.same(
    s.environmentFiles.map((f) => [f.path, f.optional, f.source.line]),
    [
      ['/etc/os-release', false, 2],
      ['/etc/kubernetes/kubelet-env', true, 3],
    ],
  );
  t.match(s.diagnostics[0]!.message, /not absolute/);
  t.same(collect('[Service]\nEnvironmentFile=/a\nExecStart=/bin/a\n', '[Service]\nEnvironmentFile=\n').environmentFiles, []);
});

t.test('UnsetEnvironment= collects names and assignments', async (t) => {
  t.same(collect('[Service]\nUnsetEnvironment=A "B=2" 3bad\nExecStart=/bin/a\n').unsetEnvironment, ['A', 'B=2']);
});

t.test('an invalid Type= is ignored with a warning', async (t) => {
  const s = collect('[Service]\nType=notify\nType=sometimes\nExecStart=/bin/a\nExecStart=/bin/b\n');
  t.equal(s.type, 'notify');
  t.match(s.diagnostics[0]!.message, /Failed to parse service type, ignoring: sometimes/);
});

t.test('a fatal ExecStart= error in the unit file makes systemd refuse to load it', async (t) => {
  const s = collect('[Service]\nExecStart=/bin/a "open\nEnvironment=A=1\n', '[Service]\nEnvironment=B=2\n');
  t.equal(s.environment.size, 0);
  t.match(refusalOf(s), { loadState: 'bad-setting', by: 'config_parse', reason: /Unbalanced quoting/, source: { file: FRAGMENT, line: 2 } });
});

t.test('the same error in a drop-in only drops the rest of that drop-in', async (t) => {
  const s = collect('[Service]\nExecStart=/bin/a\n', '[Service]\nEnvironment=A=1\nExecStart=/bin/b "open\nEnvironment=B=2\n', '[Service]\nEnvironment=C=3\n');
  t.equal(s.load.state, 'loaded');
  t.same(Object.fromEntries(s.environment), { A: '1', C: '3' });
  t.same(s.execStart.map((c) => c.path), ['/bin/a']);
  t.match(s.diagnostics.map((d) => d.message).join('\n'), /systemd ignores the rest of this drop-in/);
});

t.test('an invalid section header in the unit file refuses the load; in a drop-in it ends the drop-in', async (t) => {
  // Observed with systemd-analyze verify 252: "Unit kubelet.service failed to load properly, …: Bad message".
  t.same(refusalOf(collect('[Service]\nExecStart=/bin/a\n[Service\n')), { loadState: 'error', by: 'config_parse', errno: 'EBADMSG', reason: "Invalid section header '[Service'", source: { file: FRAGMENT, line: 3 } });
  const s = collect('[Service]\nExecStart=/bin/a\n', '[Service]\nEnvironment=A=1\n[Broken\nEnvironment=B=2\n');
  t.equal(s.load.state, 'loaded');
  t.same(Object.fromEntries(s.environment), { A: '1' });
});

t.test('ExecStartPre= mkdir --parents: the directories that exist when ExecStart= runs', async (t) => {
  const s = collect(
    '[Service]\nExecStartPre=/bin/mkdir --parents /etc/kubernetes/manifests\nExecStartPre=/bin/mkdir --parents /etc/openshift/kubelet.conf.d\nExecStartPre=-/usr/sbin/restorecon /usr/local/bin/kubenswrapper\nExecStart=/usr/bin/kubelet\n',
    '[Service]\nExecStartPre=-/usr/bin/mkdir -p /var/lib/a /var/lib/b\nExecStartPre=/bin/mkdir /plain\nExecStartPre=/bin/mkdir -p -m 0700 /with-mode\nExecStartPre=/bin/mkdir -p ${DIR} relative\n',
  );
  t.same(s.preStartDirectories, ['/etc/kubernetes/manifests', '/etc/openshift/kubelet.conf.d', '/var/lib/a', '/var/lib/b'], 'only literal absolute paths of mkdir --parents/-p without other options');
  t.equal(s.execStartPreCount, 7);
  const reset = collect('[Service]\nExecStartPre=/bin/mkdir -p /etc/x\nExecStart=/usr/bin/kubelet\n', '[Service]\nExecStartPre=\n');
  t.same(reset.preStartDirectories, [], 'an empty ExecStartPre= resets the list');
});
