import t from 'tap';
import { parseExecValue, type ExecSetting } from '../../src/systemd/exec-command.js';
import { parseUnitName } from '../../src/systemd/unit-name.js';

const unit = parseUnitName('kubelet.service')!;
const at = { file: '/etc/systemd/system/kubelet.service', line: 7 };
const parse = (value: string, systemdVersion?: number) => parseExecValue(value, at, unit, systemdVersion === undefined ? {} : { systemdVersion });
const refusalOf = (r: ExecSetting) => (r.kind === 'refused' ? r.refusal : undefined);
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
  t.match(refusalOf(parse('!+/usr/bin/true')), /Neither a valid executable name nor an absolute path/);
});

t.test('"@" makes the second word argv[0]', async (t) => {
  const c = only('@/usr/bin/kubelet kubelet-renamed --v=2');
  t.equal(c.path, '/usr/bin/kubelet');
  t.same(c.words, ['kubelet-renamed', '--v=2']);
  t.match(refusalOf(parse('@/usr/bin/kubelet')), /Empty executable name or zeroeth argument/);
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
  t.match(refusalOf(refused), /Unbalanced quoting/);
  const tolerated = parse('-/usr/bin/kubelet --x="open');
  t.same(tolerated.commands, []);
  t.equal(refusalOf(tolerated), undefined);
  t.ok(tolerated.diagnostics.length > 0);
});

t.test('an unparsable first word drops the line without refusing', async (t) => {
  const r = parse('"/usr/bin/kubelet --v=2');
  t.same(r.commands, []);
  t.equal(refusalOf(r), undefined);
  t.match(r.diagnostics[0]!.message, /Unbalanced quoting/);
});

t.test('bad executable paths are refused as systemd refuses them', async (t) => {
  t.match(refusalOf(parse('@')), /Empty path/);
  t.equal(refusalOf(parse('-')), undefined, 'with "-" the bad line is only ignored');
  t.match(refusalOf(parse('/usr/bin/')), /specifies a directory/);
  t.match(refusalOf(parse(String.raw`"/usr/bin/ku\"belet"`)), /special characters/);
  t.match(refusalOf(parse('bin/kubelet')), /Neither a valid executable name nor an absolute path/);
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
  t.match(refusalOf(r), /Neither a valid executable name nor an absolute path: :\/usr\/bin\/echo/);
});

t.test('a specifier this systemd does not know fails the line ("Invalid slot"); "-" only ignores it', async (t) => {
  // specifier_printf (src/shared/specifier.c v239, v252): -EBADSLT for an unknown letter or digit.
  t.equal(refusalOf(parse('/usr/bin/kubelet --x=%Z', 252)), 'Failed to resolve unit specifiers in --x=%Z: Invalid slot');
  t.equal(refusalOf(parse('/usr/bin/%Z', 252)), "Failed to resolve unit specifiers in '/usr/bin/%Z': Invalid slot");
  t.equal(refusalOf(parse('/usr/bin/kubelet --x=%1', 239)), 'Failed to resolve unit specifiers in --x=%1: Invalid slot');
  const ignored = parse('-/usr/bin/kubelet --x=%Z', 252);
  t.same([ignored.kind, ignored.commands], ['commands', []]);
  t.match(ignored.diagnostics[0]!.message, /Failed to resolve unit specifiers in --x=%Z, ignoring: Invalid slot/);
  // %-x is not a specifier (not alphanumeric): kept as written.
  t.same(parse('/usr/bin/kubelet --x=%-x', 252).commands[0]!.words, ['/usr/bin/kubelet', '--x=%-x']);
});

t.test('a specifier newer than this systemd: refused on the older, accepted on the newer, cannot tell without a version', async (t) => {
  // %A (OS image version) entered unit_full_printf's table in v249.
  t.equal(refusalOf(parse('/usr/bin/kubelet --x=%A', 239)), 'Failed to resolve unit specifiers in --x=%A: Invalid slot');
  t.same(parse('/usr/bin/kubelet --x=%A', 252).kind, 'commands');
  const unknown = parse('/usr/bin/kubelet --x=%A');
  t.equal(unknown.kind, 'commands');
  t.ok(unknown.diagnostics.some((d) => d.severity === 'fatal' && /%A/.test(d.message)), 'a fatal diagnostic: node-check cannot tell');
  t.equal(refusalOf(parse('/usr/bin/kubelet --x=%Z')), undefined, 'without a version %Z is not called refused');
  t.ok(parse('/usr/bin/kubelet --x=%Z').diagnostics.some((d) => d.severity === 'fatal'));
});
