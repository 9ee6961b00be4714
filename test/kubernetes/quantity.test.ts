import t from 'tap';
import { ERR_FORMAT_WRONG, ERR_NUMERIC, ERR_SUFFIX, parseQuantity } from '../../src/kubernetes/quantity.js';

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
