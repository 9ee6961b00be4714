import t from 'tap';
import { expandArgv, replaceEnv } from '../../src/systemd/env-expand.js';

const env = new Map([
  ['FLAGS', '--image-credential-provider-bin-dir=/usr/libexec/plugins   --image-credential-provider-config=/etc/kubernetes/cp.yaml'],
  ['QUOTED', `--a="x y" --b='z' c\\ d`],
  ['EMPTY', ''],
  ['BLANK', '   '],
  ['IP', '10.0.0.1'],
]);
const argv = (...words: string[]) => expandArgv(words, env).argv;

t.test('a word that is exactly $VAR becomes the value split at whitespace', async (t) => {
  t.same(argv('/usr/bin/kubelet', '$FLAGS', '--v=2'), [
    '/usr/bin/kubelet',
    '--image-credential-provider-bin-dir=/usr/libexec/plugins',
    '--image-credential-provider-config=/etc/kubernetes/cp.yaml',
    '--v=2',
  ]);
});

t.test('the split removes quotes and honours backslashes', async (t) => {
  t.same(argv('$QUOTED'), ['--a=x y', '--b=z', 'c d']);
});

t.test('an unset, empty or blank $VAR leaves no word at all', async (t) => {
  t.same(argv('a', '$UNSET', '$EMPTY', '$BLANK', 'b'), ['a', 'b']);
});

t.test('${VAR} is replaced verbatim anywhere in a word; unset gives an empty string but the word stays', async (t) => {
  t.same(argv('--node-ip=${IP}', '${FLAGS}', '${UNSET}', 'x${UNSET}y'), [
    '--node-ip=10.0.0.1',
    env.get('FLAGS')!,
    '',
    'xy',
  ]);
});

t.test('$$ is a dollar; a bare $VAR inside a word and ${VAR:-x} stay as written', async (t) => {
  t.same(argv('$$', 'a$$b', '--x=$IP', '${IP:-d}', '${IP', 'cost$'), ['$', 'a$b', '--x=$IP', '${IP:-d}', '${IP', 'cost$']);
  t.same(argv('$${IP}'), ['${IP}']);
});

t.test('the whole rest of a $-word is the name: "$IP/x" and "$" alone expand to nothing', async (t) => {
  t.same(argv('a', '$IP/x', '$', 'b'), ['a', 'b']);
});

t.test('unset names are reported once, in order', async (t) => {
  t.same(expandArgv(['$A', '${B}', '$A', '${IP}', '${}'], env).unset, ['A', 'B']);
});

t.test('replaceEnv looks names up through the callback', async (t) => {
  t.equal(replaceEnv('a${X}b${Y}', (n) => (n === 'X' ? '1' : undefined)), 'a1b');
});

t.test('each argv word keeps the variables its text came from', async (t) => {
  const env = new Map([['ARGS', '--a=1 --b=2'], ['LEVEL', '2']]);
  const expanded = expandArgv(['/usr/bin/kubelet', '$ARGS', '--v=${LEVEL}', '--plain', '${UNSET}x', '$UNSET'], env);
  t.same(expanded.argv, ['/usr/bin/kubelet', '--a=1', '--b=2', '--v=2', '--plain', 'x']);
  t.same(expanded.variables, [[], ['ARGS'], ['ARGS'], ['LEVEL'], [], ['UNSET']], 'parallel to argv; $UNSET leaves no word');
});
