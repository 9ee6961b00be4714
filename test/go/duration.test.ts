import t from 'tap';
import { formatGoDuration, parseGoDuration } from '../../src/go/duration.js';

const MIN = 60_000_000_000n;

// Expected values are time.ParseDuration's results and error texts.
t.test('time.ParseDuration accepts Go duration strings', async (t) => {
  t.equal(parseGoDuration('10m'), 10n * MIN);
  t.equal(parseGoDuration('12h'), 720n * MIN);
  t.equal(parseGoDuration('1.5h'), 90n * MIN);
  t.equal(parseGoDuration('2h45m30.5s'), 9930_500_000_000n);
  t.equal(parseGoDuration('-1m'), -MIN);
  t.equal(parseGoDuration('+1s'), 1_000_000_000n);
  t.equal(parseGoDuration('0'), 0n, 'a bare "0" is the one unitless value');
  t.equal(parseGoDuration('-0'), 0n);
  t.equal(parseGoDuration('0s'), 0n);
  t.equal(parseGoDuration('1µs'), 1000n, 'U+00B5 micro sign');
  t.equal(parseGoDuration('1μs'), 1000n, 'U+03BC Greek mu');
  t.equal(parseGoDuration('1us'), 1000n);
  t.equal(parseGoDuration('.5s'), 500_000_000n);
  t.equal(parseGoDuration('1.s'), 1_000_000_000n);
  t.equal(parseGoDuration('9223372036854775807ns'), 9223372036854775807n);
  t.equal(parseGoDuration('-9223372036854775808ns'), -9223372036854775808n);
});

t.test('time.ParseDuration errors, quoted the way the time package quotes', async (t) => {
  t.equal(parseGoDuration(''), 'time: invalid duration ""');
  t.equal(parseGoDuration('10'), 'time: missing unit in duration "10"');
  t.equal(parseGoDuration('10x'), 'time: unknown unit "x" in duration "10x"');
  t.equal(parseGoDuration('1d'), 'time: unknown unit "d" in duration "1d"');
  t.equal(parseGoDuration('3 m'), 'time: unknown unit " m" in duration "3 m"');
  t.equal(parseGoDuration('.s'), 'time: invalid duration ".s"');
  t.equal(parseGoDuration('m'), 'time: invalid duration "m"');
  t.equal(parseGoDuration('-'), 'time: invalid duration "-"');
  t.equal(parseGoDuration('1é'), 'time: unknown unit "\\xc3\\xa9" in duration "1\\xc3\\xa9"');
  t.equal(parseGoDuration('9223372036854775808ns'), 'time: invalid duration "9223372036854775808ns"');
  t.equal(parseGoDuration('3000000h'), 'time: invalid duration "3000000h"');
});

t.test('time.Duration.String', async (t) => {
  t.equal(formatGoDuration(0n), '0s');
  t.equal(formatGoDuration(1n), '1ns');
  t.equal(formatGoDuration(1500n), '1.5µs');
  t.equal(formatGoDuration(1_500_000n), '1.5ms');
  t.equal(formatGoDuration(1_500_000_000n), '1.5s');
  t.equal(formatGoDuration(MIN), '1m0s');
  t.equal(formatGoDuration(-MIN), '-1m0s');
  t.equal(formatGoDuration(60n * MIN), '1h0m0s');
  t.equal(formatGoDuration(90n * MIN + 1n), '1h30m0.000000001s');
  t.equal(formatGoDuration(-9223372036854775808n), '-2562047h47m16.854775808s');
});
