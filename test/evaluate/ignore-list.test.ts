/** readIgnoreList: kubeadm's --ignore-preflight-errors habits, and unitName: systemctl's. Pure. */
import t from 'tap';
import { IGNORE_ALL, readIgnoreList } from '../../src/evaluate/ignore.js';
import { unitName } from '../../src/settings.js';

const known = ['plugin-binary-missing', 'bin-dir-missing', 'cannot-decide'];

t.test('ids split on commas, match in any case, keep the catalog spelling, once each', async (t) => {
  t.same(readIgnoreList(['Plugin-Binary-Missing, bin-dir-missing', 'PLUGIN-BINARY-MISSING', ''], known), { ids: ['plugin-binary-missing', 'bin-dir-missing'], unknown: [] });
  t.same(readIgnoreList(['plugin-binary-missing,nope,,'], known), { ids: ['plugin-binary-missing'], unknown: ['nope'] });
});

t.test('"all" in any case stands alone', async (t) => {
  t.same(readIgnoreList(['ALL'], known), { ids: [IGNORE_ALL], unknown: [] });
  t.match(readIgnoreList(['all', 'cannot-decide'], known), { ids: [IGNORE_ALL, 'cannot-decide'], problem: /beside "all"/ });
});

t.test('unitName: a name without a unit type suffix is NAME.service', async (t) => {
  t.equal(unitName('kubelet'), 'kubelet.service');
  t.equal(unitName('kubelet.service'), 'kubelet.service');
  t.equal(unitName('kubelet.socket'), 'kubelet.socket');
  t.equal(unitName('my.kubelet'), 'my.kubelet.service', 'a dot that is no unit type');
  t.equal(unitName('.service'), '.service.service', 'a bare suffix is no name');
});
