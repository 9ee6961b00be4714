import t from 'tap';
import { componentMatcher, hasGlobMagic } from '../../src/systemd/glob-pattern.js';
import { expandGlob } from '../../src/systemd/load-environment-files.js';
import { detectSystemdVersion, rulesFor } from '../../src/systemd/systemd-version.js';
import { LEGACY_UNIT_FILE_DIALECT, MODERN_UNIT_FILE_DIALECT } from '../../src/systemd/unit-file.js';
import { makeTempRoot } from './temp-root.js';

t.test('glob components: *, ?, [set], and no implicit leading dot', async (t) => {
  t.equal(hasGlobMagic('/etc/kubelet.env'), false);
  t.equal(componentMatcher('kubelet.env'), undefined);
  const star = componentMatcher('*.env')!;
  t.ok(star('a.env'));
  t.notOk(star('.a.env'));
  t.notOk(star('a.envx'));
  t.ok(componentMatcher('.*.env')!('.a.env'));
  t.ok(componentMatcher('node?.env')!('node1.env'));
  t.ok(componentMatcher('[ab]x')!('bx'));
  t.notOk(componentMatcher('[!ab]x')!('bx'));
  t.ok(componentMatcher('[0-9].env')!('7.env'));
});

t.test('expandGlob lists matches under the root in byte order', async (t) => {
  const fs = makeTempRoot({ files: { '/etc/env.d/b.env': 'B=1', '/etc/env.d/a.env': 'A=1', '/etc/env.d/.h.env': 'H=1', '/etc/env.d/c.txt': '' } }, t.teardown);
  t.same(expandGlob(fs, '/etc/env.d/*.env'), ['/etc/env.d/a.env', '/etc/env.d/b.env']);
  t.same(expandGlob(fs, '/etc/*/a.env'), ['/etc/env.d/a.env']);
  t.same(expandGlob(fs, '/nowhere/*.env'), []);
});

t.test('the systemd version comes from libsystemd-shared-NNN.so', async (t) => {
  t.equal(detectSystemdVersion(makeTempRoot({ files: { '/usr/lib/systemd/libsystemd-shared-239.so': '' } }, t.teardown)), 239);
  t.equal(detectSystemdVersion(makeTempRoot({ files: { '/lib/systemd/libsystemd-shared-252.so': '' } }, t.teardown)), 252);
  t.equal(detectSystemdVersion(makeTempRoot({ files: { '/usr/lib/systemd/libsystemd-shared-255.4-1.fc40.so': '' } }, t.teardown)), 255);
  t.equal(detectSystemdVersion(makeTempRoot({ dirs: ['/usr/lib/systemd'] }, t.teardown)), undefined);
});

t.test('rules per version: 239 legacy, 252 modern, unknown modern with a comparison', async (t) => {
  t.same(rulesFor(239), { unitFile: LEGACY_UNIT_FILE_DIALECT, compareWithLegacy: false, envCommentBackslashContinues: true, typeWideDropInsFirst: true, execColonPrefix: false });
  t.same(rulesFor(252), { unitFile: MODERN_UNIT_FILE_DIALECT, compareWithLegacy: false, envCommentBackslashContinues: true, typeWideDropInsFirst: false, execColonPrefix: true });
  t.same(rulesFor(undefined), { unitFile: MODERN_UNIT_FILE_DIALECT, compareWithLegacy: true, envCommentBackslashContinues: true, typeWideDropInsFirst: false, execColonPrefix: true });
  t.equal(rulesFor(256).envCommentBackslashContinues, false);
});
