import t from 'tap';
import fc from 'fast-check';
import * as posix from 'node:path/posix';
import { goClean, goJoin, goMatch, isCleanRootedPath } from '../../src/go/filepath.js';
import { nodePathKey } from '../../src/credentials/registration.js';

t.test('filepath.Clean', async (t) => {
  t.equal(goClean(''), '.');
  t.equal(goClean('//a//b/./c/..'), '/a/b');
  t.equal(goClean('a/../../b'), '../b');
  t.equal(goClean('/../x'), '/x');
  t.equal(goClean('./'), '.');
});

/** Paths made of what Clean cares about: slashes, dots, and names (one non-ASCII). */
const paths = fc.string({ unit: fc.constantFrom('/', '/', '.', '.', 'a', 'b', '\u00e9'), maxLength: 14 });
const RUNS = { numRuns: Number(process.env.NODE_CHECK_PROPERTY_RUNS ?? 300) * 10 };

t.test('filepath.Clean is path.normalize without a trailing slash ("" is ".")', async (t) => {
  const goCleanByNormalize = (p: string) => {
    if (p === '') return '.';
    const normalized = posix.normalize(p);
    return normalized.length > 1 && normalized.endsWith('/') ? normalized.slice(0, -1) : normalized;
  };
  fc.assert(fc.property(paths, (p) => goClean(p) === goCleanByNormalize(p)), RUNS);
  t.pass();
});

t.test('a clean rooted path is recognised as such: Clean and path.resolve give it back', async (t) => {
  t.ok(isCleanRootedPath('/usr/libexec/kubelet-image-credential-provider-plugins/acr-credential-provider'));
  t.ok(isCleanRootedPath('/a/.b/..c/...'), 'dots within names');
  for (const unclean of ['/', '', 'a/b', '/a/', '/a//b', '/a/./b', '/a/../b', '/a/.', '/a/..', '//a']) t.notOk(isCleanRootedPath(unclean), unclean);
  fc.assert(fc.property(paths, (p) => isCleanRootedPath(p) === (p.startsWith('/') && p !== '/' && goClean(p) === p)), RUNS);
  fc.assert(fc.property(paths, (p) => !isCleanRootedPath(p) || posix.resolve('/', p) === p), RUNS);
  t.pass();
});

t.test('the FileTable key of a path is path.resolve from "/"', async (t) => {
  fc.assert(fc.property(paths, (p) => nodePathKey(p) === posix.resolve('/', p)), RUNS);
  t.equal(nodePathKey('usr/bin/../bin/kubelet'), '/usr/bin/kubelet');
  t.pass();
});

t.test('filepath.Join', async (t) => {
  t.equal(goJoin('/a/b/', ''), '/a/b', 'a trailing empty element adds nothing');
  t.equal(goJoin('', ''), '');
  t.equal(goJoin('', 'x'), 'x');
  t.equal(goJoin('/usr/libexec/kubelet-image-credential-provider-plugins', 'acr-credential-provider'), '/usr/libexec/kubelet-image-credential-provider-plugins/acr-credential-provider');
  t.equal(goJoin('/bin', '../x'), '/x');
  t.equal(goJoin('/bin', ''), '/bin', 'an empty provider name joins to the bin dir itself');
});

t.test('filepath.Match', async (t) => {
  const yes = (p: string, n: string) => t.same(goMatch(p, n), { matched: true }, `${p} ~ ${n}`);
  const no = (p: string, n: string) => t.same(goMatch(p, n), { matched: false }, `${p} !~ ${n}`);
  const bad = (p: string, n: string) => t.same(goMatch(p, n), { matched: false, error: 'syntax error in pattern' }, `${p} is malformed`);
  yes('*', 'abc');
  yes('*', '');
  yes('a*c', 'abbc');
  yes('*x', 'x');
  yes('a?c', 'abc');
  yes('[a-c]x', 'bx');
  yes('[^a]', 'b');
  yes('\\*', '*');
  yes('ü*', 'über');
  no('a*', 'b');
  no('[^a]', 'a');
  no('*', 'a/b');
  bad('[', 'a');
  bad('a[', 'b');
  bad('\\', 'x');
  bad('[]a]', 'a');
  bad('x[', 'y');
});
