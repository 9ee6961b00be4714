import t from 'tap';
import { parseExecValue } from '../../src/systemd/exec-command.js';
import { parseUnitName } from '../../src/systemd/unit-name.js';

const unit = parseUnitName('kubelet.service')!;
const at = { file: '/etc/systemd/system/kubelet.service', line: 7 };
const parse = (value: string) => parseExecValue(value, at, unit);
const only = (value: string) => {
  const r = parse(value);
  t.equal(r.commands.length, 1, `one command in ${value}`);
  return r.commands[0]!;
};

t.test('a plain command keeps raw, path and unquoted words; $VAR is left for later', async (t) => {
  const c = only(`/usr/bin/kubelet --node-labels="a=b c" '--x=$X' $KUBELET_EXTRA_ARGS \${Y}`);
  t.equal(c.raw, `/usr/bin/kubelet --node-labels="a=b c" '--x=$X' $KUBELET_EXTRA_ARGS \${Y}`);
  t.equal(c.path, '/usr/bin/kubelet');
  t.same(c.words, ['/usr/bin/kubelet', '--node-labels=a=b c', '--x=$X', '$KUBELET_EXTRA_ARGS', '${Y}']);
  t.equal(c.prefixes, '');
  t.equal(c.noEnvExpand, false);
  t.same(c.source, at);
});

t.test('prefixes are read off the first word', async (t) => {
  t.equal(only('-/usr/bin/true').prefixes, '-');
  t.equal(only(':/usr/bin/echo $X').noEnvExpand, true);
  t.equal(only('+-:/usr/bin/true').prefixes, '+-:');
  t.equal(only('!!/usr/bin/true').prefixes, '!!');
  t.equal(only('!/usr/bin/true').prefixes, '!');
  // "+" after "!" is not a prefix: it becomes part of the path and is refused.
  t.match(parse('!+/usr/bin/true').refusal, /Neither a valid executable name nor an absolute path/);
});

t.test('"@" makes the second word argv[0]', async (t) => {
  const c = only('@/usr/bin/kubelet kubelet-renamed --v=2');
  t.equal(c.path, '/usr/bin/kubelet');
  t.same(c.words, ['kubelet-renamed', '--v=2']);
  t.match(parse('@/usr/bin/kubelet').refusal, /Empty executable name or zeroeth argument/);
});

t.test('C escapes and specifiers are resolved in every word', async (t) => {
  const c = only(String.raw`/usr/bin/kubelet --a=\x41 --name=%n --prefix=%p --n=%N --run=%t --pct=%% "tab\there"`);
  t.same(c.words, ['/usr/bin/kubelet', '--a=A', '--name=kubelet.service', '--prefix=kubelet', '--n=kubelet', '--run=/run', '--pct=%', 'tab\there']);
});

t.test('an unresolved specifier is kept and warned about', async (t) => {
  const r = parse('/usr/bin/kubelet --hostname-override=%H');
  t.same(r.commands[0]!.words, ['/usr/bin/kubelet', '--hostname-override=%H']);
  t.match(r.diagnostics[0]!.message, /%H is not resolved/);
});

t.test('a lone ";" separates commands, "\\;" is a literal ";" argument', async (t) => {
  const r = parse(String.raw`/bin/a x ; /bin/b \; y`);
  t.same(
    r.commands.map((c) => c.words),
    [
      ['/bin/a', 'x'],
      ['/bin/b', ';', 'y'],
    ],
  );
  t.same(parse('/bin/a x;y').commands[0]!.words, ['/bin/a', 'x;y']);
});

t.test('an unknown escape is kept verbatim with a warning', async (t) => {
  const r = parse(String.raw`/bin/a \$HOME`);
  t.same(r.commands[0]!.words, ['/bin/a', '\\$HOME']);
  t.match(r.diagnostics[0]!.message, /unknown escape/);
});

t.test('unbalanced quoting in an argument makes systemd refuse, unless "-"', async (t) => {
  const refused = parse('/usr/bin/kubelet --x="open');
  t.same(refused.commands, []);
  t.match(refused.refusal, /Unbalanced quoting/);
  const tolerated = parse('-/usr/bin/kubelet --x="open');
  t.same(tolerated.commands, []);
  t.equal(tolerated.refusal, undefined);
  t.ok(tolerated.diagnostics.length > 0);
});

t.test('an unparsable first word drops the line without refusing', async (t) => {
  const r = parse('"/usr/bin/kubelet --v=2');
  t.same(r.commands, []);
  t.equal(r.refusal, undefined);
  t.match(r.diagnostics[0]!.message, /Unbalanced quoting/);
});

t.test('bad executable paths are refused as systemd refuses them', async (t) => {
  t.match(parse('@').refusal, /Empty path/);
  t.equal(parse('-').refusal, undefined, 'with "-" the bad line is only ignored');
  t.match(parse('/usr/bin/').refusal, /specifies a directory/);
  t.match(parse(String.raw`"/usr/bin/ku\"belet"`).refusal, /special characters/);
  t.match(parse('bin/kubelet').refusal, /Neither a valid executable name nor an absolute path/);
  t.same(only('kubelet --v=2').words, ['kubelet', '--v=2']);
});

t.test('the executable path is simplified, argv[0] is not', async (t) => {
  const c = only('//usr//bin/./kubelet');
  t.equal(c.path, '/usr/bin/kubelet');
  t.equal(c.words[0], '//usr//bin/./kubelet');
});

t.test('systemd 239 has no ":" prefix: ":/path" is refused there', async (t) => {
  const r = parseExecValue(':/usr/bin/echo $X', at, unit, { colonPrefix: false });
  t.same(r.commands, []);
  t.match(r.refusal, /Neither a valid executable name nor an absolute path: :\/usr\/bin\/echo/);
});
