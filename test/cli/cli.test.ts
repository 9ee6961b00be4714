/** The shipped bundle, as users and scripts run it: exit codes, JSON, usage errors, no stack traces. */
import t from 'tap';
import { spawn, spawnSync } from 'node:child_process';
import { once } from 'node:events';
import { existsSync, openSync, writeFileSync } from 'node:fs';
import * as path from 'node:path';
import { fileURLToPath } from 'node:url';
import { brokenAcrNode, BIN_DIR } from '../helpers/node-root.js';

const repo = fileURLToPath(new URL('../..', import.meta.url));
const bundle = path.join(repo, 'dist/node-check.cjs');
if (!existsSync(bundle)) spawnSync(process.execPath, [path.join(repo, 'scripts/build.mjs')], { stdio: 'inherit' });

function nodeCheck(args: string[], env: Record<string, string> = {}) {
  const result = spawnSync(process.execPath, [bundle, ...args], {
    encoding: 'utf8',
    env: { PATH: process.env.PATH ?? '', NODE_CHECK_CONFIG: '/nonexistent-is-fine-only-when-default', ...env },
    timeout: 30_000,
  });
  t.notMatch(result.stderr, /\n\s+at .*\(.*:\d+:\d+\)/, `no stack trace from ${args.join(' ')}`);
  return result;
}

t.test('exit codes 0 / 1 / 2 and one JSON object on stdout', async (t) => {
  const broken = brokenAcrNode(t.testdir());
  const fail = nodeCheck(['check', '--root', broken, '--kubelet-version', '1.28.7', '--output', 'json'], { NODE_CHECK_CONFIG: '' });
  t.equal(fail.status, 1);
  const report = JSON.parse(fail.stdout);
  t.equal(report.schemaVersion, 1);
  t.equal(report.kubeletWillStart, false);
  t.equal(report.kubeletVersion, '1.28.7');
  t.same(Object.keys(report).slice(0, 6), ['schemaVersion', 'kubeletWillStart', 'kubeletVersion', 'kubelet', 'findings', 'fallback']);

  writeFileSync(path.join(broken, BIN_DIR, 'acr-credential-provider'), '#!/bin/sh\n', { mode: 0o755 });
  t.equal(nodeCheck(['--root', broken, '--kubelet-version', '1.30.0'], { NODE_CHECK_CONFIG: '' }).status, 0, 'check is the default command');

  const unknown = nodeCheck(['check', '--root', t.testdir(), '--output', 'json'], { NODE_CHECK_CONFIG: '' });
  t.equal(unknown.status, 2);
  t.equal(JSON.parse(unknown.stdout).kubeletWillStart, null);
});

t.test('usage errors exit 64 with one line and a hint', async (t) => {
  for (const args of [['--bogus'], ['check', '--kubelet-version', 'latest'], ['explain', 'no-such-finding'], ['fallback', 'sideways'], ['frobnicate'], ['check', '--output', 'xml']]) {
    const result = nodeCheck(args, { NODE_CHECK_CONFIG: '' });
    t.equal(result.status, 64, args.join(' '));
    t.match(result.stderr, /^node-check: /, args.join(' '));
  }
});

t.test('a bad settings file is a usage error naming the file and line', async (t) => {
  const dir = t.testdir({ 'bad.yaml': 'fallback: true\ntimeoutSeconds: [\n', 'unknown.yaml': 'falback: true\n' });
  const bad = nodeCheck(['check', '--root', dir], { NODE_CHECK_CONFIG: path.join(dir, 'bad.yaml') });
  t.equal(bad.status, 64);
  t.match(bad.stderr, /bad\.yaml:\d+: not valid YAML/);
  const unknown = nodeCheck(['check', '--root', dir], { NODE_CHECK_CONFIG: path.join(dir, 'unknown.yaml') });
  t.equal(unknown.status, 64);
  t.match(unknown.stderr, /unknown\.yaml: unknown setting "falback"/);
});

t.test('explain, --version, --help', async (t) => {
  const explain = nodeCheck(['explain', 'plugin-binary-missing'], { NODE_CHECK_CONFIG: '' });
  t.equal(explain.status, 0);
  t.match(explain.stdout, /plugin binary executable  did not exist/);
  t.match(explain.stdout, /MESSAGE_ID: 85f6e002d25c40d387c3fdd85003f7d2/);
  const version = nodeCheck(['--version'], { NODE_CHECK_CONFIG: '' });
  t.equal(version.status, 0);
  t.match(version.stdout.trim(), /^\d+\.\d+\.\d+/);
  const help = nodeCheck(['--help'], { NODE_CHECK_CONFIG: '' });
  t.equal(help.status, 0);
  t.match(help.stdout, /preflight/);
});

t.test('colour only on request or a terminal; the text report says what to do', async (t) => {
  const broken = brokenAcrNode(t.testdir());
  const plain = nodeCheck(['--root', broken, '--kubelet-version', '1.28.7'], { NODE_CHECK_CONFIG: '' });
  t.notMatch(plain.stdout, /\u001b\[/);
  t.match(plain.stdout, /kubelet will NOT start/);
  t.match(plain.stdout, /err="plugin binary executable .*acr-credential-provider did not exist"/);
  t.match(plain.stdout, /fix: /);
  const colour = nodeCheck(['--root', broken, '--kubelet-version', '1.28.7', '--color'], { NODE_CHECK_CONFIG: '' });
  t.match(colour.stdout, /\u001b\[31;1m/);
});

t.test('a reader that closes the pipe early, or a full disk: the answer as exit code, no stack trace', async (t) => {
  const broken = brokenAcrNode(t.testdir());
  const args = [bundle, 'check', '--root', broken, '--kubelet-version', '1.28.7', '-o', 'json'];
  const env = { PATH: process.env.PATH ?? '', NODE_CHECK_CONFIG: '' };
  // `node-check -o json | head`, with the reader gone before the report is written.
  const child = spawn(process.execPath, args, { env, stdio: ['ignore', 'pipe', 'pipe'] });
  child.stdout.destroy();
  let stderr = '';
  child.stderr.on('data', (chunk: Buffer) => (stderr += chunk.toString()));
  const [status] = (await once(child, 'close')) as [number];
  t.equal(status, 1, "the command's own answer: will not start");
  t.equal(stderr, '', 'nothing on stderr: the reader left, as with SIGPIPE');
  // `node-check -o json > /dev/full`
  const full = spawnSync(process.execPath, args, { env, encoding: 'utf8', stdio: ['ignore', openSync('/dev/full', 'w'), 'pipe'] });
  t.equal(full.status, 1, "the command's own answer");
  t.equal(full.stderr, 'node-check: cannot write the output: ENOSPC\n', 'one line, no stack trace');
});
