// packaging/config/config.yaml, shipped as /etc/node-check/config.yaml: everything commented out,
// and every commented line is a setting node-check accepts, showing its real default.
import t from 'tap';
import { readFileSync } from 'node:fs';
import { DEFAULT_SETTINGS, parseConfigFile, type Settings } from '../../src/settings.js';

const PATH = 'packaging/config/config.yaml';
const TEXT = readFileSync(new URL(`../../${PATH}`, import.meta.url), 'utf8');
/** Settings that only come from flags (or the environment), never from the file. */
const FLAG_ONLY = ['root', 'output', 'color', 'kubeletVersion', 'verbose'];

t.test('as shipped, the file sets nothing', async (t) => {
  t.same(parseConfigFile(TEXT, PATH), {});
  t.same(TEXT.split('\n').filter((line) => line.trim() !== '' && !line.startsWith('#')), [], 'every line is a comment');
});

t.test('uncommented, every setting is accepted and shows the built-in default', async (t) => {
  const settingLines = TEXT.split('\n').filter((line) => /^#[a-zA-Z]+: /.test(line));
  const uncommented = parseConfigFile(settingLines.map((line) => line.slice(1)).join('\n'), PATH);
  const defaults = Object.fromEntries(Object.entries(DEFAULT_SETTINGS).filter(([key]) => !FLAG_ONLY.includes(key))) as Partial<Settings>;
  t.same(uncommented, defaults, 'each value is DEFAULT_SETTINGS\' value');
  t.same(Object.keys(uncommented).sort(), Object.keys(defaults).sort(), 'every file setting is listed');
});
