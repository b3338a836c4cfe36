/**
 * The Node.js runtime adapter: serves a Hono app on a port with @hono/node-server. The only place besides `src/cli.ts` that knows it runs on Node.
 */
import { readFileSync } from 'node:fs';
import type { IncomingMessage, Server, ServerResponse } from 'node:http';
import type { AddressInfo, Socket } from 'node:net';
import { createAdaptorServer } from '@hono/node-server';
import { getConnInfo } from '@hono/node-server/conninfo';
import type { Context } from 'hono';

/** What a served app needs: Hono apps fit (`app.fetch`). */
export interface FetchApp {
  fetch(request: Request, env: unknown): Response | Promise<Response>;
}

export interface RunningServer {
  /** `http://host:port`, with the port actually bound (useful with port 0). */
  readonly url: string;
  readonly port: number;
  close(): Promise<void>;
  /**
   * Stops taking connections and resolves once the requests in progress are answered and every connection
   * is closed; after `graceMs` the connections still open are closed unanswered (`forced` counts them).
   */
  drain(graceMs: number): Promise<{ forced: number }>;
}

/**
 * What one connection may cost a gateway facing the internet. Node's defaults (a 300 s request timeout,
 * timeouts checked every 30 s, no connection cap) let stalled clients hold memory and sockets for minutes.
 */
export const NODE_SERVER_LIMITS = {
  /** The request line and headers must arrive within this. */
  headersTimeoutMs: 10_000,
  /** The whole request, body included: a stalled upload is dropped after this. */
  requestTimeoutMs: 30_000,
  /** An idle keep-alive connection is closed after this. */
  keepAliveTimeoutMs: 5_000,
  /** How often the timeouts above are checked (Node's default is 30 s, which would double them). */
  connectionsCheckingIntervalMs: 1_000,
  /**
   * Connections the kernel holds for us until the event loop accepts them (Linux caps it at
   * net.core.somaxconn, 4096 by default). Node's 511 overflows when a flood of connections arrives faster
   * than a busy loop accepts them: the kernel then drops the SYN of every connection past it, a monitor's
   * probe among them, and the probe's client tries again only after 1, 3, 7, 15 s. Held here they are
   * accepted in the next turn of the loop, and the connection cap (evictIdleAtCap) judges them.
   */
  listenBacklog: 4_096,
  /**
   * Connections one client address holds before its new ones are paced (paceCrowdedAddresses): more than a
   * buyer's system or a proxy's pool opens to send documents side by side.
   */
  crowdedAddressConnections: 4,
  /** Paced connections taken up per turn of the event loop once no new connection is arriving. */
  pacedPerTurn: 8,
  /** While connections keep arriving, one paced connection is taken up every this many turns. */
  pacedWhileAcceptingEvery: 8,
} as const;

/**
 * Connections held at once: below the process's open-file limit (read from Linux's /proc/self/limits),
 * with room left for the database, the print-service pool and log files, so a flood of connections is
 * turned away at accept instead of failing every file the gateway opens. 10,000 where the limit is unknown.
 * At the cap, a new connection takes the place of the oldest one without a request in progress
 * (evictIdleAtCap).
 */
export function connectionCap(limitsText: string | undefined): number {
  const soft = /^Max open files\s+(\d+|unlimited)/m.exec(limitsText ?? '')?.[1];
  if (soft === undefined || soft === 'unlimited') return 10_000;
  return Math.max(64, Math.min(10_000, Math.floor(Number(soft) * 0.9) - 64));
}

function readProcLimits(): string | undefined {
  try {
    return readFileSync('/proc/self/limits', 'utf8');
  } catch {
    return undefined;
  }
}

/**
 * After answering a request whose body is still arriving, how long the connection stays half-open before it
 * is closed. Closing a socket at once with unread input makes the kernel send a reset, and a reset can wipe
 * the answer from the client's buffer before the client reads it: a buyer's system would see "connection
 * reset" instead of the Status saying its document is too large. Meanwhile the socket is not read: what the
 * client still sends waits in the kernel, so a refused flood costs neither memory nor CPU here.
 */
const LINGER_MS = 1_000;

/**
 * A response that is written while its request's body is still arriving (a refusal before reading it, a
 * body over the limit) ends the connection: say so with `Connection: close` instead of promising a
 * keep-alive the server will not keep, and close it a moment later (LINGER_MS) so the answer reaches the
 * client, reading none of the rest of the body.
 */
function closeWhenBodyUnread(server: Server): void {
  server.prependListener('request', (request: IncomingMessage, response: ServerResponse) => {
    const writeHead = response.writeHead;
    response.writeHead = function (this: ServerResponse, ...args: Parameters<typeof writeHead>) {
      if (!request.complete && hasBody(request)) {
        // An app that says `Connection: close` itself (a refusal under load) wants the socket gone as soon
        // as the answer is out: the sender retries, and a flood must not hold thousands of half-open
        // sockets for a second.
        closeUnread(request.socket, saysClose(args) ? 0 : LINGER_MS);
        this.setHeader('Connection', 'close');
      }
      return writeHead.apply(this, args);
    } as typeof writeHead;
  });
}

/**
 * Whether the request comes with a body. One without is not `complete` either while the 'request' event
 * runs (Node's parser marks it after the event), so an answer written there at once, as a fetch handler
 * that answers synchronously does, would otherwise close a keep-alive connection with nothing left unread.
 */
function hasBody(request: IncomingMessage): boolean {
  const length = request.headers['content-length'];
  return request.headers['transfer-encoding'] !== undefined || (length !== undefined && length !== '0');
}

/** Whether `writeHead(status, [message,] headers)` carries `Connection: close` (node-server lower-cases names). */
function saysClose(args: readonly unknown[]): boolean {
  const headers = args.find((arg): arg is Record<string, unknown> => typeof arg === 'object' && arg !== null);
  const value = headers?.connection ?? headers?.Connection;
  return typeof value === 'string' && value.toLowerCase() === 'close';
}

/**
 * Replaces the socket's close-after-answer with: read nothing more, end our side, close `lingerMs` later
 * (at 0, as soon as the answer is out).
 */
function closeUnread(socket: Socket, lingerMs: number): void {
  const closing = socket as Socket & { destroySoon?: () => void };
  closing.destroySoon = () => {
    stopReading(socket);
    if (lingerMs === 0) {
      socket.end(() => socket.destroy());
      return;
    }
    const timer = setTimeout(() => socket.destroy(), lingerMs);
    timer.unref();
    socket.once('close', () => clearTimeout(timer));
    socket.end();
  };
}

/**
 * Pauses the socket for good. A pause alone does not hold: once the answer is written Node dumps the unread
 * request body (it resumes the request, which resumes its socket) and @hono/node-server drains it (up to
 * 64 MB or 500 ms), so refused uploads' remaining bytes went through the event loop: 2,000 uploads stalled
 * short of 1 MB made the gateway read 1.0–1.2 GB of them, while health probes waited.
 */
function stopReading(socket: Socket): void {
  socket.pause();
  socket.resume = () => socket;
  socket._read = () => undefined;
}

/**
 * Holds at most `cap` connections, and at the cap makes room for a new one by closing the oldest connection
 * that has no request in progress: one still sending its request header (within headersTimeoutMs) or idle
 * between keep-alive requests. Node's own cap (`server.maxConnections`) refuses the newcomer instead, so
 * slow clients that take every slot (slowloris: a header line every few seconds, each socket within the
 * header timeout) would turn away every monitor's /healthz and /readyz until they let go. Here a client
 * that sends its request at once is served whatever the slow ones hold; it is refused only when every slot
 * has a request being answered. The oldest goes first because it has held its slot longest for nothing.
 */
function evictIdleAtCap(server: Server, cap: number): void {
  const open = new Set<Socket>();
  // Insertion order is age: the first is the oldest connection without a request in progress.
  const idle = new Set<Socket>();
  server.on('connection', (socket: Socket) => {
    socket.once('close', () => {
      open.delete(socket);
      idle.delete(socket);
    });
    if (open.size >= cap) {
      const oldest = idle.values().next().value;
      if (oldest === undefined) {
        socket.destroy();
        return;
      }
      open.delete(oldest);
      idle.delete(oldest);
      oldest.destroy();
    }
    open.add(socket);
    idle.add(socket);
  });
  server.on('request', (request: IncomingMessage, response: ServerResponse) => {
    const socket = request.socket;
    idle.delete(socket);
    response.once('close', () => {
      // Back to waiting for its next request, now the youngest idle connection.
      if (open.has(socket) && !socket.destroyed) idle.add(socket);
    });
  });
}

/**
 * Keeps a flood from a few addresses from queueing everyone else behind it. Node (libuv) accepts one
 * connection per turn of the event loop, so a newcomer behind 2,000 connections in the kernel's queue is
 * accepted 2,000 turns later, and each of those turns read and answered the connection it accepted: a
 * monitor's /healthz or a buyer's document waited seconds of CPU, tens of seconds on a loaded machine.
 *
 * Here a new connection from an address that already holds crowdedAddressConnections is not read at once:
 * it waits in a queue, taken up pacedPerTurn per turn once no connection is arriving, and one every
 * pacedWhileAcceptingEvery turns while they still are. A turn that only accepts is cheap, so the kernel's
 * queue drains several times faster and the newcomer from an uncrowded address is read when it is
 * accepted. The crowd's requests cost the same and are all answered; one waiting costs a socket and the
 * kernel's buffer, nothing here (a wait past the header timeout is answered 408 by Node). Behind a
 * reverse proxy every connection comes from the proxy, and past the first few they are taken up in
 * arrival order, at the same pace.
 */
function paceCrowdedAddresses(server: Server): void {
  // Sockets start paused; each is resumed below, at once or in its turn.
  (server as Server & { pauseOnConnect: boolean }).pauseOnConnect = true;
  const held = new Map<string, number>();
  const waiting: Socket[] = [];
  let next = 0;
  let scheduled = false;
  let acceptedSinceLastTurn = false;
  let turnsWhileAccepting = 0;
  const takeUp = () => {
    scheduled = false;
    let quota: number = NODE_SERVER_LIMITS.pacedPerTurn;
    if (acceptedSinceLastTurn) {
      quota = turnsWhileAccepting++ % NODE_SERVER_LIMITS.pacedWhileAcceptingEvery === 0 ? 1 : 0;
    } else turnsWhileAccepting = 0;
    acceptedSinceLastTurn = false;
    while (quota > 0 && next < waiting.length) {
      const socket = waiting[next++]!;
      if (socket.destroyed) continue;
      socket.resume();
      quota--;
    }
    if (next === waiting.length || next >= 1_024) {
      // Drop the entries taken up, so a crowd that never lets up does not grow the queue for ever.
      waiting.splice(0, next);
      next = 0;
    }
    if (waiting.length > 0) schedule();
  };
  const schedule = () => {
    if (scheduled) return;
    scheduled = true;
    setImmediate(takeUp);
  };
  server.on('connection', (socket: Socket) => {
    acceptedSinceLastTurn = true;
    const address = socket.remoteAddress ?? '';
    const count = (held.get(address) ?? 0) + 1;
    held.set(address, count);
    socket.once('close', () => {
      const left = (held.get(address) ?? 1) - 1;
      if (left === 0) held.delete(address);
      else held.set(address, left);
    });
    if (socket.destroyed) return;
    if (count <= NODE_SERVER_LIMITS.crowdedAddressConnections) {
      socket.resume();
      return;
    }
    waiting.push(socket);
    schedule();
  });
}

/**
 * Serves an app over HTTP. Port 0 picks a free port; the answer says which.
 *
 * @example
 * const server = await serveNode(sandbox.app, { port: 0 });
 * await fetch(`${server.url}/api/v2/ping`, { headers });
 * await server.close();
 */
export function serveNode(
  app: FetchApp,
  options: { port: number; hostname?: string },
): Promise<RunningServer> {
  const hostname = options.hostname ?? '127.0.0.1';
  return new Promise((resolve, reject) => {
    const server = createAdaptorServer({
      fetch: (request, env) => app.fetch(request, env),
      hostname,
      serverOptions: {
        headersTimeout: NODE_SERVER_LIMITS.headersTimeoutMs,
        requestTimeout: NODE_SERVER_LIMITS.requestTimeoutMs,
        keepAliveTimeout: NODE_SERVER_LIMITS.keepAliveTimeoutMs,
        connectionsCheckingInterval: NODE_SERVER_LIMITS.connectionsCheckingIntervalMs,
      },
    }) as Server;
    evictIdleAtCap(server, connectionCap(readProcLimits()));
    paceCrowdedAddresses(server);
    closeWhenBodyUnread(server);
    server.once('error', reject);
    const drain = (graceMs: number | undefined) =>
      new Promise<{ forced: number }>((done, fail) => {
        let forced = 0;
        const deadline =
          graceMs === undefined
            ? undefined
            : setTimeout(() => {
                server.getConnections((_error, count) => {
                  forced = count;
                  server.closeAllConnections();
                });
              }, graceMs);
        server.close((error) => {
          clearTimeout(deadline);
          if (error) fail(error);
          else done({ forced });
        });
        // Idle keep-alive connections would hold close() open until they time out.
        server.closeIdleConnections();
      });
    server.once('listening', () => {
      const { port } = server.address() as AddressInfo;
      const host = hostname.includes(':') ? `[${hostname}]` : hostname;
      resolve({
        url: `http://${host}:${port}`,
        port,
        close: async () => {
          await drain(undefined);
        },
        drain,
      });
    });
    server.listen({ port: options.port, host: hostname, backlog: NODE_SERVER_LIMITS.listenBacklog });
  });
}

/**
 * The caller's socket address under @hono/node-server (Hono's connection-info helper); undefined for a
 * request that did not come through a socket (an in-process `app.request`).
 */
export function nodeClientAddress(c: Context): string | undefined {
  try {
    return getConnInfo(c).remote.address;
  } catch {
    return undefined;
  }
}
