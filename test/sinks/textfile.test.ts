import t from 'tap';
import { chmodSync, chownSync, existsSync, readdirSync, readFileSync, statSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { spawn } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import { build } from 'esbuild';
import { writeTextfile } from '../../src/sinks/textfile.js';

const SAMPLE = '# HELP nodecheck_x X.\n# TYPE nodecheck_x gauge\nnodecheck_x 1\n';

t.test('writes the file whole, readable by everyone, with no temp file left', async (t) => {
  const dir = t.testdir({});
  const oldUmask = process.umask(0o077);
  try {
    writeTextfile(dir, 'node-check.prom', SAMPLE);
  } finally {
    process.umask(oldUmask);
  }
  t.equal(readFileSync(join(dir, 'node-check.prom'), 'utf8'), SAMPLE);
  t.equal(statSync(join(dir, 'node-check.prom')).mode & 0o777, 0o644, '0644 despite umask 077');
  t.same(readdirSync(dir), ['node-check.prom']);
});

t.test('the file it replaces keeps its mode and owner (an admin\'s 0600 file of nobody stays so)', async (t) => {
  const dir = t.testdir({ 'node-check.prom': 'old\n' });
  const path = join(dir, 'node-check.prom');
  chmodSync(path, 0o600);
  const root = process.geteuid?.() === 0;
  if (root) chownSync(path, 65534, 65534);
  writeTextfile(dir, 'node-check.prom', SAMPLE);
  const st = statSync(path);
  t.equal(readFileSync(path, 'utf8'), SAMPLE);
  t.equal(st.mode & 0o777, 0o600, 'mode kept');
  if (root) t.same([st.uid, st.gid], [65534, 65534], 'owner kept');
  else t.comment('owner: not checked without root');
});

t.test('replaces an existing file by rename (a new inode), adding the final newline when missing', async (t) => {
  const dir = t.testdir({ 'node-check.prom': 'old\n', 'other.prom': 'kept\n' });
  const before = statSync(join(dir, 'node-check.prom')).ino;
  writeTextfile(dir, 'node-check.prom', 'nodecheck_x 2');
  t.equal(readFileSync(join(dir, 'node-check.prom'), 'utf8'), 'nodecheck_x 2\n');
  t.not(statSync(join(dir, 'node-check.prom')).ino, before, 'renamed into place, not rewritten in place');
  t.same(readdirSync(dir).sort(), ['node-check.prom', 'other.prom'], 'other files untouched');
});

t.test('file names that could escape the directory or be read as metrics while written are refused', async (t) => {
  const dir = t.testdir({});
  for (const name of ['../x.prom', 'sub/x.prom', '.hidden.prom', 'x.txt', 'x.prom.tmp', '']) {
    t.throws(() => writeTextfile(dir, name, SAMPLE), /must be a plain file name ending in \.prom/, JSON.stringify(name));
  }
  t.same(readdirSync(dir), []);
});

t.test('a missing directory is created only when its parent exists', async (t) => {
  const parent = t.testdir({});
  const dir = join(parent, 'textfile_collector');
  writeTextfile(dir, 'node-check.prom', SAMPLE);
  t.equal(statSync(dir).mode & 0o777, 0o755);
  t.equal(readFileSync(join(dir, 'node-check.prom'), 'utf8'), SAMPLE);

  const deep = join(parent, 'node_exporter', 'textfile_collector');
  t.throws(() => writeTextfile(deep, 'node-check.prom', SAMPLE), {
    message: `textfile directory ${deep} does not exist, nor does ${join(parent, 'node_exporter')}: set textfileDir to node_exporter's --collector.textfile.directory, or disable metrics`,
  });
  t.notOk(existsSync(join(parent, 'node_exporter')), 'nothing created outside the directory');
});

t.test('errors name the path and leave no temp file', async (t) => {
  const dir = t.testdir({ 'a-file': 'x', 'node-check.prom': { 'inside.txt': 'a directory in the way' } });
  t.throws(() => writeTextfile(join(dir, 'a-file'), 'node-check.prom', SAMPLE), /textfile directory .*a-file is not a directory/);
  t.throws(() => writeTextfile(dir, 'node-check.prom', SAMPLE), new RegExp(`cannot write ${join(dir, 'node-check.prom')}: EISDIR`));
  t.same(readdirSync(dir).sort(), ['a-file', 'node-check.prom'], 'no temp file left behind');

  if (process.getuid?.() !== 0) {
    const readOnly = t.testdir({});
    chmodSync(readOnly, 0o555);
    t.throws(() => writeTextfile(readOnly, 'node-check.prom', SAMPLE), /cannot write .*EACCES/);
    chmodSync(readOnly, 0o755);
  }
});

t.test('concurrent writers in separate processes: every read sees one whole version', async (t) => {
  const dir = t.testdir({ out: {} });
  const bundle = join(dir, 'writer.mjs');
  // A child process per writer needs plain JS: bundle the writer with esbuild.
  const source = fileURLToPath(new URL('../../src/sinks/textfile.ts', import.meta.url));
  writeFileSync(
    join(dir, 'writer-entry.ts'),
    `import { writeTextfile } from ${JSON.stringify(source)};
const [dir, id, rounds] = process.argv.slice(2);
for (let round = 0; round < Number(rounds); round++) {
  // Sizes differ per writer and round, so a torn or mixed file cannot look whole.
  const body = 'x'.repeat(1000 + ((Number(id) * 7919 + round * 104729) % 60000));
  writeTextfile(dir, 'node-check.prom', '# writer ' + id + ' round ' + round + ' length ' + body.length + '\\n' + body + '\\n# end ' + id + ' ' + round + '\\n');
}
`,
  );
  await build({ entryPoints: [join(dir, 'writer-entry.ts')], outfile: bundle, bundle: true, platform: 'node', format: 'esm', logLevel: 'warning' });

  const out = join(dir, 'out');
  const writers = 6;
  const rounds = 150;
  const children = Array.from({ length: writers }, (_, id) =>
    new Promise<number>((resolve, reject) => {
      const child = spawn(process.execPath, [bundle, out, String(id), String(rounds)], { stdio: ['ignore', 'ignore', 'inherit'] });
      child.on('error', reject);
      child.on('close', (code) => resolve(code ?? -1));
    }),
  );
  let running = true;
  const done = Promise.all(children).finally(() => (running = false));

  let reads = 0;
  let torn = 0;
  while (running) {
    let text: string;
    try {
      text = readFileSync(join(out, 'node-check.prom'), 'utf8');
    } catch {
      await new Promise((resolve) => setImmediate(resolve));
      continue; // not written yet
    }
    reads++;
    const match = /^# writer (\d+) round (\d+) length (\d+)\n(x*)\n# end (\d+) (\d+)\n$/.exec(text);
    if (!match || Number(match[3]) !== match[4]!.length || match[1] !== match[5] || match[2] !== match[6]) torn++;
    await new Promise((resolve) => setImmediate(resolve));
  }
  t.same(await done, Array(writers).fill(0), 'every writer exited 0');
  t.ok(reads > 0, `read the file ${reads} times while it was being replaced`);
  t.equal(torn, 0, 'no read saw a partial or mixed file');
  t.same(readdirSync(out), ['node-check.prom'], 'no temp file left by any writer');
});
