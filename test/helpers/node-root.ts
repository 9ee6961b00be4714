/** Small node roots in temp directories, for tests that run discovery end to end. */
import * as fs from 'node:fs';
import * as path from 'node:path';

import { ACR_CONFIG, PLUGIN_DIR } from './facts.js';

export { ACR_CONFIG };
export const BIN_DIR = PLUGIN_DIR;
export const CONFIG = '/etc/kubernetes/credential-providers/acr-credential-provider.yaml';

export function kubeletUnit(extraArgs = `--image-credential-provider-bin-dir=${BIN_DIR} --image-credential-provider-config=${CONFIG}`): string {
  return `[Unit]
Description=Kubernetes Kubelet

[Service]
Type=notify
ExecStart=/usr/bin/kubelet \\
    --config=/etc/kubernetes/kubelet.conf \\
    ${extraArgs}
Restart=always
RestartSec=10
`;
}

/** Writes files (node path → content, or null for a directory) under a fresh root. */
export function writeRoot(root: string, files: Record<string, string | null | { content: string; mode: number }>): string {
  for (const [nodePath, spec] of Object.entries(files)) {
    const host = path.join(root, nodePath);
    if (spec === null) {
      fs.mkdirSync(host, { recursive: true });
      continue;
    }
    fs.mkdirSync(path.dirname(host), { recursive: true });
    if (typeof spec === 'string') fs.writeFileSync(host, spec);
    else fs.writeFileSync(host, spec.content, { mode: spec.mode });
  }
  return root;
}

/** The seed's broken node: unit, acr config, empty plugin directory. */
export function brokenAcrNode(root: string, extra: Parameters<typeof writeRoot>[1] = {}): string {
  return writeRoot(root, {
    '/etc/systemd/system/kubelet.service': kubeletUnit(),
    '/etc/kubernetes/kubelet.conf': 'apiVersion: kubelet.config.k8s.io/v1beta1\nkind: KubeletConfiguration\n',
    [CONFIG]: ACR_CONFIG,
    [BIN_DIR]: null,
    ...extra,
  });
}
