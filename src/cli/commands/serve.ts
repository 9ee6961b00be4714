/**
 * `node-check serve`: a small daemon. Serves /metrics and /healthz, re-checks every --interval and
 * whenever the unit, its drop-ins, the provider config or the plugin directory change, and writes a
 * journal entry only when the answer changes. Nothing latches: every check starts from the node.
 */
import { createServer, type Server } from 'node:http';
import { getHeapStatistics, setFlagsFromString } from 'node:v8';
import { runInNewContext } from 'node:vm';
import type { Settings } from '../../settings.js';
import type { CliIo } from '../io.js';
import { ExitCode, type Report } from '../../model/report.js';
import { runNodeCheck, autoRestore } from '../../run-node-check.js';
import { metricFamilies, undecidedFamilies } from '../../sinks/metrics.js';
import { serveMetrics } from '../../serve/registry.js';
import { journalEntriesFor } from '../../sinks/journal-entry.js';
import { writeJournal } from '../../sinks/journal.js';
import { watchPaths, type Watcher } from '../../serve/watch.js';
import { boundConnections } from '../../serve/connection-limits.js';
import { answerOf, describeAnswerChange, type Answer } from '../../serve/answer-change.js';
import { VERSION } from '../../version.js';
import { checkClusterPending, checkPendingConfigs, pendingConfigFiles, pendingFamilies } from '../../serve/pending.js';
import { inClusterClient, nodeKubeletVersion } from '../../overlay/cluster.js';

import { withinBudget } from '../budget.js';
import { armWatchdog, WATCHDOG_GRACE_MS } from '../watchdog.js';
import { forStderr } from '../stderr-priority.js';

/**
 * A full garbage collection after a check once the heap has grown by 2 MB since the last one
 * (serve's RSS). Checks leave their garbage in the old generation, which V8 let grow to
 * ~35 MB before collecting it; serve is idle between checks, so a collection then costs nothing
 * anyone waits for. `gc` comes from a fresh context made while --expose-gc is on; the flag is
 * turned off again, as V8 keys its code cache to flags.
 */
function fullCollector(): () => void {
  try {
    setFlagsFromString('--expose-gc');
    const gc = runInNewContext('gc') as unknown;
    if (typeof gc !== 'function') return () => undefined;
    let afterLast = 0;
    return () => {
      if (getHeapStatistics().used_heap_size < afterLast + 2 * 1024 * 1024) return;
      (gc as () => void)();
      afterLast = getHeapStatistics().used_heap_size;
    };
  } catch {
    return () => undefined;
  } finally {
    setFlagsFromString('--no-expose-gc');
  }
}

const UNIT_DIRECTORIES = ['/etc/systemd/system', '/run/systemd/system', '/usr/local/lib/systemd/system', '/usr/lib/systemd/system', '/lib/systemd/system'];

export async function runServe(settings: Settings, io: CliIo, args: Record<string, unknown> = {}): Promise<number> {
  io.claimShutdown?.();
  const state: { report?: Report; checkedAt?: number; answer?: Answer; pendingKey?: string } = {};
  // The last check's families as prom-client gauges, with prom-client's process and Node.js metrics.
  const metrics = serveMetrics();
  // --machine-config FILE|DIR: configurations waiting to be applied, re-evaluated on every check.
  const pendingArgs = args['machine-config'] === undefined ? [] : ([] as unknown[]).concat(args['machine-config']).map(String);
  let pendingWatcher: Watcher | undefined;
  // --in-cluster: the node's pool's target rendered config, from the API.
  const inCluster = args['in-cluster'] === true;
  const nodeName = (args['node-name'] as string | undefined) ?? io.env['NODE_NAME'];
  if (inCluster && !nodeName) {
    io.stderr('node-check: --in-cluster needs the node name: --node-name or $NODE_NAME (the downward API spec.nodeName)\n');
    return 64;
  }
  const cluster = inCluster || nodeName ? inClusterClient(io.env, settings.timeoutSeconds * 1000) : undefined;
  // In a pod the host's kubelet cannot be asked its version; the Node object has it.
  const versionClient = nodeName && settings.kubeletVersion === undefined && cluster && !('problem' in cluster) ? cluster : undefined;
  let versionProblem: string | undefined;
  if (nodeName && settings.kubeletVersion === undefined && cluster && 'problem' in cluster) io.stderr(`<4>node-check: kubelet version from node ${nodeName}: ${cluster.problem}\n`);
  let watcher: Watcher | undefined;
  let running: Promise<void> | undefined;
  let again = false;
  // `npm run bench`'s soak: re-check every N ms instead of --interval, and say after
  // each check how many have run, so that RSS can be sampled after 100 and after 10,000.
  const soakIntervalMs = Number(io.env['NODE_CHECK_SOAK_INTERVAL_MS'] ?? '') || undefined;
  let checksDone = 0;
  const collectGarbage = fullCollector();

  const check = async (): Promise<void> => {
    const started = Date.now();
    // The budget of one check (test/hostile/budget.test.ts): synchronous work past it kills serve; systemd restarts it.
    const watchdog = armWatchdog(settings.timeoutSeconds * 1000 + WATCHDOG_GRACE_MS, forStderr(`<3>node-check: a check overran its ${settings.timeoutSeconds} s budget in synchronous work; serve killed.\n`, io.stderrIsJournal === true));
    let report: Report;
    try {
      const fromNode = versionClient && nodeName ? await nodeKubeletVersion(versionClient, nodeName) : undefined;
      if (fromNode && 'problem' in fromNode && fromNode.problem !== versionProblem) io.stderr(`<4>node-check: kubelet version from node ${nodeName}: ${fromNode.problem}; evaluating every modelled version\n`);
      versionProblem = fromNode && 'problem' in fromNode ? fromNode.problem : undefined;
      const checkSettings = fromNode && 'version' in fromNode ? { ...settings, kubeletVersion: fromNode.version } : settings;
      report = await withinBudget(settings.timeoutSeconds * 1000, () => runNodeCheck(checkSettings, { applyFallback: false, timeoutMs: () => Math.max(100, started + settings.timeoutSeconds * 1000 - Date.now()) }), () => {
        throw new Error(`the check ran out of its ${settings.timeoutSeconds} s budget`);
      });
      if (fromNode && 'version' in fromNode && report.kubeletVersion) report = { ...report, kubeletVersionSource: 'api' };
      if (settings.autoRestore && report.fallback.active) {
        // A read-only or full /run (no lock, no removal) must not cost the check its answer.
        const restoring = () => autoRestore(settings, report, io).catch((error: Error) => void io.stderr(`<4>node-check: fallback not restored: ${error.message}\n`));
        const restored = await withinBudget(Math.max(100, started + settings.timeoutSeconds * 1000 - Date.now()), restoring, () => undefined);
        if (restored) report = restored;
      }
    } finally {
      watchdog.disarm();
    }
    const pendingOptions = {
      root: settings.root,
      unit: settings.unit,
      ...((settings.kubeletVersion ?? report.kubeletVersion) ? { kubeletVersion: settings.kubeletVersion ?? report.kubeletVersion! } : {}),
      versionProbeTimeoutMs: Math.min(2000, settings.timeoutSeconds * 1000),
      fallback: report.fallback,
    };
    const pending = [
      ...(pendingArgs.length === 0 ? [] : await checkPendingConfigs({ ...pendingOptions, configs: pendingArgs })),
      ...(inCluster && cluster && nodeName ? await checkClusterPending(pendingOptions, cluster, nodeName) : []),
    ];
    metrics.update([...metricFamilies(report, { version: VERSION, durationSeconds: (Date.now() - started) / 1000, nowSeconds: Date.now() / 1000 }), ...pendingFamilies(pending)]);
    const pendingKey = JSON.stringify(pending.map((p) => [p.config, p.kubeletWillStart]));
    if (pending.length > 0 && pendingKey !== state.pendingKey) {
      for (const p of pending) io.stderr(`node-check: pending ${p.origin}: ${p.summary}\n`);
      state.pendingKey = pendingKey;
    }
    state.report = report;
    state.checkedAt = Date.now();
    const answer = answerOf(report);
    const change = describeAnswerChange(state.answer, answer);
    if (change !== undefined) {
      // Recorded before the journal is written, so that nothing of this answer is said twice.
      state.answer = answer;
      io.stderr(`node-check: ${change}\n`);
      const entries = journalEntriesFor(report, { unit: settings.unit, pid: process.pid });
      if (settings.journal && entries.length > 0) await writeJournal(entries, { timeoutMs: 5000, stderr: io.stderr, objectPid: process.pid });
    }
    watcher?.close();
    watcher = watchPaths(settings.root, pathsToWatch(settings.unit, report), scheduleCheck);
    // The pending files are on this machine, not under --root.
    pendingWatcher?.close();
    if (pendingArgs.length > 0) pendingWatcher = watchPaths('/', [...pendingArgs, ...pendingConfigFiles(pendingArgs)], scheduleCheck);
    checksDone++;
    collectGarbage();
    if (soakIntervalMs !== undefined) io.stderr(`node-check: soak: ${checksDone} checks\n`);
  };
  /** One check at a time; a change during a check triggers exactly one more. */
  function scheduleCheck(): void {
    if (running) {
      again = true;
      return;
    }
    running = check()
      .catch((error) => {
        io.stderr(`<4>node-check: check failed: ${(error as Error).message}\n`);
        // The last answer must not be served as if this check had confirmed it.
        metrics.update(undecidedFamilies({ version: VERSION, nowSeconds: Date.now() / 1000 }));
      })
      .finally(() => {
        running = undefined;
        if (again) {
          again = false;
          scheduleCheck();
        }
      });
  }

  const server = createServer((request, response) => {
    const url = (request.url ?? '/').split('?')[0];
    if (request.method !== 'GET' && request.method !== 'HEAD') {
      response.writeHead(405, { Allow: 'GET, HEAD' }).end();
    } else if (url === '/metrics' && metrics.ready) {
      metrics.scrape(request.headers.accept).then(
        ({ contentType, body }) => void response.writeHead(200, { 'Content-Type': contentType, Vary: 'Accept' }).end(body),
        (error: Error) => void response.writeHead(500, { 'Content-Type': 'text/plain' }).end(`cannot render the metrics: ${error.message}\n`),
      );
    } else if (url === '/metrics') {
      response.writeHead(503, { 'Content-Type': 'text/plain' }).end('first check not finished\n');
    } else if (url === '/healthz') {
      const fresh = state.checkedAt !== undefined && Date.now() - state.checkedAt < 3 * settings.intervalSeconds * 1000 + settings.timeoutSeconds * 1000;
      response.writeHead(fresh ? 200 : 503, { 'Content-Type': 'text/plain' }).end(fresh ? 'ok\n' : 'checks are stale\n');
    } else {
      response.writeHead(404, { 'Content-Type': 'text/plain' }).end('not found: try /metrics or /healthz\n');
    }
  });
  boundConnections(server);

  try {
    await listen(server, settings.listen);
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === 'EADDRINUSE') {
      io.stderr(`node-check: cannot listen on ${settings.listen}: the address is in use (another node-check serve, or another program, is listening there): stop that one or pass another --listen\n`);
      return ExitCode.addressInUse;
    }
    io.stderr(`node-check: cannot listen on ${settings.listen}: ${(error as Error).message}\n`);
    return 2;
  }
  io.stderr(`node-check ${VERSION}: serving /metrics and /healthz on ${settings.listen}, re-checking every ${settings.intervalSeconds} s\n`);
  scheduleCheck();
  const interval = setInterval(scheduleCheck, soakIntervalMs ?? settings.intervalSeconds * 1000);

  const signal = await io.shutdownSignal;
  io.stderr(`node-check: ${signal}: shutting down\n`);
  clearInterval(interval);
  watcher?.close();
  pendingWatcher?.close();
  await new Promise<void>((resolve) => server.close(() => resolve()));
  server.closeAllConnections();
  await running;
  watcher?.close();
  pendingWatcher?.close();
  return 0;
}

function listen(server: Server, address: string): Promise<void> {
  const colon = address.lastIndexOf(':');
  const host = address.slice(0, colon).replace(/^\[(.*)\]$/, '$1');
  const port = Number(address.slice(colon + 1));
  return new Promise((resolve, reject) => {
    server.once('error', reject);
    server.listen(port, host, () => {
      server.off('error', reject);
      resolve();
    });
  });
}

function pathsToWatch(unit: string, report: Report): string[] {
  const paths = [...UNIT_DIRECTORIES, ...UNIT_DIRECTORIES.map((dir) => `${dir}/${unit}.d`), ...report.kubelet.dropIns];
  if (report.kubelet.unitFile) paths.push(report.kubelet.unitFile);
  const config = report.kubelet.credentialProviderConfig;
  if (config) paths.push(config, config.replace(/\/[^/]*\/?$/, '') || '/');
  if (report.kubelet.credentialProviderBinDir) paths.push(report.kubelet.credentialProviderBinDir);
  paths.push('/run/node-check');
  return paths;
}
