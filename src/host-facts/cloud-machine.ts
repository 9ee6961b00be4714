/**
 * Whether the machine shows, offline, that it runs on the cloud of an in-tree cloud provider. An
 * in-tree provider initialises against its cloud's metadata service when kubelet starts
 * (cloudprovider.InitCloudProvider in run()); the files below are the ones kubelet's own source at
 * the tag reads to tell that it is on that cloud, read the same way:
 *  - aws (linked 1.24-1.26): pkg/credentialprovider/aws/aws_credentials.go tryValidateEC2UUID
 *    (identical at v1.24.17, v1.25.16, v1.26.15): /sys/hypervisor/uuid or
 *    /sys/devices/virtual/dmi/id/product_uuid starting with "EC2" or "ec2", or
 *    /sys/devices/virtual/dmi/id/board_asset_tag (TrimSpace) "i-…" of 19 characters (Nitro).
 *    The legacy provider k8s.io/legacy-cloud-providers aws/aws.go newAWSCloud then asks the EC2
 *    metadata service for placement/availability-zone and describes its own instance.
 *  - gce (linked 1.24-1.30): pkg/credentialprovider/gcp/metadata.go onGCEVM (v1.24.17 … v1.30.14):
 *    /sys/class/dmi/id/product_name (TrimSpace) "Google" or "Google Compute Engine". gce/gce.go
 *    newGCECloud then reads project and zone from the GCE metadata server.
 * azure, vsphere and openstack carry no such offline test in their source; their initialisation
 * depends on --cloud-config and the cloud, so they are never decided from the machine.
 */
import type { CloudMachineFact, CloudMachineFile } from './types.js';

export const CLOUD_MACHINE_FILES: Readonly<Record<CloudMachineFile, string>> = {
  hypervisorUuid: '/sys/hypervisor/uuid',
  productUuid: '/sys/devices/virtual/dmi/id/product_uuid',
  boardAssetTag: '/sys/devices/virtual/dmi/id/board_asset_tag',
  productName: '/sys/class/dmi/id/product_name',
};

/** What the machine shows about one provider's cloud; `detail` names the file and its text or error. */
export type ProviderCloud =
  | { readonly kind: 'shown'; readonly detail: string }
  | { readonly kind: 'not-shown'; readonly detail: string }
  /** A file kubelet would read (as root) that node-check could not read. */
  | { readonly kind: 'unknown'; readonly detail: string };

/** The providers with an offline test in kubelet's source, and the files each reads in order. */
const PROVIDER_FILES: Readonly<Record<string, readonly CloudMachineFile[]>> = {
  aws: ['hypervisorUuid', 'productUuid', 'boardAssetTag'],
  gce: ['productName'],
};

/** Go strings.TrimSpace for the ASCII white space DMI files carry. */
function trimSpace(text: string): string {
  return text.replace(/^[\t\n\v\f\r \u0085\u00a0]+|[\t\n\v\f\r \u0085\u00a0]+$/g, '');
}

function matches(file: CloudMachineFile, text: string): boolean {
  switch (file) {
    case 'hypervisorUuid':
    case 'productUuid':
      return text.startsWith('EC2') || text.startsWith('ec2');
    case 'boardAssetTag': {
      const tag = trimSpace(text);
      return tag.startsWith('i-') && Buffer.byteLength(tag) === 19;
    }
    case 'productName': {
      const name = trimSpace(text);
      return name === 'Google' || name === 'Google Compute Engine';
    }
  }
}

/** Undefined for a provider whose source has no offline test (azure, vsphere, openstack, unknown names). */
export function providerCloudShown(provider: string, fact: CloudMachineFact): ProviderCloud | undefined {
  const files = PROVIDER_FILES[provider];
  if (!files) return undefined;
  const unreadable: string[] = [];
  const seen: string[] = [];
  for (const file of files) {
    const read = fact[file];
    const path = CLOUD_MACHINE_FILES[file];
    if (!read) {
      unreadable.push(`${path} (not read)`);
      continue;
    }
    if ('code' in read) {
      // kubelet skips a file it cannot stat or read; ENOENT is what kubelet sees too.
      if (read.code === 'ENOENT') seen.push(`${path} does not exist`);
      else unreadable.push(`${path} (${read.code})`);
      continue;
    }
    if (matches(file, read.text)) return { kind: 'shown', detail: `${path} is ${JSON.stringify(trimSpace(read.text))}` };
    seen.push(`${path} is ${JSON.stringify(trimSpace(read.text))}`);
  }
  if (unreadable.length > 0) return { kind: 'unknown', detail: `node-check could not read ${unreadable.join(', ')}` };
  return { kind: 'not-shown', detail: seen.join(', ') };
}
