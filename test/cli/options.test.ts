/**
 * Help, option groups, word-boundary wrapping, a value for every valued option,
 * "did you mean", -o json for preflight and explain, --ignore, --verbose and fallback --dry-run,
 * as users run the shipped bundle.
 */
import t from 'tap';
import { readdirSync, readFileSync, statSync } from 'node:fs';
import * as path from 'node:path';
import { brokenAcrNode, writeRoot, kubeletUnit } from '../helpers/node-root.js';
import { NO_CRASH, runBundle } from '../hostile/bundle.js';
import { COMMANDS, optionFor, optionsOf } from '../../src/cli/options.js';
import { runCli, wrapWords, valuesInOrder } from '../../src/cli/program.js';

const help = (command: string) => runBundle([...(command ? [command] : []), '--help']);

t.test('every command has examples and its own option groups in --help', async (t) => {
  for (const spec of COMMANDS) {
    const run = help(spec.name);
    t.equal(run.status, 0, spec.name);
    t.match(run.stdout, /\nExamples:\n/, `${spec.name} has examples`);
    for (const [example] of spec.examples) t.ok(run.stdout.includes(example.replace('$0', 'node-check')), `${spec.name}: ${example}`);
    for (const group of spec.groups) {
      const at = run.stdout.indexOf(`\n${group.title}\n`);
      t.ok(at >= 0, `${spec.name} has the group ${group.title}`);
      for (const option of group.options) t.match(run.stdout.slice(at), new RegExp(`--${option}\\b`), `${spec.name}: --${option} in ${group.title}`);
    }
  }
  // Global options only where they apply: explain and completion read no node.
  t.notMatch(help('explain').stdout, /--root|--kubelet-version|--unit/);
  t.notMatch(help('completion').stdout, /--root|--output/);
  t.notMatch(help('serve').stdout, /--color|--output/);
  t.equal(runBundle(['explain', 'plugin-binary-missing', '--listen', '127.0.0.1:1']).status, 64, 'an option a command does not take is a usage error');
  // The RHCOS wrapper appends its node options to every command: accepted, unused, not shown.
  const wrapped = runBundle(['explain', 'plugin-binary-missing', '--root', '/host', '--config-file', '/host/etc/node-check/config.yaml', '--kubelet-version', '1.29.5']);
  t.equal(wrapped.status, 0, wrapped.stderr);
  t.equal(runBundle(['completion', 'bash', '--root', '/host']).status, 0);
  const broken = path.join(t.testdir({ 'bad.yaml': 'nonsense: [\n' }), 'bad.yaml');
  t.equal(runBundle(['explain', 'plugin-binary-missing', '--config-file', broken]).status, 0, 'explain reads no settings');
});

t.test('help never splits a word: every default path appears whole, no line is wider than 100', async (t) => {
  for (const command of ['', ...COMMANDS.map((c) => c.name)]) {
    const text = help(command).stdout;
    for (const line of text.split('\n')) t.ok(line.length <= 100, `${command || 'top'}: ${line.length} columns: ${line}`);
    const spec = COMMANDS.find((c) => c.name === (command || 'check'))!;
    for (const name of optionsOf(spec)) {
      const option = optionFor(spec, name);
      if (!option.default) continue;
      const [first, ...rest] = option.default.split(' ');
      t.ok(text.includes(`[default: ${first}`), `${command || 'top'}: --${name} [default: ${first} on one line`);
      for (const word of rest) t.ok(text.includes(word), `${command || 'top'}: --${name}: ${word} whole`);
    }
  }
  t.equal(wrapWords('a /very/long/path/that/does/not/fit here', 10), 'a\n/very/long/path/that/does/not/fit\nhere', 'a long word stays whole');
  t.equal(wrapWords('x [default: /var/lib/node_exporter] y', 20), 'x\n[default: /var/lib/node_exporter]\ny');
});

t.test('every option that takes a value refuses to go without one (64), never falling back to a default', async (t) => {
  const root = brokenAcrNode(t.testdir());
  for (const spec of COMMANDS) {
    const positional = spec.name === 'fallback' ? ['status'] : spec.name === 'explain' ? ['plugin-binary-missing'] : spec.name === 'completion' ? ['bash'] : [];
    for (const name of optionsOf(spec)) {
      if (optionFor(spec, name).type === 'boolean') continue;
      // In-process (fast); "--name=" too, which yargs reads as an empty value.
      for (const args of [[spec.name, ...positional, `--${name}`], [spec.name, ...positional, `--${name}=`], [spec.name, ...positional, `--${name}`, '--root', root]]) {
        const run = await cli(args);
        t.equal(run.status, 64, args.join(' '));
        t.match(run.stderr, /^node-check: \S/, args.join(' '));
        t.equal(run.stdout, '', `${args.join(' ')}: no output, no report`);
      }
    }
  }
  // `check --root` then another flag: never the live "/".
  const run = runBundle(['check', '--root', '--kubelet-version', '1.28.7', '-o', 'json']);
  t.equal(run.status, 64);
  t.match(run.stderr, /^node-check: Not enough arguments following: root/);
  t.equal(run.stdout, '', 'no report at all');
  t.notMatch(run.stderr, NO_CRASH);
  t.equal(runBundle(['check', '--root', root, '--kubelet-version', '1.28.7']).status, 1, 'with its value it works');
});

/** runCli in this process, with a fake terminal-less io that never serves for long. */
async function cli(args: readonly string[]): Promise<{ status: number; stdout: string; stderr: string }> {
  let stdout = '';
  let stderr = '';
  const status = await runCli(args, {
    stdout: (text) => (stdout += text),
    stderr: (text) => (stderr += text),
    env: { NODE_CHECK_CONFIG: '' },
    stdoutIsTTY: false,
    shutdownSignal: new Promise((resolve) => setTimeout(() => resolve('SIGTERM'), 200)),
  });
  return { status, stdout, stderr };
}

t.test('"did you mean" for commands, options, choices and finding ids', async (t) => {
  const chek = runBundle(['chek']);
  t.equal(chek.status, 64);
  t.match(chek.stderr, /unknown command "chek"\. Did you mean check\?/);
  const preflite = runBundle(['prefligt', '--root', '/nonexistent']);
  t.equal(preflite.status, 64);
  t.match(preflite.stderr, /Did you mean preflight\?/);
  const rot = runBundle(['check', '--rot', '/']);
  t.equal(rot.status, 64);
  t.match(rot.stderr, /Unknown argument: rot\. Did you mean --root\?/);
  const action = runBundle(['fallback', 'aply']);
  t.equal(action.status, 64);
  t.match(action.stderr, /Did you mean apply\?/);
  const explain = runBundle(['explain', 'plugin-binary-mising']);
  t.equal(explain.status, 64);
  t.match(explain.stderr, /Did you mean plugin-binary-missing\?/);
  const output = runBundle(['check', '-o', 'yaml']);
  t.equal(output.status, 64);
  t.match(output.stderr, /--output: "yaml" is not one of text, json/);
});

t.test('preflight -o json prints the report, as check does; explain -o json the catalog entry', async (t) => {
  const root = brokenAcrNode(t.testdir());
  const args = ['--root', root, '--kubelet-version', '1.28.7', '-o', 'json'];
  const preflight = runBundle(['preflight', ...args, '--no-journal', '--no-metrics']);
  t.equal(preflight.status, 1, preflight.stderr);
  const check = await cli(['check', ...args]);
  const [fromPreflight, fromCheck] = [JSON.parse(preflight.stdout), JSON.parse(check.stdout)];
  t.same(Object.keys(fromPreflight), Object.keys(fromCheck), 'the same schema');
  t.equal(fromPreflight.kubeletWillStart, false);
  t.same(fromPreflight.findings.map((f: { id: string }) => f.id), fromCheck.findings.map((f: { id: string }) => f.id));

  const explain = await cli(['explain', 'plugin-binary-missing', '-o', 'json']);
  t.equal(explain.status, 0);
  t.match(JSON.parse(explain.stdout), { schemaVersion: 1, id: 'plugin-binary-missing', severity: 'error', messageId: '85f6e002d25c40d387c3fdd85003f7d2', meaning: String, fix: String });
});

t.test('--ignore demotes a known finding, says so, and the exit code follows the rest', async (t) => {
  const dir = t.testdir({ 'config.yaml': 'ignore: [plugin-binary-missing]\n', 'bad.yaml': 'ignore: [no-such-id]\n', 'type.yaml': 'ignore: plugin-binary-missing\n' });
  const root = brokenAcrNode(path.join(dir, 'root'));
  const base = ['check', '--root', root, '--kubelet-version', '1.28.7'];
  const ignored = await cli([...base, '--ignore', 'plugin-binary-missing', '-o', 'json']);
  t.equal(ignored.status, 0, 'every error is ignored: exit 0');
  const report = JSON.parse(ignored.stdout);
  t.equal(report.kubeletWillStart, false, 'the prediction itself does not change');
  t.same(report.ignored, { ids: ['plugin-binary-missing'], findings: 1, verdictIgnored: true });
  t.match(report.findings.find((f: { id: string }) => f.id === 'plugin-binary-missing'), { severity: 'error', ignored: true });

  const text = await cli([...base, '--ignore', 'plugin-binary-missing']);
  t.equal(text.status, 0);
  t.match(text.stdout, /kubelet will NOT start/);
  t.match(text.stdout, /ignored by --ignore: plugin-binary-missing: every finding behind this answer is ignored, exit code 0; kubelet stops at its first failure/);
  t.match(text.stdout, /error {3}plugin-binary-missing \(ignored by --ignore\)/);

  const other = await cli([...base, '--ignore', 'bin-dir-missing', '--ignore', 'cannot-decide', '-o', 'json']);
  t.equal(other.status, 1, 'ignoring another finding leaves the error deciding');
  t.same(JSON.parse(other.stdout).ignored, { ids: ['bin-dir-missing', 'cannot-decide'], findings: 0, verdictIgnored: false }, 'repeatable, in order');

  const preflight = runBundle(['preflight', '--root', root, '--kubelet-version', '1.28.7', '--no-journal', '--no-metrics', '--ignore=plugin-binary-missing']);
  t.equal(preflight.status, 0);
  t.match(preflight.stdout, /kubelet will NOT start: .*\[plugin-binary-missing\] \(ignored by --ignore: plugin-binary-missing\)/);

  const typo = await cli([...base, '--ignore', 'plugin-binary-mising']);
  t.equal(typo.status, 64);
  t.match(typo.stderr, /--ignore: unknown finding id "plugin-binary-mising" \(did you mean plugin-binary-missing\?\)/);

  const fromFile = await cli([...base, '--config-file', path.join(dir, 'config.yaml')]);
  t.equal(fromFile.status, 0, 'ignore: in the settings file');
  t.match(fromFile.stdout, /ignored by --ignore: plugin-binary-missing/);
  const bad = await cli([...base, '--config-file', path.join(dir, 'bad.yaml')]);
  t.equal(bad.status, 64);
  t.match(bad.stderr, /bad\.yaml: unknown finding id "no-such-id"/);
  const type = await cli([...base, '--config-file', path.join(dir, 'type.yaml')]);
  t.equal(type.status, 64);
  t.match(type.stderr, /type\.yaml: setting "ignore" must be a list of strings/);
});

t.test("--ignore and --unit follow kubeadm's and systemctl's habits", async (t) => {
  const dir = t.testdir();
  const root = brokenAcrNode(path.join(dir, 'root'));
  const base = ['check', '--root', root, '--kubelet-version', '1.28.7', '-o', 'json'];
  const all = await cli([...base, '--ignore', 'all']);
  t.equal(all.status, 0, '--ignore all demotes every finding');
  t.same(JSON.parse(all.stdout).ignored, { ids: ['all'], findings: JSON.parse(all.stdout).findings.length, verdictIgnored: true });
  const anyCase = await cli([...base, '--ignore', 'Bin-Dir-Missing,PLUGIN-binary-missing']);
  t.equal(anyCase.status, 0, 'ids in any case, comma-separated');
  t.same(JSON.parse(anyCase.stdout).ignored.ids, ['bin-dir-missing', 'plugin-binary-missing'], 'named as the catalog spells them');
  const mixed = await cli([...base, '--ignore', 'all,plugin-binary-missing']);
  t.equal(mixed.status, 64);
  t.match(mixed.stderr, /--ignore: don't name single finding ids beside "all"/);
  const typoInList = await cli([...base, '--ignore', 'plugin-binary-missing,nope']);
  t.equal(typoInList.status, 64);
  t.match(typoInList.stderr, /--ignore: unknown finding id "nope"/);

  const shortUnit = await cli([...base, '--unit', 'kubelet']);
  const fullUnit = await cli([...base, '--unit', 'kubelet.service']);
  t.equal(shortUnit.status, fullUnit.status);
  t.equal(JSON.parse(shortUnit.stdout).kubelet.unit, 'kubelet.service', '--unit kubelet means kubelet.service, as in systemctl');
  t.same(JSON.parse(shortUnit.stdout).findings, JSON.parse(fullUnit.stdout).findings);
});

t.test('--verbose: the files read, which drop-in won ExecStart, Environment and each kubelet config field, and the version source', async (t) => {
  const top = t.testdir();
  const root = brokenAcrNode(path.join(top, 'root'), {
    '/etc/systemd/system/kubelet.service': kubeletUnit().replace('--config=/etc/kubernetes/kubelet.conf', '--config=/etc/kubernetes/kubelet.conf --config-dir=/etc/kubernetes/kubelet.conf.d $KUBELET_EXTRA'),
    '/etc/systemd/system/kubelet.service.d/10-env.conf': '[Service]\nEnvironment=KUBELET_EXTRA=--v=2 OTHER=1\nEnvironmentFile=/etc/default/kubelet\n',
    '/etc/systemd/system/kubelet.service.d/20-exec.conf': `[Service]\nExecStart=\nExecStart=/usr/bin/kubelet --config=/etc/kubernetes/kubelet.conf --config-dir=/etc/kubernetes/kubelet.conf.d --image-credential-provider-bin-dir=/usr/libexec/kubelet-image-credential-provider-plugins --image-credential-provider-config=/etc/kubernetes/credential-providers/acr-credential-provider.yaml $KUBELET_EXTRA\n`,
    '/etc/default/kubelet': 'KUBELET_EXTRA=--v=4\n',
    '/etc/kubernetes/kubelet.conf': 'apiVersion: kubelet.config.k8s.io/v1beta1\nkind: KubeletConfiguration\nmaxPods: 100\nfeatureGates:\n  KubeletTracing: true\n',
    '/etc/kubernetes/kubelet.conf.d/50-pods.conf': 'apiVersion: kubelet.config.k8s.io/v1beta1\nkind: KubeletConfiguration\nmaxPods: 200\n',
  });
  const run = await cli(['check', '--root', root, '--kubelet-version', '1.30.2', '--verbose']);
  t.equal(run.status, 1, run.stderr);
  const out = run.stdout;
  t.match(out, /\(\/etc\/systemd\/system\/kubelet\.service; kubelet 1\.30\.2 from --kubelet-version\)/);
  t.match(out, /\nWhere it came from \(--verbose\):\n/);
  t.match(out, /ExecStart= from: \/etc\/systemd\/system\/kubelet\.service\.d\/20-exec\.conf:3/);
  t.match(out, /Environment KUBELET_EXTRA from: \/etc\/default\/kubelet/, 'the EnvironmentFile= overrides Environment=');
  t.match(out, /Environment OTHER from: \/etc\/systemd\/system\/kubelet\.service\.d\/10-env\.conf:2/);
  t.match(out, /kubelet config maxPods from: \/etc\/kubernetes\/kubelet\.conf\.d\/50-pods\.conf/, 'the drop-in wins over --config');
  t.match(out, /kubelet config featureGates\.KubeletTracing from: \/etc\/kubernetes\/kubelet\.conf\n/);
  for (const file of ['/etc/systemd/system/kubelet.service', '/etc/default/kubelet', '/etc/kubernetes/credential-providers/acr-credential-provider.yaml']) t.ok(out.includes(`read: ${file}`), `read: ${file}`);
  t.match(out, /examined: \/usr\/libexec\/kubelet-image-credential-provider-plugins\/acr-credential-provider/);

  const json = JSON.parse((await cli(['check', '--root', root, '--kubelet-version', '1.30.2', '--verbose', '-o', 'json'])).stdout);
  t.match(json.provenance, { execStart: '/etc/systemd/system/kubelet.service.d/20-exec.conf:3', kubeletVersion: { source: 'flag' } });
  const plain = await cli(['check', '--root', root, '--kubelet-version', '1.30.2']);
  t.notMatch(plain.stdout, /read: |ExecStart= from/, 'only with --verbose');
  t.match(plain.stdout, /kubelet 1\.30\.2 from --kubelet-version\)/, 'the version source is always in the text');
  t.notOk('provenance' in JSON.parse((await cli(['check', '--root', root, '--kubelet-version', '1.30.2', '-o', 'json'])).stdout));
  const openshift = await cli(['check', '--root', root, '--openshift-version', '4.16', '--overlay', writeRoot(path.join(top, 'overlay'), { '/etc/motd': 'x' })]);
  t.match(openshift.stdout, /kubelet 1\.29\.0 for OpenShift 4\.16 \(--openshift-version\)/);
  const upgradeVerbose = await cli(['check', '--root', root, '--openshift-version', '4.16', '--overlay', path.join(top, 'overlay'), '--verbose']);
  t.match(upgradeVerbose.stdout, /kubelet version: 1\.29\.0 from the kubelet minor of OpenShift 4\.16 \(--openshift-version\)/, '--verbose with an overlay');
  t.match(upgradeVerbose.stdout, /ExecStart= from: \/etc\/systemd\/system\/kubelet\.service\.d\/20-exec\.conf:3/);
  const preflight = runBundle(['preflight', '--root', root, '--kubelet-version', '1.30.2', '--verbose', '--no-journal', '--no-metrics']);
  t.equal(preflight.stdout.split('\n').length, 2, 'preflight keeps one line on stdout');
  t.match(preflight.stderr, /node-check: ExecStart= from: /);
});

/** Every file under a directory with its bytes and mode. */
function snapshot(dir: string): Record<string, string> {
  const out: Record<string, string> = {};
  const walk = (d: string) => {
    for (const name of readdirSync(d)) {
      const full = path.join(d, name);
      const st = statSync(full);
      if (st.isDirectory()) walk(full);
      out[path.relative(dir, full)] = `${st.mode.toString(8)} ${st.isDirectory() ? '' : readFileSync(full, 'base64')}`;
    }
  };
  walk(dir);
  return out;
}

t.test('fallback apply --dry-run prints the plan with the drop-in and writes nothing', async (t) => {
  const root = brokenAcrNode(t.testdir());
  const before = snapshot(root);
  const run = await cli(['fallback', 'apply', '--dry-run', '--root', root, '--kubelet-version', '1.30.2']);
  t.equal(run.status, 0, run.stderr);
  t.match(run.stdout, /dry run, nothing written: fallback apply would apply it/);
  t.match(run.stdout, /would write \/run\/systemd\/system\/kubelet\.service\.d\/99-node-check-fallback\.conf \(mode 0600\)\n {4}\| /);
  t.match(run.stdout, /\| ExecStart=/);
  t.same(snapshot(root), before, 'the root is byte-identical');

  const json = JSON.parse((await cli(['fallback', 'apply', '--dry-run', '-o', 'json', '--root', root, '--kubelet-version', '1.30.2'])).stdout);
  t.match(json, { dryRun: true, action: 'apply', writes: [{ path: String, mode: String }] });
  t.ok(json.writes.some((w: { content?: string }) => w.content?.includes('ExecStart=')));
  t.same(snapshot(root), before);

  const applied = await cli(['fallback', 'apply', '--root', root, '--kubelet-version', '1.30.2']);
  t.equal(applied.status, 0, applied.stderr);
  const afterApply = snapshot(root);
  const revert = await cli(['fallback', 'revert', '--dry-run', '--root', root]);
  t.equal(revert.status, 0);
  t.match(revert.stdout, /would remove \/run\/systemd\/system\/kubelet\.service\.d\/99-node-check-fallback\.conf/);
  t.same(snapshot(root), afterApply, 'revert --dry-run removes nothing');
  t.equal((await cli(['fallback', 'status', '--dry-run', '--root', root])).status, 64, 'status has nothing to dry-run');
});

t.test('repeatable options keep every value in command-line order', async (t) => {
  const top = t.testdir();
  const root = brokenAcrNode(path.join(top, 'root'));
  const first = writeRoot(path.join(top, 'first'), { '/etc/motd': 'one' });
  const second = writeRoot(path.join(top, 'second'), { '/etc/issue': 'two' });
  const run = await cli(['check', '--root', root, '--kubelet-version', '1.30.2', '--overlay', first, `--overlay=${second}`, '-o', 'json']);
  t.same(JSON.parse(run.stdout).upgrade.sources.map((s: { origin: string }) => s.origin), [first, second], 'both overlays, in order (yargs alone keeps the last)');
  t.same(valuesInOrder(['check', '--ignore', 'a', '--ignore=b', '--root', '/', '--', '--ignore', 'c'], 'ignore'), ['a', 'b']);
});
