// What scripts/build.mjs writes beside the bundle for packagers: the source map (a crash report
// read back to src/), THIRD_PARTY_LICENSES and bundled-packages.json (exactly the npm packages in
// the bundle, each with its licence text). The real dist/ is checked against the source map's own
// list of inputs; the package listing itself against a made-up node_modules.
import t, { type Test } from 'tap';
import { spawnSync } from 'node:child_process';
import { withoutCoverage } from '../harness/no-coverage.js';
import { existsSync, readFileSync } from 'node:fs';
import { SourceMap, type SourceMapPayload } from 'node:module';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
// @ts-expect-error -- plain ESM build script without type declarations
import { bundledPackages, thirdPartyLicensesText } from '../../scripts/third-party-licenses.mjs';

interface Bundled {
  readonly name: string;
  readonly version: string;
  readonly license: string;
  readonly dir: string;
  readonly licenceFiles: readonly string[];
}
const listPackages = bundledPackages as (inputs: readonly string[], workingDir: string) => Bundled[];
const licensesText = thirdPartyLicensesText as (packages: readonly Bundled[], legalComments: string) => string;

const DIST = fileURLToPath(new URL('../../dist/', import.meta.url));
const BUNDLE = join(DIST, 'node-check.bundle.cjs');
const MAP = `${BUNDLE}.map`;

function needDist(t: Test): boolean {
  for (const file of [BUNDLE, MAP, join(DIST, 'THIRD_PARTY_LICENSES'), join(DIST, 'bundled-packages.json')]) {
    if (!existsSync(file)) {
      t.fail(`${file} is missing: run \`npm run build\` (npm test does)`);
      return false;
    }
  }
  return true;
}

t.test('the bundle names its source map, which maps bundle positions back to src/', async (t) => {
  if (!needDist(t)) return;
  const bundle = readFileSync(BUNDLE, 'utf8');
  t.equal(bundle.trimEnd().split('\n').pop(), '//# sourceMappingURL=node-check.bundle.cjs.map', 'linked: read by node --enable-source-maps only');
  const payload = JSON.parse(readFileSync(MAP, 'utf8')) as SourceMapPayload & { sourcesContent?: string[] };
  t.equal(payload.sourcesContent?.length, payload.sources.length, 'self-contained: a crash is readable without a checkout');
  const map = new SourceMap(payload);
  // The internal-error line of src/cli/main.ts, found in the minified bundle and mapped back.
  const lines = bundle.split('\n');
  const line = lines.findIndex((l) => l.includes('node-check: internal error: '));
  t.ok(line >= 0, 'the internal-error text is in the bundle');
  const column = lines[line]!.indexOf('node-check: internal error: ');
  const entry = map.findEntry(line, column) as { originalSource?: string; originalLine?: number };
  t.match(entry.originalSource, /src\/cli\/main\.ts$/, 'mapped to src/cli/main.ts');
  const mainLines = readFileSync(fileURLToPath(new URL('../../src/cli/main.ts', import.meta.url)), 'utf8').split('\n');
  t.match(mainLines[entry.originalLine!], /internal error/, `main.ts line ${entry.originalLine! + 1} is the one that writes it`);
});

t.test('a crash: one line normally; under node --enable-source-maps, the stack in src/ terms', async (t) => {
  if (!needDist(t)) return;
  // A stand-in bug: the first write to stdout (fd 1, src/cli/stdio.ts) throws, inside the command (explain).
  const dir = t.testdir({
    'bug.cjs': "const fs = require('node:fs'); const write = fs.writeSync; let first = true;\nfs.writeSync = function (fd, ...args) { if (fd === 1 && first) { first = false; throw new TypeError('stand-in bug'); } return write.call(this, fd, ...args); };\n",
  });
  // tap adds its coverage hook to every child's NODE_OPTIONS, and that hook turns source maps on.
  const crash = (flags: readonly string[]) =>
    spawnSync(...withoutCoverage(process.execPath, [...flags, '-r', join(dir, 'bug.cjs'), BUNDLE, 'explain', 'cannot-decide']), { encoding: 'utf8', timeout: 30_000 });
  const plain = crash([]);
  t.equal(plain.status, 70, 'internal error');
  t.equal(plain.stderr, 'node-check: internal error: stand-in bug\n', 'one line, no stack');
  const mapped = crash(['--enable-source-maps']);
  t.equal(mapped.status, 70);
  const lines = mapped.stderr.split('\n');
  t.equal(lines[0], 'node-check: internal error: stand-in bug');
  t.equal(lines[1], 'TypeError: stand-in bug');
  t.match(mapped.stderr, /\n {4}at .*src\/cli\/commands\/explain\.ts:\d+:\d+\)\n/, 'frames name the TypeScript sources');
  t.notMatch(mapped.stderr, /node-check\.bundle\.cjs:\d+/, 'no frame left in the minified bundle');
});

t.test('THIRD_PARTY_LICENSES covers exactly the npm packages the bundle was built from', async (t) => {
  if (!needDist(t)) return;
  const listed = JSON.parse(readFileSync(join(DIST, 'bundled-packages.json'), 'utf8')) as { name: string; version: string; license: string }[];
  // The source map's sources are esbuild's inputs: every package directory among them.
  const { sources } = JSON.parse(readFileSync(MAP, 'utf8')) as { sources: string[] };
  const fromMap = new Set(sources.flatMap((s) => {
    const match = /^(.*node_modules\/(?:@[^/]+\/)?[^/]+)\//.exec(s);
    if (!match) return [];
    const manifest = JSON.parse(readFileSync(join(DIST, match[1]!, 'package.json'), 'utf8')) as { name: string; version: string };
    return [`${manifest.name}@${manifest.version}`];
  }));
  t.same(listed.map((p) => `${p.name}@${p.version}`).sort(), [...fromMap].sort(), 'bundled-packages.json = the packages in the source map');
  t.ok(listed.some((p) => p.name === 'yargs') && listed.some((p) => p.name === 'yaml'), 'yargs and yaml among them');
  t.notOk(listed.some((p) => ['tap', 'typescript', 'esbuild', 'fast-check'].includes(p.name)), 'no build or test tool');
  const text = readFileSync(join(DIST, 'THIRD_PARTY_LICENSES'), 'utf8');
  for (const p of listed) {
    t.match(p.license, /^[A-Za-z0-9.-]+( (AND|OR) [A-Za-z0-9.-]+)*$/, `${p.name}: an SPDX expression`);
    t.ok(text.includes(`\n${p.name} ${p.version} (${p.license})\n`), `${p.name} ${p.version} has a section`);
  }
  const yaml = readFileSync(join(DIST, '..', 'node_modules', 'yaml', 'LICENSE'), 'utf8').trimEnd();
  t.ok(text.includes(yaml), "yaml's LICENSE text, verbatim");
});

t.test('bundledPackages: scoped and nested packages, licence files found; none found stops the build', async (t) => {
  const dir = t.testdir({
    node_modules: {
      plain: { 'package.json': '{"name":"plain","version":"1.2.0","license":"MIT"}', LICENSE: 'MIT text', 'index.js': '', 'README.md': '' },
      '@scope': { pkg: { 'package.json': '{"name":"@scope/pkg","version":"0.1.0","license":"ISC"}', 'LICENSE.txt': 'ISC text', lib: { 'a.js': '' } } },
      outer: {
        'package.json': '{"name":"outer","version":"2.0.0","license":"Apache-2.0"}',
        license: 'Apache text',
        NOTICE: 'notice text',
        node_modules: { plain: { 'package.json': '{"name":"plain","version":"0.9.0","license":"MIT"}', 'LICENCE.md': 'old MIT text' } },
      },
      unlicensed: { 'package.json': '{"name":"unlicensed","version":"1.0.0","license":"MIT"}', 'index.js': '' },
    },
    src: { 'main.ts': '' },
  });
  const inputs = [
    'src/main.ts',
    'node_modules/plain/index.js',
    'node_modules/@scope/pkg/lib/a.js',
    'node_modules/outer/index.js',
    'node_modules/outer/node_modules/plain/index.js',
    'node_modules/plain/index.js',
  ];
  const packages = listPackages(inputs, dir);
  t.same(packages.map((p) => [p.name, p.version, p.license, p.licenceFiles]), [
    ['@scope/pkg', '0.1.0', 'ISC', ['LICENSE.txt']],
    ['outer', '2.0.0', 'Apache-2.0', ['NOTICE', 'license']],
    ['plain', '0.9.0', 'MIT', ['LICENCE.md']],
    ['plain', '1.2.0', 'MIT', ['LICENSE']],
  ]);
  const text = licensesText(packages, '');
  for (const body of ['MIT text', 'ISC text', 'Apache text', 'notice text', 'old MIT text']) t.ok(text.includes(body), body);
  t.notMatch(text, /esbuild extracted/, 'no empty legal-comments section');
  t.match(licensesText(packages, 'lib/x.js:\n  /* @license Foo */\n'), /esbuild extracted them\)\n={80}\n\nlib\/x\.js:/);
  t.throws(() => listPackages(['node_modules/unlicensed/index.js'], dir), /unlicensed: bundled, but has no LICENSE, COPYING or NOTICE file/);
});
