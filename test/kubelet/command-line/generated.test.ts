import { readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import t from 'tap';
// @ts-expect-error -- plain ESM generator script without type declarations
import { generate } from '../../../scripts/generate/kubelet-flags.mjs';

t.test('the checked-in kubelet flag table is what scripts/generate/kubelet-flags.mjs produces', async (t) => {
  const checkedIn = readFileSync(fileURLToPath(new URL('../../../src/kubelet/data/kubelet-flags.generated.ts', import.meta.url)), 'utf8');
  t.equal(checkedIn, (generate as () => string)(), 'run: node scripts/generate/kubelet-flags.mjs');
});
