/**
 * The gateway between procurement systems and the print service. Its folders, by what a change touches:
 * - `app/`: the assembly above every feature: the Hono app that mounts everything, the shared context's
 *   builder, the cXML admission gate and readiness;
 * - `http/`: plumbing every feature uses: the error funnel and JSON answers, page layout and sending,
 *   request ids and metrics;
 * - `punchout/`: what every protocol shares: sessions, signed links, PIPO accounts, catalog and prices, the
 *   catalog/editor/cart pages, and `PunchoutProtocol`, the shape each protocol fills in;
 * - `cxml/`, `oci/`: the two protocols, each a `PunchoutProtocol` (a new cXML request type goes in
 *   `cxml/route.ts`; a new protocol is a sibling folder and one entry in `app/gateway.ts`);
 * - `orders/`: purchase orders to print orders, following them, and the worker;
 * - `documents/`: what buyers are told (confirmations, ship notices, invoice documents) and its delivery;
 * - `invoices/`: when a print order is invoiced and with what figures;
 * - `operator/`: the admin JSON API and the console.
 * `context.ts` and `deps.ts` are what all of them are built from. Stores live in `src/store/`.
 *
 * @example
 * const gateway = await createGateway({ config, store, clock: systemClock, printApiFor });
 * serve({ fetch: gateway.app.fetch, port: 8080 });
 */

export { createGateway, type Gateway } from './app/gateway.ts';
export type { GatewayContext } from './context.ts';
export type { GatewayDeps, Logger } from './deps.ts';
export { GatewayError, type GatewayErrorCode } from './http/errors.ts';
