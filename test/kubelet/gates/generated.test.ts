import t from 'tap';
import { execFileSync } from 'node:child_process';

t.test('feature-gates.generated.ts matches the generator output', async (t) => {
  const out = execFileSync(process.execPath, ['scripts/generate/feature-gates.mjs', '--check'], { encoding: 'utf8' });
  t.equal(out, '');
});
