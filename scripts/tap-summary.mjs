#!/usr/bin/env node
// Passes TAP from stdin through unchanged and ends with one plain line, "N passed, N failed,
// N skipped", taken from tap's closing "# { total: .., pass: .., fail: .., skip: .. }" line
// (the counts are assertions). A test file can fail with no failed assertion (a plan mismatch, a
// crash, a timeout): tap then marks the file's own top-level line "not ok" while its closing line
// has no fail count. Such files are counted too, so a red run never says "0 failed":
// "N failed" is failed assertions plus failed test files, and the files are named after it.
// Used as `tap | node scripts/tap-summary.mjs` with pipefail, so the exit code still follows tap;
// this filter also fails when tap printed no summary at all, or when a test file failed.
const SUMMARY = /^# \{ (total: \d+(?:, \w+: \d+)*) \}$/;
// tap's one line per test file, unindented: "not ok 3 - test/x.test.ts # time=12ms".
const FAILED_FILE = /^not ok \d+ - (\S+)/;

let pending = '';
let counts;
const failedFiles = [];

function scan(line) {
  const file = FAILED_FILE.exec(line);
  if (file !== null) failedFiles.push(file[1]);
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
  // Input that did not end with a newline: the summary still starts on a line of its own.
  if (pending !== '') process.stdout.write('\n');
  if (counts === undefined) {
    process.stdout.write('\ntap printed no summary line: the run did not finish\n');
    process.exitCode = 1;
    return;
  }
  const { pass = 0, fail = 0, skip = 0 } = counts;
  const files = failedFiles.length;
  const failed = fail + files;
  const detail = files === 0 ? '' : ` (${fail} assertion${fail === 1 ? '' : 's'}, ${files} test file${files === 1 ? '' : 's'})`;
  process.stdout.write(`${pass} passed, ${failed} failed${detail}, ${skip} skipped\n`);
  for (const file of failedFiles) process.stdout.write(`failed test file: ${file}\n`);
  if (files > 0) process.exitCode = 1;
});
