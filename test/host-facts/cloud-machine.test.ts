// The machine's cloud as kubelet's own detection reads it: tryValidateEC2UUID (aws, 1.24-1.26) and
// onGCEVM (gce, 1.24-1.30), pkg/credentialprovider/{aws/aws_credentials.go,gcp/metadata.go}.
import t from 'tap';
import { providerCloudShown } from '../../src/host-facts/cloud-machine.js';

const absent = { code: 'ENOENT' } as const;
const none = { hypervisorUuid: absent, productUuid: absent, boardAssetTag: absent, productName: absent };

t.test('aws: the EC2 UUID (Xen and Nitro) or a Nitro instance-id asset tag', async (t) => {
  t.equal(providerCloudShown('aws', { ...none, hypervisorUuid: { text: 'ec2e1916-9099-7caf-fd21-012345abcdef\n' } })?.kind, 'shown', 'Xen: /sys/hypervisor/uuid');
  t.equal(providerCloudShown('aws', { ...none, productUuid: { text: 'EC2E1916-9099-7CAF-FD21-012345ABCDEF\n' } })?.kind, 'shown', 'DMI product_uuid, upper case');
  t.equal(providerCloudShown('aws', { ...none, boardAssetTag: { text: 'i-0123456789abcdef0\n' } })?.kind, 'shown', 'Nitro asset tag: "i-" and 19 characters after TrimSpace');
  t.equal(providerCloudShown('aws', { ...none, boardAssetTag: { text: 'i-01234567\n' } })?.kind, 'not-shown', 'an old 10-character id is not 19 long');
  t.equal(providerCloudShown('aws', { ...none, productUuid: { text: ' ec2e1916-9099\n' } })?.kind, 'not-shown', 'the UUID prefix is not trimmed first');
  const other = providerCloudShown('aws', { ...none, productUuid: { text: '4c4c4544-0042-3510-8057-b7c04f4e3132\n' } });
  t.equal(other?.kind, 'not-shown');
  t.match(other?.detail, '/sys/devices/virtual/dmi/id/product_uuid is "4c4c4544-0042-3510-8057-b7c04f4e3132"');
});

t.test('gce: product_name "Google" or "Google Compute Engine"', async (t) => {
  t.equal(providerCloudShown('gce', { ...none, productName: { text: 'Google Compute Engine\n' } })?.kind, 'shown');
  t.equal(providerCloudShown('gce', { ...none, productName: { text: 'Google\n' } })?.kind, 'shown');
  t.equal(providerCloudShown('gce', { ...none, productName: { text: 'Google Compute Engine (test)\n' } })?.kind, 'not-shown');
  t.equal(providerCloudShown('gce', none)?.kind, 'not-shown', 'no DMI at all: not GCE');
});

t.test('a file node-check could not read, where kubelet (root) could, is unknown, never "not shown"', async (t) => {
  const denied = providerCloudShown('aws', { ...none, productUuid: { code: 'EACCES' } });
  t.equal(denied?.kind, 'unknown');
  t.match(denied?.detail, 'product_uuid (EACCES)');
  t.equal(providerCloudShown('aws', { ...none, productUuid: { code: 'EACCES' }, boardAssetTag: { text: 'i-0123456789abcdef0' } })?.kind, 'shown', 'another file shows it');
  t.equal(providerCloudShown('aws', {})?.kind, 'unknown', 'files not read at all');
});

t.test('providers without an offline test in their source are never decided from the machine', async (t) => {
  for (const name of ['azure', 'vsphere', 'openstack', 'foo']) t.equal(providerCloudShown(name, none), undefined, name);
});
