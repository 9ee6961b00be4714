// The Go text/template subset the OpenShift fixture generator renders MCO templates with: a value
// the render config does not hold stops the render, naming it, rather than writing a guessed text.
import t from 'tap';
// @ts-expect-error: a plain .mjs module without types
import { renderGoTemplate, TemplateError } from '../../scripts/fixtures/go-template.mjs';

const render = renderGoTemplate as (src: string, dot: unknown, funcs?: Record<string, (...args: unknown[]) => unknown>) => string;

t.test('fields, index keys and literals render', async (t) => {
  const dot = { Images: { infraImageKey: 'quay.io/pause' }, IPFamilies: 'IPv4', Proxy: null, List: ['a', 'b'] };
  t.equal(render('--pod-infra-container-image={{.Images.infraImageKey}}', dot), '--pod-infra-container-image=quay.io/pause');
  t.equal(render('{{index .Images "infraImageKey"}}', dot), 'quay.io/pause');
  t.equal(render('{{if eq .IPFamilies "IPv6"}}v6{{else}}v4{{end}}', dot), 'v4');
  t.equal(render('{{if .Proxy}}proxy{{end}}', dot), '', 'a nil field is false');
  t.equal(render('{{range $i, $v := .List}}{{$i}}={{$v}} {{end}}', dot), '0=a 1=b ');
  t.equal(render('{{up .IPFamilies}}', dot, { up: (s) => String(s).toUpperCase() }), 'IPV4');
});

t.test('a missing cluster-data field stops the render with the field named, never "[object Undefined]"', async (t) => {
  const dot = { Images: {}, Present: undefined, Infra: { Status: {} } };
  const cases: [string, RegExp][] = [
    ['{{.Images.infraImageKey}}', /\.Images\.infraImageKey: field infraImageKey is not in the render config \(a fill-in is missing\)/],
    ['{{index .Images "infraImageKey"}}', /index: key "infraImageKey" is not in the render config/],
    ['{{.Present}}', /\.Present: field Present is not in the render config/],
    ['{{.Infra.Status.PlatformStatus.Type}}', /field PlatformStatus is not in the render config/],
    ['{{describe .Infra.Status.PlatformStatus}}', /field PlatformStatus is not in the render config/],
  ];
  for (const [src, message] of cases) t.throws(() => render(src, dot, { describe: (x) => Object.prototype.toString.call(x) }), message, src);
  t.throws(() => render('{{missing .Images}}', dot, { missing: () => undefined }), /missing returned no value/, 'a function with nothing to return stops');
  let caught: unknown;
  try {
    render('{{.Images.x}}', dot);
  } catch (error) {
    caught = error;
  }
  t.ok(caught instanceof (TemplateError as typeof Error), 'the generator can tell a template stop from a bug');
});

t.test('constructs outside the subset stop the render', async (t) => {
  t.throws(() => render('{{printf "%s" .A}}', { A: 'x' }), /function "printf" is not implemented here/);
  t.throws(() => render('{{template "x"}}', {}), /unsupported action "template"/);
});
