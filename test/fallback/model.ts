// NodeModels built in memory for the fallback tests: the ExecStart= line goes through the systemd
// parser in src/systemd (as loadService would), kubelet's flags through src/kubelet/flags.
import type { FileTable, NodeModel, PathFact } from '../../src/model/node.js';
import type { UnitDiagnostic } from '../../src/model/service.js';
import { locateKubelet, parseKubeletFlags } from '../../src/kubelet/flags.js';
import { nodePathKey } from '../../src/credentials/registration.js';
import { parseExecValue } from '../../src/systemd/exec-command.js';
import { expandArgv } from '../../src/systemd/env-expand.js';
import { parseUnitName } from '../../src/systemd/unit-name.js';
import { certStoreFiles } from '../../src/kubelet/node-setup/kubeconfig.js';
import { servingCertFiles } from '../../src/kubelet/node-setup/serving-cert.js';
import { file as fileFact } from '../helpers/facts.js';
// @ts-expect-error: a plain JS module of the fixture generators, without types
import { kubeconfigFiles as kubeconfigFilesUntyped } from '../../scripts/fixtures/kubeconfig.mjs';

const kubeconfigFiles = kubeconfigFilesUntyped as (texts: string[], shape: string) => Record<string, string>;

export interface ModelSpec {
  readonly unit?: string;
  /** The ExecStart= value (continuations already joined). */
  readonly execStart: string;
  readonly source?: { file: string; line: number };
  readonly env?: Record<string, string>;
  readonly files?: Record<string, PathFact>;
  readonly kubeletVersion?: string;
  readonly dropInPaths?: readonly string[];
  readonly diagnostics?: readonly UnitDiagnostic[];
  readonly systemdVersion?: number;
}

export function modelOf(spec: ModelSpec): NodeModel {
  const unitName = spec.unit ?? 'kubelet.service';
  const source = spec.source ?? { file: `/etc/systemd/system/${unitName}`, line: 20 };
  const parsed = parseExecValue(spec.execStart, source, parseUnitName(unitName)!);
  const command = parsed.commands[parsed.commands.length - 1];
  if (!command || parsed.kind === 'refused') throw new Error(`test ExecStart does not parse: ${spec.execStart}`);
  const env = new Map(Object.entries(spec.env ?? {}));
  const argv = command.noEnvExpand ? command.words : expandArgv(command.words, env).argv;
  const located = locateKubelet(argv);
  const files: Record<string, PathFact> = {};
  // What discovery records on a node (src/discover/discover-node.ts): the kubeconfig the flags name,
  // as a bootstrapped node holds it (the fixtures' fill-in), and the cert directory's other files absent.
  const certDir = '/var/lib/kubelet/pki';
  for (const path of [...servingCertFiles(certDir), ...Object.values(certStoreFiles(certDir, 'kubelet-server')), ...Object.values(certStoreFiles(certDir))]) files[nodePathKey(path)] = { exists: false, code: 'ENOENT' };
  const shape = argv.some((a) => a.startsWith('--kubeconfig=/etc/kubernetes/kubelet.conf')) ? 'kubeadm' : argv.some((a) => a.startsWith('--bootstrap-kubeconfig=')) ? 'openshift' : 'bootstrapped';
  for (const [path, text] of Object.entries(kubeconfigFiles([argv.join(' ')], shape))) files[nodePathKey(path)] = fileFact(text, 0o600);
  // The /etc/passwd every node has, without a "kubelet" user (src/kubelet/node-setup/user-namespaces.ts).
  files[nodePathKey('/etc/passwd')] = fileFact('root:x:0:0:root:/root:/bin/bash\n', 0o644);
  for (const [path, fact] of Object.entries(spec.files ?? {})) files[nodePathKey(path)] = fact;
  return {
    root: '/',
    service: {
      unitName,
      fragmentPath: `/etc/systemd/system/${unitName}`,
      dropInPaths: spec.dropInPaths ?? [],
      load: { state: 'loaded' },
      execStart: { raw: command.raw, source, prefixes: command.prefixes, path: command.path, words: command.words, argv },
      environment: spec.env ?? {},
      environmentFiles: [],
      diagnostics: spec.diagnostics ?? [],
      ...(spec.systemdVersion !== undefined ? { systemdVersion: spec.systemdVersion } : {}),
    },
    ...(located ? { kubelet: { ...located, flags: parseKubeletFlags(located.args) } } : {}),
    kubeletConfig: {},
    kubeletEnvironment: spec.env ?? {},
    ...(spec.kubeletVersion ? { kubeletVersion: { text: spec.kubeletVersion, source: 'flag' as const } } : {}),
    files: files as FileTable,
    osRelease: {},
  };
}

import { PLUGIN_DIR } from '../helpers/facts.js';
export { ACR_CONFIG, PLUGIN_DIR, dir, executable, file } from '../helpers/facts.js';

/** The OpenShift 4.16 worker ExecStart= (MCO _base template, rendered for Azure), continuations joined. */
export const OCP_416_AZURE_EXEC = [
  '/usr/local/bin/kubenswrapper',
  '/usr/bin/kubelet',
  '--config=/etc/kubernetes/kubelet.conf',
  '--bootstrap-kubeconfig=/etc/kubernetes/kubeconfig',
  '--kubeconfig=/var/lib/kubelet/kubeconfig',
  '--container-runtime-endpoint=/var/run/crio/crio.sock',
  '--runtime-cgroups=/system.slice/crio.service',
  '--node-labels=node-role.kubernetes.io/worker,node.openshift.io/os_id=${ID}',
  '--node-ip=${KUBELET_NODE_IP}',
  '--minimum-container-ttl-duration=6m0s',
  '--volume-plugin-dir=/etc/kubernetes/kubelet-plugins/volume/exec',
  '--cloud-provider=external',
  `--image-credential-provider-bin-dir=${PLUGIN_DIR} --image-credential-provider-config=/etc/kubernetes/credential-providers/acr-credential-provider.yaml`,
  '--hostname-override=${KUBELET_NODE_NAME}',
  '--provider-id=${KUBELET_PROVIDERID}',
  '--system-reserved=cpu=${SYSTEM_RESERVED_CPU},memory=${SYSTEM_RESERVED_MEMORY},ephemeral-storage=${SYSTEM_RESERVED_ES}',
  '--v=${KUBELET_LOG_LEVEL}',
].join('      ');

export const OCP_ENV = {
  ID: 'rhel',
  KUBELET_NODE_IP: '0.0.0.0',
  KUBELET_LOG_LEVEL: '2',
  SYSTEM_RESERVED_CPU: '500m',
  SYSTEM_RESERVED_MEMORY: '1Gi',
  SYSTEM_RESERVED_ES: '1Gi',
};

/** The argv without the two credential flags (what kubelet must get under a "drop both" fallback). */
export function withoutCredentialFlags(argv: readonly string[]): string[] {
  const out: string[] = [];
  for (let i = 0; i < argv.length; i++) {
    const a = argv[i]!;
    const name = a.replace(/^--/, '').split('=')[0]!.replace(/_/g, '-');
    if (a.startsWith('--') && (name === 'image-credential-provider-config' || name === 'image-credential-provider-bin-dir')) {
      if (!a.includes('=')) i++;
      continue;
    }
    out.push(a);
  }
  return out;
}
