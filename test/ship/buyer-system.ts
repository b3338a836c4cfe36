/**
 * The buyer's procurement system, as far as the tests that run `punchgate serve` need one: an HTTP server
 * on a loopback port whose order-status endpoint records what the gateway posts (ConfirmationRequest,
 * ShipNoticeRequest) and answers a cXML 200 OK, and whose punch-out return URL takes the cart's form post.
 */
import { type RunningServer, serveNode } from '../../src/runtime/node.ts';
import { cxmlStatusAnswer, type OrderStatusPost } from '../support/stack.ts';

export interface BuyerSystem {
  url: string;
  /** `host:port`, for the buyer's `returnUrlHosts`. */
  host: string;
  orderStatusUrl: string;
  returnUrl: string;
  /** Every post to the order-status endpoint, in arrival order. */
  orderStatusPosts: OrderStatusPost[];
  close(): Promise<void>;
}

export async function startBuyerSystem(): Promise<BuyerSystem> {
  const orderStatusPosts: OrderStatusPost[] = [];
  const server: RunningServer = await serveNode(
    {
      async fetch(request: Request) {
        const path = new URL(request.url).pathname;
        if (request.method === 'POST' && path === '/cxml/order-status') {
          orderStatusPosts.push({
            url: request.url,
            contentType: request.headers.get('Content-Type') ?? '',
            body: await request.text(),
          });
          return cxmlStatusAnswer(200, 'OK');
        }
        if (request.method === 'POST' && path === '/punchout/return') {
          return new Response('<html><body>requisition received</body></html>', {
            headers: { 'Content-Type': 'text/html' },
          });
        }
        return new Response('not found', { status: 404 });
      },
    },
    { port: 0 },
  );
  return {
    url: server.url,
    host: new URL(server.url).host,
    orderStatusUrl: `${server.url}/cxml/order-status`,
    returnUrl: `${server.url}/punchout/return`,
    orderStatusPosts,
    close: () => server.close(),
  };
}
