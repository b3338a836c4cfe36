/**
 * The gateway's public entry: `createPunchgate(deps)` builds the app with every protocol and the order
 * flow plugged in. `createGateway` (app.ts) is the core the features extend.
 */

import type { GatewayDeps } from './deps.ts';
import { createGateway, type Gateway, type GatewayExtensions } from './http/app.ts';
import { ociGateway } from './oci/index.ts';
import { ordersFeature } from './orders/index.ts';

export type { GatewayContext } from './context.ts';
export type { GatewayDeps, Logger } from './deps.ts';
export type { Gateway, GatewayExtensions } from './http/app.ts';
export { GatewayError, type GatewayErrorCode } from './http/errors.ts';
export { createGateway };

/** The features plugged into the core, in the order their routes are mounted. */
const FEATURES: GatewayExtensions[] = [ociGateway, ordersFeature];

function combine(features: readonly GatewayExtensions[]): GatewayExtensions {
  const combined: GatewayExtensions = {
    routes: (app, ctx) => {
      for (const feature of features) feature.routes?.(app, ctx);
    },
  };
  for (const feature of features) {
    if (feature.ociForms) combined.ociForms = feature.ociForms;
    if (feature.onOrder) combined.onOrder = feature.onOrder;
  }
  return combined;
}

/**
 * @example
 * const gateway = await createPunchgate({ config, store, clock: systemClock, printApiFor });
 * serve({ fetch: gateway.app.fetch, port: 8080 });
 */
export function createPunchgate(deps: GatewayDeps): Promise<Gateway> {
  return createGateway(deps, combine(FEATURES));
}
