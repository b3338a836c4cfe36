/**
 * The buyer's procurement system, as far as the tests that run `punchgate serve` need one: an HTTP server
 * on a loopback port whose order-status endpoint records what the gateway posts (ConfirmationRequest,
 * ShipNoticeRequest) and answers a cXML 200 OK (or what `answerOrderStatus` says, for a buyer whose
 * endpoint is away), and whose punch-out return URL takes the cart's form post.
 */
import { type RunningServer, serveNode } from '../../src/runtime/node.ts';
import { cxmlStatusAnswer, type OrderStatusPost } from '../support/stack.ts';

export interface BuyerSystem {
  url: string;
  /** `host:port`, for the buyer's `returnUrlHosts`. */
  host: string;
  orderStatusUrl: string;
  returnUrl: string;
  /** Every post to the order-status endpoint, in arrival order (refused ones too). */
  orderStatusPosts: OrderStatusPost[];
  /** How the order-status endpoint answers; replace it to make the buyer's system refuse for a while. */
  answerOrderStatus: () => Response;
  close(): Promise<void>;
}

export async function startBuyerSystem(): Promise<BuyerSystem> {
  const orderStatusPosts: OrderStatusPost[] = [];
  let system: BuyerSystem | undefined;
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
          return system?.answerOrderStatus() ?? cxmlStatusAnswer(200, 'OK');
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
  system = {
    url: server.url,
    host: new URL(server.url).host,
    orderStatusUrl: `${server.url}/cxml/order-status`,
    returnUrl: `${server.url}/punchout/return`,
    orderStatusPosts,
    answerOrderStatus: () => cxmlStatusAnswer(200, 'OK'),
    close: () => server.close(),
  };
  return system;
}
