import t from 'tap';
import { expandSpecifiers, specifierSupport } from '../../src/systemd/specifiers.js';
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
    invalid: [],
    unsure: [],
  });
});

t.test('host specifiers stay as written and are reported, unknown ones are invalid; a trailing % stays', async (t) => {
  const unit = parseUnitName('kubelet.service')!;
  t.same(expandSpecifiers('%H-%m-%Z-%-x %', unit, 252), { text: '%H-%m-%Z-%-x %', unresolved: ['%H', '%m'], invalid: ['%Z'], unsure: [] });
  t.same(expandSpecifiers('%H-%Z', unit), { text: '%H-%Z', unresolved: ['%H'], invalid: [], unsure: ['%Z'] }, 'without a version an unknown letter is unsure');
  t.same(expandSpecifiers('%i', unit), { text: '', unresolved: [], invalid: [], unsure: [] });
});

t.test('the specifier table per systemd version (unit-printf.c at each tag)', async (t) => {
  t.equal(specifierSupport('g', 239), 'unknown');
  t.equal(specifierSupport('g', 240), 'known');
  t.equal(specifierSupport('A', 248), 'unknown');
  t.equal(specifierSupport('A', 249), 'known');
  t.equal(specifierSupport('D', 255), 'unknown');
  t.equal(specifierSupport('D', 256), 'known');
  t.equal(specifierSupport('n', undefined), 'known', 'in every version read');
  t.equal(specifierSupport('A', undefined), 'unsure');
  t.equal(specifierSupport('Z', 261), 'unsure', 'a version newer than the tables read');
  t.equal(specifierSupport('7', 252), 'unknown');
});
