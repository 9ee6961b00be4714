// The catalog and the host-fact list built from the start rules (src/catalog/rules.ts).
import t from 'tap';
import { ALL_RULES, hostFactReaders, RULE_KINDS } from '../../src/catalog/rules.js';
import { allFindingKinds } from '../../src/catalog/findings.js';
import { ALL_FACTS } from '../../src/discover/host-facts.js';
import { configFieldStatus, flagStatus } from '../../src/catalog/inputs.js';

t.test('every rule\'s catalog entries are in the catalog, once', async (t) => {
  const ids = allFindingKinds().map((kind) => kind.id);
  for (const kind of RULE_KINDS) t.equal(ids.filter((id) => id === kind.id).length, 1, kind.id);
  t.ok(RULE_KINDS.length >= ALL_RULES.length - 1, 'a rule without its own entry reuses another rule\'s (cloud-provider-disabled)');
});

t.test('rule ids are unique and name their step folder', async (t) => {
  const ids = ALL_RULES.map((rule) => rule.id);
  t.equal(new Set(ids).size, ids.length);
  for (const rule of ALL_RULES) t.match(rule.id, rule.step === 'post-start' ? /^post-start\// : /^run\//, rule.id);
});

t.test('every host fact discovery reads is read by a rule (cgroupVersion: also by ValidateKubeletConfiguration\'s failCgroupV1)', async (t) => {
  const read = new Set([...hostFactReaders().keys(), 'cgroupVersion']);
  t.same([...ALL_FACTS].sort(), [...read].sort());
  t.same(hostFactReaders().get('swaps'), ['run/swap']);
});

t.test('the kubelet-input table names each rule\'s inputs as the rule says (docs/kubelet-inputs.md)', async (t) => {
  for (const rule of ALL_RULES) {
    for (const [field, by] of Object.entries(rule.inputs?.fields ?? {})) t.same(configFieldStatus(field), { kind: 'modelled', by }, `${rule.id}: ${field}`);
    for (const [flag, by] of Object.entries(rule.inputs?.flags ?? {})) t.same(flagStatus(24, flag), { kind: 'modelled', by }, `${rule.id}: --${flag} (1.24: no flag of these binds a field)`);
  }
  t.same(flagStatus(36, 'cpu-manager-policy'), configFieldStatus('cpuManagerPolicy'), 'a config flag shares its field\'s');
});
