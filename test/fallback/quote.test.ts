import t from 'tap';
import { literalExecArgument, quoteSystemdWord, splitWrittenExec } from '../../src/fallback/systemd-quote.js';
import { extractFirstWord } from '../../src/systemd/extract-word.js';
import { parseExecValue } from '../../src/systemd/exec-command.js';
import { expandArgv } from '../../src/systemd/env-expand.js';
import { parseUnitName } from '../../src/systemd/unit-name.js';
import { LEGACY_UNIT_FILE_DIALECT, MODERN_UNIT_FILE_DIALECT, parseUnitFile } from '../../src/systemd/unit-file.js';

const unit = parseUnitName('kubelet.service')!;
const at = { file: '/run/systemd/system/kubelet.service.d/99-node-check-fallback.conf', line: 9 };

const AWKWARD = [
  'plain',
  '',
  'two words',
  'tab\there',
  'new\nline',
  'a"quote',
  "it's",
  'back\\slash',
  'trailing\\',
  ';',
  '\\;',
  ';x',
  '#not-a-comment',
  '--node-labels=a=b,c=d',
  'ünïcödé',
  'bell\x07',
  'del\x7f',
  '  padded  ',
];

t.test('quoteSystemdWord: extract_first_word(UNQUOTE|CUNESCAPE) gives the word back', async (t) => {
  for (const word of AWKWARD) {
    const quoted = quoteSystemdWord(word);
    const r = extractFirstWord(quoted, 0, { unquote: true, cunescape: true });
    t.same(r, { kind: 'word', word, next: undefined }, JSON.stringify(word));
  }
});

t.test('quoted words survive config_parse_exec as arguments, also next to each other', async (t) => {
  const value = ['/usr/bin/kubelet', ...AWKWARD].map(quoteSystemdWord).join(' ');
  const parsed = parseExecValue(value, at, unit);
  t.equal(parsed.commands.length, 1, 'a quoted ";" does not start a second command');
  t.same(parsed.commands[0]!.words, ['/usr/bin/kubelet', ...AWKWARD]);
});

t.test('literal arguments reach argv unchanged: "%" and "$" are escaped for systemd', async (t) => {
  const values = ['100%', '%n', '$HOME', '${X}', '$$', 'a$b%c', '--x=${KUBELET_NODE_IP}'];
  const value = ['/usr/bin/kubelet', ...values].map((v, i) => quoteSystemdWord(i === 0 ? v : literalExecArgument(v, true))).join(' ');
  const command = parseExecValue(value, at, unit).commands[0]!;
  const argv = expandArgv(command.words, new Map([['HOME', '/root'], ['X', 'x'], ['KUBELET_NODE_IP', '10.0.0.1']])).argv;
  t.same(argv, ['/usr/bin/kubelet', ...values]);

  // With ":" there is no environment expansion, so "$" stays single.
  const noEnv = [':/usr/bin/kubelet', ...values.map((v) => quoteSystemdWord(literalExecArgument(v, false)))].join(' ');
  t.same(parseExecValue(noEnv, at, unit).commands[0]!.words, ['/usr/bin/kubelet', ...values]);
});

t.test('a continued ExecStart= of quoted words reads the same under systemd 239 and 252 rules', async (t) => {
  const words = ['/usr/bin/kubelet', '#x', ';', 'a b', 'end\\'];
  const lines = words.map((w, i) => (i === 0 ? `ExecStart=${quoteSystemdWord(w)}` : `    ${quoteSystemdWord(w)}`) + (i < words.length - 1 ? ' \\' : ''));
  const text = `[Service]\nExecStart=\n${lines.join('\n')}\n`;
  for (const dialect of [MODERN_UNIT_FILE_DIALECT, LEGACY_UNIT_FILE_DIALECT]) {
    const parsed = parseUnitFile(text, at.file, dialect);
    t.equal(parsed.assignments.length, 2);
    t.same(parseExecValue(parsed.assignments[1]!.value, at, unit).commands[0]!.words, words);
  }
});

t.test('splitWrittenExec keeps specifiers and variables as written', async (t) => {
  const split = splitWrittenExec(`-/usr/bin/kubelet --name=%n "--a b" \\; $X`, '-');
  t.same(split, { prefixes: '-', pathWord: '/usr/bin/kubelet', argWords: ['--name=%n', '--a b', ';', '$X'] });
  t.equal(splitWrittenExec('/bin/a ; /bin/b', ''), undefined, 'two commands are not split');
});
