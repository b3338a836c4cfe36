/**
 * Purchase orders for the Worker under workerd, with their cart lines seeded straight into D1: the shape
 * bench/cases/po-intake.ts and growth-po.ts send (test/cxml/large-order-request.ts's Ariba layout), each PO
 * naming cart lines of its own. Used by the Worker tests and bench/cases/worker-cpu.ts.
 */
import { largeOrderRequest } from '../cxml/large-order-request.ts';

const SKUS = [
  ['BC-STD', 101],
  ['FLY-A5', 102],
  ['POS-CUSTOM', 103],
] as const;

/**
 * largeOrderRequest's PO `serial` with `lines` lines naming the cart lines `K<serial>-<line>`, on the cart's
 * terms (100 at 0.12 USD each).
 */
export function workerOrder(serial: number, lines: number): string {
  return largeOrderRequest(lines)
    .replace(/payloadID="[^"]*"/, `payloadID="worker-cpu-${serial}@buyer.example"`)
    .replace(/orderID="[^"]*"/, `orderID="PO-W${serial}"`)
    .replace(/L-(\d{6})/g, `K${serial}-$1`)
    .replace(/<ItemOut quantity="\d+"/g, '<ItemOut quantity="100"')
    .replace(/<Money currency="EUR">12\.50</g, '<Money currency="USD">0.12<')
    .replace(/<Money currency="EUR">[0-9.]+</, `<Money currency="USD">${(lines * 12).toFixed(2)}<`);
}

/** The line references `workerOrder(serial, lines)` names. */
export const lineRefsOf = (serial: number, lines: number) =>
  Array.from({ length: lines }, (_, i) => `K${serial}-${String(i + 1).padStart(6, '0')}`);

export interface D1Like {
  prepare(sql: string): { bind(...values: unknown[]): { run(): Promise<unknown> } };
}

/**
 * Cart lines of buyer acme's user jroe (the returning user of the setup), straight into D1 in one
 * statement per 1,000 lines: the line references travel as one JSON parameter.
 */
export async function seedWorkerLines(db: D1Like, lineRefs: readonly string[]): Promise<void> {
  const now = Date.now();
  for (let start = 0; start < lineRefs.length; start += 1_000) {
    const rows = lineRefs.slice(start, start + 1_000).map((ref, i) => {
      const [sku, productId] = SKUS[(start + i + 1) % SKUS.length]!;
      return [ref, sku, productId];
    });
    await db
      .prepare(
        `INSERT INTO cart_lines (line_ref, session_id, buyer_id, storefront_id, user_ref, design_id, product_id,
           sku, name, quantity, unit_price, currency, uom, position, state, created_at, updated_at)
         SELECT json_extract(value, '$[0]'), 'worker-cpu-session', 'acme', 'demo', 'jroe',
           json_extract(value, '$[2]'), json_extract(value, '$[2]'), json_extract(value, '$[1]'), 'Print item',
           100, '0.12', 'USD', 'EA', key + 1, 'cart', ?1, ?1
         FROM json_each(?2)`,
      )
      .bind(now, JSON.stringify(rows))
      .run();
  }
}
