import { readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import t from 'tap';
// @ts-expect-error -- plain ESM generator script without type declarations
import { generate } from '../../../scripts/generate/kubelet-flags.mjs';
// @ts-expect-error -- plain ESM generator script without type declarations
import { SourceError } from '../../../scripts/generate/kubernetes-source.mjs';

// The generator reads kubelet's source from the Go module cache at the locked tags. Where Go or the
// locked modules cannot be had (CI without Go), there is nothing to compare with and the test says so.
t.test('the checked-in kubelet flag table is what scripts/generate/kubelet-flags.mjs produces from the locked source', async (t) => {
  const checkedIn = readFileSync(fileURLToPath(new URL('../../../src/kubelet/data/kubelet-flags.generated.ts', import.meta.url)), 'utf8');
  let generated: string;
  try {
    generated = (generate as () => string)();
  } catch (error) {
    if (error instanceof (SourceError as typeof Error)) {
      t.comment(`skipped: kubelet's locked source cannot be read here: ${(error as Error).message}`);
      t.pass('nothing to compare with');
      return;
    }
    throw error;
  }
  t.equal(checkedIn, generated, 'run: node scripts/generate/kubelet-flags.mjs');
});

t.test('a minor that is not locked stops the generator with a message', async (t) => {
  // @ts-expect-error -- plain ESM generator script without type declarations
  const { readMinor } = await import('../../../scripts/generate/kubelet-flags.mjs');
  t.throws(() => (readMinor as (minor: number) => unknown)(23), { message: /kubelet 1\.23 is not in .*kubernetes-source\.lock\.json/ });
});
