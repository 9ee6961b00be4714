import t from 'tap';
import { goClean, goJoin, goMatch } from '../../src/go/filepath.js';

t.test('filepath.Clean', async (t) => {
  t.equal(goClean(''), '.');
  t.equal(goClean('//a//b/./c/..'), '/a/b');
  t.equal(goClean('a/../../b'), '../b');
  t.equal(goClean('/../x'), '/x');
  t.equal(goClean('./'), '.');
});

t.test('filepath.Join', async (t) => {
  t.equal(goJoin('/a/b/', ''), '/a/b', 'the brief\'s example');
  t.equal(goJoin('', ''), '');
  t.equal(goJoin('', 'x'), 'x');
  t.equal(goJoin('/usr/libexec/kubelet-image-credential-provider-plugins', 'acr-credential-provider'), '/usr/libexec/kubelet-image-credential-provider-plugins/acr-credential-provider');
  t.equal(goJoin('/bin', '../x'), '/x');
  t.equal(goJoin('/bin', ''), '/bin', 'an empty provider name joins to the bin dir itself');
});

t.test('filepath.Match', async (t) => {
  const yes = (p: string, n: string) => t.same(goMatch(p, n), { matched: true }, `${p} ~ ${n}`);
  const no = (p: string, n: string) => t.same(goMatch(p, n), { matched: false }, `${p} !~ ${n}`);
  const bad = (p: string, n: string) => t.same(goMatch(p, n), { matched: false, error: 'syntax error in pattern' }, `${p} is malformed`);
  yes('*', 'abc');
  yes('*', '');
  yes('a*c', 'abbc');
  yes('*x', 'x');
  yes('a?c', 'abc');
  yes('[a-c]x', 'bx');
  yes('[^a]', 'b');
  yes('\\*', '*');
  yes('ü*', 'über');
  no('a*', 'b');
  no('[^a]', 'a');
  no('*', 'a/b');
  bad('[', 'a');
  bad('a[', 'b');
  bad('\\', 'x');
  bad('[]a]', 'a');
  bad('x[', 'y');
});
