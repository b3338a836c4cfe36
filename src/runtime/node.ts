/**
 * The Node.js runtime adapter: serves a Hono app on a port with @hono/node-server. The only place besides `src/cli.ts` that knows it runs on Node.
 */
import type { Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { serve } from '@hono/node-server';
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
    const server = serve({
      fetch: (request, env) => app.fetch(request, env),
      port: options.port,
      hostname,
    }) as Server;
    server.once('error', reject);
    server.once('listening', () => {
      const { port } = server.address() as AddressInfo;
      const host = hostname.includes(':') ? `[${hostname}]` : hostname;
      resolve({
        url: `http://${host}:${port}`,
        port,
        close: () =>
          new Promise<void>((done, fail) => {
            server.close((error) => (error ? fail(error) : done()));
            // Idle keep-alive connections would hold close() open until they time out.
            server.closeIdleConnections();
          }),
      });
    });
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
