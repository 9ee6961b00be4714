// Writes dist/node-check.1, the man page, from the same command table the CLI parses with
// (src/cli/options.ts): commands, options, defaults and examples cannot drift from --help.
// Run by scripts/build.mjs; `man -l dist/node-check.1` shows it.
import { build } from 'esbuild';
import { mkdirSync, readFileSync, writeFileSync } from 'node:fs';

const { version } = JSON.parse(readFileSync(new URL('../package.json', import.meta.url), 'utf8'));
const out = await build({ entryPoints: [new URL('../src/cli/options.ts', import.meta.url).pathname], bundle: true, format: 'esm', platform: 'node', write: false, logLevel: 'warning' });
const { COMMANDS, optionFor } = await import(`data:text/javascript;base64,${Buffer.from(out.outputFiles[0].text).toString('base64')}`);

/** roff-safe text: backslashes, hyphens, double quotes (macro argument delimiters), and a leading dot or quote that roff would take for a request. */
const esc = (text) => text.replace(/\\/g, '\\e').replace(/-/g, '\\-').replace(/"/g, '\\(dq').replace(/^([.'])/gm, '\\&$1');
const name = (text) => text.replace(/\$0/g, 'node-check');

const lines = [
  `.TH NODE\\-CHECK 1 "" "node-check ${esc(version)}" "User Commands"`,
  '.nh',
  '.ad l',
  '.SH NAME',
  'node\\-check \\- predict whether kubelet will start on this node, and if not, why',
  '.SH SYNOPSIS',
  ...COMMANDS.flatMap((command) => ['.B node\\-check', `${esc(command.command)} [\\fIOPTIONS\\fR]`, '.br']),
  '.SH DESCRIPTION',
  'node\\-check reads the kubelet unit the way systemd does, then replays kubelet\'s start for the exact kubelet minor on the node, in kubelet\'s order; the first failure decides, as it does for kubelet. Every finding carries kubelet\'s own log line and the fix. Nothing under \\fB\\-\\-root\\fR is ever executed.',
  '.SH COMMANDS',
];
for (const command of COMMANDS) {
  lines.push('.SS', `.B node\\-check ${esc(command.command)}`, esc(command.describe) + '.');
  if (command.positional) lines.push('.TP', `.I ${esc(command.positional.name)}`, esc(command.positional.describe));
  for (const group of command.groups) {
    lines.push('.PP', `.I ${esc(group.title)}`);
    for (const option of group.options) {
      const spec = optionFor(command, option);
      const value = spec.value ? ` \\fI${esc(spec.value)}\\fR` : '';
      const alias = spec.alias ? `\\fB\\-${esc(spec.alias)}\\fR, ` : '';
      const negated = spec.negatable ? `, \\fB\\-\\-no\\-${esc(option)}\\fR` : '';
      const extra = [spec.choices ? `One of: ${spec.choices.join(', ')}.` : '', spec.default ? `Default: ${spec.default}.` : ''].filter(Boolean).join(' ');
      lines.push('.TP', `${alias}\\fB\\-\\-${esc(option)}\\fR${value}${negated}`, esc(`${spec.describe}.${extra ? ` ${extra}` : ''}`));
    }
  }
  if (command.examples.length > 0) {
    lines.push('.PP', '.I Examples:');
    for (const [example, meaning] of command.examples) lines.push('.TP', `.B ${esc(name(example))}`, esc(meaning) + '.');
  }
}
lines.push(
  '.SH EXIT STATUS',
  '.TP', '.B 0', 'kubelet is predicted to start (warnings may exist), or every finding behind the prediction is ignored with \\fB\\-\\-ignore\\fR.',
  '.TP', '.B 1', 'kubelet is predicted to fail to start.',
  '.TP', '.B 2', 'node\\-check cannot tell.',
  '.TP', '.B 64', 'usage error: a bad flag or argument, a flag without its value, a bad settings file.',
  '.TP', '.B 66', 'a path named on the command line is not there: \\fB\\-\\-root\\fR is not a directory, a \\fB\\-\\-machine\\-config\\fR file or an \\fB\\-\\-overlay\\fR directory is missing.',
  '.TP', '.B 70', 'internal error: a bug in node\\-check, never an answer.',
  '.TP', '.B 75', '\\fBserve\\fR only: its \\fB\\-\\-listen\\fR address is in use (another \\fBserve\\fR, or another program, listens there).',
  '.TP', '.B 143, 130', 'stopped by SIGTERM, SIGINT.',
  '.SH FILES',
  '.TP', '.I /etc/node\\-check/config.yaml', 'settings (another file: \\fB\\-\\-config\\-file\\fR or \\fB$NODE_CHECK_CONFIG\\fR).',
  '.SH ENVIRONMENT',
  '.TP', '.B NODE_CHECK_CONFIG', 'the settings file, when \\fB\\-\\-config\\-file\\fR is not given.',
  '.TP', '.B NO_COLOR', 'no colour in the text report.',
  '.SH SEE ALSO',
  '.BR kubelet (8),',
  '.BR systemd.service (5),',
  '.BR journalctl (1);',
  '/usr/share/doc/node\\-check/ (operations.md, json.md, findings.md, fallback.md).',
  '',
);

const dist = new URL('../dist/', import.meta.url).pathname;
mkdirSync(dist, { recursive: true });
writeFileSync(`${dist}node-check.1`, lines.join('\n'));
