#!/usr/bin/env node
// Passes TAP from stdin through unchanged and ends with one plain line, "N passed, N failed,
// N skipped", taken from tap's closing "# { total: .., pass: .., fail: .., skip: .. }" line
// (the counts are assertions). Used as `tap | node scripts/tap-summary.mjs` with pipefail, so the
// exit code still follows tap; this filter fails only when tap printed no summary at all.
const SUMMARY = /^# \{ (total: \d+(?:, \w+: \d+)*) \}$/;

let pending = '';
let counts;

function scan(line) {
  const match = SUMMARY.exec(line);
  if (match === null) return;
  counts = Object.fromEntries(
    match[1].split(', ').map((pair) => {
      const [key, value] = pair.split(': ');
      return [key, Number(value)];
    }),
  );
}

process.stdin.on('data', (chunk) => {
  process.stdout.write(chunk);
  const lines = (pending + chunk.toString('utf8')).split('\n');
  pending = lines.pop() ?? '';
  lines.forEach(scan);
});

process.stdin.on('end', () => {
  scan(pending);
  if (counts === undefined) {
    process.stdout.write('\ntap printed no summary line: the run did not finish\n');
    process.exitCode = 1;
    return;
  }
  const { pass = 0, fail = 0, skip = 0 } = counts;
  process.stdout.write(`${pass} passed, ${fail} failed, ${skip} skipped\n`);
});
