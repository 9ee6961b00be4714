import t from 'tap';
import { spawnSync } from 'node:child_process';
// @ts-expect-error -- plain ESM generator script without type declarations
import { diffProbe, runProbe } from '../../../scripts/generate/gate-probe.mjs';

// Kubelet's own registration code (scripts/generate/gate-probe/main.go links cmd/kubelet/app) against
// the table the source reader builds. A cold build took far longer than the 3 minutes a default run
// may spend (see README), so this runs only when asked: NODE_CHECK_GATE_PROBE=1.24 (or 1.33).
const asked = process.env['NODE_CHECK_GATE_PROBE'];
const minor = asked ? Number(/^1\.(\d+)$/.exec(asked)?.[1]) : undefined;
const hasGo = spawnSync('go', ['version']).status === 0;
const skip = !asked
  ? 'SKIPPED: set NODE_CHECK_GATE_PROBE=1.24 or 1.33 to build kubelet\'s gate registration and compare (slow: a cold build of cmd/kubelet/app)'
  : !hasGo
    ? 'SKIPPED: the go command is not installed'
    : minor === undefined || Number.isNaN(minor)
      ? `SKIPPED: NODE_CHECK_GATE_PROBE=${asked} is not 1.N`
      : false;

t.test(`kubelet ${asked ?? '1.N'}'s own DefaultMutableFeatureGate equals the generated table`, { skip, timeout: 3_600_000 }, async (t) => {
  const probed = (runProbe as (m: number) => Map<string, unknown>)(minor!);
  t.ok(probed.size > 100, `${probed.size} gates`);
  t.same((diffProbe as (m: number, p: Map<string, unknown>) => string[])(minor!, probed), []);
});
