/**
 * Realistic kubelet command lines from the node fixtures (OpenShift MCO units, kubeadm units with
 * kubeadm-flags.env), resolved the way systemd starts them, parse and validate cleanly on the kubelet
 * minor each fixture runs, and on every minor the same command line belongs to.
 */
import { readdirSync, readFileSync, existsSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import t from 'tap';
import { RootFs } from '../../../src/host/root-fs.js';
import { locateKubelet } from '../../../src/kubelet/flags.js';
import { parseKubeletCommandLine } from '../../../src/kubelet/command-line/parse-command-line.js';
import { validateKubeletFlags } from '../../../src/kubelet/command-line/validate-flags.js';
import { loadService } from '../../../src/systemd/load-service.js';

const NODES = fileURLToPath(new URL('../../fixtures/nodes/', import.meta.url));

interface Fixture { name: string; minor: number; args: readonly string[] }

function fixtures(prefix: string): Fixture[] {
  const out: Fixture[] = [];
  for (const name of readdirSync(NODES).filter((n) => n.startsWith(prefix)).sort()) {
    const caseFile = `${NODES}${name}/case.json`;
    if (!existsSync(caseFile)) continue;
    const version = (JSON.parse(readFileSync(caseFile, 'utf8')) as { nodeKubeletVersion?: string }).nodeKubeletVersion;
    const minor = Number(/^1\.(\d+)\./.exec(version ?? '')?.[1]);
    const service = loadService(new RootFs(`${NODES}${name}/root`), 'kubelet.service');
    const argv = service.execStart?.argv;
    const located = argv ? locateKubelet(argv) : undefined;
    if (!located || !Number.isInteger(minor)) continue;
    out.push({ name, minor, args: located.args });
  }
  return out;
}

const ocp = fixtures('ocp-');
const kubeadm = fixtures('kubeadm-');

t.test('fixtures were found', async (t) => {
  t.ok(ocp.length >= 10, `${ocp.length} OpenShift units`);
  t.ok(kubeadm.length >= 4, `${kubeadm.length} kubeadm units`);
});

for (const f of ocp) {
  t.test(`${f.name} (kubelet 1.${f.minor}): parses, and OpenShift's kubelet accepts its --node-labels`, async (t) => {
    const parsed = parseKubeletCommandLine(f.args, f.minor);
    t.equal(parsed.ok, true, JSON.stringify(parsed));
    if (parsed.ok !== true) return;
    t.same(validateKubeletFlags(parsed, f.minor, 'openshift'), { ok: true });
    t.match(validateKubeletFlags(parsed, f.minor, 'upstream'), { ok: false, rule: 'node-labels-unknown' }, 'an upstream kubelet would refuse node-role.kubernetes.io/worker');
  });
}

t.test('the OpenShift 4.21 unit (still --pod-infra-container-image) is refused by a 1.35 kubelet', async (t) => {
  const f = ocp.find((x) => x.name.startsWith('ocp-4.21'))!;
  t.match(parseKubeletCommandLine(f.args, 35), { ok: false, error: 'unknown flag: --pod-infra-container-image' });
});

for (const f of kubeadm) {
  t.test(`${f.name}: the kubeadm command line works on every minor 1.28..1.34 and breaks on 1.35`, async (t) => {
    for (let m = 28; m <= 34; m++) {
      const parsed = parseKubeletCommandLine(f.args, m);
      t.equal(parsed.ok, true, `1.${m}: ${JSON.stringify(parsed)}`);
      if (parsed.ok === true) t.same(validateKubeletFlags(parsed, m, 'upstream'), { ok: true }, `1.${m} validation`);
    }
    // kubeadm-flags.env still carries --pod-infra-container-image (kubeadm only strips it on upgrade to 1.35).
    t.match(parseKubeletCommandLine(f.args, 35), { ok: false, kind: 'unknown-flag', error: 'unknown flag: --pod-infra-container-image' });
  });
}
