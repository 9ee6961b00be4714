import t from 'tap';
import { checkCloudProvider, inTreeCloudProviders, isUndecidable } from '../../../src/kubelet/node-setup/index.js';
import { MODELLED_MINORS, NEXT_MINOR } from '../../../src/kubelet/data/minors.js';

const gateOff = () => false;
const gateOn = () => true;
const DISABLED = (n: string) =>
  `failed to run Kubelet: failed to create kubelet: cloud provider "${n}" was specified, but built-in cloud providers are disabled. Please set --cloud-provider=external and migrate to an external cloud provider`;

t.test('OpenShift: --cloud-provider= (empty) and external are accepted everywhere', async (t) => {
  for (const m of MODELLED_MINORS) {
    t.equal(checkCloudProvider(m, { cloudProvider: '' }, gateOn), undefined, `1.${m} empty`);
    t.equal(checkCloudProvider(m, { cloudProvider: 'external' }, gateOn), undefined, `1.${m} external`);
    t.equal(checkCloudProvider(m, { cloudProvider: '', cloudConfigFile: '/missing', cloudConfigOpens: false }, gateOn), undefined);
  }
  t.equal(checkCloudProvider(NEXT_MINOR, { cloudProvider: 'aws' }, gateOn), undefined);
});

t.test("OpenShift: the fork links upstream's in-tree providers from 1.25 (read); 1.24 is not decided", async (t) => {
  for (const [minor, name] of [[25, 'openstack'], [26, 'aws'], [27, 'azure'], [30, 'gce']] as const) {
    t.same(checkCloudProvider(minor, { cloudProvider: name }, gateOff, 'openshift'), checkCloudProvider(minor, { cloudProvider: name }, gateOff, 'upstream'), `1.${minor} ${name}: as upstream`);
  }
  t.ok(isUndecidable(checkCloudProvider(24, { cloudProvider: 'aws' }, gateOff, 'openshift')));
  t.equal(checkCloudProvider(27, { cloudProvider: 'external' }, gateOff, 'openshift'), undefined);
  t.equal((checkCloudProvider(31, { cloudProvider: 'aws' }, gateOff, 'openshift') as { findingId: string }).findingId, 'cloud-provider-disabled');
});

t.test('in-tree providers per minor (cloud-provider deprecatedCloudProviders)', async (t) => {
  t.same(inTreeCloudProviders(25), ['aws', 'azure', 'gce', 'openstack', 'vsphere']);
  t.same(inTreeCloudProviders(26), ['aws', 'azure', 'gce', 'vsphere']);
  t.same(inTreeCloudProviders(27), ['azure', 'gce', 'vsphere']);
  t.same(inTreeCloudProviders(30), ['gce']);
  t.same(inTreeCloudProviders(31), []);
  t.equal(inTreeCloudProviders(23), undefined);
});

t.test('a name the kubelet does not have: unknown cloud provider (1.24-1.30)', async (t) => {
  const r = checkCloudProvider(27, { cloudProvider: 'aws' }, gateOff);
  t.same(r, {
    findingId: 'cloud-provider-unknown',
    kubeletError: 'failed to run Kubelet: unknown cloud provider "aws"',
    message: 'kubelet 1.27 has no built-in cloud provider named "aws" (it has azure, gce, vsphere).',
    remediation: r && !isUndecidable(r) ? r.remediation : '',
  });
  t.equal((checkCloudProvider(26, { cloudProvider: 'openstack' }, gateOff) as { findingId: string }).findingId, 'cloud-provider-unknown');
  t.equal((checkCloudProvider(30, { cloudProvider: 'azure' }, gateOn) as { kubeletError: string }).kubeletError, 'failed to run Kubelet: unknown cloud provider "azure"');
});

t.test('a compiled-in provider: undecidable with the gate off, disabled (inexact) with it on', async (t) => {
  t.ok(isUndecidable(checkCloudProvider(26, { cloudProvider: 'aws' }, gateOff)));
  t.ok(isUndecidable(checkCloudProvider(29, { cloudProvider: 'gce' }, gateOff)), '1.29 with DisableCloudProviders=false');
  const r = checkCloudProvider(29, { cloudProvider: 'gce' }, (g) => g === 'DisableCloudProviders') as { findingId: string; kubeletError: string; inexact?: boolean };
  t.equal(r.findingId, 'cloud-provider-disabled');
  t.equal(r.kubeletError, DISABLED('gce'));
  t.equal(r.inexact, true, 'InitCloudProvider runs first and may fail differently');
});

t.test('a compiled-in provider on a machine that shows its cloud initialises; the host fact never overrides the gate or a missing provider', async (t) => {
  const shown = { kind: 'shown', detail: '/sys/devices/virtual/dmi/id/board_asset_tag is "i-0123456789abcdef0"' } as const;
  t.equal(checkCloudProvider(24, { cloudProvider: 'aws', providerCloud: shown }, gateOff), undefined);
  t.equal(checkCloudProvider(26, { cloudProvider: 'aws', providerCloud: 'not-checked' }, gateOff), undefined, 'another root: not checked, decided');
  const notShown = checkCloudProvider(26, { cloudProvider: 'aws', providerCloud: { kind: 'not-shown', detail: '/sys/hypervisor/uuid does not exist' } }, gateOff);
  t.match(isUndecidable(notShown) && notShown.undecidable, 'the machine does not show that cloud (/sys/hypervisor/uuid does not exist)');
  const unknown = checkCloudProvider(26, { cloudProvider: 'aws', providerCloud: { kind: 'unknown', detail: 'node-check could not read /sys/devices/virtual/dmi/id/product_uuid (EACCES)' } }, gateOff);
  t.match(isUndecidable(unknown) && unknown.undecidable, 'could not read');
  t.equal((checkCloudProvider(27, { cloudProvider: 'aws', providerCloud: shown }, gateOff) as { findingId: string }).findingId, 'cloud-provider-unknown', 'not linked in 1.27');
  t.equal((checkCloudProvider(29, { cloudProvider: 'gce', providerCloud: shown }, (g) => g === 'DisableCloudProviders') as { findingId: string }).findingId, 'cloud-provider-disabled');
  t.ok(isUndecidable(checkCloudProvider(26, { cloudProvider: 'aws', cloudConfigFile: '/etc/kubernetes/cloud.conf', providerCloud: shown }, gateOff)), '--cloud-config is opened first');
});

t.test('1.31+: any built-in name is disabled (no gate)', async (t) => {
  const r31 = checkCloudProvider(31, { cloudProvider: 'aws' }, gateOff) as { kubeletError: string; inexact?: boolean };
  t.equal(r31.kubeletError, DISABLED('aws'));
  t.equal(r31.inexact, true, '1.31 run() not pinned');
  const r34 = checkCloudProvider(34, { cloudProvider: 'gce' }, gateOff) as { kubeletError: string; inexact?: boolean };
  t.equal(r34.kubeletError, DISABLED('gce'));
  t.equal(r34.inexact, undefined);
});

t.test('--cloud-config that cannot be opened: klog.Fatalf, exit 255', async (t) => {
  const r = checkCloudProvider(28, { cloudProvider: 'aws', cloudConfigFile: '/etc/kubernetes/cloud.conf', cloudConfigOpens: false }, gateOff) as {
    findingId: string;
    exitStatus?: number;
  };
  t.equal(r.findingId, 'cloud-config-unopenable');
  t.equal(r.exitStatus, 255);
  t.ok(isUndecidable(checkCloudProvider(28, { cloudProvider: 'aws', cloudConfigFile: '/etc/kubernetes/cloud.conf' }, gateOff)));
  t.equal(
    (checkCloudProvider(28, { cloudProvider: 'aws', cloudConfigFile: '/etc/kubernetes/cloud.conf', cloudConfigOpens: true }, gateOff) as { kubeletError: string }).kubeletError,
    'failed to run Kubelet: unknown cloud provider "aws"',
  );
});
