// The config-validation probe's recordings (test/probe/config-validation/1.N.json, written by
// scripts/probe/config-validation.mjs from kubelet's own loadConfigFile, mergeKubeletConfigurations,
// SetFromMap and ValidateKubeletConfiguration at each tag) replayed against node-check: Go-free.
// Every recorded case must still hash as recorded; kubelet's verdict must be node-check's (or
// node-check says it cannot tell); where both refuse and node-check's words are not marked inexact,
// they must be kubelet's. A disagreement holds only when test/probe/config-validation/known.json
// names it (each entry documented in docs/unverified.md), and an entry no disagreement matches fails.
import t from 'tap';
// @ts-expect-error: plain JS driver, without types
import { compareMinor, knownDisagreements, recordedMinors, summary } from '../../scripts/probe/config-validation.mjs';
import * as api from '../../scripts/probe/config-validation-node-check.js';

interface Result { minor: number; total: number; disagree: { id: string; problem: string }[]; stale: string[] }

const minors = recordedMinors() as number[];

t.test('recordings exist, newest minor first', async (t) => {
  t.ok(minors.length > 0, 'at least one minor recorded');
  t.ok(minors.every((m, i) => i === 0 || m < minors[i - 1]!));
});

for (const minor of minors) {
  t.test(`kubelet 1.${minor}: node-check agrees with kubelet's own config validation`, async (t) => {
    const r = compareMinor(api, minor, { known: knownDisagreements() }) as Result;
    t.comment(summary(r));
    t.ok(r.total >= 1000, `${r.total} cases`);
    t.same(r.disagree.slice(0, 20), [], 'no disagreement outside known.json');
    t.equal(r.disagree.length, 0);
    t.same(r.stale, [], 'every known disagreement still happens');
  });
}
