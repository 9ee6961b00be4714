/**
 * The upgrade scenario (README "Before an upgrade"): a RHEL 8 worker at OpenShift 4.15 (kubelet 1.28, no credential-provider
 * flags, from test/fixtures/nodes/ocp-4.15-azure-worker-no-credential-flags with the RHEL 8
 * os-release of ocp-4.16-azure-rhel8-worker-acr-missing) and the 4.16 worker configuration that
 * adds --image-credential-provider-* (kubelet.service and acr-credential-provider.yaml of the
 * ocp-4.16-azure-rhel8 fixture, rendered by hand from MCO release-4.16 templates).
 */
import * as crypto from 'node:crypto';
import * as fs from 'node:fs';
import * as path from 'node:path';
import { gzipSync } from 'node:zlib';
import { fileURLToPath } from 'node:url';

const NODES = fileURLToPath(new URL('../fixtures/nodes/', import.meta.url));
const NODE_415 = path.join(NODES, 'ocp-4.15-azure-worker-no-credential-flags/root');
const NODE_416 = path.join(NODES, 'ocp-4.16-azure-rhel8-worker-acr-missing/root');

export const PLUGIN_DIR = '/usr/libexec/kubelet-image-credential-provider-plugins';
export const ACR_CONFIG_PATH = '/etc/kubernetes/credential-providers/acr-credential-provider.yaml';
export const UNIT_PATH = '/etc/systemd/system/kubelet.service';
export const UNIT_416 = fs.readFileSync(path.join(NODE_416, UNIT_PATH), 'utf8');
export const ACR_CONFIG = fs.readFileSync(path.join(NODE_416, ACR_CONFIG_PATH), 'utf8');
/** The 4.15 node's 01-kubens.conf: the rendered config writes it again, unchanged. */
export const KUBENS_415 = fs.readFileSync(path.join(NODE_415, 'etc/systemd/system/kubelet.service.d/01-kubens.conf'), 'utf8');
export const PLUGIN_MISSING = `plugin binary executable ${PLUGIN_DIR}/acr-credential-provider did not exist`;

/** A 4.15 RHEL 8 worker root in `dir`; with the ACR plugin installed (the 4.16 RPMs) when asked. */
export function rhelWorker415(dir: string, options: { plugin?: boolean; acrConfig?: boolean } = {}): string {
  fs.cpSync(NODE_415, dir, { recursive: true });
  fs.copyFileSync(path.join(NODE_416, 'etc/os-release'), path.join(dir, 'etc/os-release'));
  if (options.plugin) fs.writeFileSync(path.join(dir, PLUGIN_DIR, 'acr-credential-provider'), '#!/bin/sh\nexit 0\n', { mode: 0o755 });
  if (options.acrConfig) {
    fs.mkdirSync(path.join(dir, path.dirname(ACR_CONFIG_PATH)), { recursive: true });
    fs.writeFileSync(path.join(dir, ACR_CONFIG_PATH), ACR_CONFIG);
  }
  return dir;
}

/** (a) The 4.16 rendered worker MachineConfig, YAML, files as URL-encoded data URLs (as MCO renders them). */
export function machineConfigYaml(name = 'rendered-worker-416'): string {
  const source = `data:,${encodeURIComponent(ACR_CONFIG)}`;
  const indent = (text: string, n: number) => text.split('\n').map((l) => (l === '' ? l : ' '.repeat(n) + l)).join('\n');
  return `apiVersion: machineconfiguration.openshift.io/v1
kind: MachineConfig
metadata:
  name: ${name}
  annotations:
    machineconfiguration.openshift.io/generated-by-controller-version: 4.16.0
spec:
  osImageURL: ""
  config:
    ignition:
      version: 3.4.0
    storage:
      files:
        - path: ${ACR_CONFIG_PATH}
          mode: 420
          overwrite: true
          contents:
            source: "${source}"
    systemd:
      units:
        - name: kubelet.service
          enabled: true
          contents: |
${indent(UNIT_416, 12)}
          dropins:
            - name: 01-kubens.conf
              contents: |+
${indent(KUBENS_415.replace(/\n$/, ''), 16)}
`;
}

/** (b) The same as a bare Ignition config (JSON) as the machine-config server serves it: base64 + gzip. */
export function ignitionJson(): string {
  const gz = (text: string) => `data:;base64,${gzipSync(Buffer.from(text)).toString('base64')}`;
  return JSON.stringify({
    ignition: { version: '3.2.0' },
    storage: {
      files: [
        { path: ACR_CONFIG_PATH, mode: 420, overwrite: true, contents: { source: gz(ACR_CONFIG), compression: 'gzip' } },
        { path: '/etc/systemd/system/kubelet.service', mode: 420, overwrite: true, contents: { source: gz(UNIT_416), compression: 'gzip' } },
      ],
    },
  });
}

/** (c) A MachineConfig that only adds a kubelet drop-in: it resets ExecStart= to the 4.16 command line. */
export function dropInMachineConfig(): string {
  const execStart = UNIT_416.slice(UNIT_416.indexOf('ExecStart='), UNIT_416.indexOf('\n\nRestart='));
  const dropIn = `[Service]\nExecStart=\n${execStart}\n`;
  return JSON.stringify({
    apiVersion: 'machineconfiguration.openshift.io/v1',
    kind: 'MachineConfig',
    metadata: { name: '99-worker-kubelet-credential-providers', labels: { 'machineconfiguration.openshift.io/role': 'worker' } },
    spec: { config: { ignition: { version: '3.4.0' }, systemd: { units: [{ name: 'kubelet.service', dropins: [{ name: '30-credential-providers.conf', contents: dropIn }] }] } } },
  });
}

/** A digest of a whole tree: every path, type, mode, size, mtime, contents and link target. */
export function treeDigest(root: string): string {
  const hash = crypto.createHash('sha256');
  const walk = (dir: string) => {
    for (const name of fs.readdirSync(dir).sort()) {
      const full = path.join(dir, name);
      const st = fs.lstatSync(full);
      hash.update(`${path.relative(root, full)}\0${st.mode}\0${st.size}\0${st.mtimeMs}\0`);
      if (st.isSymbolicLink()) hash.update(fs.readlinkSync(full));
      else if (st.isFile()) hash.update(fs.readFileSync(full));
      else if (st.isDirectory()) walk(full);
    }
  };
  walk(root);
  return hash.digest('hex');
}
