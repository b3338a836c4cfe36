/**
 * An OrderRequest for the cart lines bench/servers/gateway-server.ts seeds (`orderLines`), on the cart's
 * terms (100 at 0.12 USD each): intake refuses a quantity or currency the product or storefront does not
 * allow.
 */
import { largeOrderRequest } from '../../test/cxml/large-order-request.ts';

/** `lines` seeded lines ordered under `payloadID` and `orderID`. */
export function seededLinesOrder(lines: number, payloadID: string, orderID: string): string {
  return largeOrderRequest(lines)
    .replace(/payloadID="[^"]*"/, `payloadID="${payloadID}"`)
    .replace(/orderID="[^"]*"/, `orderID="${orderID}"`)
    .replace(/L-(\d{6})/g, 'L-00$1')
    .replace(/<ItemOut quantity="\d+"/g, '<ItemOut quantity="100"')
    .replace(/<Money currency="EUR">12\.50</g, '<Money currency="USD">0.12<')
    .replace(/<Money currency="EUR">[0-9.]+</, `<Money currency="USD">${(lines * 12).toFixed(2)}<`);
}
