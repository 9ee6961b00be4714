/** `kubelet --version` is bounded even when kubelet hangs or leaves children holding its pipes. */
import t from 'tap';
import { execFileSync } from 'node:child_process';
import { writeFileSync } from 'node:fs';
import * as path from 'node:path';
import { probeKubeletVersion } from '../../src/discover/kubelet-version-probe.js';

function fakeKubelet(dir: string, body: string): string {
  const file = path.join(dir, 'kubelet');
  writeFileSync(file, `#!/bin/sh\n${body}\n`, { mode: 0o755 });
  return file;
}

const alive = (marker: string) => {
  try {
    return execFileSync('pgrep', ['-f', marker], { encoding: 'utf8' }).trim() !== '';
  } catch {
    return false;
  }
};

t.test('a hanging kubelet and its children are killed at the deadline', async (t) => {
  const dir = t.testdir();
  const marker = path.join(dir, 'hang.sh');
  writeFileSync(marker, '#!/bin/sh\nsleep 30\n', { mode: 0o755 });
  const kubelet = fakeKubelet(dir, `${marker} &\n${marker}`);
  const started = Date.now();
  const result = await probeKubeletVersion(kubelet, 300);
  const ms = Date.now() - started;
  t.same(result, { ok: false, problem: `${kubelet} --version did not answer within 300 ms` });
  t.ok(ms < 1000, `${ms} ms (was 5 s and more: execa waited for the grandchild's stdio)`);
  await new Promise((r) => setTimeout(r, 200));
  t.notOk(alive(marker), 'the process group is gone');
});

t.test('a kubelet that answers and leaves a child holding stdout', async (t) => {
  const dir = t.testdir();
  const marker = path.join(dir, 'hang.sh');
  writeFileSync(marker, '#!/bin/sh\nsleep 30\n', { mode: 0o755 });
  const kubelet = fakeKubelet(dir, `echo Kubernetes v1.28.7\n${marker} &\nexit 0`);
  const started = Date.now();
  t.same(await probeKubeletVersion(kubelet, 2000), { ok: true, version: 'v1.28.7' });
  t.ok(Date.now() - started < 1500, `${Date.now() - started} ms`);
  await new Promise((r) => setTimeout(r, 200));
  t.notOk(alive(marker), 'what it left behind is killed with its group');
});

t.test('failures say what happened', async (t) => {
  const dir = t.testdir();
  t.same(await probeKubeletVersion(fakeKubelet(dir, 'echo "unknown flag: --version" >&2; exit 1'), 2000), {
    ok: false,
    problem: `${path.join(dir, 'kubelet')} --version failed: unknown flag: --version`,
  });
  t.same(await probeKubeletVersion(path.join(dir, 'missing'), 2000), { ok: false, problem: `${path.join(dir, 'missing')} --version failed: ENOENT` });
});
