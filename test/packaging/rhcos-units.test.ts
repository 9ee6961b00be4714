// The RHCOS units under a real systemd 252 (a booted Debian node, test/harness/nspawn.ts): at boot,
// node-check-image-pull.service runs before kubelet, a pull that never finishes is cut by its
// TimeoutStartSec= and kubelet starts anyway; the drop-in's preflight runs on every kubelet start
// and its "cannot tell" (2) never blocks kubelet; a kubelet restart does not pull again.
//
// The units are the shipped files; /usr/local/bin/node-check is a stand-in (no podman in the node):
// `pull-image` hangs as a registry that never answers would, `preflight` exits 2 as with no image.
// TimeoutStartSec= is lowered to 3 s by a test drop-in, so the test does not wait the shipped 80 s.
import t from 'tap';
import { readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { bootNode, type BootedNode } from '../harness/nspawn.js';
import { requireNodes } from '../harness/tools.js';

const repoFile = (path: string) => readFileSync(fileURLToPath(new URL(`../../${path}`, import.meta.url)), 'utf8');
const PULL = 'node-check-image-pull.service';
const CALLS = '/run/node-check-calls';

// Shaped like OpenShift's worker kubelet (Restart=always, RestartSec=10), with a stand-in binary.
const KUBELET_UNIT = `[Unit]
Description=Kubernetes Kubelet (stand-in)

[Service]
ExecStart=/bin/sleep infinity
Restart=always
RestartSec=10
`;
const STAND_IN_WRAPPER = `#!/bin/bash
echo "$1" >> ${CALLS}
case $1 in
  pull-image) exec sleep 1000 ;;
  preflight) exit 2 ;;
esac
exit 64
`;

async function must(node: BootedNode, argv: readonly string[]): Promise<string> {
  const result = await node.exec(argv);
  if (result.exitCode !== 0) throw new Error(`${argv.join(' ')} failed (${result.exitCode}): ${result.stderr}`);
  return result.stdout;
}

async function show(node: BootedNode, unit: string, properties: readonly string[]): Promise<Record<string, string>> {
  const out = await must(node, ['systemctl', 'show', unit, ...properties.flatMap((p) => ['-p', p])]);
  return Object.fromEntries(out.trim().split('\n').map((line) => [line.slice(0, line.indexOf('=')), line.slice(line.indexOf('=') + 1)]));
}

t.test('the pull unit and the drop-in under systemd 252', async (t) => {
  if (!requireNodes(t)) return;
  const node = await bootNode({
    t,
    files: {
      '/etc/systemd/system/kubelet.service': KUBELET_UNIT,
      '/etc/systemd/system/kubelet.service.d/90-node-check.conf': repoFile('packaging/openshift/90-node-check.conf'),
      [`/etc/systemd/system/${PULL}`]: repoFile(`packaging/openshift/${PULL}`),
      [`/etc/systemd/system/${PULL}.d/test-timeout.conf`]: '[Service]\nTimeoutStartSec=3\n',
      // What `enabled: true` (WantedBy=multi-user.target) and kubelet's own enablement do at boot.
      '/etc/systemd/system/multi-user.target.d/test-wants.conf': `[Unit]\nWants=${PULL} kubelet.service\n`,
      '/usr/local/bin/node-check': { content: STAND_IN_WRAPPER, mode: 0o755 },
    },
  });

  const kubelet = await show(node, 'kubelet.service', ['ActiveState', 'ExecMainStartTimestampMonotonic', 'NRestarts']);
  const pull = await show(node, PULL, ['ActiveState', 'Result', 'InactiveExitTimestampMonotonic', 'InactiveEnterTimestampMonotonic']);
  t.equal(kubelet.ActiveState, 'active', 'kubelet runs');
  t.same([pull.ActiveState, pull.Result], ['failed', 'timeout'], 'the pull that never finished was cut by TimeoutStartSec=');
  const pullSeconds = (Number(pull.InactiveEnterTimestampMonotonic) - Number(pull.InactiveExitTimestampMonotonic)) / 1e6;
  t.ok(pullSeconds >= 2.9 && pullSeconds < 6, `after ${pullSeconds.toFixed(1)} s (TimeoutStartSec=3)`);
  t.ok(Number(kubelet.ExecMainStartTimestampMonotonic) >= Number(pull.InactiveEnterTimestampMonotonic), 'kubelet started after the pull unit was done (Before=kubelet.service)');
  t.same((await must(node, ['cat', CALLS])).trim().split('\n'), ['pull-image', 'preflight'], 'the pull, then the preflight');

  const restarting = Date.now();
  await must(node, ['systemctl', 'restart', 'kubelet.service']);
  const restartMs = Date.now() - restarting;
  t.ok(restartMs < 3000, `a kubelet restart does not wait for a pull (${restartMs} ms)`);
  t.equal((await show(node, 'kubelet.service', ['ActiveState'])).ActiveState, 'active', 'kubelet runs again');
  t.same((await must(node, ['cat', CALLS])).trim().split('\n'), ['pull-image', 'preflight', 'preflight'], 'a preflight, no pull');
});
