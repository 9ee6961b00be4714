// The real Prometheus node_exporter (Debian's prometheus-node-exporter), reading only a textfile
// directory, on a free loopback port.
import { createServer } from 'node:net';
import { execa, type ResultPromise } from 'execa';
import { dieWithParent, toolPath, type TapLike } from './tools.js';

/** Debian names the binary prometheus-node-exporter; upstream releases call it node_exporter. */
export const NODE_EXPORTER_NAMES = ['prometheus-node-exporter', 'node_exporter'] as const;

export function nodeExporterPath(): string | undefined {
  for (const name of NODE_EXPORTER_NAMES) {
    const path = toolPath(name);
    if (path !== undefined) return path;
  }
  return undefined;
}

export interface NodeExporterOptions {
  textfileDir: string;
  /** When given, stop() is registered as the test's teardown. */
  t?: TapLike;
  /** Bound on start-to-serving. Default 15 s. */
  startTimeoutMs?: number;
}

export interface NodeExporter {
  readonly url: string;
  /** The body of GET /metrics. */
  scrape(): Promise<string>;
  /** What the exporter has logged so far (it logs textfile parse errors here, not in /metrics). */
  log(): string;
  stop(): Promise<void>;
}

export async function startNodeExporter(opts: NodeExporterOptions): Promise<NodeExporter> {
  const binary = nodeExporterPath();
  if (binary === undefined) throw new Error(`none of ${NODE_EXPORTER_NAMES.join(', ')} is installed`);
  let lastError: Error | undefined;
  // The port is free when chosen but another process may take it before the exporter binds.
  for (let attempt = 0; attempt < 3; attempt++) {
    const port = await freePort();
    try {
      const exporter = await startOn(binary, port, opts);
      opts.t?.teardown(() => exporter.stop());
      return exporter;
    } catch (error) {
      lastError = error as Error;
    }
  }
  throw lastError ?? new Error('node_exporter did not start');
}

async function startOn(binary: string, port: number, opts: NodeExporterOptions): Promise<NodeExporter> {
  const url = `http://127.0.0.1:${port}/metrics`;
  const [file, ...args] = dieWithParent([
    binary,
    '--collector.disable-defaults',
    '--collector.textfile',
    `--collector.textfile.directory=${opts.textfileDir}`,
    `--web.listen-address=127.0.0.1:${port}`,
  ]);
  let log = '';
  let exited = false;
  const child: ResultPromise = execa(file ?? binary, args, { stdin: 'ignore', all: true, buffer: false, reject: false });
  child.all?.on('data', (chunk: Buffer) => (log += chunk.toString('utf8')));
  void child.then(() => (exited = true));

  const stop = async (): Promise<void> => {
    if (exited) return;
    child.kill('SIGTERM'); // execa sends SIGKILL 5 s later if it is still running
    await child;
  };

  const deadline = Date.now() + (opts.startTimeoutMs ?? 15_000);
  for (;;) {
    if (exited) throw new Error(`node_exporter exited before serving on port ${port}:\n${log}`);
    try {
      const response = await fetch(url);
      if (response.ok) break;
    } catch {
      // not listening yet
    }
    if (Date.now() > deadline) {
      await stop();
      throw new Error(`node_exporter did not serve ${url} in time:\n${log}`);
    }
    await new Promise((resolve) => setTimeout(resolve, 50));
  }

  return {
    url,
    async scrape() {
      const response = await fetch(url);
      if (!response.ok) throw new Error(`GET ${url}: HTTP ${response.status}`);
      return response.text();
    },
    log: () => log,
    stop,
  };
}

function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const server = createServer();
    server.once('error', reject);
    server.listen(0, '127.0.0.1', () => {
      const address = server.address();
      const port = typeof address === 'object' && address !== null ? address.port : 0;
      server.close(() => resolve(port));
    });
  });
}
