import t from 'tap';
import * as fs from 'node:fs';
import * as path from 'node:path';
import { execFileSync } from 'node:child_process';
import { RootFs } from '../../src/host/root-fs.js';
import { pathFact } from '../../src/discover/path-facts.js';
import { discoverNode } from '../../src/discover/discover-node.js';
import { evaluate } from '../../src/evaluate/evaluate.js';
import { BIN_DIR, CONFIG, brokenAcrNode, writeRoot } from '../helpers/node-root.js';

/** Asks lstat and readHead separately, as RootFs did before lstatWithHead (and still does where it gives no answer). */
class TwoSteps extends RootFs {
  override lstatWithHead(): undefined {
    return undefined;
  }
}

t.test('an executable\'s facts are the same from one open as from lstat then readHead', async (t) => {
  const root = t.testdir({
    bin: {
      script: '#!/bin/sh\nexit 0\n',
      'script-env': '#!/usr/bin/env python3 -u\n',
      empty: '',
      text: 'no shebang\n',
      dir: {},
    },
  });
  // An ELF binary: the head of the running node.
  fs.writeFileSync(path.join(root, 'bin', 'elf'), fs.readFileSync(process.execPath).subarray(0, 16 * 1024), { mode: 0o755 });
  fs.chmodSync(path.join(root, 'bin', 'script'), 0o750);
  fs.symlinkSync('script', path.join(root, 'bin', 'link'));
  fs.symlinkSync('/bin/elf', path.join(root, 'bin', 'absolute-link'));
  fs.symlinkSync('nowhere', path.join(root, 'bin', 'dangling'));
  if (process.platform === 'linux') execFileSync('mkfifo', [path.join(root, 'bin', 'fifo')]);
  const names = [...fs.readdirSync(path.join(root, 'bin')), 'missing', 'script/below'];
  const oneOpen = new RootFs(root);
  const twoSteps = new TwoSteps(root);
  for (const name of names) {
    const nodePath = `/bin/${name}`;
    t.same(pathFact(oneOpen, nodePath, { executable: true }), pathFact(twoSteps, nodePath, { executable: true }), nodePath);
  }
  t.match(pathFact(oneOpen, '/bin/elf', { executable: true }), { exists: true, type: 'file', mode: 0o755, elf: { machine: String } });
  t.match(pathFact(oneOpen, '/bin/script', { executable: true }), { exists: true, type: 'file', mode: 0o750, shebang: '/bin/sh' });
  t.match(pathFact(oneOpen, '/bin/link', { executable: true }), { exists: true, symlinkTarget: 'script', shebang: '/bin/sh' });
});

t.test('plugins sharing an interpreter: it is read once per check, and each check reads it again', async (t) => {
  const plugins = Array.from({ length: 5 }, (_, i) => `p${i}`);
  const config = `apiVersion: kubelet.config.k8s.io/v1
kind: CredentialProviderConfig
providers:
${plugins.map((name) => `  - name: ${name}\n    apiVersion: credentialprovider.kubelet.k8s.io/v1\n    defaultCacheDuration: "10m"\n    matchImages: ["*.azurecr.io"]\n`).join('')}`;
  const root = brokenAcrNode(t.testdir(), {
    [CONFIG]: config,
    ...Object.fromEntries(plugins.map((name) => [`${BIN_DIR}/${name}`, { content: '#!/bin/sh\n', mode: 0o755 }])),
  });
  /** Counts the resolutions of each path. */
  class Counting extends RootFs {
    readonly resolved = new Map<string, number>();
    override resolve(nodePath: string, followLast = true) {
      this.resolved.set(nodePath, (this.resolved.get(nodePath) ?? 0) + 1);
      return super.resolve(nodePath, followLast);
    }
  }
  const options = { root, unit: 'kubelet.service', kubeletVersion: '1.29.5', versionProbeTimeoutMs: 1000 };
  const first = new Counting(root);
  const before = await discoverNode({ ...options, rootFs: first });
  t.same(before.files['/bin/sh'], { exists: false, code: 'ENOENT' });
  t.equal(first.resolved.get('/bin/sh'), 2, 'lstat and stat of /bin/sh once, not once per plugin');
  t.same(evaluate(before).findings.filter((f) => f.id === 'plugin-interpreter-missing').map((f) => f.provider), plugins, 'each plugin is still told about');

  writeRoot(root, { '/bin/sh': { content: '', mode: 0o755 } });
  const second = new Counting(root);
  const after = await discoverNode({ ...options, rootFs: second });
  t.match(after.files['/bin/sh'], { exists: true, type: 'file' }, 'the next check (another RootFs) sees the interpreter now there');
  t.equal(second.resolved.get('/bin/sh'), 1);
  t.same(evaluate(after).findings.filter((f) => f.id === 'plugin-interpreter-missing'), []);
});
