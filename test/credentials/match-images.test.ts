import t from 'tap';
import { matchImage, matchImagePatternProblem } from '../../src/credentials/match-images.js';

// Kubelet's URLsMatch semantics (pkg/credentialprovider/keyring.go at v1.24.17-v1.37.2).
t.test('host labels match one glob each, in equal number', async (t) => {
  t.ok(matchImage('*.azurecr.io', 'myacr.azurecr.io/img'));
  t.notOk(matchImage('*.azurecr.io', 'a.b.azurecr.io/img'), 'one glob matches one label');
  t.notOk(matchImage('*.azurecr.io', 'azurecr.io/img'), 'the label count must be equal');
  t.ok(matchImage('*.dkr.ecr.*.amazonaws.com', '123456789012.dkr.ecr.us-east-1.amazonaws.com/repo'));
  t.ok(matchImage('*.io', 'k8s.io/pause'));
  t.notOk(matchImage('*.io', 'foo.k8s.io/pause'));
  t.ok(matchImage('gcr.io', 'gcr.io/project/image:tag'));
  t.ok(matchImage('app*.k8s.io', 'app1.k8s.io/x'));
  t.ok(matchImage('k8s.*', 'k8s.io/x'));
  t.ok(matchImage('x[a-c].io', 'xb.io/x'));
  t.notOk(matchImage('registr?.io', 'registry.io/x'), "'?' starts the URL query: the host is cut to \"registr\"");
  t.notOk(matchImage('[a-c].io', 'b.io/x'), "a host starting with '[' is an IPv6 literal to url.Parse, which fails here");
});

t.test('ports are compared as strings', async (t) => {
  t.ok(matchImage('registry.io:8080', 'registry.io:8080/foo'));
  t.notOk(matchImage('registry.io', 'registry.io:443/foo'), 'no port in the pattern, one in the image');
  t.notOk(matchImage('registry.io:443', 'registry.io/foo'), 'a port in the pattern, none in the image');
  t.ok(matchImage('*.registry.io:8080', 'test.registry.io:8080/foo'));
  t.ok(matchImage('registry.io:', 'registry.io/foo'), 'an empty port equals no port');
});

t.test('the pattern path is a plain string prefix', async (t) => {
  t.ok(matchImage('registry.io/foo', 'registry.io/foobar/x'));
  t.ok(matchImage('registry.io/foo', 'registry.io/foo'));
  t.notOk(matchImage('registry.io/foo', 'registry.io/bar'));
  t.notOk(matchImage('registry.io/*', 'registry.io/anything'), 'globs in paths never work');
  t.ok(matchImage('registry.io', 'registry.io/any/path'));
});

t.test('errors are no match', async (t) => {
  t.notOk(matchImage('a[b.io', 'ab.io/x'), 'a malformed glob');
  t.notOk(matchImage('registry.io:abc', 'registry.io:abc/x'), 'a pattern url.Parse refuses');
  t.notOk(matchImage('registry.io', 'registry.io:abc/x'), 'an image url.Parse refuses');
});

t.test('patterns that pass validation but can never match', async (t) => {
  t.match(matchImagePatternProblem('https://gcr.io'), /URL scheme \("https:\/\/"\)/);
  t.match(matchImagePatternProblem(''), /empty/);
  t.match(matchImagePatternProblem(':5000/foo'), /host is empty/);
  t.match(matchImagePatternProblem('registry.io/*'), /path "\/\*" contains a glob character/);
  t.match(matchImagePatternProblem('registry.io/a[b]'), /glob character/);
  t.match(matchImagePatternProblem('a[b.io'), /host label "a\[b" is not a valid glob \(syntax error in pattern\)/);
  t.match(matchImagePatternProblem('registr?.io'), /'\?' starts the URL query/);
  t.equal(matchImagePatternProblem('*.azurecr.io'), undefined);
  t.equal(matchImagePatternProblem('registry.io:5000/team'), undefined);
  t.equal(matchImagePatternProblem('registry.io:abc'), undefined, 'validation reports this one');
  t.notOk(matchImage('https://gcr.io', 'gcr.io/x'), 'and indeed the scheme pattern matches nothing');
});
