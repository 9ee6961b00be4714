import t from 'tap';
import { pickDropIns } from '../../src/systemd/dropin-selection.js';
import { dropInDirectories, dropInNames, isInSearchPath, UNIT_SEARCH_PATHS } from '../../src/systemd/unit-search-paths.js';
import { parseUnitName } from '../../src/systemd/unit-name.js';

t.test('search paths keep systemd priority: /etc, /run, /usr/local/lib, /usr/lib, /lib', async (t) => {
  const order = ['/etc/systemd/system', '/run/systemd/system', '/usr/local/lib/systemd/system', '/usr/lib/systemd/system', '/lib/systemd/system'];
  const positions = order.map((dir) => UNIT_SEARCH_PATHS.indexOf(dir));
  t.ok(positions.every((p) => p >= 0));
  t.same([...positions].sort((a, b) => a - b), positions);
  t.ok(isInSearchPath('/usr/lib/systemd/system/kubelet.service'));
  t.notOk(isInSearchPath('/opt/kubelet/kubelet.service'));
});

t.test('drop-in names: the unit, its template, then dash prefixes', async (t) => {
  t.same(dropInNames(parseUnitName('kubelet.service')!), ['kubelet.service']);
  t.same(dropInNames(parseUnitName('foo-bar-baz.service')!), ['foo-bar-baz.service', 'foo-bar-.service', 'foo-.service']);
  t.same(dropInNames(parseUnitName('foo-bar@x.service')!), ['foo-bar@x.service', 'foo-bar@.service', 'foo-.service', 'foo-@x.service', 'foo-@.service']);
});

t.test('drop-in directories: per name in every search path, then the type-wide service.d', async (t) => {
  const dirs = dropInDirectories([parseUnitName('kubelet.service')!]);
  t.equal(dirs[0], '/etc/systemd/system.control/kubelet.service.d');
  t.ok(dirs.indexOf('/etc/systemd/system/kubelet.service.d') < dirs.indexOf('/run/systemd/system/kubelet.service.d'));
  t.ok(dirs.indexOf('/usr/lib/systemd/system/kubelet.service.d') < dirs.indexOf('/etc/systemd/system/service.d'));
  t.equal(dirs.filter((d) => d.endsWith('/service.d')).length, UNIT_SEARCH_PATHS.length);
  const rhel8 = dropInDirectories([parseUnitName('kubelet.service')!], { typeWideFirst: true });
  t.equal(rhel8[0], '/etc/systemd/system.control/service.d');
  t.ok(rhel8.indexOf('/usr/lib/systemd/system/service.d') < rhel8.indexOf('/etc/systemd/system/kubelet.service.d'));
});

t.test('the first directory with a file name wins; all winners sort by file name', async (t) => {
  const picked = pickDropIns([
    { dir: '/etc/systemd/system/kubelet.service.d', names: ['20-logging.conf', '90-local.conf'] },
    { dir: '/run/systemd/system/kubelet.service.d', names: ['20-logging.conf', '10-run.conf', 'README', '.hidden.conf'] },
    { dir: '/usr/lib/systemd/system/kubelet.service.d', names: ['10-kubeadm.conf', '90-local.conf'] },
  ]);
  t.same(picked, [
    { name: '10-kubeadm.conf', path: '/usr/lib/systemd/system/kubelet.service.d/10-kubeadm.conf' },
    { name: '10-run.conf', path: '/run/systemd/system/kubelet.service.d/10-run.conf' },
    { name: '20-logging.conf', path: '/etc/systemd/system/kubelet.service.d/20-logging.conf' },
    { name: '90-local.conf', path: '/etc/systemd/system/kubelet.service.d/90-local.conf' },
  ]);
});

t.test('names sort by bytes, not by locale', async (t) => {
  const picked = pickDropIns([{ dir: '/d', names: ['b.conf', 'B.conf', '_.conf', '10.conf', '9.conf'] }]);
  t.same(
    picked.map((p) => p.name),
    ['10.conf', '9.conf', 'B.conf', '_.conf', 'b.conf'],
  );
});
