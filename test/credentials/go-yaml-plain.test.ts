/**
 * The fast path for plain YAML (src/credentials/go-yaml-plain.ts, a start-path speed-up) must give exactly what
 * the full path gives, or leave the document to it: for every input, plainYamlToGoJson is undefined
 * or deep-equal to fullYamlToGoJson. Checked on every YAML file of the suite, on examples of each
 * form, and on random documents in and near the subset.
 */
import t, { type Test } from 'tap';
import fc from 'fast-check';
import { readdirSync, readFileSync, statSync } from 'node:fs';
import { join } from 'node:path';
import { fullYamlToGoJson, plainYamlToGoJson, yamlToGoJson, type YamlToJsonOptions } from '../../src/credentials/go-yaml.js';
import { parsePlainYaml } from '../../src/credentials/go-yaml-plain.js';

const RUNS = Number(process.env.NODE_CHECK_PROPERTY_RUNS ?? 2000);
const OPTIONS: readonly YamlToJsonOptions[] = [{ capitalisedMapKeyError: false }, { capitalisedMapKeyError: true }];

/** Whether the fast path took the text; fails the test when it took it and differs from the full path. */
function agree(t: Test, text: string | Buffer, name = JSON.stringify(String(text).slice(0, 200))): boolean {
  const data = typeof text === 'string' ? Buffer.from(text, 'latin1') : text;
  let taken = false;
  for (const options of OPTIONS) {
    const fast = plainYamlToGoJson(data, options);
    if (fast === undefined) continue;
    taken = true;
    t.strictSame(fast, fullYamlToGoJson(data, options), name);
  }
  return taken;
}

const taken = (text: string) => plainYamlToGoJson(Buffer.from(text, 'latin1'), OPTIONS[0]!) !== undefined;

t.test('every YAML file of the suite converts the same way by both paths, and most take the fast path', async (t) => {
  const root = join(import.meta.dirname, '..', '..');
  const files = ['test/fixtures', 'examples', 'packaging'].flatMap((dir) =>
    (readdirSync(join(root, dir), { recursive: true }) as string[]).filter((f) => /\.ya?ml$/.test(f)).map((f) => join(root, dir, f)).filter((f) => statSync(f).isFile()),
  );
  let fast = 0;
  for (const file of files) if (agree(t, readFileSync(file), file)) fast++;
  t.ok(files.length > 100, `${files.length} files`);
  t.ok(fast > files.length * 0.8, `${fast} of ${files.length} take the fast path`);
});

t.test('each form of the subset, and YAML 1.1 resolution through the full path\'s resolver', async (t) => {
  const forms = [
    'a: 1\n',
    'a: 1', // no final newline
    '---\nkind: x\n',
    '--- \n# c\nkind: x\n',
    '# head\n\na: b # tail\n  # indented comment\n\nc: d\n',
    'a:\n  b:\n    c: 1\n  d: 2\ne: 3\n',
    'a:\n- x\n- y\nb:\n  - 1\n  -   2\n',
    'providers:\n  - name: p\n    matchImages: ["*.azurecr.io", b, \'c\']\n    args:\n    - --v=5\n    env:\n    - name: A\n      value: B\n  - name: q\n',
    '-   a: 1\n    b: 2\n-\n  c: 3\n- # comment\n  - x\n- \n- z\n',
    '- a:\n  - x\n  b: y\n',
    'a: {}\nb: []\nc: [ ]\nd: [a , b ]   # c\ne: {  }\n',
    'q: \'it\'\'s\'\nd: "say \'hi\' # not a comment"\ns: \'\'\nt: ""\n\'k\': 1\n"l m": 2\n',
    'a: b#c\nd: e # f\ng: h:i\nj: k,l [m] {n}\nurl: https://x.io/a?b=c&d\n',
    '1: a\n"1": b\nyes: c\n1.5: d\n0x10: e\n',
    'a: ~\nb: null\nc:\nd: yes\ne: No\nf: on\ng: OFF\nh: y\ni: n\n',
    'a: 0o17\nb: 017\nc: 08\nd: 0b101\ne: 1_000\nf: 0x_1F\ng: 1e3\nh: .5\ni: -.inf\nj: +7\nk: 9223372036854775808\nl: 1.\n',
    'a: 2001-12-14\nb: 2001-12-14T21:59:43.10-05:00\nc: "2001-12-14"\nd: 1:20\ne: 10m\nf: \'42\'\ng: "0o17"\n',
    'a: .nan\n',
    '.inf: x\n',
    '~: x\n',
    'a: <<\n',
    '  a: 1\n  b: 2\n',
    '- 1\n- [2, 3]\n- {}\n',
  ];
  for (const text of forms) {
    t.ok(taken(text), `fast: ${JSON.stringify(text)}`);
    agree(t, text);
  }
  const value = yamlToGoJson(Buffer.from('a: 0o17\nb: "0o17"\nc: yes\n'), OPTIONS[0]!);
  t.same(value.ok && value.value, {
    kind: 'object',
    members: [
      { key: 'a', value: { kind: 'number', text: '15' } },
      { key: 'b', value: { kind: 'string', value: '0o17' } },
      { key: 'c', value: { kind: 'bool', value: true } },
    ],
  });
});

t.test('anything outside the subset is left to the full path', async (t) => {
  const outside = [
    '', '\n', '# only a comment\n', '---\n', '{"a": 1}\n', '[1, 2]\n', 'a\n', 'a: 1\nb\n',
    'a: 1\r\n', 'a:\t1\n', '\ta: 1\n', '\ufeffa: 1\n', 'a: \u00e9\n', 'a: \x01\n', 'a: \x7f\n',
    'a: &x 1\nb: *x\n', 'a: !!str 1\n', 'a: !x 1\n', '<<: {a: 1}\n', "'<<': 1\n", '? a\n: 1\n', ': 1\n', '"": 1\n',
    'a: |\n  x\n', 'a: >\n  x\n', 'a: {b: 1}\n', 'a: [b, [c]]\n', 'a: [b, {c: 1}]\n', 'a: [b,\n  c]\n', 'a: [b, ]\n', 'a: [b,, c]\n', 'a: [b: c]\n', 'a: [b #c]\n',
    'a: b\n  c\n', 'a:\n  b\n', '- a\n  b\n', 'a: "b\n  c"\n', "a: 'b\n", 'a: "b\\n"\n', 'a: "b"c\n', 'a: "b"#c\n', "a: 'b' 'c'\n",
    'a: b: c\n', 'a: b:\n', 'a: b:   # c\n', 'a : 1\n', '"a" : 1\n', 'a:1\n', 'a #b: 1\n',
    'a:\n  b: 1\n c: 2\n', 'a:\n  b: 1\n    c: 2\n', 'a: 1\n- b\n', '- a\nb: 1\n', '- a\n - b\n', 'a:\n  - x\n  b: 1\n', '- - a\n', '-  a: 1\n  b: 2\n',
    'a: 1\n---\nb: 2\n', 'a: 1\n...\n', '%YAML 1.1\n---\na: 1\n', '--- a: 1\n', '--- # c\na: 1\n', '---\n---\na: 1\n',
    'a: -\n', 'a: - b\n', 'a: @b\n', 'a: `b\n', 'a: %b\n', 'a: ?b\n', 'a: :b\n', 'a: ,b\n', 'a: *b\n', 'a: &b\n', 'a: !b\n', 'a: |b\n', 'a: >b\n', 'a: ]\n', 'a: }\n', 'a: {\n', 'a: {} x\n', 'a: [] x\n',
    `a:\n${'  '.repeat(60)}b: 1\n`,
    `${'k'.repeat(300)}: 1\n`,
    Array.from({ length: 40 }, (_, i) => `${' '.repeat(i * 2)}k${i}:`).join('\n') + ' 1\n',
    Array.from({ length: 40 }, (_, i) => `${' '.repeat(i * 2)}-`).join('\n') + ' 1\n',
    Array.from({ length: 40 }, (_, i) => `${' '.repeat(i * 2)}- k${i}:`).join('\n') + '\n', // "- key:" and its sequence at one column
  ];
  for (const text of outside) {
    t.notOk(taken(text), JSON.stringify(text));
    t.equal(parsePlainYaml(Buffer.from(text, 'utf8')), undefined);
  }
  // Repeated keys, as go-yaml's map-key identity has them, are worded by the full path.
  for (const text of ['a: 1\na: 2\n', 'yes: 1\ntrue: 2\n', '1: a\n0x1: b\n', 'a:\n  b: 1\n  b: 2\n', '- a: 1\n  "a": 2\n']) t.notOk(taken(text), JSON.stringify(text));
});

t.test('what the fast path cannot tell is worded by the shared code, as the full path words it', async (t) => {
  t.same(plainYamlToGoJson(Buffer.from('~: x\n'), OPTIONS[1]!), { ok: false, error: 'Unsupported map key of type: %!s(<nil>), key: <nil>, value: "x"', exact: false });
  t.same(plainYamlToGoJson(Buffer.from('a: .nan\n'), OPTIONS[0]!), { ok: false, error: 'json: unsupported value: NaN', exact: true });
  t.same(plainYamlToGoJson(Buffer.from('1: a\n"1": b\n'), OPTIONS[0]!), fullYamlToGoJson(Buffer.from('1: a\n"1": b\n'), OPTIONS[0]!), 'two keys, one JSON name');
});

t.test('a data buffer that is a view into a larger one', async (t) => {
  const whole = Buffer.from('xxxxa: 1\nyyyy');
  const view = whole.subarray(4, 9);
  t.same(plainYamlToGoJson(view, OPTIONS[0]!), fullYamlToGoJson(view, OPTIONS[0]!));
  t.ok(plainYamlToGoJson(view, OPTIONS[0]!));
});

// ---------------------------------------------------------------------------------------------
// Random documents: a tree rendered with random indentation, styles and comments, sometimes
// mutated a little, so that the generator reaches the subset's edges from both sides.

/** Mostly `usual`, now and then one of the others. */
const edge = <T>(usual: T, ...others: T[]) => fc.oneof({ arbitrary: fc.constant(usual), weight: 3 * others.length }, fc.constantFrom(...others));

/** Scalars that YAML 1.1 resolves, or that look like indicators, or that need quoting. */
const special = fc.constantFrom(
  'yes', 'no', 'Yes', 'NO', 'on', 'Off', 'y', 'N', 'true', 'False', 'TrUe', '~', 'null', 'Null', 'NULL', 'nil', '',
  '0', '-0', '+7', '-7', '42', '0o17', '0O17', '0x1F', '0x_1F', '017', '08', '0b101', '1_000', '1__0', '_1', '1e3', '1E-3', '.5', '5.', '1.2.3', '12e',
  '.nan', '.NaN', '.inf', '-.Inf', '+.INF', 'inf', 'NaN', '9223372036854775807', '9223372036854775808', '18446744073709551616', '-9223372036854775809',
  '2001-12-14', '2001-12-14T21:59:43.10-05:00', '2001-12-14 21:59:43.10', '2001-13-14', '1:20', '10m', '1h30m',
  '<<', '=', '-', '--', '---', '...', '--v=5', '-x', '-.', '*.azurecr.io', 'a:b', 'a: b', 'a:', 'a#b', 'a #b', 'x]', '[x', '{}', '[]',
  '@x', '%x', '`x', '!x', '&x', '*x', '|', '>', '?x', ':x', ',x', "it's", 'say "hi"', 'a\\b', 'a\\"b', 'https://x.io/a?b=c#d', ' a', 'a ', 'a  b',
);
const word = fc.string({ unit: fc.constantFrom(...'abkxyz019_.-/:#\'" []{},~*&!|>?%@`\\=+<^;$()\t'), minLength: 1, maxLength: 6 });
const ident = fc.constantFrom('a', 'b', 'c', 'name', 'kind', 'apiVersion', 'providers', 'matchImages', 'args', 'env', 'value', 'x_y', 'k8s.io/z', 'A');
const text = fc.oneof({ arbitrary: special, weight: 2 }, { arbitrary: word, weight: 1 }, { arbitrary: ident, weight: 3 });
const style = fc.constantFrom('plain', 'plain', 'plain', 'single', 'double');
const scalar = fc.record({ text, style });
const key = fc.record({ text: fc.oneof({ arbitrary: ident, weight: 6 }, { arbitrary: text, weight: 1 }), style });
const comment = fc.oneof({ arbitrary: fc.constant(undefined), weight: 8 }, fc.constantFrom(' # c', '  #c', ' #', '# c', ' # a: b'));
const layout = fc.record({ step: fc.integer({ min: 1, max: 4 }), gap: fc.boolean(), comment });

type Scalar = { text: string; style: string };
type Tree =
  | { t: 'scalar'; value: Scalar; comment: string | undefined }
  | { t: 'map'; pairs: { key: Scalar; value: Tree }[]; step: number; gap: boolean; comment: string | undefined }
  | { t: 'seq'; items: Tree[]; step: number; gap: boolean; comment: string | undefined; indentless: boolean; compact: boolean; flow: boolean };

const { tree, map, seq } = fc.letrec<{ tree: Tree; map: Tree; seq: Tree; scalar: Tree }>((tie) => ({
  tree: fc.oneof({ depthSize: 'small', withCrossShrink: true }, tie('scalar'), tie('map'), tie('seq')),
  scalar: fc.record({ t: fc.constant('scalar' as const), value: scalar, comment }),
  map: fc.record({ t: fc.constant('map' as const), pairs: fc.array(fc.record({ key, value: tie('tree') }), { minLength: 1, maxLength: 3 }) }).chain((m) => layout.map((l) => ({ ...m, ...l }))),
  seq: fc
    .record({ t: fc.constant('seq' as const), items: fc.array(tie('tree'), { maxLength: 3 }), indentless: fc.boolean(), compact: fc.boolean(), flow: fc.boolean() })
    .chain((s) => layout.map((l) => ({ ...s, ...l }))),
}));

function quote(s: Scalar): string {
  if (s.style === 'single') return `'${s.text.replaceAll("'", "''")}'`;
  if (s.style === 'double') return `"${s.text}"`;
  return s.text;
}

/** The node after "key:" or "-": on the same line, or on the lines below at `indent`. */
function after(node: Tree, indent: number, inSeq: boolean): string {
  if (node.t === 'scalar') return ` ${quote(node.value)}${node.comment ?? ''}\n`;
  if (node.t === 'seq' && node.flow && node.items.every((i) => i.t === 'scalar')) {
    return ` [${node.items.map((i) => quote((i as { value: Scalar }).value)).join(', ')}]${node.comment ?? ''}\n`;
  }
  if (node.t === 'map' && node.pairs.length === 0) return ` {}${node.comment ?? ''}\n`;
  if (node.t === 'seq' && node.items.length === 0) return ` []${node.comment ?? ''}\n`;
  if (inSeq && node.t === 'map' && node.pairs.length > 0 && node.step === 2) return ` ${render(node, indent + 2).slice(indent + 2)}`; // "- key: value"
  const nested = node.t === 'seq' && node.indentless && !inSeq ? indent : indent + node.step;
  return `${node.comment ?? ''}\n${node.gap ? '\n' : ''}${render(node, nested)}`;
}

function render(node: Tree, indent: number): string {
  const pad = ' '.repeat(indent);
  if (node.t === 'scalar') return `${pad}${quote(node.value)}\n`;
  if (node.t === 'map') return node.pairs.map((p) => `${pad}${quote(p.key)}:${after(p.value, indent, false)}`).join('') || `${pad}{}\n`;
  return node.items.map((item) => `${pad}-${after(item, indent, true)}`).join('') || `${pad}[]\n`;
}

const mutation = fc.record({ at: fc.nat(), kind: fc.constantFrom('insert', 'delete', 'replace'), char: fc.constantFrom(...' :#-\'"[]{},&*!|>?\t\r\n\\.~0\u00e9') });
const document = fc
  .record({
    tree: fc.oneof({ arbitrary: map, weight: 4 }, seq, tree),
    prefix: edge('', '---\n', '# c\n', '--- \n', '%YAML 1.1\n---\n', ' '),
    suffix: edge('', '\n', '# end', '...\n', '---\nb: 1\n'),
    mutations: fc.oneof({ arbitrary: fc.constant([]), weight: 3 }, fc.array(mutation, { minLength: 1, maxLength: 2 })),
  })
  .map(({ tree, prefix, suffix, mutations }) => {
    let text = prefix + render(tree, 0) + suffix;
    for (const m of mutations) {
      const at = m.at % (text.length + 1);
      text = text.slice(0, at) + (m.kind === 'delete' ? '' : m.char) + text.slice(m.kind === 'insert' ? at : at + 1);
    }
    return text;
  });

t.test('random documents: the fast path gives the full path\'s result, or leaves the document to it', async (t) => {
  let fast = 0;
  fc.assert(
    fc.property(document, (text) => {
      const data = Buffer.from(text, 'utf8');
      for (const options of OPTIONS) {
        const result = plainYamlToGoJson(data, options);
        if (result === undefined) continue;
        if (options === OPTIONS[0]) fast++;
        const full = fullYamlToGoJson(data, options);
        if (!t.strictSame(result, full, JSON.stringify(text))) return false;
      }
      return true;
    }),
    { numRuns: RUNS },
  );
  t.ok(fast > RUNS / 4, `the generator reaches the fast path (${fast} of ${RUNS})`);
});

t.test('a fault of the fast path leaves the document to the full path', async (t) => {
  const mocked = await t.mockImport<typeof import('../../src/credentials/go-yaml.js')>('../../src/credentials/go-yaml.js', {
    '../../src/credentials/go-yaml-plain.js': {
      parsePlainYaml: () => {
        throw new Error('a fault');
      },
    },
  });
  const data = Buffer.from('a: 1\n');
  t.throws(() => mocked.plainYamlToGoJson(data, OPTIONS[0]!), /a fault/);
  t.same(mocked.yamlToGoJson(data, OPTIONS[0]!), fullYamlToGoJson(data, OPTIONS[0]!));
});
