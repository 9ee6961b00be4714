import t from 'tap';
import { parseKubeletCommandLine } from '../../../src/kubelet/command-line/parse-command-line.js';
import { nodeLabelsFrom, validateKubeletFlags, withKubeletValidatePrefix } from '../../../src/kubelet/command-line/validate-flags.js';
import type { KubeletFlavor } from '../../../src/kubelet/flavor.js';
import { NEWEST_MODELLED_MINOR, NEXT_MINOR } from '../../../src/kubelet/data/minors.js';

const ALLOWED =
  "\n--node-labels in the 'kubernetes.io' namespace must begin with an allowed prefix (kubelet.kubernetes.io, node.kubernetes.io) or be in the specifically allowed set (beta.kubernetes.io/arch, beta.kubernetes.io/instance-type, beta.kubernetes.io/os, failure-domain.beta.kubernetes.io/region, failure-domain.beta.kubernetes.io/zone, kubernetes.io/arch, kubernetes.io/hostname, kubernetes.io/os, node.kubernetes.io/instance-type, topology.kubernetes.io/region, topology.kubernetes.io/zone)";

function validate(argv: string[], minor: number, flavor: KubeletFlavor) {
  const parsed = parseKubeletCommandLine(argv, minor);
  if (parsed.ok !== true) throw new Error(`parse failed: ${JSON.stringify(parsed)}`);
  return validateKubeletFlags(parsed, minor, flavor);
}

t.test('upstream kubelet refuses node-role.kubernetes.io/worker; OpenShift\'s accepts it', async (t) => {
  const argv = ['--node-labels=node-role.kubernetes.io/worker,node.openshift.io/os_id=rhcos'];
  for (let m = 27; m <= NEWEST_MODELLED_MINOR; m++) {
    t.same(validate(argv, m, 'upstream'), {
      ok: false,
      rule: 'node-labels-unknown',
      error: `unknown 'kubernetes.io' or 'k8s.io' labels specified with --node-labels: [node-role.kubernetes.io/worker]${ALLOWED}`,
    }, `upstream 1.${m}`);
    t.same(validate(argv, m, 'openshift'), { ok: true }, `openshift 1.${m}`);
  }
});

t.test('unknown labels are listed sorted (sets.String.List), from every --node-labels occurrence', async (t) => {
  const r = validate(['--node-labels=node-role.kubernetes.io/worker=', '--node-labels', 'example.k8s.io/b=1,kubernetes.io/role=x,node.kubernetes.io/pool=a,kubelet.kubernetes.io/x=y'], 30, 'upstream');
  t.match(r, { ok: false, error: /^unknown 'kubernetes.io' or 'k8s.io' labels specified with --node-labels: \[example\.k8s\.io\/b kubernetes\.io\/role node-role\.kubernetes\.io\/worker\]\n/ });
  t.equal(r.ok === false ? withKubeletValidatePrefix(r.error).split('\n')[0] : '', "failed to validate kubelet flags: unknown 'kubernetes.io' or 'k8s.io' labels specified with --node-labels: [example.k8s.io/b kubernetes.io/role node-role.kubernetes.io/worker]");
});

t.test('allowed kubernetes.io labels and other domains pass upstream', async (t) => {
  t.same(validate(['--node-labels=kubernetes.io/os=linux,node.kubernetes.io/instance-type=m5.large,topology.kubernetes.io/zone=a,sub.kubelet.kubernetes.io/x=1,example.com/role=worker'], 30, 'upstream'), { ok: true });
});

t.test("OpenShift's fork exempts its node-role labels per release; any other node-role label fails as upstream; other kubernetes.io labels fail", async (t) => {
  t.same(validate(['--node-labels=node-role.kubernetes.io/master,node-role.kubernetes.io/control-plane,node-role.kubernetes.io/etcd'], 31, 'openshift'), { ok: true });
  // MicroShift vendor/k8s.io/kubelet/pkg/apis/well_known_openshift_labels.go: openshiftNodeLabels has no /infra.
  t.match(validate(['--node-labels=node-role.kubernetes.io/infra'], 31, 'openshift'), { ok: false, rule: 'node-labels-unknown', error: /\[node-role\.kubernetes\.io\/infra\]/ });
  // /arbiter is exempt from 4.19 (1.32), refused by 4.18 (1.31).
  t.same(validate(['--node-labels=node-role.kubernetes.io/arbiter'], 32, 'openshift'), { ok: true });
  t.match(validate(['--node-labels=node-role.kubernetes.io/arbiter'], 31, 'openshift'), { ok: false, rule: 'node-labels-unknown' });
  // 4.12 (1.25) lists them in kubeletLabels itself: the refusal's allowed set names them.
  t.match(validate(['--container-runtime-endpoint=unix:///var/run/crio/crio.sock', '--node-labels=node-role.kubernetes.io/worker,kubernetes.io/role=worker'], 25, 'openshift'), { ok: false, error: /specifically allowed set \(beta\.kubernetes\.io\/arch, .*node-role\.kubernetes\.io\/control-plane, node-role\.kubernetes\.io\/etcd, node-role\.kubernetes\.io\/master, node-role\.kubernetes\.io\/worker, node\.kubernetes\.io\/instance-type, topology/ });
  // A fork not read (1.24): the four every release accepts pass, another node-role label cannot be told.
  t.same(validate(['--container-runtime-endpoint=unix:///var/run/crio/crio.sock', '--node-labels=node-role.kubernetes.io/worker'], 24, 'openshift'), { ok: true });
  t.ok('undecidable' in validate(['--container-runtime-endpoint=unix:///var/run/crio/crio.sock', '--node-labels=node-role.kubernetes.io/infra'], 24, 'openshift'));
  t.match(validate(['--node-labels=node-role.kubernetes.io/worker,kubernetes.io/role=worker'], 31, 'openshift'), {
    ok: false,
    error: `unknown 'kubernetes.io' or 'k8s.io' labels specified with --node-labels: [kubernetes.io/role]${ALLOWED}`,
  });
});

t.test('syntactically invalid labels fail with "invalid node labels" (text inexact: Go map order)', async (t) => {
  t.match(validate(['--node-labels=example.com/bad key=1'], 30, 'upstream'), { ok: false, rule: 'node-labels-invalid', inexact: true, error: /^invalid node labels: 'example\.com\/bad key' - / });
  t.match(validate(['--node-labels=example.com/a=' + 'x'.repeat(64)], 30, 'upstream'), { ok: false, rule: 'node-labels-invalid' });
  t.same(validate(['--node-labels=example.com/a='], 30, 'upstream'), { ok: true }, 'an empty value is valid');
});

t.test('ConfigurationMap: comma pairs, keys and values trimmed, a key without "=" has an empty value, later wins', async (t) => {
  t.same([...nodeLabelsFrom([' a = 1 ,b,,', 'a=2'])], [['a', '2'], ['b', '']]);
});

t.test('1.24-1.26: ValidateKubeletFlags also checked the container runtime flags (not read): cannot tell unless the usual shape', async (t) => {
  t.same(validate(['--container-runtime=remote', '--container-runtime-endpoint=unix:///run/containerd/containerd.sock'], 25, 'upstream'), { ok: true });
  t.ok('undecidable' in validate(['--container-runtime=docker', '--container-runtime-endpoint=unix:///run/containerd/containerd.sock'], 25, 'upstream'));
  t.ok('undecidable' in validate([], 26, 'upstream'));
  t.same(validate([], 27, 'upstream'), { ok: true }, '1.27+: the endpoint may come from the config file');
  t.ok('undecidable' in validateKubeletFlags({ ok: true, occurrences: new Map(), deprecated: [] }, NEXT_MINOR, 'upstream'));
});
