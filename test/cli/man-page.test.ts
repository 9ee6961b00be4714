/** dist/node-check.1, generated from the command table by scripts/gen-man.mjs (run by the build). */
import t from 'tap';
import { spawnSync } from 'node:child_process';
import { readFileSync } from 'node:fs';
import * as path from 'node:path';
import { repo } from '../hostile/bundle.js';
import { requireTools } from '../harness/tools.js';
import { COMMANDS, optionFor, optionsOf } from '../../src/cli/options.js';

const manPage = path.join(repo, 'dist/node-check.1');
spawnSync(process.execPath, [path.join(repo, 'scripts/gen-man.mjs')], { stdio: 'inherit' });

t.test('man -l renders it without warnings, with every command, option and example', async (t) => {
  if (!requireTools(t, ['man', 'groff'])) return;
  const lint = spawnSync('groff', ['-man', '-Tutf8', '-ww', '-z', manPage], { encoding: 'utf8' });
  t.equal(lint.status, 0);
  t.equal(lint.stderr, '', 'groff has no warning');
  const shown = spawnSync('man', ['-l', manPage], { encoding: 'utf8', env: { ...process.env, MANWIDTH: '80', MANPAGER: 'cat', PAGER: 'cat' } });
  t.equal(shown.status, 0, shown.stderr);
  const text = shown.stdout.replace(/.\x08/g, '').replace(/\u2010/g, '-');
  t.match(text, /^NODE-CHECK\(1\)/);
  for (const section of ['SYNOPSIS', 'COMMANDS', 'EXIT STATUS', 'FILES', 'SEE ALSO']) t.match(text, new RegExp(`\\n${section}\\n`));
  for (const spec of COMMANDS) {
    t.ok(text.includes(`node-check ${spec.command}`), spec.command);
    for (const name of optionsOf(spec)) {
      const option = optionFor(spec, name);
      t.ok(text.includes(`--${name}${option.value ? ` ${option.value}` : ''}`), `${spec.name} --${name}`);
    }
    for (const [example] of spec.examples) t.ok(text.includes(example.replace('$0', 'node-check')), example);
  }
  t.ok(text.includes('/var/lib/node_exporter/textfile_collector'), 'defaults, words never hyphenated');
});

t.test('the roff source names every option of the yargs definition', async (t) => {
  const source = readFileSync(manPage, 'utf8');
  for (const spec of COMMANDS) for (const name of optionsOf(spec)) t.ok(source.includes(`\\fB\\-\\-${name.replace(/-/g, '\\-')}\\fR`), name);
});
