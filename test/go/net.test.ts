import t from 'tap';
import { goSplitHostPort } from '../../src/go/net.js';

t.test('net.SplitHostPort', async (t) => {
  t.same(goSplitHostPort('registry.io:5000'), { ok: true, host: 'registry.io', port: '5000' });
  t.same(goSplitHostPort('registry.io:'), { ok: true, host: 'registry.io', port: '' });
  t.same(goSplitHostPort('[::1]:80'), { ok: true, host: '::1', port: '80' });
  t.same(goSplitHostPort('registry.io'), { ok: false, error: 'address registry.io: missing port in address' });
  t.same(goSplitHostPort('a:b:c'), { ok: false, error: 'address a:b:c: too many colons in address' });
  t.same(goSplitHostPort('[::1]'), { ok: false, error: 'address [::1]: missing port in address' });
  t.same(goSplitHostPort('a[b:1'), { ok: false, error: "address a[b:1: unexpected '[' in address" });
});
