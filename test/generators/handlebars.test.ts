// The Handlebars subset the Bottlerocket fixture generator renders schnauzer templates with
// (scripts/fixtures/handlebars.mjs): handlebars-rust's whitespace rules, truthiness, escaping and
// strict mode, and a helper, block or construct it does not implement stops the render.
import t from 'tap';
// @ts-expect-error: a plain .mjs module without types
import { render as renderHbs, UnsupportedTemplate } from '../../scripts/fixtures/handlebars.mjs';

type Helper = (params: unknown[], hash: Record<string, unknown>) => string | { value: unknown };
const render = renderHbs as (src: string, data: unknown, helpers?: Record<string, Helper>) => string;
const hb = (src: string, data: unknown, helpers: Record<string, Helper> = {}) => render(src, data, helpers);

t.test('standalone block, else and comment lines leave no line; inline tags keep theirs', async (t) => {
  const src = 'ExecStart=/usr/bin/kubelet \\\n{{#unless s.standalone}}\n    --kubeconfig k \\\n{{else}}\n    --cloud-provider "" \\\n{{/unless}}\n{{! a comment }}\n    --config c\n';
  t.equal(hb(src, { s: { standalone: false } }), 'ExecStart=/usr/bin/kubelet \\\n    --kubeconfig k \\\n    --config c\n');
  t.equal(hb(src, { s: { standalone: true } }), 'ExecStart=/usr/bin/kubelet \\\n    --cloud-provider "" \\\n    --config c\n');
  t.equal(hb('evictionHard:\n  {{#each m}}\n  {{@key}}: "{{this}}"\n  {{/each}}\n', { m: { b: '5%', a: '100Mi' } }), 'evictionHard:\n  a: "100Mi"\n  b: "5%"\n', 'indented standalone tags; object keys in byte order');
  t.equal(hb('NO_PROXY={{#each l}}{{this}},{{else}}{{/each}}localhost\n', { l: [] }), 'NO_PROXY=localhost\n', 'tags inside a line are not standalone');
  t.equal(hb('{{#if a}}x{{/if}}\n', { a: true }), 'x\n');
  t.equal(hb('{{#if a}}\nx\n  {{/if}}', { a: true }), 'x\n  ', 'a tag at the very end of the template is not standalone (starts_with_empty_line)');
  t.throws(() => hb('{{#if (eq a)}}y{{/if}}', { a: 1 }), /eq takes two parameters/);
  // src/macros.rs: a handlebars_helper! helper cannot read a missing parameter in strict mode; null is a value.
  t.throws(() => hb('{{#if (or (eq k "ecr") this.environment)}}y{{/if}}', { k: 'x' }), /strict mode: helper or cannot read parameter 2 \(this\.environment is missing\)/);
  t.equal(hb('{{#if (or (eq k "ecr") this.environment)}}y{{else}}n{{/if}}', { k: 'x', environment: null }), 'n', 'an explicit null is read');
});

t.test('~ strips the whitespace on its side', async (t) => {
  const src = '{{~#if s.ca~}}\n{{b64 s.ca}}\n{{~/if~}}\n';
  const b64: Helper = (p) => Buffer.from(String(p[0]), 'base64').toString('utf8');
  t.equal(hb(src, { s: { ca: Buffer.from('PEM\n').toString('base64') } }, { b64 }), 'PEM\n');
  t.equal(hb(src, { s: {} }, { b64 }), '');
});

t.test("handlebars-rust's truthiness, includeZero, eq, and, @root and sub-expressions", async (t) => {
  t.equal(hb('{{#if n}}y{{else}}n{{/if}}', { n: 0 }), 'n', '0 is false');
  t.equal(hb('{{#if n includeZero=true}}y{{else}}n{{/if}}', { n: 0 }), 'y', 'unless includeZero');
  t.equal(hb('{{#if o}}y{{else}}n{{/if}}|{{#if a}}y{{else}}n{{/if}}|{{#if s}}y{{else}}n{{/if}}', { o: {}, a: [], s: '' }), 'n|n|n', 'empty object, array, string');
  t.equal(hb('{{#if (eq x "aws")}}aws{{/if}}{{#if (and a b)}}both{{/if}}', { x: 'aws', a: 1, b: 'x' }), 'awsboth');
  t.equal(hb('{{#each p}}{{#if (eq @key "ecr")}}{{@root.r}}{{/if}}{{/each}}', { r: 'root', p: { ecr: {} } }), 'root');
  t.equal(hb('{{#if (d "" x)}}y{{else}}n{{/if}}', {}, { d: (p) => String(p[1] ?? p[0]) }), 'n', "a writing helper's output is a string value");
  t.equal(hb('{{#each ip}}- {{this}}\n{{else}}- {{ip}}\n{{/each}}', { ip: '10.100.0.10' }), '- 10.100.0.10\n', 'each over a scalar renders its else');
});

t.test('values are HTML-escaped as handlebars-rust does; helper output is not', async (t) => {
  t.equal(hb('{{v}}', { v: 'a=b&"c"' }), 'a&#x3D;b&amp;&quot;c&quot;');
  t.equal(hb('{{j v}}', { v: 'a=b' }, { j: (p) => String(p[0]) }), 'a=b');
  t.equal(hb('{{n}} {{b}}', { n: 29, b: true }), '29 true');
});

t.test('what is not implemented, or missing in strict mode, stops the render', async (t) => {
  const cases: [string, RegExp][] = [
    ['{{nope x}}', /helper nope is not implemented/],
    ['{{#if (nope x)}}y{{/if}}', /helper nope is not implemented/],
    ['{{#with x}}y{{/with}}', /block helper with is not implemented/],
    ['{{> partial}}', /is not implemented/],
    ['{{{raw}}}', /triple-stash/],
    ['{{missing.path}}', /strict mode: missing\.path is missing/],
    ['{{#each missing}}x{{/each}}', /strict mode/],
    ['{{#if x}}y', /is not closed/],
    ['{{#if x}}y{{/unless}}', /does not close if/],
  ];
  for (const [src, message] of cases) t.throws(() => hb(src, { x: 1 }), message, src);
  let caught: unknown;
  try {
    hb('{{nope}}x', {});
  } catch (error) {
    caught = error;
  }
  t.ok(caught instanceof (UnsupportedTemplate as new () => Error), 'an UnsupportedTemplate, which the generator reports as a bad input');
});
