// The systemd files node-check ships, checked by systemd itself (`systemd-analyze verify`) and by
// node-check's own reading of unit files for systemd 239 and 252.
//
// toolchain.md §6: verify exits 1 only for some problems (a command that is not executable);
// unknown keys and bad values are printed with rc 0, so any stderr line naming our files is a
// failure. It skips a "-"-prefixed command, so the strict variant (no "-") is verified too. Drop-ins
// are verified through SYSTEMD_UNIT_PATH=DIR: with a stand-in kubelet.service in DIR. The
// executables the units name are replaced by stand-ins in DIR, so "not executable" means ours.
import t, { type Test } from 'tap';
import { spawnSync } from 'node:child_process';
import { mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { requireTools, toolPath } from '../harness/tools.js';
import { parseUnitFile } from '../../src/systemd/unit-file.js';
import { parseExecValue } from '../../src/systemd/exec-command.js';
import { parseUnitName } from '../../src/systemd/unit-name.js';
import { rulesFor } from '../../src/systemd/systemd-version.js';
import { writeStub } from './sandbox.js';

const repoFile = (path: string) => readFileSync(fileURLToPath(new URL(`../../${path}`, import.meta.url)), 'utf8');
const SERVICE = repoFile('systemd/node-check.service');
const KUBELET_DROP_IN = repoFile('systemd/kubelet.service.d/90-node-check.conf');
const OPENSHIFT_DROP_IN = repoFile('packaging/openshift/90-node-check.conf');
const SHIPPED_BINARY = '/usr/bin/node-check';

/** A kubelet unit shaped like OpenShift's (Type=notify, Restart=always, RestartSec=10). */
const standInKubelet = (bin: string) => `[Unit]
Description=stand-in kubelet for node-check's unit tests

[Service]
Type=notify
ExecStart=${bin}/kubelet --config=/etc/kubernetes/kubelet.conf
Restart=always
RestartSec=10

[Install]
WantedBy=multi-user.target
`;

interface Verified {
  readonly code: number | null;
  /** stderr lines that name one of our files (or the directory holding them). */
  readonly ours: string[];
  readonly stderr: string;
}

function verify(args: readonly string[], ourNames: readonly string[], env: NodeJS.ProcessEnv = {}): Verified {
  const result = spawnSync(toolPath('systemd-analyze')!, ['verify', '--man=no', ...args], {
    encoding: 'utf8',
    env: { ...process.env, SYSTEMD_LOG_COLOR: '0', ...env },
    timeout: 30_000,
  });
  if (result.error) throw result.error;
  const ours = result.stderr.split('\n').filter((line) => ourNames.some((name) => line.includes(name)));
  return { code: result.status, ours, stderr: result.stderr };
}

/** DIR/bin with stand-in kubelet and node-check executables; returns DIR. */
function unitDir(t: Test): string {
  const dir = t.testdir({ bin: {}, 'kubelet.service.d': {} });
  writeStub(join(dir, 'bin'), 'kubelet');
  writeStub(join(dir, 'bin'), 'node-check');
  writeFileSync(join(dir, 'kubelet.service'), standInKubelet(join(dir, 'bin')));
  return dir;
}

/** Verifies kubelet.service in `dir` with `dropIn` as kubelet.service.d/90-node-check.conf. */
function verifyDropIn(dir: string, dropIn: string): Verified {
  writeFileSync(join(dir, 'kubelet.service.d', '90-node-check.conf'), dropIn);
  return verify(['kubelet.service'], [dir, '90-node-check.conf', 'kubelet.service'], { SYSTEMD_UNIT_PATH: `${dir}:` });
}

const strict = (dropIn: string) => dropIn.replace(/^ExecStartPre=-/m, 'ExecStartPre=');

t.test('node-check.service passes systemd-analyze verify', async (t) => {
  if (!requireTools(t, ['systemd-analyze'])) return;
  const dir = unitDir(t);
  t.ok(SERVICE.includes(`ExecStart=${SHIPPED_BINARY} serve`), 'the unit runs the packaged binary');
  const unit = join(dir, 'node-check.service');
  writeFileSync(unit, SERVICE.replaceAll(SHIPPED_BINARY, join(dir, 'bin', 'node-check')));
  const clean = verify([unit], [dir, 'node-check.service']);
  t.equal(clean.code, 0, clean.stderr);
  t.same(clean.ours, [], 'no complaint about node-check.service');

  // The same check does see a mistake in this file: the assertions above can fail.
  writeFileSync(unit, SERVICE.replaceAll(SHIPPED_BINARY, join(dir, 'bin', 'node-check')).replace('[Service]', '[Service]\nRestartSecc=5'));
  t.ok(verify([unit], [dir, 'node-check.service']).ours.some((line) => /Unknown key 'RestartSecc'/.test(line)), 'an unknown key is reported');
});

t.test('the packaged kubelet drop-in passes systemd-analyze verify on a kubelet unit', async (t) => {
  if (!requireTools(t, ['systemd-analyze'])) return;
  const dir = unitDir(t);
  const local = KUBELET_DROP_IN.replaceAll(SHIPPED_BINARY, join(dir, 'bin', 'node-check'));
  t.not(local, KUBELET_DROP_IN, 'the drop-in runs the packaged binary');

  const shipped = verifyDropIn(dir, local);
  t.equal(shipped.code, 0, shipped.stderr);
  t.same(shipped.ours, [], 'no complaint about the drop-in or kubelet.service');

  const strictMode = verifyDropIn(dir, strict(local));
  t.equal(strictMode.code, 0, `strict mode (no "-"): ${strictMode.stderr}`);
  t.same(strictMode.ours, []);

  // Controls: verify reads the drop-in, and checks the strict ExecStartPre= command.
  t.ok(verifyDropIn(dir, `${local}Bogus=1\n`).ours.some((line) => /90-node-check\.conf.*Unknown key 'Bogus'/.test(line)), 'verify reads the drop-in');
  const missing = verifyDropIn(dir, strict(local).replaceAll(join(dir, 'bin', 'node-check'), join(dir, 'bin', 'absent')));
  t.equal(missing.code, 1);
  t.ok(missing.ours.some((line) => /is not executable/.test(line)), 'the strict ExecStartPre= command is checked');
});

t.test('the OpenShift kubelet drop-in passes systemd-analyze verify on a kubelet unit', async (t) => {
  if (!requireTools(t, ['systemd-analyze', 'bash'])) return;
  const dir = unitDir(t);
  const shipped = verifyDropIn(dir, OPENSHIFT_DROP_IN);
  t.equal(shipped.code, 0, shipped.stderr);
  t.same(shipped.ours, []);
  // Strict: verify then checks that /bin/bash is executable (the wrapper path is its argument).
  const strictMode = verifyDropIn(dir, strict(OPENSHIFT_DROP_IN));
  t.equal(strictMode.code, 0, strictMode.stderr);
  t.same(strictMode.ours, []);
});

t.test('systemd 239 and 252 read each drop-in as one "-"-prefixed ExecStartPre= and nothing else', async (t) => {
  const expected: Record<string, readonly string[]> = {
    'systemd/kubelet.service.d/90-node-check.conf': [SHIPPED_BINARY, 'preflight'],
    'packaging/openshift/90-node-check.conf': ['/bin/bash', '/usr/local/bin/node-check', 'preflight', '--no-metrics'],
  };
  const texts: Record<string, string> = {
    'systemd/kubelet.service.d/90-node-check.conf': KUBELET_DROP_IN,
    'packaging/openshift/90-node-check.conf': OPENSHIFT_DROP_IN,
  };
  for (const [file, words] of Object.entries(expected)) {
    for (const version of [239, 252]) {
      const rules = rulesFor(version);
      const parsed = parseUnitFile(texts[file]!, file, rules.unitFile);
      t.same(parsed.diagnostics, [], `${file}, systemd ${version}: no diagnostics`);
      // The shipped drop-in also pulls in node-check-precheck.service (Wants=, never Requires=).
      const service = parsed.assignments.filter((a) => a.section === 'Service');
      t.same(service.map((a) => `${a.section}/${a.key}`), ['Service/ExecStartPre'], `${file}, systemd ${version}: only ExecStartPre= (never ExecStart=)`);
      t.ok(parsed.assignments.every((a) => a.section === 'Service' || (a.section === 'Unit' && a.key === 'Wants' && a.value === 'node-check-precheck.service')), `${file}, systemd ${version}: nothing else but Wants=node-check-precheck.service`);
      const exec = parseExecValue(service[0]!.value, service[0]!.source, parseUnitName('kubelet.service')!, { colonPrefix: rules.execColonPrefix });
      t.equal(exec.commands.length, 1);
      t.equal(exec.commands[0]?.prefixes, '-', `${file}, systemd ${version}: a failure never blocks kubelet`);
      t.same(exec.commands[0]?.words, words, `${file}, systemd ${version}: argv`);
    }
  }
});
