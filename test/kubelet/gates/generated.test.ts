import t from 'tap';
import { execFileSync } from 'node:child_process';
import { FIRST_MINOR, LAST_MINOR, SPECIAL_GATES, gatesFor } from '../../../src/kubelet/gates/gate-table.js';
import { GATE_DEPENDENCIES, GATE_HISTORY } from '../../../src/kubelet/data/feature-gates.generated.js';

t.test('feature-gates.generated.ts matches the generator output', async (t) => {
  const out = execFileSync(process.execPath, ['scripts/generate/feature-gates.mjs', '--check'], { encoding: 'utf8' });
  t.equal(out, '');
});

/** The table as it was built before gates were built on lookup: every gate of the minor at once. */
function eagerTable(minor: number): Map<string, unknown> {
  const deps = GATE_DEPENDENCIES[minor] ?? (minor > 35 ? GATE_DEPENDENCIES[35] : undefined);
  const map = new Map<string, unknown>();
  for (const special of SPECIAL_GATES) map.set(special, { default: false, preRelease: 'Alpha', lockToDefault: false, verified: true });
  for (const [name, history] of Object.entries(GATE_HISTORY)) {
    const row = history.rows.find(([from, to]) => from <= minor && minor <= to);
    if (!row) continue;
    const [, , def, stage, locked, verified] = row;
    const known = def !== -1 && stage !== '?';
    const dependencies = deps?.[name];
    map.set(name, { default: def === 1, preRelease: known ? stage : 'GA', lockToDefault: locked === 1, ...(dependencies ? { dependencies } : {}), verified: known && verified === 1 });
  }
  return map;
}

t.test('gatesFor builds each gate when looked up, as the whole table would hold it, for every minor (issue 12)', async (t) => {
  for (let minor = FIRST_MINOR; minor <= LAST_MINOR; minor++) {
    const expected = eagerTable(minor);
    const gates = gatesFor(minor)!;
    // Looked up one by one first (nothing has walked this minor's table yet), then walked.
    for (const name of [...expected.keys(), 'NoSuchGate', 'constructor', '__proto__']) {
      t.same(gates.get(name), expected.get(name), `1.${minor} ${name}`);
      t.equal(gates.has(name), expected.has(name));
    }
    t.equal(gates.size, expected.size, `1.${minor}: as many gates`);
    t.same([...gates.keys()], [...expected.keys()], `1.${minor}: walked in table order`);
    t.same(new Map(gates), expected);
  }
});
