/**
 * A real Prometheus (Debian's prometheus package, which .ci/run installs for promtool) scrapes
 * `node-check serve`: it asks for OpenMetrics first, so this is the parser of the format serve
 * negotiates for it (promtool check metrics reads only the 0.0.4 text). A second target records
 * the Accept header Prometheus sends, to show which format serve chose.
 */
import t from 'tap';
import { spawn } from 'node:child_process';
import { createServer as createHttpServer } from 'node:http';
import { createServer } from 'node:net';
import { existsSync, writeFileSync } from 'node:fs';
import * as path from 'node:path';
import { fileURLToPath } from 'node:url';
import { execa } from 'execa';
import { prefersOpenMetrics } from '../../src/serve/registry.js';
import { dieWithParent, requireTools, toolPath } from '../harness/tools.js';

const repo = fileURLToPath(new URL('../..', import.meta.url));
const bundle = path.join(repo, 'dist/node-check.cjs');
const demo = path.join(repo, 'examples/ocp-4.16-azure-rhel8-worker');

function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const server = createServer();
    server.once('error', reject);
    server.listen(0, '127.0.0.1', () => {
      const { port } = server.address() as { port: number };
      server.close(() => resolve(port));
    });
  });
}

async function until<T>(what: string, timeoutMs: number, probe: () => Promise<T | undefined>): Promise<T> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    try {
      const value = await probe();
      if (value !== undefined) return value;
    } catch {
      // not yet
    }
    if (Date.now() > deadline) throw new Error(`timed out waiting for ${what}`);
    await new Promise((r) => setTimeout(r, 200));
  }
}

t.test('Prometheus scrapes serve in OpenMetrics: target up, node-check\'s and prom-client\'s series stored', async (t) => {
  if (!requireTools(t, ['prometheus'])) return;
  if (!existsSync(bundle)) t.fail('dist/node-check.cjs is missing: run `npm run build`');
  const dir = t.testdir({ data: {} });

  const servePort = await freePort();
  const serve = spawn(process.execPath, [bundle, 'serve', '--root', demo, '--kubelet-version', '1.29.5', '--no-journal', '--listen', `127.0.0.1:${servePort}`, '--interval', '300'], { env: { PATH: process.env.PATH ?? '', NODE_CHECK_CONFIG: '' }, stdio: ['ignore', 'ignore', 'pipe'] });
  let serveLog = '';
  serve.stderr.on('data', (chunk) => (serveLog += String(chunk)));
  t.teardown(() => serve.kill('SIGKILL'));
  await until('serve\'s first check', 30_000, async () => ((await fetch(`http://127.0.0.1:${servePort}/metrics`)).ok ? true : undefined));

  // The Accept header Prometheus sends, recorded by a target of its own.
  const accepts: string[] = [];
  const recorder = createHttpServer((request, response) => {
    accepts.push(String(request.headers.accept));
    response.writeHead(200, { 'Content-Type': 'text/plain; version=0.0.4' }).end('# TYPE recorder_up gauge\nrecorder_up 1\n');
  });
  await new Promise<void>((resolve) => recorder.listen(0, '127.0.0.1', resolve));
  t.teardown(() => recorder.close());
  const recorderPort = (recorder.address() as { port: number }).port;

  const promPort = await freePort();
  const config = path.join(dir, 'prometheus.yml');
  writeFileSync(config, `global:\n  scrape_interval: 1s\n  scrape_timeout: 1s\nscrape_configs:\n- job_name: node-check\n  static_configs:\n  - targets: ['127.0.0.1:${servePort}']\n- job_name: recorder\n  static_configs:\n  - targets: ['127.0.0.1:${recorderPort}']\n`);
  const [file, ...args] = dieWithParent([toolPath('prometheus')!, `--config.file=${config}`, `--storage.tsdb.path=${path.join(dir, 'data')}`, `--web.listen-address=127.0.0.1:${promPort}`, '--log.level=warn']);
  const prometheus = execa(file!, args, { stdin: 'ignore', all: true, buffer: false, reject: false });
  let promLog = '';
  prometheus.all?.on('data', (chunk: Buffer) => (promLog += chunk.toString('utf8')));
  t.teardown(async () => {
    prometheus.kill('SIGTERM');
    await prometheus;
  });

  const api = `http://127.0.0.1:${promPort}/api/v1`;
  const query = async (expr: string) => {
    const response = await fetch(`${api}/query?query=${encodeURIComponent(expr)}`);
    const json = (await response.json()) as { data: { result: { metric: Record<string, string>; value: [number, string] }[] } };
    return json.data.result;
  };
  const target = await until('the node-check target scraped', 60_000, async () => {
    const response = await fetch(`${api}/targets`);
    const json = (await response.json()) as { data: { activeTargets: { labels: { job: string }; health: string; lastError: string }[] } };
    const found = json.data.activeTargets.find((a) => a.labels.job === 'node-check');
    return found && found.health !== 'unknown' ? found : undefined;
  }).catch((error: Error) => {
    t.fail(`${error.message}; prometheus: ${promLog}; serve: ${serveLog}`);
    return undefined;
  });
  if (!target) return;
  t.equal(target.health, 'up', `scraped without error (lastError: "${target.lastError}")`);
  t.equal(target.lastError, '');
  const accept = await until('the recorder scraped', 30_000, async () => accepts[0]);
  t.ok(prefersOpenMetrics(accept), `Prometheus prefers OpenMetrics (Accept: ${accept}), so serve answered in it`);

  const value = async (expr: string) => (await until(expr, 10_000, async () => ((await query(expr))[0] ? (await query(expr))[0] : undefined))).value[1];
  t.equal(await value('nodecheck_kubelet_start_ok{job="node-check"}'), '0', 'the demo node: kubelet will NOT start');
  t.equal(await value('nodecheck_finding{job="node-check",id="plugin-binary-missing"}'), '1');
  t.ok(Number(await value('process_cpu_seconds_total{job="node-check"}')) > 0, 'prom-client\'s counter, stored under its _total name');
  t.ok(Number(await value('process_resident_memory_bytes{job="node-check"}')) > 1024 * 1024);
  t.equal(await value('count(nodejs_version_info{job="node-check"})'), '1');
  // Prometheus's own account of the scrape: samples stored, none rejected.
  t.ok(Number(await value('scrape_samples_scraped{job="node-check"}')) > 50, 'node-check\'s and prom-client\'s samples');
  // OpenMetrics names a counter's family without _total (the 0.0.4 text with it): Prometheus keeps
  // the metadata under the family name it parsed.
  const metadata = async (metric: string) => ((await (await fetch(`${api}/metadata?metric=${metric}`)).json()) as { data: Record<string, { type: string }[]> }).data[metric]?.[0]?.type;
  t.equal(await metadata('process_cpu_seconds'), 'counter', 'the counter\'s family, as OpenMetrics names it');
  t.equal(await metadata('process_cpu_seconds_total'), undefined, 'not as the 0.0.4 text would');
  t.equal(await metadata('nodecheck_kubelet_start_ok'), 'gauge');
});
