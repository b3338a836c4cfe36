/**
 * Purchase orders and order status (architecture flows 5 and 6): the OrderRequest intake behind `POST
 * /cxml`, the event webhook route, and the background worker the runtime ticks.
 *
 * @example
 * const gateway = await createGateway(deps);      // mounts the order routes
 * const worker = createOrderWorker(gateway.context);
 * await worker.startup();           // registers the order webhooks
 * await worker.tick();              // from an interval (Node) or a Cron Trigger (Workers)
 */
import type { Hono } from 'hono';
import type { GatewayContext } from '../context.ts';
import { createEventRoutes } from './events.ts';

export { createOrderWorker, type OrderWorker, type OrderWorkerOptions, type TickResult } from './worker.ts';

/** The print service's event webhook. */
export function mountOrderRoutes(app: Hono, ctx: GatewayContext): void {
  app.route('/events', createEventRoutes(ctx));
}
