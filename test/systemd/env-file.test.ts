import t from 'tap';
import { parseEnvFile } from '../../src/systemd/env-file.js';

const P = '/etc/kubernetes/kubelet-env';
const vars = (text: string | Uint8Array, options = {}) => parseEnvFile(text, P, options).variables;

t.test('KEY=VALUE lines, blanks around the key and before the value dropped, trailing blanks cut', async (t) => {
  t.same(vars('A=1\n  B = two words   \nC=\n'), { A: '1', B: 'two words', C: '' });
});

t.test('comments start with # or ; where a key could start; elsewhere they are data', async (t) => {
  t.same(vars('# A=1\n  ; B=2\nC=3 # kept\nD=#x\n'), { C: '3 # kept', D: '#x' });
});

t.test('single quotes are literal, double quotes unescape only " \\ ` $', async (t) => {
  t.same(vars(String.raw`A='x \n $y "z"'` + '\n' + String.raw`B="a \"q\" \$d \n \\ \t"` + '\n'), {
    A: String.raw`x \n $y "z"`,
    B: String.raw`a "q" $d \n \ \t`,
  });
});

t.test('quoted and unquoted pieces after "=" are joined', async (t) => {
  t.same(vars(`A="x"'y'\nB="a" b  c  \n`), { A: 'xy', B: 'ab  c' });
});

t.test('unquoted backslash takes the next character; backslash-newline continues', async (t) => {
  t.same(vars('A=one\\ two\\\\\nB=first \\\n  second\nC="x\\\ny"\n'), { A: 'one two\\', B: 'first   second', C: 'xy' });
});

t.test('the kubeadm flags file', async (t) => {
  const text = 'KUBELET_KUBEADM_ARGS="--container-runtime-endpoint=unix:///var/run/containerd/containerd.sock --pod-infra-container-image=registry.k8s.io/pause:3.10"\n';
  t.same(vars(text), {
    KUBELET_KUBEADM_ARGS: '--container-runtime-endpoint=unix:///var/run/containerd/containerd.sock --pod-infra-container-image=registry.k8s.io/pause:3.10',
  });
});

t.test('/etc/os-release', async (t) => {
  const text = 'NAME="Red Hat Enterprise Linux CoreOS"\nID="rhcos"\nID_LIKE="rhel fedora"\nVERSION_ID="4.16"\nRHEL_VERSION=9.4\n';
  t.same(vars(text), { NAME: 'Red Hat Enterprise Linux CoreOS', ID: 'rhcos', ID_LIKE: 'rhel fedora', VERSION_ID: '4.16', RHEL_VERSION: '9.4' });
});

t.test('a later assignment wins; a key without "=" is ignored', async (t) => {
  t.same(vars('A=1\nlonely\nA=2\n'), { A: '2' });
});

t.test('invalid names are dropped with a warning; "export" is not understood', async (t) => {
  const parsed = parseEnvFile('export FOO=bar\n1X=2\nOK=1\n', P);
  t.same(parsed.variables, { OK: '1' });
  t.same(
    parsed.diagnostics.map((d) => [d.line, d.severity]),
    [
      [1, 'warning'],
      [2, 'warning'],
    ],
  );
  t.match(parsed.diagnostics[0]!.message, /"export FOO".*does not understand "export"/);
});

t.test('the last line needs no newline, also inside quotes', async (t) => {
  t.same(vars('A=1\nB="open'), { A: '1', B: 'open' });
});

t.test('reading stops at a NUL byte', async (t) => {
  t.same(vars(Buffer.from('A=1\nB=2\0C=3\n')), { A: '1', B: '2' });
});

t.test('invalid UTF-8 in a value makes the whole file fail to load', async (t) => {
  const parsed = parseEnvFile(Buffer.concat([Buffer.from('A=1\nB='), Buffer.from([0xff]), Buffer.from('\n')]), P);
  t.same(parsed.variables, {});
  t.match(parsed.failure, `${P}:2`);
  // In a comment invalid UTF-8 does not matter.
  t.same(vars(Buffer.concat([Buffer.from('# '), Buffer.from([0xff]), Buffer.from('\nA=ü\n')])), { A: 'ü' });
});

t.test('a comment ending in a backslash swallows the next line before systemd 254', async (t) => {
  t.same(vars('# note \\\nA=1\nB=2\n'), { B: '2' });
  t.same(vars('# note \\\nA=1\nB=2\n', { commentBackslashContinues: false }), { A: '1', B: '2' });
});

t.test('a variable named __proto__ is an ordinary entry', async (t) => {
  const v = vars('__proto__=x\n');
  t.equal(Object.getOwnPropertyDescriptor(v, '__proto__')?.value, 'x');
});
