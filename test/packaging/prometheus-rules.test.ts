// packaging/prometheus/node-check.rules.yaml as OpenShift's alerting conventions ask: one node's prediction is a warning with a long `for:`, alerts name the `node` (never
// the scrape `instance`), every runbook_url is a runbook in docs/runbooks/, descriptions say
// "will fail at its next start", only the textfile group reads series user workload monitoring
// cannot see. The rule generator swaps the runbook base; the Alertmanager inhibit rules pass the
// real amtool. (promtool test rules runs in test/integration/metrics.test.ts; here it runs on the
// generated PrometheusRule's groups.)
import t from 'tap';
import * as fs from 'node:fs';
import * as path from 'node:path';
import { fileURLToPath } from 'node:url';
import { execa } from 'execa';
import { parse as parseYaml } from 'yaml';
import { requireTools } from '../harness/tools.js';
import { checkRules } from '../harness/promtool.js';

const repoPath = (p: string) => fileURLToPath(new URL(`../../${p}`, import.meta.url));
const RULES = 'packaging/prometheus/node-check.rules.yaml';
const GENERATOR = repoPath('scripts/gen-prometheus-rule.mjs');
const DEFAULT_BASE = 'file:///usr/share/doc/node-check/runbooks/';
const RPM_RUNBOOKS = '/usr/share/doc/node-check/runbooks/';

interface Rule {
  alert: string;
  expr: string;
  for: string;
  labels: Record<string, string>;
  annotations: Record<string, string>;
}
const groups = (parseYaml(fs.readFileSync(repoPath(RULES), 'utf8')) as { groups: { name: string; rules: Rule[] }[] }).groups;
const rules = groups.flatMap((g) => g.rules.map((r) => ({ ...r, group: g.name })));

const minutes = (d: string) => {
  const m = /^(\d+)([mh])$/.exec(d);
  if (!m) throw new Error(`unexpected duration ${d}`);
  return Number(m[1]) * (m[2] === 'h' ? 60 : 1);
};

t.test('every alert: one node\'s prediction, so warning with for >= 15m; named by node, not instance', async (t) => {
  t.ok(rules.length >= 7, 'the rules are read');
  for (const rule of rules) {
    t.equal(rule.labels.severity, 'warning', `${rule.alert}: warning`);
    t.ok(minutes(rule.for) >= 15, `${rule.alert}: for ${rule.for} >= 15m`);
    t.match(rule.annotations.summary, /\{\{ \$labels\.node \}\}/, `${rule.alert}: the summary names the node`);
    t.match(rule.annotations.description, /\{\{ \$labels\.node \}\}/, `${rule.alert}: the description names the node`);
    for (const [name, text] of Object.entries(rule.annotations)) t.notMatch(text, /\$labels\.instance/, `${rule.alert} ${name}: never the instance`);
    t.match(rule.alert, /^NodeCheck[A-Z][A-Za-z]+$/, 'CamelCase with the component prefix');
  }
});

t.test('the predictions say "will fail at its next start" for a kubelet still running', async (t) => {
  for (const name of ['NodeCheckKubeletWillNotStart', 'NodeCheckCredentialProviderPluginNotOk', 'NodeCheckPendingConfigStopsKubelet']) {
    const rule = rules.find((r) => r.alert === name)!;
    t.match(rule.annotations.description, /will fail at its next start/, name);
  }
});

t.test('every runbook_url is a runbook of docs/runbooks/, under the RPM\'s path; no other URL anywhere', async (t) => {
  for (const rule of rules) {
    const url = rule.annotations.runbook_url!;
    t.ok(url.startsWith(DEFAULT_BASE), `${rule.alert}: ${url}`);
    const [file] = url.slice(DEFAULT_BASE.length).split('#');
    const local = repoPath(`docs/runbooks/${file}`);
    t.ok(fs.existsSync(local), `${rule.alert}: docs/runbooks/${file} exists`);
    t.equal(file, `${rule.alert}.md`, 'one runbook per alert, named after it');
    const text = fs.readFileSync(local, 'utf8');
    t.match(text, new RegExp(`^# ${rule.alert}$`, 'm'), 'the runbook is titled with the alert');
    for (const section of ['Meaning', 'Impact']) t.match(text, new RegExp(`^## ${section}`, 'm'), `${file}: ${section}`);
  }
  const text = fs.readFileSync(repoPath(RULES), 'utf8');
  const urls = text.match(/[a-z]+:\/\/[^\s'"`)]+/g) ?? [];
  t.same(urls.filter((u) => !u.startsWith(DEFAULT_BASE)), [], 'no web URL in the rules (no public home to point at)');
  t.equal(DEFAULT_BASE, `file://${RPM_RUNBOOKS}`);
});

t.test('only the textfile group reads series user workload monitoring cannot see', async (t) => {
  const foreign = /\b(kube_[a-z_]+|node_[a-z_]+|up)\b/;
  for (const rule of rules) {
    if (rule.group === 'node-check-textfile') t.match(rule.expr, foreign, `${rule.alert} is the textfile route's`);
    else {
      t.notMatch(rule.expr, foreign, `${rule.alert}: only nodecheck_* series`);
      t.match(rule.expr, /\bnodecheck_[a-z_]+\b/);
    }
  }
});

t.test('the generator: the runbook base swapped, a PrometheusRule that promtool accepts, usage errors 64', async (t) => {
  const base = 'https://git.example.internal/platform/node-check/-/blob/main/docs/runbooks/';
  const plain = await execa('node', [GENERATOR, '--runbook-base', base], { reject: false });
  t.equal(plain.exitCode, 0, plain.stderr);
  const plainRules = (parseYaml(plain.stdout) as { groups: { rules: Rule[] }[] }).groups.flatMap((g) => g.rules);
  t.same(plainRules.map((r) => r.annotations.runbook_url), rules.map((r) => r.annotations.runbook_url!.replace(DEFAULT_BASE, base)), 'every runbook_url, and only the base');
  t.notMatch(plain.stdout, /file:\/\//, 'no file URL left');

  const wrapped = await execa('node', [GENERATOR, '--prometheus-rule', '--namespace', 'monitoring-x', '--runbook-base', base], { reject: false });
  t.equal(wrapped.exitCode, 0, wrapped.stderr);
  const rule = parseYaml(wrapped.stdout) as { apiVersion: string; kind: string; metadata: { namespace: string }; spec: { groups: unknown[] } };
  t.same([rule.apiVersion, rule.kind, rule.metadata.namespace], ['monitoring.coreos.com/v1', 'PrometheusRule', 'monitoring-x']);
  t.same(rule.spec.groups, (parseYaml(plain.stdout) as { groups: unknown[] }).groups, 'the groups, with only the runbook base changed');
  // Its own subtest: a skip ends a test with plan(0), which only a test without assertions can take.
  t.test('promtool accepts the groups', async (t) => {
    if (!requireTools(t, ['promtool'])) return;
    const file = path.join(t.testdir(), 'groups.yaml');
    fs.writeFileSync(file, JSON.stringify({ groups: rule.spec.groups }));
    const checked = await checkRules(file);
    t.equal(checked.exitCode, 0, `promtool check rules: ${checked.stdout}${checked.stderr}`);
  });

  for (const [args, message] of [
    [['--runbook-base', 'docs/runbooks/'], /not an absolute URL/],
    [['--runbook-base', 'https://x.internal/runbooks'], /must end with "\/"/],
    [['--runbook-base', 'javascript:alert(1)/'], /not links a browser opens/],
    [['--runbook-base'], /needs a value/],
    [['--namespace', 'Bad_NS', '--prometheus-rule', '--runbook-base', base], /not a namespace name/],
    [['--prometheus-rule'], /--prometheus-rule needs --runbook-base URL: .*cannot open file:\/\/\/usr\/share\/doc\/node-check\/runbooks\/ on a node/],
    [['--prometheus-rule', '--runbook-base', 'file:///srv/runbooks/'], /is a file on a node, which a console or Alertmanager cannot open/],
    [['--frobnicate'], /unknown argument/],
  ] as const) {
    const bad = await execa('node', [GENERATOR, ...args], { reject: false });
    t.equal(bad.exitCode, 64, `${args.join(' ')}: 64`);
    t.match(bad.stderr, message);
    t.notMatch(bad.stderr, /\n\s+at /, 'no stack trace');
    t.equal(bad.stdout, '', 'nothing half-written');
  }
});

t.test('the Alertmanager inhibit rules: valid for the real amtool, about alerts that exist, quoted in docs', async (t) => {
  const file = repoPath('docs/alertmanager-inhibit.yaml');
  const config = parseYaml(fs.readFileSync(file, 'utf8')) as { inhibit_rules: { source_matchers: string[]; target_matchers: string[]; equal: string[] }[] };
  const names = new Set(rules.map((r) => r.alert));
  for (const rule of config.inhibit_rules) {
    t.same(rule.equal, ['node'], 'per node');
    const targets = rule.target_matchers.join(' ').match(/NodeCheck[A-Za-z]+/g) ?? [];
    t.ok(targets.length > 0);
    for (const name of targets) t.ok(names.has(name), `${name} is an alert`);
  }
  const operations = fs.readFileSync(repoPath('docs/operations.md'), 'utf8');
  const text = fs.readFileSync(file, 'utf8');
  t.ok(operations.includes(text.slice(text.indexOf('inhibit_rules:'))), 'docs/operations.md quotes the validated rules');
  t.test('amtool check-config accepts them', async (t) => {
    if (!requireTools(t, ['amtool'])) return;
    const checked = await execa('amtool', ['check-config', file], { reject: false });
    t.equal(checked.exitCode, 0, `amtool check-config: ${checked.stdout}${checked.stderr}`);
    t.match(checked.stdout, /2 inhibit rules/);
  });
});
