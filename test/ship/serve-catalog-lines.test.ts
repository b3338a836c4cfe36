/**
 * POs as real buyers send them, through what ships: `punchgate serve` beside `punchgate sandbox`, on SQLite
 * and on PostgreSQL. A PO mixing a design from the punch-out, a catalog product ordered as it is and a
 * freight line produces the first two in one print order and rejects the third by line; a second PO that
 * reuses its orderID with other lines is refused naming it, and the refusal is listed for operators.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { useFaultDatabase } from '../support/postgres-faults-database.ts';
import { describeWithPostgres } from '../support/postgres-test-database.ts';
import { linesOf, orderRequest, punchOut, receivedDocuments, type XmlTree } from '../support/order-flow.ts';
import { statusOf } from '../support/punchout-flow.ts';
import { eventually, SHIP_TEST_TIMEOUT_MS, stopAllCommands } from './processes.ts';
import {
  printShopApi,
  type ServeBesideSandbox,
  serveBrowser,
  startServeBesideSandbox,
} from './serve-beside-sandbox.ts';
import { ADMIN_TOKEN, type ConfigJson } from './user-config.ts';

/** The catalog product as docs/configuration.md describes it: sold as it is, as the sandbox's product 106. */
function withEnvelopes(config: ConfigJson): void {
  config.storefronts[0].products.push({
    productId: 106,
    printProductId: 106,
    sku: 'ENV-C4',
    name: 'C4 envelopes',
    uom: 'EA',
    minQuantity: 100,
    prices: [{ minQuantity: 1, unitPrice: 0.08 }],
  });
}

const asList = (value: XmlTree): XmlTree[] => (value === undefined ? [] : [value].flat());

function catalogLinesFlow(stack: () => ServeBesideSandbox): void {
  const browser = serveBrowser(() => stack().serve);

  it('a design, a catalog product and a freight line: two printed in one order, the freight rejected by line; the orderID reused with other lines is refused', async () => {
    const { buyer, sandbox, serve } = stack();
    const processes = [serve.process, sandbox.process];
    const cart = await punchOut(browser, ['Business cards'], { browserFormPost: buyer.returnUrl });
    const payloadID = `po-lines-${Date.now()}@acme.example`;
    const answer = await browser.postCxml(
      orderRequest({
        payloadID,
        orderID: 'PO-LINES-1',
        lines: [
          ...linesOf(cart),
          { sku: 'ENV-C4', quantity: '500', unitPrice: '0.08' },
          { sku: 'FREIGHT', quantity: '1', unitPrice: '25.00' },
        ],
      }),
    );
    expect(statusOf(answer)).toEqual({ code: 200, text: 'OK', detail: '' });

    const confirmed = await eventually(
      'the ConfirmationRequest detail at the buyer',
      () => receivedDocuments(buyer, 'ConfirmationRequest')[0],
      { processes },
    );
    const confirmation = confirmed.doc.Request.ConfirmationRequest;
    expect(confirmation.ConfirmationHeader['@type']).toBe('detail');
    expect(confirmation.OrderReference['@orderID']).toBe('PO-LINES-1');
    const statuses = asList(confirmation.ConfirmationItem).map((item: XmlTree) => {
      const status = item.ConfirmationStatus;
      return [item['@lineNumber'], status['@type'], status.Comments?.['#text'] ?? status.Comments];
    });
    expect(statuses).toEqual([
      ['1', 'accept', undefined],
      ['2', 'accept', undefined],
      ['3', 'reject', 'Line 3 (SupplierPartID FREIGHT) is not a product of this catalog'],
    ]);

    // On the print service: one print order with the design and the envelopes, nothing for the freight.
    const printOrderId = Number(confirmation.ConfirmationHeader['@confirmID']);
    const printOrder = await printShopApi(sandbox).getOrder(printOrderId);
    expect(printOrder.integration_id).toBe('PO-LINES-1');
    expect(printOrder.items.map((item) => item.product_id)).toEqual([cart[0]?.designId, 106]);

    // Another PO under the same orderID, with other lines: refused, naming the orderID and the stored PO.
    const reused = statusOf(
      await browser.postCxml(
        orderRequest({
          payloadID: `po-lines-again-${Date.now()}@acme.example`,
          orderID: 'PO-LINES-1',
          lines: [{ sku: 'ENV-C4', quantity: '1000', unitPrice: '0.08' }],
        }),
      ),
    );
    expect(reused.code).toBe(409);
    expect(reused.detail).toMatch(
      new RegExp(
        `^orderID PO-LINES-1 is already the purchase order with payloadID ${payloadID.replace(/[.]/g, '\\.')} of \\d{4}-\\d\\d-\\d\\dT[\\d:.]+Z, .*A change to an order is sent as type="update"; a new order needs its own orderID\\.$`,
      ),
    );
    const refusals = await fetch(`${serve.url}/admin/refusals?buyer=acme`, {
      headers: { Authorization: `Bearer ${ADMIN_TOKEN}` },
    });
    expect(refusals.status).toBe(200);
    const listed = (await refusals.json()) as {
      items: { documentType: string; status: number; answer: string; document: string }[];
    };
    expect(listed.items.map((r) => [r.documentType, r.status, r.answer])).toEqual([
      ['OrderRequest', 409, `Conflict: ${reused.detail}`],
    ]);
    expect(listed.items[0]?.document).toContain('orderID="PO-LINES-1"');
    // Still the one print order.
    expect(
      receivedDocuments(buyer, 'ConfirmationRequest').map(({ doc }) => doc.Request.ConfirmationRequest),
    ).toHaveLength(1);
  });
}

describe('catalog and fee lines through punchgate serve on SQLite', { timeout: SHIP_TEST_TIMEOUT_MS }, () => {
  let stack: ServeBesideSandbox | undefined;
  beforeAll(async () => {
    stack = await startServeBesideSandbox({ adjustConfig: withEnvelopes });
  }, SHIP_TEST_TIMEOUT_MS);
  afterAll(async () => {
    await stopAllCommands();
    await stack?.buyer.close();
  }, SHIP_TEST_TIMEOUT_MS);
  catalogLinesFlow(() => stack as ServeBesideSandbox);
});

describeWithPostgres('catalog and fee lines through punchgate serve on PostgreSQL', () => {
  const database = useFaultDatabase();
  let stack: ServeBesideSandbox | undefined;
  beforeAll(async () => {
    stack = await startServeBesideSandbox({
      adjustConfig: (config) => {
        withEnvelopes(config);
        config.store = { kind: 'postgres', url: { env: 'DATABASE_URL' } };
      },
      serveEnv: { DATABASE_URL: database.url() },
    });
  }, SHIP_TEST_TIMEOUT_MS);
  afterAll(async () => {
    await stopAllCommands();
    await stack?.buyer.close();
  }, SHIP_TEST_TIMEOUT_MS);
  catalogLinesFlow(() => stack as ServeBesideSandbox);
});
