/**
 * The hostile-node suite: every file node-check reads, replaced in
 * turn by garbage, an empty file, a huge file, a FIFO, a directory, a symlink loop or an
 * unreadable file. node-check must answer (exit 1 or 2; 64 for its own settings file) within its
 * budget, without a stack trace or an abort, and name the file when it is why it cannot tell.
 */
import t from 'tap';
import * as fs from 'node:fs';
import { execFileSync } from 'node:child_process';
import * as path from 'node:path';
import { brokenAcrNode, CONFIG, kubeletUnit } from '../helpers/node-root.js';
import { NO_CRASH, runBundle } from './bundle.js';

const UNIT = '/etc/systemd/system/kubelet.service';
const DROP_IN = '/etc/systemd/system/kubelet.service.d/10-env.conf';
const ENV_FILE = '/etc/kubernetes/kubelet.env';
const KUBELET_CONFIG = '/etc/kubernetes/kubelet.conf';
const OS_RELEASE = '/etc/os-release';
const STATE = '/run/node-check/fallback.json';
const LOCK = '/run/node-check/lock';
const SETTINGS = '/node-check.yaml';

function node(root: string): string {
  return brokenAcrNode(root, {
    [UNIT]: kubeletUnit(),
    [DROP_IN]: `[Service]\nEnvironmentFile=${ENV_FILE}\n`,
    [ENV_FILE]: 'KUBELET_EXTRA=--v=2\n',
    [OS_RELEASE]: 'ID=rhcos\nVERSION_ID="4.16"\n',
    [SETTINGS]: 'timeoutSeconds: 5\n',
  });
}

type Hostile = (host: string) => void;
const garbage = Buffer.from(Array.from({ length: 4096 }, (_, i) => (i * 7919 + 13) % 256));
const HOSTILE: Record<string, Hostile> = {
  garbage: (host) => fs.writeFileSync(host, garbage),
  empty: (host) => fs.writeFileSync(host, ''),
  huge: (host) => fs.writeFileSync(host, Buffer.alloc(6 * 1024 * 1024, 'a: b\n')),
  fifo: (host) => execFileSync('mkfifo', [host]),
  directory: (host) => fs.mkdirSync(host),
  'symlink loop': (host) => {
    fs.symlinkSync(path.basename(host) + '.loop', host);
    fs.symlinkSync(path.basename(host), host + '.loop');
  },
  unreadable: (host) => fs.writeFileSync(host, 'x: y\n', { mode: 0 }),
};

const FILES: Record<string, { args: string[]; codes: number[]; named: boolean }> = {
  [UNIT]: { args: ['check'], codes: [2], named: true },
  [DROP_IN]: { args: ['check'], codes: [1, 2], named: false },
  [ENV_FILE]: { args: ['check'], codes: [1, 2], named: false },
  [CONFIG]: { args: ['check'], codes: [1, 2], named: true },
  [KUBELET_CONFIG]: { args: ['check'], codes: [1, 2], named: false },
  [OS_RELEASE]: { args: ['check'], codes: [1], named: false },
  [STATE]: { args: ['preflight', '--fallback', '--no-journal', '--no-metrics'], codes: [0, 1, 2], named: false },
  [LOCK]: { args: ['preflight', '--fallback', '--no-journal', '--no-metrics', '--timeout', '3'], codes: [0, 1, 2], named: false },
  [SETTINGS]: { args: ['check'], codes: [64], named: true },
};

const asRoot = process.getuid?.() === 0;

for (const [nodePath, expect] of Object.entries(FILES)) {
  t.test(nodePath, async (t) => {
    for (const [kind, make] of Object.entries(HOSTILE)) {
      if (kind === 'unreadable' && asRoot) continue; // root reads a mode-0 file
      if (nodePath === SETTINGS && (kind === 'garbage' || kind === 'huge')) continue; // may be valid YAML or not: covered by cli tests
      const root = node(t.testdir());
      const host = path.join(root, nodePath);
      fs.rmSync(host, { force: true });
      fs.mkdirSync(path.dirname(host), { recursive: true });
      make(host);
      const settings = nodePath === SETTINGS ? ['--config-file', host] : [];
      const run = runBundle([...expect.args, '--root', root, '--kubelet-version', '1.28.7', ...settings], { timeoutMs: 20_000 });
      const what = `${kind}: exit ${run.status} in ${run.ms} ms`;
      t.equal(run.signal, null, `${what}: not killed`);
      // An empty settings file is no settings at all; an empty unit file is a masked unit for
      // systemd (unit_file_load: "empty or a link to /dev/null"), which refuses to start it.
      const codes = (nodePath === SETTINGS || nodePath === '/etc/systemd/system/kubelet.service') && kind === 'empty' ? [1] : expect.codes;
      t.ok(codes.includes(run.status ?? -1), `${what} (expected ${expect.codes.join('/')}): ${(run.stdout + run.stderr).split('\n').slice(0, 3).join(' | ')}`);
      t.ok(run.ms < 8000, `${kind}: within the budget`);
      t.notMatch(run.stdout + run.stderr, NO_CRASH, `${kind}: no stack trace`);
      // systemd does not load a unit file that is not a regular file: "not found", naming the unit.
      const named = nodePath === SETTINGS ? host : nodePath === UNIT ? path.basename(UNIT) : nodePath;
      if (expect.named && run.status !== 1 && kind !== 'empty') t.match(run.stdout + run.stderr, named, `${kind}: the file is named`);
    }
  });
}
