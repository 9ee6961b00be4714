/**
 * Gathers HostFacts (src/host-facts/types.ts): plain reads of /proc, /sys and the CRI socket.
 * Only for the live root "/": the kernel, its swap, sysctls and sockets belong to the machine
 * node-check runs on, so for any other --root nothing is read and every fact is `notChecked`.
 * Also collects the PathFacts the systemd checks need for ExecStart= (through RootFs, any root).
 * No subprocess.
 */
import { readFileSync, statSync, statfsSync } from 'node:fs';
import { resolve } from 'node:path';
import { goErrnoText, RootFs } from '../host/root-fs.js';
import type { FileTable, PathFact } from '../model/node.js';
import type { ServiceModel } from '../model/service.js';
import { KERNEL_TUNABLES } from '../host-facts/data.js';
import { CLOUD_MACHINE_FILES } from '../host-facts/cloud-machine.js';
import type { CloudMachineFact, CloudMachineFile, CriSocketFact, HostFactName, HostFacts, HostFactsResult, SysctlFact } from '../host-facts/types.js';
import { parseMountinfo, pathFact } from './path-facts.js';
import { cgroupRootDir } from '../rules/run/cgroup-root.js';

/** The few syscalls used, injectable so tests can prove nothing is read for another root. */
export interface HostIo {
  readFile(file: string): { ok: true; text: string } | { ok: false; code: string };
  /** stat(2) following links: the file type, or the errno code. */
  stat(file: string): { ok: true; type: 'socket' | 'file' | 'directory' | 'other' } | { ok: false; code: string };
  /** statfs(2) f_type, or undefined when it fails. */
  statfsType(file: string): number | undefined;
}

export const NODE_HOST_IO: HostIo = {
  readFile(file) {
    try {
      return { ok: true, text: readFileSync(file, 'utf8') };
    } catch (error) {
      return { ok: false, code: (error as NodeJS.ErrnoException).code ?? 'EIO' };
    }
  },
  stat(file) {
    try {
      const st = statSync(file);
      return { ok: true, type: st.isSocket() ? 'socket' : st.isFile() ? 'file' : st.isDirectory() ? 'directory' : 'other' };
    } catch (error) {
      return { ok: false, code: (error as NodeJS.ErrnoException).code ?? 'EIO' };
    }
  },
  statfsType(file) {
    try {
      return statfsSync(file).type;
    } catch {
      return undefined;
    }
  },
};

/** CGROUP2_SUPER_MAGIC, what libcontainer's IsCgroup2UnifiedMode compares statfs("/sys/fs/cgroup") with. */
export const CGROUP2_SUPER_MAGIC = 0x63677270;
/** Every host fact discovery reads on the live root (the rules that read each: src/catalog/rules.ts hostFactReaders; cgroupVersion also failCgroupV1's). */
export const ALL_FACTS: readonly HostFactName[] = ['swaps', 'cgroupVersion', 'sysctls', 'criSocket', 'onlineCpus', 'cloudMachine', 'cgroupRoots'];

export interface HostFactsOptions {
  /** The --root node-check reads; host facts exist only for "/". */
  readonly root: string;
  /** containerRuntimeEndpoint / --container-runtime-endpoint as kubelet gets it. */
  readonly containerRuntimeEndpoint?: string;
  /** cgroupRoot / --cgroup-root values other than "" and "/" kubelet may be given. */
  readonly cgroupRoots?: readonly string[];
  readonly io?: HostIo;
}

export function discoverHostFacts(options: HostFactsOptions): HostFactsResult {
  if (resolve(options.root) !== '/') {
    const reason = `--root ${options.root} is not the running system: swap, cgroups, sysctls, sockets, online CPUs and the cloud machine (DMI) belong to the machine node-check runs on, so they were not read`;
    return { facts: {}, notChecked: ALL_FACTS.map((fact) => ({ fact, reason })) };
  }
  const io = options.io ?? NODE_HOST_IO;
  const facts: { -readonly [K in keyof HostFacts]: HostFacts[K] } = {};
  const notChecked: { fact: HostFactName; reason: string }[] = [];

  // /proc/swaps: kubelet treats a missing file as "no swap".
  const swaps = io.readFile('/proc/swaps');
  if (swaps.ok) facts.swaps = { present: true, lines: swaps.text.trim().split('\n') };
  else if (swaps.code === 'ENOENT') facts.swaps = { present: false };
  else notChecked.push({ fact: 'swaps', reason: `cannot read /proc/swaps: ${goErrnoText(swaps.code)}` });

  const fsType = io.statfsType('/sys/fs/cgroup');
  if (fsType === undefined) notChecked.push({ fact: 'cgroupVersion', reason: 'statfs /sys/fs/cgroup failed' });
  else facts.cgroupVersion = fsType === CGROUP2_SUPER_MAGIC ? 2 : 1;

  const sysctls: Record<string, SysctlFact> = {};
  for (const [name] of KERNEL_TUNABLES) sysctls[name] = readSysctl(io, name);
  facts.sysctls = sysctls;

  if (options.containerRuntimeEndpoint === undefined) notChecked.push({ fact: 'criSocket', reason: 'the container runtime endpoint is not known' });
  else facts.criSocket = criSocketFact(io, options.containerRuntimeEndpoint);

  const online = io.readFile('/sys/devices/system/cpu/online');
  if (online.ok) facts.onlineCpus = online.text.trim();
  else notChecked.push({ fact: 'onlineCpus', reason: `cannot read /sys/devices/system/cpu/online: ${goErrnoText(online.code)}` });

  const cloudMachine: { -readonly [K in CloudMachineFile]?: CloudMachineFact[K] } = {};
  for (const [file, path] of Object.entries(CLOUD_MACHINE_FILES) as [CloudMachineFile, string][]) {
    const read = io.readFile(path);
    cloudMachine[file] = read.ok ? { text: read.text } : { code: read.code };
  }
  facts.cloudMachine = cloudMachine;

  if (facts.cgroupVersion !== undefined && (options.cgroupRoots ?? []).length > 0) {
    const roots: Record<string, boolean | undefined> = {};
    for (const root of options.cgroupRoots ?? []) {
      const st = io.stat(cgroupRootDir(root, facts.cgroupVersion));
      roots[root] = st.ok ? st.type === 'directory' : st.code === 'ENOENT' || st.code === 'ENOTDIR' ? false : undefined;
    }
    facts.cgroupRoots = roots;
  }

  return { facts, notChecked };
}

/** utilsysctl GetSysctl: os.ReadFile("/proc/sys/" + name), strconv.Atoi(strings.Trim(data, " \n")). */
function readSysctl(io: HostIo, name: string): SysctlFact {
  const file = `/proc/sys/${name}`;
  const read = io.readFile(file);
  if (!read.ok) return { error: `open ${file}: ${goErrnoText(read.code)}` };
  const text = read.text.replace(/^[ \n]+|[ \n]+$/g, '');
  if (!/^[+-]?\d+$/.test(text)) return { error: `strconv.Atoi: parsing ${JSON.stringify(text)}: invalid syntax` };
  return { value: Number(text) };
}

/** The unix socket path kubelet dials for an endpoint: "unix:///p" or a bare "/p" (deprecated fallback). */
export function criSocketPath(endpoint: string): string | undefined {
  if (endpoint.startsWith('unix://')) {
    const rest = endpoint.slice('unix://'.length);
    return rest.startsWith('/') ? rest : undefined;
  }
  if (endpoint.startsWith('/')) return endpoint;
  return undefined;
}

function criSocketFact(io: HostIo, endpoint: string): CriSocketFact {
  const socketPath = criSocketPath(endpoint);
  if (socketPath === undefined) return { kind: 'not-unix', endpoint };
  const st = io.stat(socketPath);
  if (!st.ok) return st.code === 'ENOENT' ? { kind: 'missing', endpoint, path: socketPath } : { kind: 'error', endpoint, path: socketPath, code: st.code };
  return { kind: st.type === 'socket' ? 'socket' : 'not-socket', endpoint, path: socketPath };
}

/**
 * PathFacts for ExecStart='s executable and kubelet's binary (and their ELF loader or "#!"
 * interpreter), through RootFs, so for any root. noexec is only known on "/".
 */
export function collectExecFacts(fs: RootFs, service: ServiceModel, kubeletPath?: string): FileTable {
  const files: Record<string, PathFact> = {};
  const mounts = fs.isHostRoot ? readMounts(fs) : undefined;
  for (const executable of [service.execStart?.path, kubeletPath]) {
    if (executable === undefined || !executable.startsWith('/') || files[executable]) continue;
    const fact = pathFact(fs, executable, { executable: true, mounts });
    files[executable] = fact;
    const interpreter = fact.exists ? (fact.elf?.interpreter ?? fact.shebang) : undefined;
    if (interpreter && interpreter.startsWith('/') && !files[interpreter]) files[interpreter] = pathFact(fs, interpreter);
  }
  return files;
}

function readMounts(fs: RootFs) {
  const read = fs.readFile('/proc/self/mountinfo', 4 * 1024 * 1024);
  return read.ok ? parseMountinfo(read.data.toString('utf8')) : undefined;
}
