import t from 'tap';
import { readFileSync } from 'node:fs';
import { mergeConfigDropIns, DROPIN_ENV } from '../../../src/kubelet/config/dropins.js';
import { loadKubeletConfigFile } from '../../../src/kubelet/config/load.js';
import { NEXT_MINOR } from '../../../src/kubelet/data/minors.js';

const DIR = '/etc/kubernetes/kubelet.conf.d';
const HEAD = 'apiVersion: kubelet.config.k8s.io/v1beta1\nkind: KubeletConfiguration\n';
const dropIn = (name: string, text: string) => ({ path: `${DIR}/${name}`, content: Buffer.from(text) });
const BASE = {
  apiVersion: 'kubelet.config.k8s.io/v1beta1',
  kind: 'KubeletConfiguration',
  maxPods: 110,
  featureGates: { A: true },
  authentication: { x509: { clientCAFile: '/ca.crt' }, webhook: { enabled: true } },
  clusterDNS: ['10.96.0.10'],
};

t.test('--config-dir does not exist before 1.28; 1.28-1.29 need the alpha env variable', async (t) => {
  t.match(mergeConfigDropIns(27, BASE, [], {}, DIR), { undecidable: /no --config-dir/ });
  const missing = mergeConfigDropIns(28, BASE, [], {}, DIR);
  t.match(missing, { ok: false, reason: 'env-missing', error: `flag ${DIR} specified but environment variable KUBELET_CONFIG_DROPIN_DIR_ALPHA not set, cannot start kubelet` });
  t.notOk('inexact' in missing, 'server.go v1.28.15 read');
  t.match(mergeConfigDropIns(29, BASE, [], { OTHER: '1' }, DIR), { ok: false, reason: 'env-missing' });
  // Any value, even empty, will do (os.LookupEnv).
  t.match(mergeConfigDropIns(29, BASE, [], { [DROPIN_ENV]: '' }, DIR), { ok: true, config: BASE });
  t.match(mergeConfigDropIns(30, BASE, [], {}, DIR), { ok: true });
  t.match(mergeConfigDropIns(28, BASE, [dropIn('a.conf', `${HEAD}maxPods: 5\n`)], { [DROPIN_ENV]: 'on' }, DIR), { undecidable: /1\.28/ });
  t.match(mergeConfigDropIns(NEXT_MINOR, BASE, [], {}, DIR), { undecidable: /outside/ });
});

t.test('drop-ins apply in order: scalars and lists replace, structs and maps merge, null changes nothing', async (t) => {
  const r = mergeConfigDropIns(
    34,
    BASE,
    [
      dropIn('10-a.conf', `${HEAD}maxPods: 200\nfeatureGates:\n  B: false\nauthentication:\n  webhook:\n    cacheTTL: 2m\nclusterDNS: [10.0.0.10, 10.0.0.11]\n`),
      dropIn('sub/20-b.conf', `${HEAD}maxPods: 300\nclusterDomain: null\nnotAField: 1\n`),
    ],
    {},
    DIR,
  );
  t.same(r, {
    ok: true,
    config: {
      ...BASE,
      maxPods: 300,
      featureGates: { A: true, B: false },
      authentication: { x509: { clientCAFile: '/ca.crt' }, webhook: { enabled: true, cacheTTL: '2m0s' } },
      clusterDNS: ['10.0.0.10', '10.0.0.11'],
    },
    ignoredFields: [`${DIR}/sub/20-b.conf: notAField`],
  });
});

t.test('OpenShift 4.21 drop-in (50-worker-max-pods.conf) merges onto kubelet.conf', async (t) => {
  const node = 'test/fixtures/nodes/ocp-4.21-aws-worker-config-dir/root';
  const base = loadKubeletConfigFile(34, '/etc/kubernetes/kubelet.conf', readFileSync(`${node}/etc/kubernetes/kubelet.conf`));
  if (!('ok' in base) || !base.ok) return t.fail('base');
  const path = '/etc/openshift/kubelet.conf.d/50-worker-max-pods.conf';
  const r = mergeConfigDropIns(34, base.config, [{ path, content: readFileSync(`${node}${path}`) }], {}, '/etc/openshift/kubelet.conf.d');
  t.match(r, { ok: true, config: { maxPods: 500, serializeImagePulls: false } });
});

t.test('a bad drop-in names the file', async (t) => {
  t.match(mergeConfigDropIns(31, BASE, [dropIn('a.conf', 'maxPods: 5\n')], {}, DIR), {
    ok: false,
    reason: 'dropin-invalid',
    path: `${DIR}/a.conf`,
    error: `failed to walk through kubelet dropin directory "${DIR}": failed to load kubelet dropin file, path: ${DIR}/a.conf, error: Object 'Kind' is missing in 'maxPods: 5\n'`,
  });
  t.match(mergeConfigDropIns(31, BASE, [dropIn('a.conf', `${HEAD}maxPods: [\n`)], {}, DIR), { ok: false, reason: 'dropin-invalid', error: /error: yaml: / });
  t.match(mergeConfigDropIns(31, BASE, [dropIn('a.conf', '')], {}, DIR), { ok: false, reason: 'dropin-invalid', error: /was empty$/ });
  t.match(mergeConfigDropIns(31, BASE, [{ path: `${DIR}/a.conf`, content: { errno: 'EACCES' } }], {}, DIR), { ok: false, reason: 'dropin-invalid', inexact: true });
  t.match(mergeConfigDropIns(34, BASE, [dropIn('a.conf', `${HEAD}maxPods: "5"\n`)], {}, DIR), {
    ok: false,
    reason: 'merge',
    error: 'failed to unmarshal merged JSON into kubelet configuration: json: cannot unmarshal string into Go struct field KubeletConfiguration.maxPods of type int32',
  });
  t.match(mergeConfigDropIns(29, BASE, [dropIn('a.conf', `${HEAD}maxPods: "5"\n`)], { [DROPIN_ENV]: '1' }, DIR), {
    ok: false,
    reason: 'merge',
    inexact: true,
    error: 'failed to unmarshal merged JSON into kubelet configuration: json: cannot unmarshal string into Go struct field KubeletConfiguration.MaxPods of type int32',
  });
});

t.test('a drop-in with another apiVersion/kind', async (t) => {
  const other = dropIn('a.conf', 'apiVersion: kubelet.config.k8s.io/v1\nkind: KubeletConfiguration\nmaxPods: 5\n');
  // 1.29 decodes drop-ins into unstructured: only kind is required.
  t.match(mergeConfigDropIns(29, BASE, [other], { [DROPIN_ENV]: '1' }, DIR), { ok: true, config: { maxPods: 5 } });
  t.match(mergeConfigDropIns(31, BASE, [other], {}, DIR), { undecidable: /not pinned/ });
  // The versioned merge (>=1.33 OpenShift tree, 1.37-dev) checks the GVK.
  t.same(mergeConfigDropIns(34, BASE, [other], {}, DIR), {
    ok: false,
    reason: 'dropin-invalid',
    path: `${DIR}/a.conf`,
    error: `failed to walk through kubelet dropin directory "${DIR}": failed to load kubelet dropin file, path: ${DIR}/a.conf, unknown apiVersion/kind: kubelet.config.k8s.io/v1, Kind=KubeletConfiguration`,
  });
  t.match(mergeConfigDropIns(36, BASE, [dropIn('b.conf', 'kind: KubeletConfiguration\n')], {}, DIR), {
    ok: false,
    inexact: true,
    error: /unknown apiVersion\/kind: \/, Kind=KubeletConfiguration$/,
  });
});

t.test('null in a drop-in: no effect with the internal merge, resets the field with the versioned one', async (t) => {
  const nul = dropIn('a.conf', `${HEAD}maxPods: null\n`);
  t.match(mergeConfigDropIns(29, BASE, [nul], { [DROPIN_ENV]: '1' }, DIR), { ok: true, config: { maxPods: 110 } });
  t.match(mergeConfigDropIns(31, BASE, [nul], {}, DIR), { undecidable: /null/ });
  const r = mergeConfigDropIns(35, BASE, [nul], {}, DIR);
  t.ok('ok' in r && r.ok && !('maxPods' in r.config), 'maxPods removed (kubelet re-defaults it)');
});
