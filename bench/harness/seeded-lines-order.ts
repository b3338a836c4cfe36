/**
 * An OrderRequest for the cart lines bench/servers/gateway-server.ts seeds (`orderLines`), on the cart's
 * terms (100 at 0.12 USD each): intake refuses a quantity or currency the product or storefront does not
 * allow.
 */
import { largeOrderRequest } from '../../test/cxml/large-order-request.ts';
import { freshPunchIn } from '../../test/support/punchout-flow.ts';
import type { Stack } from '../../test/support/stack.ts';
import { createTestStore } from '../../test/support/test-store.ts';

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

/**
 * The in-process stack on a fresh gateway and store, with a punch-in whose user has `lines` cart lines of
 * business cards (L-00000001 …, 100 at 0.12 USD): what `seededLinesOrder` and largeOrderRequest order.
 */
export async function freshCartOf(stack: Stack, lines: number): Promise<void> {
  const previous = stack.store;
  await stack.restartGateway(createTestStore({ clock: stack.clock }));
  await previous.close();
  const { session } = await freshPunchIn(stack);
  for (let i = 1; i <= lines; i++) {
    await stack.store.cart.add({
      lineRef: `L-${String(i).padStart(8, '0')}`,
      sessionId: session.id,
      buyerId: session.buyerId,
      storefrontId: session.storefrontId,
      userRef: session.pipoUserRef,
      designId: 101,
      productId: 101,
      sku: 'BC-STD',
      name: 'Business cards',
      quantity: 100,
      unitPrice: '0.12',
      currency: 'USD',
      uom: 'EA',
    });
  }
}
