/**
 * Two gateways with the order flow on one shared database, as two Node processes behind a load balancer
 * run: for the PostgreSQL tests of instances sharing work and of faults under them.
 */
import type { Gateway } from '../../src/gateway/index.ts';
import type { Clock } from '../../src/store/clock.ts';
import type { Store } from '../../src/store/port.ts';
import { createOrderStack, type OrderStack, orderConfig } from '../support/order-flow.ts';
import { GATEWAY_ORIGIN, START } from '../support/stack.ts';

/** Posts a cXML document to one gateway directly, as a buyer's system that reached that instance. */
export async function postCxml(gateway: Gateway, body: string): Promise<Response> {
  return await gateway.app.fetch(
    new Request(`${GATEWAY_ORIGIN}/cxml`, { method: 'POST', body, headers: { 'Content-Type': 'text/xml' } }),
  );
}

/**
 * Instance A in an order stack (print service, buyer endpoint, frozen clock) on a store `openStore` opens,
 * and a way to start instance B beside it on a store of its own. Until B starts, the stack's browser reaches
 * A; from then on the browser and the print service's webhooks reach B, and tests reach A directly.
 */
export async function startInstanceA(
  openStore: (clock: Clock) => Promise<Store>,
  config = orderConfig(),
): Promise<{ stack: OrderStack; a: Gateway; startB(): Promise<Gateway> }> {
  // Both stores read the stack's frozen clock, so record times follow the test's time like the workers';
  // A's store opens before the stack exists.
  let current: OrderStack | undefined;
  const clock = { now: () => current?.clock.now() ?? new Date(START) };
  const stack = await createOrderStack(config, { store: await openStore(clock) });
  current = stack;
  // Beside A, not instead of it: same config, signing key, print service, buyer endpoint and clock; its
  // own store (a pool of its own) on the same database.
  return { stack, a: stack.gateway, startB: async () => stack.restartGateway(await openStore(clock)) };
}
