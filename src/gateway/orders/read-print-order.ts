/**
 * Reading one print order for an operator's request or an invoice run: its own module, below both the
 * operator actions and invoicing, so invoicing does not depend on the operator's surface.
 */
import { isPrintApiError } from '../../print-api/index.ts';
import type { GatewayContext } from '../context.ts';
import { GatewayError, upstreamError } from '../http/errors.ts';

/** The print order as the service has it now; 404 and upstream failures as the operator's answer. */
export async function readPrintOrder(ctx: GatewayContext, storefrontId: string, printOrderId: number) {
  try {
    return await ctx.printApiFor(ctx.storefront(storefrontId)).getOrder(printOrderId);
  } catch (error) {
    if (isPrintApiError(error) && error.status === 404) {
      throw new GatewayError('not_found', `Print order ${printOrderId} does not exist on the print service.`);
    }
    throw upstreamError(error, `read print order ${printOrderId}`);
  }
}
