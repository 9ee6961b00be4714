import t from 'tap';
import fc from 'fast-check';
import { LEGACY_UNIT_FILE_DIALECT, LONG_LINE_MAX, parseUnitFile, splitLines } from '../../src/systemd/unit-file.js';

const F = '/etc/systemd/system/kubelet.service';
const pairs = (text: string | Uint8Array, dialect = undefined as Parameters<typeof parseUnitFile>[2]) =>
  parseUnitFile(text, F, dialect).assignments.map((a) => [a.section, a.key, a.value, a.source.line]);

t.test('sections and Key=Value assignments with blanks trimmed around key and value', async (t) => {
  t.same(pairs('[Unit]\nDescription = Kubelet \n\n[Service]\n  Type=notify\nExecStart= /usr/bin/kubelet  --v=2 \n'), [
    ['Unit', 'Description', 'Kubelet', 2],
    ['Service', 'Type', 'notify', 5],
    ['Service', 'ExecStart', '/usr/bin/kubelet  --v=2', 6],
  ]);
});

t.test('comment lines start with # or ; after optional blanks', async (t) => {
  t.same(pairs('[Service]\n# Type=forking\n ; Type=oneshot\nType=simple # not a comment\n'), [['Service', 'Type', 'simple # not a comment', 4]]);
});

t.test('a trailing backslash continues the line; it becomes a space; the first line is kept', async (t) => {
  const text = '[Service]\nExecStart=/usr/local/bin/kubenswrapper \\\n    /usr/bin/kubelet \\\n      --v=${KUBELET_LOG_LEVEL}\nRestart=always\n';
  t.same(pairs(text), [
    ['Service', 'ExecStart', '/usr/local/bin/kubenswrapper      /usr/bin/kubelet        --v=${KUBELET_LOG_LEVEL}', 2],
    ['Service', 'Restart', 'always', 5],
  ]);
});

t.test('a backslash without a blank before it still joins with a space', async (t) => {
  t.same(pairs('[Service]\nExecStart=/bin/a --x=${A}\\\n  --y\n'), [['Service', 'ExecStart', '/bin/a --x=${A}   --y', 2]]);
});

t.test('an escaped backslash at the end does not continue', async (t) => {
  t.same(pairs('[Service]\nA=x\\\\\nB=y\n'), [
    ['Service', 'A', 'x\\\\', 2],
    ['Service', 'B', 'y', 3],
  ]);
});

t.test('comment lines inside a continued value are skipped (systemd ≥ 240)', async (t) => {
  const text = '[Service]\nExecStart=/bin/kubelet \\\n# --removed \\\n  ; another\n  --kept\nType=notify\n';
  t.same(pairs(text), [
    ['Service', 'ExecStart', '/bin/kubelet    --kept', 2],
    ['Service', 'Type', 'notify', 6],
  ]);
});

t.test('systemd 239 joins comment lines into the continued value and a comment can continue', async (t) => {
  const text = '[Service]\nExecStart=/bin/kubelet \\\n# --removed\n  --kept\n# note \\\nType=notify\n';
  t.same(pairs(text, LEGACY_UNIT_FILE_DIALECT), [
    ['Service', 'ExecStart', '/bin/kubelet  # --removed', 2],
  ]);
});

t.test('an empty line ends a continuation', async (t) => {
  t.same(pairs('[Service]\nA=1 \\\n\nB=2\n'), [
    ['Service', 'A', '1', 2],
    ['Service', 'B', '2', 4],
  ]);
});

t.test('a backslash on the last line ends the value at end of file', async (t) => {
  t.same(pairs('[Service]\nA=1 \\'), [['Service', 'A', '1', 2]]);
});

t.test('CRLF, CR and LF all end lines', async (t) => {
  t.same(pairs('[Service]\r\nA=1\rB=2\nC=3'), [
    ['Service', 'A', '1', 2],
    ['Service', 'B', '2', 3],
    ['Service', 'C', '3', 4],
  ]);
  t.same(splitLines('a\n\nb\r\n\r\nc'), ['a', '', 'b', '', 'c']);
});

/** read_line as systemd scans it, character by character: the reference for splitLines. */
function readLines(text: string): string[] {
  const lines: string[] = [];
  let start = 0;
  let i = 0;
  while (i < text.length) {
    const c = text[i];
    if (c !== '\n' && c !== '\r') {
      i++;
      continue;
    }
    lines.push(text.slice(start, i));
    const next = text[i + 1];
    i += (next === '\n' || next === '\r') && next !== c ? 2 : 1;
    start = i;
  }
  if (start < text.length) lines.push(text.slice(start));
  return lines;
}

t.test('splitLines ends lines exactly as read_line does, for any mix of line ends', async (t) => {
  for (const text of ['', '\n', '\r', 'a', 'a\n', '\n\r\n', '\r\n\r', 'a\n\r\r\nb', '\n\n\r\r']) t.same(splitLines(text), readLines(text), JSON.stringify(text));
  t.doesNotThrow(() => fc.assert(fc.property(fc.string({ unit: fc.constantFrom('\n', '\r', 'a', ' '), maxLength: 40 }), (text) => JSON.stringify(splitLines(text)) === JSON.stringify(readLines(text))), { numRuns: 2000 }));
});

t.test('a UTF-8 byte order mark at the start is ignored', async (t) => {
  t.same(pairs('\ufeff[Service]\nA=1\n'), [['Service', 'A', '1', 2]]);
});

t.test('lines that are not assignments get warnings with file:line and are ignored', async (t) => {
  const parsed = parseUnitFile('A=outside\n[Service]\njust words\n=value\n[Frobnicate]\nB=1\n[X-Custom]\nC=1\n[Service]\nD=1\n', F);
  t.same(parsed.assignments.map((a) => a.key), ['D']);
  t.same(
    parsed.diagnostics.map((d) => [d.severity, d.line, d.message]),
    [
      ['warning', 1, `${F}:1: Assignment outside of section. Ignoring.`],
      ['warning', 3, `${F}:3: Missing '=', ignoring line.`],
      ['warning', 4, `${F}:4: Missing key name before '=', ignoring line.`],
      ['warning', 5, `${F}:5: Unknown section 'Frobnicate'. Ignoring.`],
    ],
  );
  t.equal(parsed.stopped, undefined);
});

t.test('systemd 239 stops reading at a line without "="', async (t) => {
  const parsed = parseUnitFile('[Service]\nA=1\njust words\nB=2\n', F, LEGACY_UNIT_FILE_DIALECT);
  t.same(parsed.assignments.map((a) => a.key), ['A']);
  t.same(parsed.stopped, { line: 3, reason: "Missing '='.", errno: 'EINVAL' });
});

t.test('an invalid section header stops reading the file', async (t) => {
  const parsed = parseUnitFile('[Service]\nA=1\n[Service\nB=2\n', F);
  t.same(parsed.assignments.map((a) => a.key), ['A']);
  t.same(parsed.stopped, { line: 3, reason: "Invalid section header '[Service'", errno: 'EBADMSG' });
});

t.test('a NUL byte is fatal and names the file', async (t) => {
  const parsed = parseUnitFile(Buffer.from('[Service]\nA=1\nB=\0x\n'), F);
  t.same(parsed.assignments, []);
  t.equal(parsed.diagnostics.length, 1);
  t.equal(parsed.diagnostics[0]!.severity, 'fatal');
  t.equal(parsed.diagnostics[0]!.file, F);
  t.equal(parsed.diagnostics[0]!.line, 3);
});

t.test('invalid UTF-8 in a setting is fatal with file:line; in a comment it is harmless', async (t) => {
  const bad = parseUnitFile(Buffer.concat([Buffer.from('[Service]\nA=1\nB='), Buffer.from([0xc3, 0x28]), Buffer.from('\n')]), F);
  t.equal(bad.diagnostics[0]!.severity, 'fatal');
  t.equal(bad.diagnostics[0]!.line, 3);
  t.match(bad.diagnostics[0]!.message, `${F}:3`);
  const comment = parseUnitFile(Buffer.concat([Buffer.from('[Service]\n# '), Buffer.from([0xff]), Buffer.from('\nA=1\n')]), F);
  t.same(comment.diagnostics, []);
  t.equal(comment.assignments.length, 1);
});

t.test('valid UTF-8 values are decoded', async (t) => {
  t.same(pairs(Buffer.from('[Service]\nDescription=Kübelet ✓\n')), [['Service', 'Description', 'Kübelet ✓', 2]]);
});

t.test('a line of 1 MiB or more is fatal, as is a longer continued line', async (t) => {
  const long = parseUnitFile(`[Service]\nA=${'x'.repeat(LONG_LINE_MAX)}\n`, F);
  t.equal(long.diagnostics[0]!.severity, 'fatal');
  t.equal(long.diagnostics[0]!.line, 2);
  const half = 'x'.repeat(LONG_LINE_MAX / 2);
  const continued = parseUnitFile(`[Service]\nA=${half}\\\n${half}\\\n${half}\n`, F);
  t.equal(continued.diagnostics[0]!.severity, 'fatal');
  const fits = parseUnitFile(`[Service]\nA=${'x'.repeat(LONG_LINE_MAX - 10)}\n`, F);
  t.same(fits.diagnostics, []);
});
