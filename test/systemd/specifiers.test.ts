import t from 'tap';
import { expandSpecifiers } from '../../src/systemd/specifiers.js';
import { parseUnitName, unescapeUnitNamePart } from '../../src/systemd/unit-name.js';

t.test('unit names: plain, instance and template', async (t) => {
  t.same(parseUnitName('kubelet.service'), { name: 'kubelet.service', type: 'service', prefix: 'kubelet' });
  t.same(parseUnitName('getty@tty1.service'), { name: 'getty@tty1.service', type: 'service', prefix: 'getty', instance: 'tty1', template: 'getty@.service' });
  t.same(parseUnitName('getty@.service'), { name: 'getty@.service', type: 'service', prefix: 'getty', template: 'getty@.service' });
  for (const bad of ['', 'kubelet', '.service', 'a b.service', '@x.service', 'a@b@c.service', 'x.Service']) t.equal(parseUnitName(bad), undefined, bad);
});

t.test('instance unescaping turns "-" into "/" and \\xNN into the byte', async (t) => {
  t.equal(unescapeUnitNamePart('dev-disk\\x2dby'), 'dev/disk-by');
});

t.test('the common specifiers resolve from the unit name', async (t) => {
  const unit = parseUnitName('kube-let@node\\x2d1.service')!;
  t.same(expandSpecifiers('%n|%N|%p|%i|%I|%t|%%', unit), {
    text: 'kube-let@node\\x2d1.service|kube-let@node\\x2d1|kube-let|node\\x2d1|node-1|/run|%',
    unresolved: [],
  });
});

t.test('other specifiers stay as written and are reported; a trailing % stays', async (t) => {
  const unit = parseUnitName('kubelet.service')!;
  t.same(expandSpecifiers('%H-%m-%Z-%-x %', unit), { text: '%H-%m-%Z-%-x %', unresolved: ['%H', '%m', '%Z'] });
  t.same(expandSpecifiers('%i', unit), { text: '', unresolved: [] });
});
