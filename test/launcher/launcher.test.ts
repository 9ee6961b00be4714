/**
 * The launcher users run (dist/node-check.cjs): it answers --version alone, compiles
 * the bundle from a per-command V8 code cache it writes after a run, falls back silently from a
 * cache V8 rejects (and rewrites it), and never uses a cache in a directory or file others can
 * write. Runs the built launcher on a copy of dist/ in a temp directory.
 */
import t from 'tap';
import { spawnSync } from 'node:child_process';
import { withoutCoverage } from '../harness/no-coverage.js';
import { chmodSync, copyFileSync, readdirSync, readFileSync, statSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';

const dist = fileURLToPath(new URL('../../dist/', import.meta.url));
const version = (JSON.parse(readFileSync(fileURLToPath(new URL('../../package.json', import.meta.url)), 'utf8')) as { version: string }).version;

function copyOfDist(dir: string): string {
  for (const name of ['node-check.cjs', 'node-check.bundle.cjs']) copyFileSync(join(dist, name), join(dir, name));
  chmodSync(dir, 0o755);
  return join(dir, 'node-check.cjs');
}

const run = (launcher: string, args: string[]) => spawnSync(process.execPath, [launcher, ...args], { encoding: 'utf8', timeout: 60_000 });
const caches = (dir: string) => readdirSync(dir).filter((name) => name.endsWith('.v8cache'));

t.test('--version is answered by the launcher, the same line as the bundle prints', async (t) => {
  const launcher = copyOfDist(t.testdir());
  const viaLauncher = run(launcher, ['--version']);
  t.equal(viaLauncher.status, 0);
  t.equal(viaLauncher.stdout, `${version}\n`);
  const viaBundle = spawnSync(...withoutCoverage(process.execPath, [join(dist, 'node-check.bundle.cjs'), '--version']), { encoding: 'utf8' });
  t.equal(viaBundle.stdout, viaLauncher.stdout);
});

t.test('a run writes its command\'s cache; a garbled cache is ignored silently and rewritten', async (t) => {
  const dir = t.testdir();
  const launcher = copyOfDist(dir);
  const first = run(launcher, ['explain', 'plugin-binary-missing']);
  t.equal(first.status, 0, first.stderr);
  const written = caches(dir);
  t.equal(written.length, 1, 'one cache file');
  t.match(written[0], /^node-check\.[0-9a-f]{16}\.explain\.v\d+\.\d+\.\d+-\w+\.v8cache$/);
  const cacheFile = join(dir, written[0]!);
  const good = readFileSync(cacheFile);
  writeFileSync(cacheFile, Buffer.alloc(good.length, 7));
  const garbled = run(launcher, ['explain', 'plugin-binary-missing']);
  t.equal(garbled.status, 0);
  t.equal(garbled.stdout, first.stdout, 'same answer from a plain compile');
  t.equal(garbled.stderr, '', 'nothing said about the cache');
  t.notOk(readFileSync(cacheFile).equals(Buffer.alloc(good.length, 7)), 'rewritten');
});

t.test('no cache is read from or written to a directory or file others can write', async (t) => {
  const dir = t.testdir();
  const launcher = copyOfDist(dir);
  chmodSync(dir, 0o777);
  const open = run(launcher, ['explain', 'plugin-binary-missing']);
  t.equal(open.status, 0, open.stderr);
  t.same(caches(dir), [], 'nothing written into a world-writable directory');

  chmodSync(dir, 0o755);
  t.equal(run(launcher, ['explain', 'plugin-binary-missing']).status, 0);
  const [name] = caches(dir);
  t.ok(name, 'written once the directory is safe');
  const cacheFile = join(dir, name!);
  writeFileSync(cacheFile, 'not a cache');
  chmodSync(cacheFile, 0o666);
  const loose = run(launcher, ['explain', 'plugin-binary-missing']);
  t.equal(loose.status, 0, 'a group- or world-writable cache is not read');
  t.equal(loose.stderr, '');
  t.equal(statSync(cacheFile).mode & 0o777, 0o644, 'it is replaced by a file only its owner can write');
  t.not(readFileSync(cacheFile, 'utf8'), 'not a cache');
});

// V8 keys a code cache to its flags: a cache the launcher wrote is accepted by a compile under
// exactly the flags the launcher sets, and rejected without them. The flags are set through
// Node's binding, not node:v8 (whose heap-snapshot streams load Node's stream stack, which
// preflight does not otherwise load: test/cli/preflight-modules.test.ts), and its
// deprecation is never said, not even under --pending-deprecation.
t.test("the launcher sets V8's flags without node:v8 and without a warning", async (t) => {
  const dir = t.testdir();
  const launcher = copyOfDist(dir);
  const modules = join(dir, 'modules.json');
  writeFileSync(join(dir, 'modules.cjs'), `process.on('exit', () => require('fs').writeFileSync(${JSON.stringify(modules)}, JSON.stringify(process.moduleLoadList)));\n`);
  // Without tap's process hook, whose own use of process.binding would be warned about.
  const first = spawnSync(...withoutCoverage(process.execPath, ['--pending-deprecation', '-r', join(dir, 'modules.cjs'), launcher, 'explain', 'plugin-binary-missing']), { encoding: 'utf8', timeout: 60_000 });
  t.equal(first.status, 0, first.stderr);
  t.equal(first.stderr, '', 'no deprecation warning');
  const loaded = JSON.parse(readFileSync(modules, 'utf8')) as string[];
  t.ok(loaded.includes('Internal Binding v8'), 'the list is read');
  t.same(loaded.filter((m) => ['NativeModule v8', 'NativeModule internal/heap_utils'].includes(m)), [], 'neither node:v8 nor its heap-snapshot streams');
  const [name] = caches(dir);
  t.ok(name, 'a cache was written');
  const compile = (flags: string) => {
    const probe = [
      "const fs = require('node:fs'); const vm = require('node:vm');",
      `if (${JSON.stringify(flags)}) require('node:v8').setFlagsFromString(${JSON.stringify(flags)});`,
      `const script = new vm.Script(fs.readFileSync(${JSON.stringify(join(dir, 'node-check.bundle.cjs'))}, 'latin1'), { cachedData: fs.readFileSync(${JSON.stringify(join(dir, name!))}) });`,
      'process.stdout.write(String(script.cachedDataRejected));',
    ].join('\n');
    return spawnSync(process.execPath, ['-e', probe], { encoding: 'utf8', timeout: 60_000 }).stdout;
  };
  t.equal(compile('--no-opt --semi-space-growth-factor=1'), 'false', 'accepted under the launcher\'s flags');
  t.equal(compile(''), 'true', 'rejected under none: the flags were set');
});
