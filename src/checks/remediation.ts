/**
 * The exact fix for a failing plugin, in the node's own terms: on OpenShift the package and the
 * upgrade step that installs it (openshift/openshift-ansible playbooks/upgrade.yml and
 * roles/openshift_node/defaults/main.yml, as test/fixtures/nodes/ocp-4.16-aws-rhel8-worker cites
 * them), elsewhere the file to put in place.
 */
import type { NodeModel } from '../model/node.js';

/** RPMs that ship OpenShift's credential provider plugins (openshift/os packages-openshift.yaml @release-4.16 for ecr/acr/gcr). */
const OPENSHIFT_PLUGIN_PACKAGES: Record<string, string> = {
  'acr-credential-provider': 'ose-azure-acr-image-credential-provider',
  'ecr-credential-provider': 'ose-aws-ecr-image-credential-provider',
  'gcr-credential-provider': 'ose-gcp-gcr-image-credential-provider',
  'crio-credential-provider': 'ose-crio-credential-provider',
};

export type NodeFlavour = 'openshift-rhel' | 'openshift-rhcos' | 'other';

export function nodeFlavour(model: NodeModel): NodeFlavour {
  const { ID: id, VARIANT_ID: variant } = model.osRelease;
  if (id === 'rhcos' || (id === 'rhel' && variant === 'coreos')) return 'openshift-rhcos';
  // OpenShift runs kubelet through kubenswrapper (MCO templates/worker/01-worker-kubelet).
  const openshift = model.kubelet?.wrapper.some((word) => word.endsWith('/kubenswrapper')) ?? false;
  return openshift && id === 'rhel' ? 'openshift-rhel' : 'other';
}

export function installPluginRemediation(model: NodeModel, provider: string, binary: string, configPath: string): string {
  const pkg = OPENSHIFT_PLUGIN_PACKAGES[provider];
  switch (nodeFlavour(model)) {
    case 'openshift-rhel':
      return pkg
        ? `Install ${pkg} on this RHEL worker: run the OpenShift upgrade playbook for it (ansible-playbook -i <inventory> playbooks/upgrade.yml), or \`dnf install ${pkg}\` from the rhocp repository for this OpenShift version; then \`systemctl restart kubelet\`.`
        : `Install the package that provides ${binary} on this RHEL worker (the OpenShift upgrade playbook installs the credential provider RPMs), then \`systemctl restart kubelet\`.`;
    case 'openshift-rhcos':
      return `${binary} ships in the RHCOS image${pkg ? ` (${pkg})` : ''}: the node runs an OS image older than its machine config; check \`rpm-ostree status\` and let the machine-config daemon finish the OS update.`;
    default:
      return `Install the ${provider} plugin as ${binary} (an executable owned by root, mode 0755), or remove provider "${provider}" from ${configPath}; then restart kubelet.`;
  }
}
