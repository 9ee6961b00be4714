// The journal sink against real util-linux logger, journald and journalctl, inside a booted
// Debian node: what serializeForLogger writes is stored exactly as meant even for hostile values,
// writeJournal picks the journal when the socket is there and stderr (with <N> priority prefixes
// systemd understands) when it is not, and the catalog explains node-check's entries.
import t from 'tap';
import { readFileSync } from 'node:fs';
import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { build } from 'esbuild';
import { findingKind } from '../../src/catalog/findings.js';
import { JOURNAL_FIELD_NAMES, journalEntriesFor, serializeForLogger, type JournalEntry } from '../../src/sinks/journal-entry.js';
import { bootNode, type BootedNode, type JournalEntry as StoredEntry, type JournalValue } from '../harness/nspawn.js';
import { requireNodes } from '../harness/tools.js';
import { acrMissing, BIN_DIR, hostile } from '../sinks/reports.js';

const CATALOG = readFileSync(new URL('../../systemd/node-check.catalog', import.meta.url), 'utf8');
const context = { unit: 'kubelet.service', pid: 4321 };

/** Our fields as journalctl -o json shows them: a string, or an array for a repeated field. */
function expectedFields(entry: JournalEntry): Record<string, JournalValue> {
  const values: Record<string, string[]> = {};
  for (const [name, value] of entry.fields) (values[name] ??= []).push(value);
  return Object.fromEntries(Object.entries(values).map(([name, list]) => [name, list.length === 1 ? list[0]! : list]));
}

/** The fields a client sent (journald adds the trusted _* and __* ones itself). */
function clientFields(stored: StoredEntry): Record<string, JournalValue> {
  return Object.fromEntries(Object.entries(stored).filter(([name]) => !name.startsWith('_')));
}

async function logEntry(node: BootedNode, input: string): Promise<void> {
  const result = await node.exec(['logger', '--journald'], { input });
  if (result.exitCode !== 0) throw new Error(`logger --journald exited ${result.exitCode}: ${result.stderr}`);
}

/** writeJournal + journalEntriesFor as one script the node's own node can run (the host's binary is bound in). */
async function journalProbeBundle(): Promise<string> {
  const dir = await mkdtemp(join(tmpdir(), 'node-check-journal-probe-'));
  try {
    const entry = join(dir, 'probe.ts');
    const here = (path: string) => JSON.stringify(fileURLToPath(new URL(path, import.meta.url)));
    await writeFile(
      entry,
      `import { journalEntriesFor } from ${here('../../src/sinks/journal-entry.ts')};
import { writeJournal } from ${here('../../src/sinks/journal.ts')};
import { acrMissing } from ${here('../sinks/reports.ts')};
const [socketPath] = process.argv.slice(2);
const entries = journalEntriesFor(acrMissing(), { unit: 'kubelet.service', pid: 4321 });
const where = await writeJournal(entries, { socketPath, timeoutMs: 20000, stderr: (text) => process.stderr.write(text) });
process.stdout.write(where + '\\n');
`,
    );
    const result = await build({
      entryPoints: [entry],
      bundle: true,
      write: false,
      platform: 'node',
      format: 'esm',
      target: 'node20',
      logLevel: 'warning',
      // execa's dependencies call require(), which an ESM bundle lacks: the banner defines it.
      banner: { js: "import{createRequire as __cr}from'node:module';const require=__cr(import.meta.url);" },
    });
    return result.outputFiles[0]!.text;
  } finally {
    await rm(dir, { recursive: true, force: true });
  }
}

t.test('inside a booted node: entries, the logger contract, writeJournal and the catalog', async (t) => {
  if (!requireNodes(t)) return;
  const probe = await journalProbeBundle();
  const node = await bootNode({ t, files: { '/opt/node-check-test/journal-probe.mjs': probe } });

  t.test('a hostile entry is stored with exactly the intended fields, nothing forged', async (t) => {
    const [entry] = journalEntriesFor(hostile(), context);
    await logEntry(node, serializeForLogger(entry!));
    const messageId = findingKind('plugin-binary-missing')!.messageId;
    const stored = await node.journal([`MESSAGE_ID=${messageId}`]);
    t.equal(stored.length, 1, 'one entry under the catalog MESSAGE_ID');
    t.same(clientFields(stored[0]!), expectedFields(entry!), 'client fields are exactly the ones node-check meant');
    t.ok(Object.keys(clientFields(stored[0]!)).every((name) => (JOURNAL_FIELD_NAMES as readonly string[]).includes(name)), 'only node-check field names');
    t.not(stored[0]!['_SYSTEMD_UNIT'], 'sshd.service', 'trusted fields are journald\'s own');
    t.same(await node.journal(['MESSAGE_ID=00000000000000000000000000000000']), [], 'the MESSAGE_ID in the provider name created nothing');
    t.same(await node.journal(['MESSAGE_ID=ffffffffffffffffffffffffffffffff']), [], 'nor the one in the path');
    t.same(await node.journal(['NODE_CHECK_FINDING_ID=forged']), [], 'nor the finding id');
    t.same(await node.journal(['PRIORITY=0']), [], 'nor a priority');
  });

  t.test('the threat is real: raw newlines in a value would forge fields', async (t) => {
    // Without sanitizing, a newline in a provider name starts a field of the attacker's choosing.
    await logEntry(node, 'MESSAGE=unsanitized probe\nNODE_CHECK_PROVIDER=evil\nNODE_CHECK_FORGED=yes\n');
    const stored = await node.journal(['MESSAGE=unsanitized probe']);
    t.equal(stored[0]?.['NODE_CHECK_FORGED'], 'yes', 'a raw newline does create a field');
  });

  t.test('logger reads one entry per run: what follows an empty line is dropped', async (t) => {
    // Why writeJournal runs logger once per entry (util-linux misc-utils/logger.c, journald_entry).
    await logEntry(node, 'MESSAGE=first of two\nNODE_CHECK_UNIT=a\n\nMESSAGE=second of two\nNODE_CHECK_UNIT=b\n');
    t.equal((await node.journal(['MESSAGE=first of two'])).length, 1);
    t.same(await node.journal(['MESSAGE=second of two']), []);
  });

  t.test('writeJournal writes to the journal when its socket is there', async (t) => {
    const run = await node.exec(['node', '/opt/node-check-test/journal-probe.mjs', '/run/systemd/journal/socket']);
    t.equal(run.exitCode, 0, run.stderr);
    t.equal(run.stdout, 'journal\n');
    t.equal(run.stderr, '');
    const [entry] = journalEntriesFor(acrMissing(), context);
    const stored = await node.journal(['NODE_CHECK_PROVIDER=acr-credential-provider', `MESSAGE_ID=${findingKind('plugin-binary-missing')!.messageId}`]);
    t.equal(stored.length, 1);
    t.same(clientFields(stored[0]!), expectedFields(entry!));
    t.equal(stored[0]!['_TRANSPORT'], 'journal', 'sent over the native protocol');
  });

  t.test('without the socket, stderr lines land in the unit\'s journal at their <N> priority', async (t) => {
    // As ExecStartPre would: a service whose stderr goes to the journal (SyslogLevelPrefix=yes).
    const run = await node.exec([
      'systemd-run', '--unit=fake-kubelet-pre', '--wait', '--quiet', '--collect', '--property=StandardError=journal',
      '/usr/bin/node', '/opt/node-check-test/journal-probe.mjs', '/run/no-journal-here/socket',
    ]);
    t.equal(run.exitCode, 0, run.stderr);
    const stored = await node.journal(['_SYSTEMD_UNIT=fake-kubelet-pre.service']);
    const lines = stored.filter((e) => String(e['MESSAGE']).startsWith('node-check: ')).map((e) => ({ priority: e['PRIORITY'], message: e['MESSAGE'] }));
    t.equal(lines.length, 2, 'the notice and the one entry, each one journal line');
    t.match(lines, [
      { priority: '4', message: /^node-check: journal not written \(\/run\/no-journal-here\/socket is not a socket\)/ },
      { priority: '3', message: `node-check: kubelet will not start: credential provider plugin "acr-credential-provider" is missing: ${BIN_DIR}/acr-credential-provider does not exist [plugin-binary-missing]` },
    ]);
    t.ok(stored.some((e) => e['MESSAGE'] === 'stderr'), 'writeJournal reported where the entries went');
  });

  t.test('node-check keeps <N> prefixes on stderr only when systemd connected it to the journal', async (t) => {
    // A metrics directory that cannot be written: preflight says so on stderr at priority 4.
    const argv = ['/usr/bin/node-check', 'preflight', '--root', '/', '--kubelet-version', '1.28.7', '--no-journal', '--textfile-dir', '/nonexistent/textfiles'];
    const unit = 'stderr-priority-probe';
    await node.exec(['systemd-run', `--unit=${unit}`, '--wait', '--quiet', '--collect', '--property=StandardError=journal', ...argv]);
    const stored = await node.journal([`_SYSTEMD_UNIT=${unit}.service`, '_TRANSPORT=stdout']);
    const line = stored.find((e) => /node-check: metrics: /.test(String(e['MESSAGE'])));
    t.match(line, { PRIORITY: '4', MESSAGE: /^node-check: metrics: / }, 'systemd set $JOURNAL_STREAM: the prefix was read as the priority and removed');

    const direct = await node.exec(argv); // stderr is a pipe to the test, not the journal
    t.match(direct.stderr, /^node-check: metrics: /m, 'on a pipe: no prefix');
    t.notMatch(direct.stderr, /^<\d>/m);
    const inherited = await node.exec(['sh', '-c', 'exec "$@" 2>/tmp/stderr.txt; ', 'sh', ...argv], { env: { JOURNAL_STREAM: '8:12345' } });
    t.notMatch((await node.exec(['cat', '/tmp/stderr.txt'])).stdout, /^<\d>/m, 'an inherited $JOURNAL_STREAM that names another file: no prefix');
    t.not(inherited.exitCode, 0);
  });

  t.test('the catalog installs, and journalctl -x explains the entry with its fields', async (t) => {
    await node.writeFile('/usr/lib/systemd/catalog/node-check.catalog', CATALOG);
    const update = await node.exec(['journalctl', '--update-catalog']);
    t.equal(update.exitCode, 0, update.stderr);
    t.equal(update.stderr, '', 'journalctl --update-catalog reports no problem with the file');

    const list = await node.exec(['journalctl', '--list-catalog']);
    const kind = findingKind('plugin-binary-missing')!;
    t.match(list.stdout, new RegExp(`^${kind.messageId} node-check: ${kind.title}$`, 'm'), '--list-catalog lists node-check entries');
    const listed = list.stdout.split('\n').filter((line) => / node-check: /.test(line)).length;
    t.equal(listed, CATALOG.split('\n').filter((line) => /^-- [0-9a-f]{32}$/.test(line)).length, 'every catalog entry was imported');

    const explained = await node.exec(['journalctl', '-x', '--no-pager', '-o', 'short', `MESSAGE_ID=${kind.messageId}`, 'NODE_CHECK_PROVIDER=acr-credential-provider']);
    t.equal(explained.exitCode, 0, explained.stderr);
    const text = explained.stdout.replace(/^░░ ?/gm, '');
    t.match(text, `Subject: ${kind.title}`);
    t.match(text, `Plugin: "acr-credential-provider" at ${BIN_DIR}/acr-credential-provider`, '@NODE_CHECK_PROVIDER@ and @NODE_CHECK_PATH@ are filled in');
    t.match(text, `Kubelet logs: err="plugin binary executable ${BIN_DIR}/acr-credential-provider did not exist"`);
    t.match(text, 'How to fix it: Install the plugin');
    t.match(text, 'Documentation: file:///usr/share/doc/node-check/findings.md#plugin-binary-missing');
    t.notMatch(text, /@NODE_CHECK_/, 'no substitution left unfilled');
  });
});
