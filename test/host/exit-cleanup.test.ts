/** Temp files and the lock are removed when a signal ends the process (process.exit runs 'exit' handlers). */
import t from 'tap';
import { spawnSync } from 'node:child_process';
import { existsSync, writeFileSync } from 'node:fs';
import * as path from 'node:path';
import { fileURLToPath } from 'node:url';

const module = fileURLToPath(new URL('../../src/host/exit-cleanup.ts', import.meta.url));

t.test('files registered for removal are gone after process.exit; others stay', async (t) => {
  const dir = t.testdir();
  const [temp, lock, replaced, kept] = ['a.tmp', 'lock', 'lock2', 'kept'].map((n) => path.join(dir, n)) as [string, string, string, string];
  const script = `
    import { writeFileSync } from 'node:fs';
    import { removeAtExit } from ${JSON.stringify(module)};
    writeFileSync(${JSON.stringify(temp)}, 'x'); removeAtExit(${JSON.stringify(temp)});
    writeFileSync(${JSON.stringify(lock)}, 'mine'); removeAtExit(${JSON.stringify(lock)}, 'mine');
    writeFileSync(${JSON.stringify(replaced)}, 'theirs'); removeAtExit(${JSON.stringify(replaced)}, 'mine');
    writeFileSync(${JSON.stringify(kept)}, 'x'); removeAtExit(${JSON.stringify(kept)})();
    process.exit(143);
  `;
  const run = spawnSync(process.execPath, [...process.execArgv, '--input-type=module', '-e', script], { encoding: 'utf8' });
  t.equal(run.status, 143, run.stderr);
  t.notOk(existsSync(temp));
  t.notOk(existsSync(lock));
  t.ok(existsSync(replaced), 'a lock that is no longer ours stays');
  t.ok(existsSync(kept), 'forgotten: stays');
  writeFileSync(path.join(dir, 'unused'), '');
});
