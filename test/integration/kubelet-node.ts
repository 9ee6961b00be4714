// A booted node set up like the seed node examples/ocp-4.16-azure-rhel8-worker (OpenShift 4.16 on
// an Azure RHEL 8 worker whose acr-credential-provider plugin is not installed), with a stand-in
// kubelet 1.28 (stand-in-kubelet.sh), node-check's shipped drop-in and its journal catalog: the
// whole ExecStartPre story under the real systemd and journald. Shared by preflight-e2e.test.ts
// and fallback-e2e.test.ts.
import { readdirSync, readFileSync, statSync } from 'node:fs';
import { join, relative } from 'node:path';
import { fileURLToPath } from 'node:url';
import { bootNode, type BootedNode, type ExecResult, type FileSpec } from '../harness/nspawn.js';
import type { TapLike } from '../harness/tools.js';

const REPO = fileURLToPath(new URL('../../', import.meta.url));
export const SEED = join(REPO, 'examples', 'ocp-4.16-azure-rhel8-worker');

export const UNIT = 'kubelet.service';
export const BIN_DIR = '/usr/libexec/kubelet-image-credential-provider-plugins';
export const PROVIDER_CONFIG = '/etc/kubernetes/credential-providers/acr-credential-provider.yaml';
export const ACR_PLUGIN = `${BIN_DIR}/acr-credential-provider`;
export const TEXTFILE_DIR = '/var/lib/node_exporter/textfile_collector';
export const TEXTFILE = `${TEXTFILE_DIR}/node-check.prom`;
/** Where the stand-in kubelet writes its argv, one argument per line, once its checks passed. */
export const ARGV_FILE = '/run/stand-in-kubelet.argv';
/** The seed's --container-runtime-endpoint. */
export const CRI_SOCKET = '/var/run/crio/crio.sock';
export const CREDENTIAL_FLAGS = ['--image-credential-provider-bin-dir', '--image-credential-provider-config'] as const;

// The seed's lines that cannot work in the container, and what the node gets instead.
const SEED_REQUIRES = 'Requires=crio.service kubelet-dependencies.target\n';
const ADAPTED_REQUIRES =
  '# node-check e2e test: the seed says "Requires=crio.service kubelet-dependencies.target";\n' +
  '# neither unit exists in the test container (no CRI-O), and Requires= on a missing unit fails\n' +
  '# the start job, so it is left out. Nothing else in this file differs from the seed.\n';

/** The seed's files for the node: kubelet's unit, its MCO drop-ins and env files, /etc/kubernetes. */
const PROTECT_KERNEL_DEFAULTS = '"protectKernelDefaults":true';

function seedFiles(): Record<string, string> {
  const files: Record<string, string> = {};
  const walk = (dir: string): void => {
    for (const name of readdirSync(dir)) {
      const path = join(dir, name);
      if (statSync(path).isDirectory()) walk(path);
      else files[`/${relative(SEED, path)}`] = readFileSync(path, 'utf8');
    }
  };
  walk(join(SEED, 'etc'));
  // The seed's RHEL os-release only labels the node; the container keeps its own (a symlink).
  delete files['/etc/os-release'];
  const unit = files['/etc/systemd/system/kubelet.service'];
  if (unit === undefined || !unit.includes(SEED_REQUIRES)) throw new Error(`the seed's kubelet.service no longer has "${SEED_REQUIRES.trim()}"; update kubelet-node.ts`);
  files['/etc/systemd/system/kubelet.service'] = unit.replace(SEED_REQUIRES, ADAPTED_REQUIRES);
  // The nodes share this machine's kernel tunables (vm.overcommit_memory, kernel.panic, …), which a
  // test must not change. With protectKernelDefaults, kubelet refuses tunables other than its own
  // after "Started kubelet" (node-check's kubelet-post-start step), so on a machine at the kernel's
  // defaults the fallback would rightly say it cannot help: these tests are about the fallback.
  const config = files['/etc/kubernetes/kubelet.conf'];
  if (config === undefined || !config.includes(PROTECT_KERNEL_DEFAULTS)) throw new Error(`the seed's kubelet.conf no longer has ${PROTECT_KERNEL_DEFAULTS}; update kubelet-node.ts`);
  files['/etc/kubernetes/kubelet.conf'] = config.replace(PROTECT_KERNEL_DEFAULTS, '"protectKernelDefaults":false');
  return files;
}

export interface KubeletNodeOptions {
  t: TapLike;
  /** Replaces the seed's provider config (at the same path, so the unit is unchanged). */
  providerConfig?: string;
  /** /etc/node-check/config.yaml, when given. */
  nodeCheckConfig?: string;
  /** Plugins to install into the bin dir (names), as executable stand-ins. */
  plugins?: readonly string[];
}

export async function bootKubeletNode(options: KubeletNodeOptions): Promise<BootedNode> {
  const executable = (content: string): FileSpec => ({ content, mode: 0o755 });
  const files: Record<string, string | FileSpec> = {
    ...seedFiles(),
    '/usr/bin/kubelet': executable(readFileSync(join(REPO, 'test', 'integration', 'stand-in-kubelet.sh'), 'utf8')),
    // OpenShift's wrapper joins kubens' mount namespace and execs kubelet; here it only execs.
    '/usr/local/bin/kubenswrapper': executable('#!/bin/sh\nexec "$@"\n'),
    '/etc/systemd/system/kubelet.service.d/90-node-check.conf': readFileSync(join(REPO, 'systemd', 'kubelet.service.d', '90-node-check.conf'), 'utf8'),
    '/usr/lib/systemd/catalog/node-check.catalog': readFileSync(join(REPO, 'systemd', 'node-check.catalog'), 'utf8'),
  };
  if (options.providerConfig !== undefined) files[PROVIDER_CONFIG] = options.providerConfig;
  if (options.nodeCheckConfig !== undefined) files['/etc/node-check/config.yaml'] = options.nodeCheckConfig;
  for (const name of options.plugins ?? []) files[`${BIN_DIR}/${name}`] = executable('#!/bin/sh\nexit 0\n');

  const node = await bootNode({ t: options.t, files });
  // Empty directories (the files layer only makes files): the plugin dir, as in the seed, and
  // node_exporter's default textfile directory, as the Debian package creates it.
  await must(node, ['mkdir', '-p', BIN_DIR, TEXTFILE_DIR]);
  await must(node, ['journalctl', '--update-catalog']);
  // A container runtime that is up: kubelet 1.27+ refuses to start without its CRI socket, and
  // node-check on the live root checks it. A stand-in listens where the seed's kubelet connects.
  await must(node, ['mkdir', '-p', CRI_SOCKET.slice(0, CRI_SOCKET.lastIndexOf('/'))]);
  await must(node, ['systemd-run', '--unit=crio-stand-in', '/usr/bin/node', '-e', `require('net').createServer((c) => c.end()).listen(${JSON.stringify(CRI_SOCKET)})`]);
  await must(node, ['sh', '-c', `for i in $(seq 200); do test -S ${CRI_SOCKET} && exit 0; sleep 0.1; done; exit 1`]);
  return node;
}

/** Runs a command that must succeed; throws with its output otherwise (a setup failure, not a result). */
export async function must(node: BootedNode, argv: readonly string[]): Promise<ExecResult> {
  const result = await node.exec(argv);
  if (result.exitCode !== 0) throw new Error(`${argv.join(' ')} exited ${result.exitCode}: ${result.stderr}${result.stdout}`);
  return result;
}

/** The stand-in kubelet's recorded argv, or undefined when it never got past its checks. */
export async function recordedArgv(node: BootedNode): Promise<string[] | undefined> {
  const read = await node.exec(['cat', ARGV_FILE]);
  if (read.exitCode !== 0) return undefined;
  return read.stdout.replace(/\n$/, '').split('\n');
}

export function credentialArgs(argv: readonly string[]): string[] {
  return argv.filter((arg) => CREDENTIAL_FLAGS.some((flag) => arg === flag || arg.startsWith(`${flag}=`)));
}

/** systemctl show values of the unit. */
export async function unitProperties(node: BootedNode, names: readonly string[]): Promise<Record<string, string>> {
  const shown = await must(node, ['systemctl', 'show', UNIT, ...names.map((n) => `--property=${n}`)]);
  return Object.fromEntries(shown.stdout.split('\n').filter(Boolean).map((line) => [line.slice(0, line.indexOf('=')), line.slice(line.indexOf('=') + 1)]));
}

/**
 * "sha256  path" of every file below /etc/kubernetes and of kubelet's unit and drop-ins in
 * /etc/systemd/system: what the machine-config daemon manages and node-check must never change.
 */
export async function managedFiles(node: BootedNode): Promise<string> {
  const listed = await must(node, [
    'sh', '-c',
    'find /etc/kubernetes /etc/systemd/system -path "/etc/systemd/system/*" ! -path "/etc/systemd/system/kubelet.service*" -prune -o ! -type d -print | LC_ALL=C sort | xargs -d "\\n" sha256sum',
  ]);
  return listed.stdout;
}

/** The files and directories below a path, or [] when the path does not exist. */
export async function filesBelow(node: BootedNode, path: string): Promise<string[]> {
  const found = await node.exec(['sh', '-c', 'test -e "$1" || exit 0; find "$1" -mindepth 1 | LC_ALL=C sort', 'find', path]);
  return found.stdout.split('\n').filter(Boolean);
}
