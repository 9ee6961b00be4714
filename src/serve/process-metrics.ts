/**
 * The process and Node.js families a daemon is expected to expose, as node_exporter exposes
 * process_* and go_*: the names, types and HELP texts of prom-client's default metrics
 * (collectDefaultMetrics: process_cpu_*, process_start_time_seconds, process_resident_memory_bytes,
 * process_virtual_memory_bytes, process_heap_bytes, process_open_fds, process_max_fds,
 * nodejs_heap_size_*, nodejs_external_memory_bytes, nodejs_version_info), read the way it reads
 * them (/proc/self/status, /proc/self/fd, /proc/self/limits on Linux). serve only: the start path
 * writes no process metrics. A value that cannot be read leaves its family out.
 */
import { readdirSync, readFileSync } from 'node:fs';
import type { GaugeFamily } from '../sinks/exposition.js';

export interface ProcessFacts {
  readonly cpu: { readonly user: number; readonly system: number };
  readonly startTimeSeconds: number;
  readonly memory: { readonly heapTotal: number; readonly heapUsed: number; readonly external: number };
  readonly nodeVersion: string;
  /** /proc/self/status and friends; undefined where they cannot be read. */
  readonly residentBytes?: number;
  readonly virtualBytes?: number;
  readonly heapBytes?: number;
  readonly openFds?: number;
  readonly maxFds?: number;
}

/** This process's facts, now. */
export function readProcessFacts(): ProcessFacts {
  const cpu = process.cpuUsage();
  const memory = process.memoryUsage();
  const status = readText('/proc/self/status');
  const kib = (field: string) => {
    const match = status === undefined ? null : new RegExp(`^${field}:\\s*(\\d+) kB$`, 'm').exec(status);
    return match ? Number(match[1]) * 1024 : undefined;
  };
  const limits = readText('/proc/self/limits');
  const maxFiles = limits === undefined ? null : /^Max open files\s+(\d+)/m.exec(limits);
  let openFds: number | undefined;
  try {
    // One descriptor is the directory being read.
    openFds = readdirSync('/proc/self/fd').length - 1;
  } catch {
    openFds = undefined;
  }
  const optional = (name: string, value: number | undefined) => (value === undefined ? {} : { [name]: value });
  return {
    cpu: { user: cpu.user / 1e6, system: cpu.system / 1e6 },
    startTimeSeconds: Math.round(Date.now() / 1000 - process.uptime()),
    memory: { heapTotal: memory.heapTotal, heapUsed: memory.heapUsed, external: memory.external },
    nodeVersion: process.version,
    ...optional('residentBytes', kib('VmRSS')),
    ...optional('virtualBytes', kib('VmSize')),
    ...optional('heapBytes', kib('VmData')),
    ...optional('openFds', openFds),
    ...optional('maxFds', maxFiles ? Number(maxFiles[1]) : undefined),
  };
}

export function processFamilies(facts: ProcessFacts): GaugeFamily[] {
  const families: GaugeFamily[] = [];
  const add = (name: string, help: string, value: number | undefined, type: 'gauge' | 'counter' = 'gauge') => {
    if (value !== undefined && Number.isFinite(value)) families.push({ name, help, type, samples: [{ value }] });
  };
  add('process_cpu_user_seconds_total', 'Total user CPU time spent in seconds.', facts.cpu.user, 'counter');
  add('process_cpu_system_seconds_total', 'Total system CPU time spent in seconds.', facts.cpu.system, 'counter');
  add('process_cpu_seconds_total', 'Total user and system CPU time spent in seconds.', facts.cpu.user + facts.cpu.system, 'counter');
  add('process_start_time_seconds', 'Start time of the process since unix epoch in seconds.', facts.startTimeSeconds);
  add('process_resident_memory_bytes', 'Resident memory size in bytes.', facts.residentBytes);
  add('process_virtual_memory_bytes', 'Virtual memory size in bytes.', facts.virtualBytes);
  add('process_heap_bytes', 'Process heap size in bytes.', facts.heapBytes);
  add('process_open_fds', 'Number of open file descriptors.', facts.openFds);
  add('process_max_fds', 'Maximum number of open file descriptors.', facts.maxFds);
  add('nodejs_heap_size_total_bytes', 'Process heap size from Node.js in bytes.', facts.memory.heapTotal);
  add('nodejs_heap_size_used_bytes', 'Process heap size used from Node.js in bytes.', facts.memory.heapUsed);
  add('nodejs_external_memory_bytes', 'Node.js external memory size in bytes.', facts.memory.external);
  const [major = '', minor = '', patch = ''] = facts.nodeVersion.replace(/^v/, '').split('.');
  families.push({ name: 'nodejs_version_info', help: 'Node.js version info.', samples: [{ labels: { version: facts.nodeVersion, major, minor, patch }, value: 1 }] });
  return families;
}

function readText(path: string): string | undefined {
  try {
    return readFileSync(path, 'utf8');
  } catch {
    return undefined;
  }
}
