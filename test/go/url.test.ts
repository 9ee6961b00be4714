import t from 'tap';
import { parseGoUrl } from '../../src/go/url.js';

const error = (raw: string) => {
  const r = parseGoUrl(raw);
  return r.ok ? undefined : r.error;
};

// Expected texts are net/url's (*url.Error).Error() for the same input.
t.test('url.Parse errors kubelet validation can meet', async (t) => {
  t.equal(error('https://%invalid%'), 'parse "https://%invalid%": invalid URL escape "%in"', 'upstream config_test.go');
  t.equal(error('https://registry.io:abc'), 'parse "https://registry.io:abc": invalid port ":abc" after host');
  t.equal(error('https://*.registry.io:*'), 'parse "https://*.registry.io:*": invalid port ":*" after host');
  t.equal(error('https://foo bar.io'), 'parse "https://foo bar.io": invalid character " " in host name');
  t.equal(error('https://foo{x}.io'), 'parse "https://foo{x}.io": invalid character "{" in host name');
  t.equal(error('https://a\x01b'), 'parse "https://a\\x01b": net/url: invalid control character in URL');
  t.equal(error('https://a\tb'), 'parse "https://a\\tb": net/url: invalid control character in URL');
  t.equal(error('https://[::1'), 'parse "https://[::1": missing \']\' in host');
  t.equal(error('https://[abc].example.com'), 'parse "https://[abc].example.com": invalid port ".example.com" after host');
  t.equal(error('https://us er@host'), 'parse "https://us er@host": net/url: invalid userinfo');
  t.equal(error('https://host/p%zz'), 'parse "https://host/p%zz": invalid URL escape "%zz"');
  t.equal(error('https://host/p%'), 'parse "https://host/p%": invalid URL escape "%"');
  t.equal(error('https://%41host'), 'parse "https://%41host": invalid URL escape "%41"', 'a host may only %-encode non-ASCII bytes');
  t.equal(error('https://host/#%zz'), 'parse "https://host/#%zz": invalid URL escape "%zz"', 'fragment errors quote the whole URL');
  t.equal(error('https://host%zz#frag'), 'parse "https://host%zz": invalid URL escape "%zz"', 'other errors quote the URL without its fragment');
  t.equal(error('https://host/\u20ac%e2%8'), 'parse "https://host/€%e2%8": invalid URL escape "%8"');
});

t.test('url.Parse accepts what kubelet lets through validation', async (t) => {
  for (const raw of ['https://*.azurecr.io', 'https://registry.io:5000/path', 'https://', 'https://https://gcr.io', 'https://[fe80::1%25en0]:80', 'https://user:pw@h/x?q#f', 'https://ré.io/x']) {
    t.ok(parseGoUrl(raw).ok, raw);
  }
  const parsed = parseGoUrl('https://user:pw@h:5000/x%2Fy?q=1#f');
  t.same(parsed, { ok: true, url: { scheme: 'https', opaque: '', user: { username: 'user', password: 'pw' }, host: 'h:5000', path: '/x/y', rawQuery: 'q=1', forceQuery: false, fragment: 'f' } });
  const schemeAsHost = parseGoUrl('https://https://gcr.io');
  t.equal(schemeAsHost.ok && schemeAsHost.url.host, 'https:');
  t.equal(schemeAsHost.ok && schemeAsHost.url.path, '//gcr.io');
});
