import t from 'tap';
import { cpusetMembers, formatCpuset, parseCpuset } from '../../src/kubernetes/cpuset.js';

// pkg/kubelet/cm/cpuset/cpuset.go (v1.24.17-v1.27.16) and k8s.io/utils/cpuset/cpuset.go (1.28+).
t.test('cpuset.Parse', async (t) => {
  t.same(parseCpuset('0-3,8', 30), { ok: true, cpus: [0, 1, 2, 3, 8] });
  t.same(parseCpuset('', 30), { ok: true, cpus: [] });
  t.same(parseCpuset('1-1', 30), { ok: true, cpus: [1] });
  t.same(parseCpuset('3-1', 36), { ok: false, error: 'invalid range "3-1" (3 > 1)' });
  t.same(parseCpuset('3-1', 28), { ok: false, error: 'invalid range "3-1" (3 > 1)' });
  t.same(parseCpuset('3-1', 27), { ok: false, error: 'invalid range "3-1" (3 > 1)' }, 'pkg/kubelet/cm/cpuset at v1.27.16');
  t.same(parseCpuset('3-1', 26), { ok: false, error: 'invalid range "3-1" (3 >= 1)' }, 'pkg/kubelet/cm/cpuset at v1.26.15');
  t.same(parseCpuset('3-1', 25), { ok: false, error: 'invalid range "3-1" (3 >= 1)' }, 'pkg/kubelet/cm/cpuset at v1.25.16');
  t.same(parseCpuset('a', 30), { ok: false, error: 'strconv.Atoi: parsing "a": invalid syntax' });
  t.same(parseCpuset('0,,1', 30), { ok: false, error: 'strconv.Atoi: parsing "": invalid syntax' });
  t.same(parseCpuset('-1', 30), { ok: false, error: 'strconv.Atoi: parsing "": invalid syntax' });
  t.same(parseCpuset('1-2-3', 30), { ok: false, error: 'strconv.Atoi: parsing "2-3": invalid syntax' });
  t.same(parseCpuset('0, 1', 30), { ok: false, error: 'strconv.Atoi: parsing " 1": invalid syntax' });
  t.same(parseCpuset('99999999999999999999', 30), { ok: false, error: 'strconv.Atoi: parsing "99999999999999999999": value out of range' });
  t.same(parseCpuset('+7', 30), { ok: true, cpus: [7] });
  t.match(parseCpuset('0-99999999', 30), { ok: false, error: /too large to model/ });
});

t.test('the members alone, and CPUSet.String()', async (t) => {
  t.same(cpusetMembers('0-2,5,7-8'), [0, 1, 2, 5, 7, 8]);
  t.same(cpusetMembers(''), []);
  t.equal(cpusetMembers('3-1'), undefined);
  t.equal(cpusetMembers(' 1'), undefined);
  t.equal(formatCpuset([8, 0, 1, 2, 5, 7]), '0-2,5,7-8');
  t.equal(formatCpuset([4]), '4');
});
