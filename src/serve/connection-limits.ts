/**
 * serve's HTTP server may hold only a few connections, each for a bounded time. Every connection is
 * a file descriptor, and the checks need descriptors too (unit files, the provider config, the
 * watchdog): with `ulimit -n 128`, a client holding 120 idle connections made every check fail
 * with EMFILE and serve flip to "cannot tell" (issue 10, item 12). Prometheus and a health probe
 * need one or two connections each; past the cap a new connection is closed at once.
 */
import type { Server } from 'node:http';

export const MAX_CONNECTIONS = 16;
/** A client must send its request headers within this, and the whole request within REQUEST_MS. */
const HEADERS_MS = 5_000;
const REQUEST_MS = 10_000;
/** A connection idle this long (between keep-alive requests, or never sending) is closed. */
const IDLE_MS = 10_000;

export function boundConnections(server: Server): void {
  server.maxConnections = MAX_CONNECTIONS;
  server.headersTimeout = HEADERS_MS;
  server.requestTimeout = REQUEST_MS;
  server.keepAliveTimeout = Math.min(server.keepAliveTimeout, IDLE_MS);
  // Without a 'timeout' listener, Node destroys a socket idle this long.
  server.timeout = IDLE_MS;
}
