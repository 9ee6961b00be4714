/**
 * serve's HTTP server may hold only a few connections, each for a bounded time. Every connection is
 * a file descriptor, and the checks need descriptors too (unit files, the provider config, the
 * watchdog): with `ulimit -n 128`, a client holding 120 idle connections made every check fail
 * with EMFILE and serve flip to "cannot tell" (test/hostile/serve-fds.test.ts). Prometheus and a health probe
 * need one or two connections each.
 *
 * Past a cap the oldest idle connection is closed to make room, never the new one: a client that
 * holds many idle connections (40 from one local process did) then cannot starve a scrape or a
 * probe, which always gets through with a fresh connection. One peer address holds at most
 * MAX_CONNECTIONS_PER_PEER, so a remote Prometheus keeps its keep-alive connection while a local
 * client churns. Only when every connection is in the middle of a response is the new one closed.
 */
import type { Server } from 'node:http';
import type { Socket } from 'node:net';

export const MAX_CONNECTIONS = 16;
export const MAX_CONNECTIONS_PER_PEER = 8;
/** A client must send its request headers within this, and the whole request within REQUEST_MS. */
const HEADERS_MS = 5_000;
const REQUEST_MS = 10_000;
/** A connection idle this long (between keep-alive requests, or never sending) is closed. */
const IDLE_MS = 10_000;

export function boundConnections(server: Server): void {
  // A backstop only: the connection past the cap is admitted, and the oldest idle one closed for it.
  server.maxConnections = MAX_CONNECTIONS + 1;
  server.headersTimeout = HEADERS_MS;
  server.requestTimeout = REQUEST_MS;
  server.keepAliveTimeout = Math.min(server.keepAliveTimeout, IDLE_MS);
  // Without a 'timeout' listener, Node destroys a socket idle this long.
  server.timeout = IDLE_MS;

  // Open connections, least recently active first (a Map keeps insertion order), and whether a
  // response is being written on each.
  const open = new Map<Socket, { readonly peer: string; busy: boolean }>();
  const touch = (socket: Socket, busy: boolean) => {
    const state = open.get(socket);
    if (!state) return;
    open.delete(socket);
    state.busy = busy;
    open.set(socket, state);
  };
  const oldestIdle = (peer?: string): Socket | undefined => {
    for (const [socket, state] of open) if (!state.busy && (peer === undefined || state.peer === peer)) return socket;
    return undefined;
  };
  const makeRoom = (socket: Socket, over: boolean, peer?: string): boolean => {
    if (!over) return true;
    const victim = oldestIdle(peer);
    if (victim === undefined) {
      socket.destroy();
      return false;
    }
    open.delete(victim);
    victim.destroy();
    return true;
  };

  server.on('connection', (socket: Socket) => {
    const peer = socket.remoteAddress ?? '';
    let fromPeer = 0;
    for (const state of open.values()) if (state.peer === peer) fromPeer++;
    if (!makeRoom(socket, fromPeer >= MAX_CONNECTIONS_PER_PEER, peer)) return;
    if (!makeRoom(socket, open.size >= MAX_CONNECTIONS)) return;
    open.set(socket, { peer, busy: false });
    socket.once('close', () => open.delete(socket));
  });
  server.on('request', (request, response) => {
    touch(request.socket, true);
    response.once('finish', () => touch(request.socket, false));
  });
}
