/** PathFacts and real config texts shared by tests that build NodeModels or FileTables in memory. */
import type { PathFact } from '../../src/model/node.js';

type Present = Extract<PathFact, { exists: true }>;

export const dir = (names: readonly string[] = []): Present => ({
  exists: true,
  type: 'directory',
  mode: 0o755,
  uid: 0,
  gid: 0,
  entries: names.map((name) => ({ name, isDirectory: false })),
});

export const file = (content: string, mode = 0o644): Present => ({
  exists: true,
  type: 'file',
  mode,
  uid: 0,
  gid: 0,
  content: { ok: true, data: Buffer.from(content) },
});

export const executable = (mode = 0o755): Present => ({ exists: true, type: 'file', mode, uid: 0, gid: 0 });

export const PLUGIN_DIR = '/usr/libexec/kubelet-image-credential-provider-plugins';

/** templates/common/azure/files/etc-kubernetes-credential-providers-acr-credential-provider.yaml @release-4.16 (MCO). */
export const ACR_CONFIG = `apiVersion: kubelet.config.k8s.io/v1
kind: CredentialProviderConfig
providers:
  - name: acr-credential-provider
    apiVersion: credentialprovider.kubelet.k8s.io/v1
    defaultCacheDuration: "10m"
    matchImages:
      - "*.azurecr.io"
      - "*.azurecr.cn"
      - "*.azurecr.de"
      - "*.azurecr.us"
    args:
      - /etc/kubernetes/cloud.conf
`;

