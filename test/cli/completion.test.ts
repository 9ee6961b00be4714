/**
 * `node-check completion bash|zsh`, run in the real shells: the script is sourced, the completion
 * function called with the words typed so far, and its answers checked.
 */
import t from 'tap';
import { spawnSync } from 'node:child_process';
import { writeFileSync } from 'node:fs';
import * as path from 'node:path';
import { requireTools, toolPath } from '../harness/tools.js';
import { runBundle } from '../hostile/bundle.js';
import { COMMANDS } from '../../src/cli/options.js';
import { completionScript } from '../../src/cli/completion.js';
import { allFindingKinds } from '../../src/catalog/findings.js';

/** Sources the bash script, sets COMP_WORDS/COMP_CWORD as bash does on TAB, prints COMPREPLY. */
function bashComplete(script: string, words: readonly string[]): string[] {
  const quoted = words.map((w) => `'${w.replace(/'/g, `'\\''`)}'`).join(' ');
  const run = spawnSync(toolPath('bash')!, ['--norc', '--noprofile', '-c', `source "$1"; COMP_WORDS=(${quoted}); COMP_CWORD=${words.length - 1}; _node_check; printf '%s\\n' "\${COMPREPLY[@]}"`, 'bash', script], { encoding: 'utf8' });
  if (run.status !== 0) throw new Error(`bash: ${run.stderr}`);
  return run.stdout.split('\n').filter(Boolean);
}

/** Loads the zsh script as an autoloaded completion function with compadd/_files recording their words. */
function zshComplete(script: string, words: readonly string[]): string[] {
  const quoted = words.map((w) => `'${w.replace(/'/g, `'\\''`)}'`).join(' ');
  const body = `compadd() { [[ $1 == -- ]] && shift; print -l -- "$@" }; _files() { print -- "<files $*>" }; compdef() { print -- "compdef $*" };
words=(${quoted}); CURRENT=${words.length}; source "$1"; _node-check`;
  const run = spawnSync(toolPath('zsh')!, ['-f', '-c', body, 'zsh', script], { encoding: 'utf8' });
  if (run.status !== 0) throw new Error(`zsh: ${run.stderr}`);
  return run.stdout.split('\n').filter((line) => line && !line.startsWith('compdef '));
}

t.test('bash: commands, options per command, values and finding ids', async (t) => {
  if (!requireTools(t, ['bash'])) return;
  const dir = t.testdir({ 'only-dir': {}, 'a-file': 'x' });
  const script = path.join(dir, 'node-check.bash');
  const generated = runBundle(['completion', 'bash']);
  t.equal(generated.status, 0);
  t.equal(generated.stdout, completionScript('bash', allFindingKinds().map((k) => k.id)), 'the bundle prints the generator\'s script');
  writeFileSync(script, generated.stdout);
  t.same(bashComplete(script, ['node-check', '']), COMMANDS.map((c) => c.name), 'every command');
  t.same(bashComplete(script, ['node-check', 'pre']), ['preflight']);
  t.same(bashComplete(script, ['node-check', 'preflight', '--no-']), ['--no-fallback', '--no-journal', '--no-metrics']);
  t.ok(bashComplete(script, ['node-check', 'check', '--']).includes('--machine-config'));
  t.notOk(bashComplete(script, ['node-check', 'preflight', '--']).includes('--machine-config'), 'only the options of that command');
  t.same(bashComplete(script, ['node-check', '--ro']), ['--root'], 'check is the default command');
  t.same(bashComplete(script, ['node-check', 'check', '-o', '']), ['text', 'json']);
  t.same(bashComplete(script, ['node-check', 'fallback', '']), ['status', 'apply', 'revert']);
  t.same(bashComplete(script, ['node-check', 'explain', 'plugin-binary-m']), ['plugin-binary-missing']);
  t.same(bashComplete(script, ['node-check', 'check', '--ignore', 'plugin-binary-m']), ['plugin-binary-missing']);
  t.same(bashComplete(script, ['node-check', 'check', '--root', `${dir}/`]), [`${dir}/only-dir`], '--root completes directories');
});

t.test('zsh: the same answers', async (t) => {
  if (!requireTools(t, ['zsh'])) return;
  const script = path.join(t.testdir(), '_node-check');
  writeFileSync(script, completionScript('zsh', allFindingKinds().map((k) => k.id)));
  t.same(zshComplete(script, ['node-check', '']), COMMANDS.map((c) => c.name));
  t.same(zshComplete(script, ['node-check', 'fallback', '']), ['status', 'apply', 'revert']);
  t.ok(zshComplete(script, ['node-check', 'preflight', '--']).includes('--no-journal'));
  t.notOk(zshComplete(script, ['node-check', 'preflight', '--']).includes('--overlay'));
  t.same(zshComplete(script, ['node-check', 'check', '--output', '']), ['text', 'json']);
  t.same(zshComplete(script, ['node-check', 'check', '--root', '']), ['<files -/>']);
  t.ok(zshComplete(script, ['node-check', 'explain', '']).includes('plugin-binary-missing'));
});

t.test('an unknown shell is a usage error', async (t) => {
  const run = runBundle(['completion', 'fish']);
  t.equal(run.status, 64);
  t.match(run.stderr, /completion needs one of bash, zsh \(got "fish"\)/);
});
