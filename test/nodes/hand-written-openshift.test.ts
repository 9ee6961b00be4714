/**
 * The hand-written OpenShift roots under test/fixtures/nodes/ocp-* stay, each for a reason the
 * generated roots (test/fixtures/generated/openshift/, rendered from the MCO templates) cannot
 * carry: they are swept over every kubelet minor 1.24-1.36 with kubelet's answer per minor (a
 * release's configuration meeting another kubelet, the skew node-check exists for), or they hold a
 * state the templates never render (a plugin binary an RPM did not install, a drop-in an admin
 * wrote). What a generated root does cover is held here: at the release's own kubelet minor, the
 * hand-written root answers as its generated counterpart does, so neither drifts from the other.
 */
import * as path from 'node:path';
import { fileURLToPath } from 'node:url';
import t from 'tap';
import { checkNode } from '../../src/check-node.js';

const here = path.dirname(fileURLToPath(import.meta.url));
const handWritten = (name: string) => path.resolve(here, '../fixtures/nodes', name, 'root');
const generated = (name: string) => path.resolve(here, '../fixtures/generated/openshift', name, 'root');

interface Pair {
  readonly hand: string;
  readonly generated: string;
  readonly minor: string;
  /** Why the hand-written root stays beside the generated one. */
  readonly stays: string;
  /** The hand-written root's own answer there, when it differs from the generated counterpart's "will start". */
  readonly handAnswer?: { readonly kubeletWillStart: false; readonly findingId: string };
}

const SWEPT = 'swept over every minor 1.24-1.36 with kubelet\'s answer per minor';
const PAIRS: readonly Pair[] = [
  { hand: 'ocp-4.14-aws-worker', generated: 'ocp-4.14-aws-worker', minor: '1.27', stays: SWEPT },
  { hand: 'ocp-4.15-aws-worker', generated: 'ocp-4.15-aws-worker', minor: '1.28', stays: SWEPT },
  { hand: 'ocp-4.15-azure-worker-no-credential-flags', generated: 'ocp-4.15-azure-worker', minor: '1.28', stays: `${SWEPT}; the base of the upgrade tests (test/overlay/helpers.ts)` },
  { hand: 'ocp-4.16-aws-rhel8-worker', generated: 'ocp-4.16-aws-rhel8-worker', minor: '1.29', stays: `${SWEPT}; a 4.16 configuration on a worker still on the 4.15 RPMs (kubelet 1.28.7)` },
  { hand: 'ocp-4.16-aws-worker', generated: 'ocp-4.16-aws-worker', minor: '1.29', stays: `${SWEPT}; the packaging and upgrade tests' node` },
  { hand: 'ocp-4.16-gcp-worker', generated: 'ocp-4.16-gcp-worker', minor: '1.29', stays: SWEPT },
  {
    hand: 'ocp-4.16-azure-rhel8-worker-acr-missing',
    generated: 'ocp-4.16-azure-rhel8-worker-acr-credential-provider-missing',
    minor: '1.29',
    stays: `${SWEPT}; the RPM was not installed, which no template renders (the generated counterpart leaves the binary out by name)`,
    handAnswer: { kubeletWillStart: false, findingId: 'plugin-binary-missing' },
  },
  { hand: 'ocp-4.21-aws-worker-config-dir', generated: 'ocp-4.21-aws-worker', minor: '1.34', stays: `${SWEPT}; a --config-dir drop-in an admin wrote` },
  { hand: 'ocp-4.21-aws-worker-crio-provider-gate-off', generated: 'ocp-4.21-aws-worker', minor: '1.34', stays: 'a drop-in that turns a gate off, which no template renders', handAnswer: { kubeletWillStart: false, findingId: 'config-invalid' } },
  { hand: 'ocp-4.22-aws-worker-crio-provider-missing', generated: 'ocp-4.22-aws-worker', minor: '1.35', stays: 'a crio-credential-provider binary the node lacks', handAnswer: { kubeletWillStart: false, findingId: 'plugin-binary-missing' } },
  { hand: 'ocp-4.22-baremetal-worker-crio-credential-provider', generated: 'ocp-4.22-baremetal-worker', minor: '1.35', stays: `${SWEPT}; flags that arrive only through an unbraced variable of a drop-in` },
];

for (const pair of PAIRS) {
  t.test(`${pair.hand} stays (${pair.stays}); at ${pair.minor} it answers as ${pair.generated} does`, async (t) => {
    const answer = async (root: string) => {
      const report = await checkNode({ root, unit: 'kubelet.service', kubeletVersion: `${pair.minor}.0` });
      return { kubeletWillStart: report.kubeletWillStart, findingId: report.findings.find((f) => f.severity === 'error')?.id };
    };
    const gen = await answer(generated(pair.generated));
    const hand = await answer(handWritten(pair.hand));
    if (pair.handAnswer) {
      t.same(hand, pair.handAnswer, 'the hand-written root is refused for the part it adds');
      if (pair.generated.endsWith('-missing')) t.same(gen, pair.handAnswer, 'so is the generated root with the same part left out');
      else t.same(gen, { kubeletWillStart: true, findingId: undefined }, 'the generated root without that part starts');
    } else {
      t.same(gen, { kubeletWillStart: true, findingId: undefined }, 'the generated root starts');
      t.same(hand, gen, 'so does the hand-written one');
    }
  });
}
