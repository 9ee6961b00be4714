import t from 'tap';
import { ERR_FORMAT_WRONG, ERR_NUMERIC, ERR_SUFFIX, parseQuantity } from '../../../src/kubelet/node-setup/quantity.js';
import { goAtoi, parseCpuset, reservedCpusValidationMessage } from '../../../src/kubelet/node-setup/cpuset.js';
import { NEXT_MINOR } from '../../../src/kubelet/data/minors.js';

t.test('resource.ParseQuantity errors, as kubelet wraps them', async (t) => {
  t.equal(ERR_FORMAT_WRONG, "quantities must match the regular expression '^([+-]?[0-9.]+)([eEinumkKMGTP]*[-+]?[0-9]*)$'");
  t.same(parseQuantity(''), { ok: false, error: ERR_FORMAT_WRONG }, 'empty (unset ${VAR})');
  t.same(parseQuantity('1GB'), { ok: false, error: ERR_FORMAT_WRONG }, 'junk after the suffix');
  t.same(parseQuantity('1 Gi'), { ok: false, error: ERR_FORMAT_WRONG });
  t.same(parseQuantity('abc'), { ok: false, error: ERR_FORMAT_WRONG });
  t.same(parseQuantity('1mi'), { ok: false, error: ERR_SUFFIX }, 'suffix characters, but no such suffix');
  t.same(parseQuantity('1e'), { ok: false, error: ERR_SUFFIX });
  t.same(parseQuantity('.e-10'), { ok: false, error: ERR_NUMERIC }, 'big-decimal path with no digits');
  t.equal(ERR_SUFFIX, "unable to parse quantity's suffix");
});

t.test('quantities that parse, with their sign', async (t) => {
  t.same(parseQuantity('500m'), { ok: true, sign: 1 });
  t.same(parseQuantity('1Gi'), { ok: true, sign: 1 });
  t.same(parseQuantity('1.5Gi'), { ok: true, sign: 1 });
  t.same(parseQuantity('1e3'), { ok: true, sign: 1 });
  t.same(parseQuantity('0'), { ok: true, sign: 0 });
  t.same(parseQuantity('-0'), { ok: true, sign: 0 });
  t.same(parseQuantity('-1Gi'), { ok: true, sign: -1 });
  t.same(parseQuantity('-0.5'), { ok: true, sign: -1 });
  t.same(parseQuantity('k'), { ok: true, sign: 0 }, 'Go accepts a bare suffix as zero');
  t.same(parseQuantity('+'), { ok: true, sign: 0 });
});

t.test('cpuset.Parse and strconv.Atoi texts', async (t) => {
  t.same(parseCpuset('0-3,8'), { ok: true, cpus: [0, 1, 2, 3, 8] });
  t.same(parseCpuset(''), { ok: true, cpus: [] });
  t.same(parseCpuset('1-1'), { ok: true, cpus: [1] });
  t.same(parseCpuset('3-1'), { ok: false, error: 'invalid range "3-1" (3 > 1)' });
  t.same(parseCpuset('3-1', 28), { ok: false, error: 'invalid range "3-1" (3 > 1)' });
  t.same(parseCpuset('3-1', 26), { ok: false, error: 'invalid range "3-1" (3 >= 1)' }, 'before k8s.io/utils b911e13');
  t.same(parseCpuset('a'), { ok: false, error: 'strconv.Atoi: parsing "a": invalid syntax' });
  t.same(parseCpuset('0,,1'), { ok: false, error: 'strconv.Atoi: parsing "": invalid syntax' });
  t.same(parseCpuset('-1'), { ok: false, error: 'strconv.Atoi: parsing "": invalid syntax' });
  t.same(parseCpuset('1-2-3'), { ok: false, error: 'strconv.Atoi: parsing "2-3": invalid syntax' });
  t.same(parseCpuset('0, 1'), { ok: false, error: 'strconv.Atoi: parsing " 1": invalid syntax' });
  t.same(goAtoi('99999999999999999999'), { ok: false, error: 'strconv.Atoi: parsing "99999999999999999999": value out of range' });
  t.same(goAtoi('+7'), { ok: true, value: 7 });
});

t.test('reservedSystemCPUs validation message (same wrapping in every sampled minor)', async (t) => {
  for (const m of [24, 30, 36]) {
    t.same(reservedCpusValidationMessage(m, 'x'), {
      text: 'invalid configuration: unable to parse reservedSystemCPUs (--reserved-cpus) x, error: strconv.Atoi: parsing "x": invalid syntax',
      inexact: false,
    });
  }
  t.equal(reservedCpusValidationMessage(25, '4-2')!.text, 'invalid configuration: unable to parse reservedSystemCPUs (--reserved-cpus) 4-2, error: invalid range "4-2" (4 >= 2)');
  t.equal(reservedCpusValidationMessage(27, '4-2')!.inexact, true, 'the operator change is not pinned to 1.27');
  t.equal(reservedCpusValidationMessage(30, '0-3'), undefined);
  t.equal(reservedCpusValidationMessage(NEXT_MINOR, 'x'), undefined);
});
