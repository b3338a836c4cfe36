/**
 * Cart lines for large purchase orders, seeded through the store API as a punch-out would leave them: the
 * lines test/cxml/large-order-request.ts's OrderRequest names, its three SKUs in turn, each 100 at 0.12
 * USD (the terms the tests and benchmarks send it on), in one session of buyer acme's user jroe — the
 * returning user of setupRequest(), whose UniqueName is the buyer user's key.
 */
import type { Store } from '../../src/store/port.ts';

const SKUS = ['BC-STD', 'FLY-A5', 'POS-CUSTOM'];

export interface OrderLinesOptions {
  sessionId: string;
  lines: number;
  expiresAt: Date;
  /** The reference of line `i` (1-based); default `L-00000001`…, the gateway's 8-character form. */
  lineRef?: (i: number) => string;
}

/**
 * @example
 * const lineRefs = await seedOrderLines(store, config.storefronts[0].products, { sessionId: 's', lines: 5000, expiresAt });
 */
export async function seedOrderLines(
  store: Pick<Store, 'sessions' | 'cart'>,
  products: readonly { productId: number; sku: string; name: string; uom: string }[],
  options: OrderLinesOptions,
): Promise<string[]> {
  const lineRef = options.lineRef ?? ((i: number) => `L-${String(i).padStart(8, '0')}`);
  const session = await store.sessions.create({
    id: options.sessionId,
    buyerId: 'acme',
    storefrontId: 'demo',
    protocol: 'cxml',
    operation: 'create',
    returnUrl: 'https://buyer.example/punchout/return',
    buyerUserKey: 'jroe',
    pipoUserRef: 'jroe',
    expiresAt: options.expiresAt,
  });
  const lineRefs: string[] = [];
  for (let i = 1; i <= options.lines; i++) {
    const sku = SKUS[i % SKUS.length];
    const product = products.find((p) => p.sku === sku);
    if (product === undefined) throw new Error(`the test config has no ${sku}`);
    const line = await store.cart.add({
      lineRef: lineRef(i),
      sessionId: session.id,
      buyerId: 'acme',
      storefrontId: 'demo',
      userRef: 'jroe',
      designId: i,
      productId: product.productId,
      sku: product.sku,
      name: product.name,
      quantity: 100,
      unitPrice: '0.12',
      currency: 'USD',
      uom: product.uom,
    });
    lineRefs.push(line.lineRef);
  }
  return lineRefs;
}
