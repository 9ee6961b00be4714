import t from 'tap';
import { collectServiceSettings } from '../../src/systemd/service-settings.js';
import { parseUnitFile } from '../../src/systemd/unit-file.js';
import { parseUnitName } from '../../src/systemd/unit-name.js';

const unit = parseUnitName('kubelet.service')!;
const FRAGMENT = '/usr/lib/systemd/system/kubelet.service';
const DROPIN = '/etc/systemd/system/kubelet.service.d/10-kubeadm.conf';
const collect = (fragment: string, ...dropIns: string[]) =>
  collectServiceSettings([parseUnitFile(fragment, FRAGMENT), ...dropIns.map((d, i) => parseUnitFile(d, `${DROPIN}.${i}`))], unit);

t.test('ExecStart= accumulates; an empty assignment resets the list', async (t) => {
  const s = collect('[Service]\nExecStart=/usr/bin/kubelet\nRestart=always\n', '[Service]\nExecStart=\nExecStart=/usr/bin/kubelet $KUBELET_KUBEADM_ARGS\n');
  t.same(
    s.execStart.map((c) => [c.words, c.source.file, c.source.line]),
    [[['/usr/bin/kubelet', '$KUBELET_KUBEADM_ARGS'], `${DROPIN}.0`, 3]],
  );
  t.same(s.diagnostics, []);
  t.equal(s.loadRefused, false);
});

t.test('only [Service] settings count', async (t) => {
  const s = collect('[Unit]\nExecStart=/bin/wrong\nEnvironment=A=1\n[Service]\nExecStart=/bin/right\n');
  t.same(s.execStart.map((c) => c.path), ['/bin/right']);
  t.equal(s.environment.size, 0);
});

t.test('two ExecStart= for a non-oneshot service: systemd refuses; the last is effective', async (t) => {
  const s = collect('[Service]\nType=notify\nExecStart=/bin/a\nExecStart=/bin/b\n');
  t.same(s.execStart.map((c) => c.path), ['/bin/a', '/bin/b']);
  t.equal(s.diagnostics.length, 1);
  t.equal(s.diagnostics[0]!.severity, 'warning');
  t.equal(s.diagnostics[0]!.systemdRefuses, true);
  t.match(s.diagnostics[0]!.message, /more than one ExecStart=/);
  t.same(collect('[Service]\nType=oneshot\nExecStart=/bin/a\nExecStart=/bin/b\n').diagnostics, []);
});

t.test('no ExecStart= at all: systemd refuses a non-oneshot service', async (t) => {
  const s = collect('[Service]\nExecStart=/bin/a\n', '[Service]\nExecStart=\n');
  t.same(s.execStart, []);
  t.match(s.diagnostics[0]!.message, /has no ExecStart=/);
  t.equal(s.diagnostics[0]!.systemdRefuses, true);
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
  t.equal(s.loadRefused, true);
  t.equal(s.environment.size, 0);
  const refusal = s.diagnostics.find((d) => d.systemdRefuses);
  t.ok(refusal);
  t.match(refusal!.message, `systemd will refuse to load kubelet.service`);
  t.equal(refusal!.line, 2);
});

t.test('the same error in a drop-in only drops the rest of that drop-in', async (t) => {
  const s = collect('[Service]\nExecStart=/bin/a\n', '[Service]\nEnvironment=A=1\nExecStart=/bin/b "open\nEnvironment=B=2\n', '[Service]\nEnvironment=C=3\n');
  t.equal(s.loadRefused, false);
  t.same(Object.fromEntries(s.environment), { A: '1', C: '3' });
  t.same(s.execStart.map((c) => c.path), ['/bin/a']);
  t.match(s.diagnostics.map((d) => d.message).join('\n'), /systemd ignores the rest of this drop-in/);
});

t.test('an invalid section header in the unit file refuses the load; in a drop-in it ends the drop-in', async (t) => {
  t.equal(collect('[Service]\nExecStart=/bin/a\n[Service\n').loadRefused, true);
  const s = collect('[Service]\nExecStart=/bin/a\n', '[Service]\nEnvironment=A=1\n[Broken\nEnvironment=B=2\n');
  t.equal(s.loadRefused, false);
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
