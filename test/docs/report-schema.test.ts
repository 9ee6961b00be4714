// docs/node-check-report.schema.json against real `--output json`: the shipped bundle's output for
// fixture nodes that start, fail and cannot be told, with and without a kubelet version, and with
// --machine-config (the `upgrade` section); then every fixture node in-process through the same
// renderer. Strict mode also fails on a report field the schema does not name, so a field added to
// the report without the schema fails here. The validator is test/helpers/json-schema.ts.
import t from 'tap';
import * as fs from 'node:fs';
import * as path from 'node:path';
import { fileURLToPath } from 'node:url';
import { validate } from '../helpers/json-schema.js';
import { runBundle } from '../hostile/bundle.js';
import { checkNode } from '../../src/check-node.js';
import { renderJson } from '../../src/render/json.js';
import { machineConfigYaml, rhelWorker415 } from '../overlay/helpers.js';

const repoPath = (p: string) => fileURLToPath(new URL(`../../${p}`, import.meta.url));
const schema = JSON.parse(fs.readFileSync(repoPath('docs/node-check-report.schema.json'), 'utf8')) as Record<string, unknown>;
const FIXTURES = repoPath('test/fixtures/nodes');
const fixtureRoot = (name: string) => path.join(FIXTURES, name, 'root');

t.test('the validator can fail: types, required, enums, patterns, strictness, unknown keywords', async (t) => {
  const good = JSON.parse(runBundle(['check', '--root', fixtureRoot('kubeadm-debian-ecr'), '--kubelet-version', '1.29.6', '-o', 'json']).stdout) as Record<string, any>;
  t.same(validate(schema, good, { strict: true }), []);
  t.match(validate(schema, { ...good, kubeletWillStart: 'yes' }), [/\$\.kubeletWillStart: expected boolean or null, got string/]);
  const { fallback: _dropped, ...noFallback } = good;
  t.match(validate(schema, noFallback), [/missing required fallback/]);
  t.match(validate(schema, { ...good, schemaVersion: 2 }), [/schemaVersion: expected 1/]);
  t.match(validate(schema, { ...good, findings: [{ id: 'Bad Id', severity: 'fatal', message: 'm', remediation: 'r' }] }), [/does not match/, /"fatal" is not one of/]);
  t.match(validate(schema, { ...good, kubeletVersion: 'v1.29.6+abc' }), [/does not match/], 'the version is normalised');
  t.same(validate(schema, { ...good, addedLater: 1 }), [], 'open: fields may be added');
  t.match(validate(schema, { ...good, addedLater: 1 }, { strict: true }), [/property addedLater is not in the schema/]);
  t.throws(() => validate({ type: 'string', minLength: 1 }, 'x'), /minLength .* not supported/);
});

interface Case {
  readonly name: string;
  readonly args: readonly string[];
  readonly expect: boolean | null;
  readonly upgrade?: boolean;
}

t.test('the bundle\'s output validates: start, fail, cannot tell, with --machine-config', async (t) => {
  const dir = t.testdir();
  const mc = path.join(dir, 'rendered-worker-416.yaml');
  fs.writeFileSync(mc, machineConfigYaml());
  const without = rhelWorker415(path.join(dir, 'rhel-415'));
  const withPlugin = rhelWorker415(path.join(dir, 'rhel-415-plugin'), { plugin: true });
  const noUnit = path.join(dir, 'no-unit');
  fs.mkdirSync(path.join(noUnit, 'etc'), { recursive: true });
  const cases: Case[] = [
    { name: 'kubeadm node that starts', args: ['--root', fixtureRoot('kubeadm-debian-ecr'), '--kubelet-version', '1.29.6'], expect: true },
    { name: 'OpenShift 4.16 RHEL worker without its plugin', args: ['--root', fixtureRoot('ocp-4.16-azure-rhel8-worker-acr-missing'), '--kubelet-version', '1.29.6'], expect: false },
    { name: 'version unknown, versions disagree', args: ['--root', fixtureRoot('ocp-4.16-aws-worker')], expect: null },
    { name: 'unmodelled version', args: ['--root', fixtureRoot('kubeadm-debian-ecr'), '--kubelet-version', '1.99.0'], expect: null },
    { name: 'no kubelet unit', args: ['--root', noUnit], expect: null },
    { name: '4.16 config over a 4.15 node without the plugin', args: ['--root', without, '--kubelet-version', '1.29.x', '--machine-config', mc], expect: false, upgrade: true },
    { name: '4.16 config over a 4.15 node with the plugin', args: ['--root', withPlugin, '--kubelet-version', '1.29.x', '--machine-config', mc], expect: true, upgrade: true },
    { name: '--openshift-version chooses the kubelet', args: ['--root', without, '--openshift-version', '4.16', '--machine-config', mc], expect: false, upgrade: true },
  ];
  for (const c of cases) {
    const run = runBundle(['check', ...c.args, '-o', 'json']);
    const report = JSON.parse(run.stdout) as Record<string, any>;
    t.equal(report.kubeletWillStart, c.expect, `${c.name}: kubeletWillStart ${c.expect}`);
    t.equal(run.status, c.expect === true ? 0 : c.expect === false ? 1 : 2, `${c.name}: exit code`);
    t.equal(report.upgrade !== undefined, c.upgrade === true, `${c.name}: upgrade section ${c.upgrade ? 'present' : 'absent'}`);
    t.same(validate(schema, report, { strict: true }), [], `${c.name}: valid`);
  }
});

t.test('every fixture node, in-process through the same renderer, with and without a version', async (t) => {
  const names = fs.readdirSync(FIXTURES).filter((n) => fs.existsSync(fixtureRoot(n)));
  t.ok(names.length > 50, `${names.length} fixture nodes`);
  const answers = new Set<string>();
  for (const name of names) {
    for (const kubeletVersion of [undefined, '1.24.17', '1.33.2']) {
      const report = JSON.parse(renderJson(await checkNode({ root: fixtureRoot(name), unit: 'kubelet.service', kubeletVersion, versionProbeTimeoutMs: 2000 }))) as unknown;
      answers.add(String((report as { kubeletWillStart: unknown }).kubeletWillStart));
      const errors = validate(schema, report, { strict: true });
      if (errors.length > 0) t.same(errors, [], `${name} ${kubeletVersion ?? '(no version)'}`);
    }
  }
  t.same([...answers].sort(), ['false', 'null', 'true'], 'all three answers were validated');
});

t.test('the example in docs/json.md validates too', async (t) => {
  const doc = fs.readFileSync(repoPath('docs/json.md'), 'utf8');
  const example = /## Example[\s\S]*?```json\n([\s\S]*?)```/.exec(doc)?.[1];
  t.ok(example, 'the example is there');
  t.same(validate(schema, JSON.parse(example!), { strict: true }), []);
});
