import { readFileSync } from 'node:fs';
import t from 'tap';
// @ts-expect-error -- plain ESM generator script without type declarations
import { minorRows, withMinorRow } from '../../scripts/generate/generate.mjs';
import { kubeletFlagsFor } from '../../src/kubelet/command-line/flag-table.js';
import { KUBELET_CONFIG_FIELDS, KUBELET_CONFIG_STRING_TYPES } from '../../src/kubelet/data/kubelet-config-fields.js';
import { GATE_SOURCES } from '../../src/kubelet/data/feature-gates.generated.js';
import { KUBELET_FLAG_SOURCES } from '../../src/kubelet/data/kubelet-flags.generated.js';
import { isModelledMinor, MINOR_ROWS, minorRow, MODELLED_MINORS, MODELLED_RANGE, NEWEST_MODELLED_MINOR, NEXT_MINOR, OLDEST_MODELLED_MINOR } from '../../src/kubelet/data/minors.js';
import { startSequence } from '../../src/kubelet/data/start-sequence.js';
import { gatesFor } from '../../src/kubelet/gates/gate-table.js';
import { traitsFor } from '../../src/kubelet/version.js';
import { cgroupV1RuleFor, criFatalAtStart, swapTextFor } from '../../src/host-facts/data.js';

const lock = JSON.parse(readFileSync(new URL('../../scripts/generate/kubernetes-source.lock.json', import.meta.url), 'utf8')) as {
  minors: Record<string, { kubernetes: { version: string } }>;
};

t.test('the rows are consecutive minors; the range, the newest and the list are theirs', async (t) => {
  t.same(MODELLED_MINORS, MINOR_ROWS.map((_, i) => OLDEST_MODELLED_MINOR + i));
  t.equal(NEWEST_MODELLED_MINOR, MINOR_ROWS[MINOR_ROWS.length - 1]!.minor);
  t.equal(MODELLED_RANGE, `1.${OLDEST_MODELLED_MINOR}-1.${NEWEST_MODELLED_MINOR}`);
  t.equal(NEXT_MINOR, NEWEST_MODELLED_MINOR + 1);
  for (const m of [OLDEST_MODELLED_MINOR - 1, NEXT_MINOR, 24.5, Number.NaN]) {
    t.notOk(isModelledMinor(m), String(m));
    t.equal(minorRow(m), undefined);
  }
});

t.test('each row names the tag the lock pins, and the lock pins exactly these minors', async (t) => {
  t.same(Object.keys(lock.minors).map((m) => Number(m.slice(2))), MODELLED_MINORS);
  for (const row of MINOR_ROWS) t.equal(row.kubernetes, lock.minors[`1.${row.minor}`]?.kubernetes.version, `1.${row.minor}`);
});

t.test('every per-minor table has a row for each modelled minor, read at that row\'s tag', async (t) => {
  for (const { minor, kubernetes } of MINOR_ROWS) {
    t.equal(GATE_SOURCES[minor], kubernetes, `gates 1.${minor}`);
    t.equal(KUBELET_FLAG_SOURCES[minor], kubernetes, `flags 1.${minor}`);
    t.ok(KUBELET_CONFIG_FIELDS[minor], `KubeletConfiguration fields 1.${minor}`);
    t.ok(KUBELET_CONFIG_STRING_TYPES[minor], `KubeletConfiguration string types 1.${minor}`);
    t.equal(traitsFor(minor)?.minor, minor, `credential-provider traits 1.${minor}`);
    t.equal(startSequence(minor)?.minor, minor, `start sequence 1.${minor}`);
    t.ok(gatesFor(minor), `gate table 1.${minor}`);
    t.ok(kubeletFlagsFor(minor), `flag table 1.${minor}`);
    t.ok(swapTextFor(minor), `swap text 1.${minor}`);
    t.not(criFatalAtStart(minor), undefined, `CRI check 1.${minor}`);
    if (minor >= 31) t.ok(cgroupV1RuleFor(minor), `failCgroupV1 1.${minor}`);
  }
});

t.test('the minor after the newest answers nothing anywhere, even where generated data reaches it', async (t) => {
  t.equal(traitsFor(NEXT_MINOR), undefined);
  t.equal(startSequence(NEXT_MINOR), undefined);
  t.equal(gatesFor(NEXT_MINOR), undefined);
  t.equal(kubeletFlagsFor(NEXT_MINOR), undefined);
  t.equal(swapTextFor(NEXT_MINOR), undefined);
  t.equal(criFatalAtStart(NEXT_MINOR), undefined);
});

t.test('npm run generate -- --minor reads and writes the rows of src/kubelet/data/minors.ts', async (t) => {
  const text = readFileSync(new URL('../../src/kubelet/data/minors.ts', import.meta.url), 'utf8');
  t.same((minorRows as (text: string) => unknown)(text), MINOR_ROWS);
  const added = (withMinorRow as (text: string, minor: number, version: string) => string)(text, NEXT_MINOR, `v1.${NEXT_MINOR}.0`);
  t.same((minorRows as (text: string) => unknown)(added), [...MINOR_ROWS, { minor: NEXT_MINOR, kubernetes: `v1.${NEXT_MINOR}.0` }]);
  t.throws(() => (withMinorRow as (text: string, minor: number, version: string) => string)(text, NEXT_MINOR + 1, 'v1.99.0'), /a new minor is/);
});
