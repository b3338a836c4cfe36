/**
 * The buyer's ControlKeys obeyed by what ships: `punchgate serve --config FILE` beside `punchgate sandbox`,
 * the buyer invoiced on ship (`"invoices": {"send": "on-ship"}`, as docs/configuration.md writes it), on a
 * SQLite file and on PostgreSQL. An ERS PO (`InvoiceInstruction isERS`) is confirmed and shipped but never
 * invoiced; a PO with `ASNInstruction notAllowed` is confirmed and its print order closes once shipped,
 * with no ship notice.
 */
import { describe, expect, it } from 'vitest';
import { linesOf, orderRequest, punchOut, receivedDocuments, type XmlTree } from '../support/order-flow.ts';
import { useFaultDatabase } from '../support/postgres-faults-database.ts';
import { describeWithPostgres } from '../support/postgres-test-database.ts';
import type { BuyerSystem } from './buyer-system.ts';
import { eventually, SHIP_TEST_TIMEOUT_MS } from './processes.ts';
import {
  printShopApi,
  type ServeBesideSandbox,
  type ServeBesideSandboxOptions,
  serveBrowser,
  useServeBesideSandbox,
} from './serve-beside-sandbox.ts';
import { ADMIN_TOKEN } from './user-config.ts';

const INVOICED_ON_SHIP: ServeBesideSandboxOptions['adjustConfig'] = (config) => {
  config.buyers[0].invoices = { send: 'on-ship' };
};

/** The documents of one kind the buyer received about PO `orderID` (by their OrderReference). */
function documentsFor(
  buyer: BuyerSystem,
  request: 'ConfirmationRequest' | 'ShipNoticeRequest',
  orderID: string,
) {
  return receivedDocuments(buyer, request).filter(({ doc }) => {
    const body = doc.Request[request];
    const reference = body.OrderReference ?? [body.ShipNoticePortion].flat()[0]?.OrderReference;
    return reference?.['@orderID'] === orderID;
  });
}

const invoicesPosted = (buyer: BuyerSystem) =>
  buyer.orderStatusPosts.filter((post) => post.body.includes('<InvoiceDetailRequest'));

function controlKeysThroughServe(stack: ServeBesideSandbox) {
  const browser = serveBrowser(() => stack.serve);

  const admin = async (path: string): Promise<XmlTree> => {
    const answer = await fetch(`${stack.serve.url}/admin${path}`, {
      headers: { Authorization: `Bearer ${ADMIN_TOKEN}` },
    });
    expect(answer.status, `GET /admin${path}`).toBe(200);
    return answer.json();
  };

  /** Orders a fresh punch-out as `orderID` with `controlKeys` in its header; answers its print order id. */
  async function orderWith(
    orderID: string,
    controlKeys: string,
  ): Promise<{ poId: string; printOrderId: number }> {
    const { buyer, sandbox, serve } = stack;
    const processes = [serve.process, sandbox.process];
    const cart = await punchOut(browser, ['Business cards'], { browserFormPost: buyer.returnUrl });
    const payloadID = `${orderID.toLowerCase()}-${Date.now()}@acme.example`;
    const answer = await browser.postCxml(
      orderRequest({
        payloadID,
        orderID,
        lines: linesOf(cart),
        headerXml: `<ControlKeys>${controlKeys}</ControlKeys>`,
      }),
    );
    expect(answer).toMatch(/<Status code="200" text="OK"/);
    const [accept] = await eventually(
      `the accept of ${orderID} at the buyer`,
      () => {
        const found = documentsFor(buyer, 'ConfirmationRequest', orderID);
        return found.length > 0 ? found : undefined;
      },
      { processes },
    );
    const printOrderId = Number(accept?.doc.Request.ConfirmationRequest.ConfirmationHeader['@confirmID']);
    const { items } = await admin('/orders');
    const po = items.find((o: XmlTree) => o.orderId === orderID);
    return { poId: po.id, printOrderId };
  }

  /** Marks the print order shipped at the print service and waits until serve has closed it. */
  async function shipAndSettle(poId: string, printOrderId: number): Promise<XmlTree> {
    const processes = [stack.serve.process, stack.sandbox.process];
    await printShopApi(stack.sandbox).markShipped(printOrderId, { trackingNumber: '1Z999AA10123456784' });
    return eventually(
      `print order ${printOrderId} closed by serve`,
      async () => {
        const detail = await admin(`/orders/${poId}`);
        return detail.printOrders[0]?.state === 'closed' ? detail : undefined;
      },
      { processes },
    );
  }

  it(
    'an ERS PO is confirmed and shipped but never invoiced',
    async () => {
      const { buyer } = stack;
      const { poId, printOrderId } = await orderWith('PO-ERS-1', '<InvoiceInstruction value="isERS"/>');
      const detail = await shipAndSettle(poId, printOrderId);
      await eventually(
        'the ship notice of PO-ERS-1 at the buyer',
        () => documentsFor(buyer, 'ShipNoticeRequest', 'PO-ERS-1')[0],
        { processes: [stack.serve.process, stack.sandbox.process] },
      );
      expect(documentsFor(buyer, 'ShipNoticeRequest', 'PO-ERS-1')).toHaveLength(1);
      expect(invoicesPosted(buyer)).toEqual([]);
      expect(detail.instructions).toMatchObject({ invoice: false, confirmation: true, shipNotice: true });
      expect(await admin(`/orders/${poId}/invoices`)).toEqual({ items: [], holds: [] });
      // No invoice was queued either, so none can reach the buyer later.
      expect(detail.outbox.map((m: XmlTree) => m.kind)).not.toContain('invoice');
      const refused = await fetch(`${stack.serve.url}/admin/orders/${poId}/invoice`, {
        method: 'POST',
        headers: { Authorization: `Bearer ${ADMIN_TOKEN}` },
      });
      expect(refused.status).toBe(409);
      expect(((await refused.json()) as XmlTree).error.message).toBe(
        `Purchase order record ${poId} is not invoiced: the buyer's OrderRequest allows no invoice or credit memo: InvoiceInstruction isERS (order).`,
      );
      expect(invoicesPosted(buyer)).toEqual([]);
    },
    SHIP_TEST_TIMEOUT_MS,
  );

  it(
    'a PO with ASNInstruction notAllowed gets no ship notice; its print order closes once shipped (and is invoiced)',
    async () => {
      const { buyer } = stack;
      const { poId, printOrderId } = await orderWith('PO-NO-ASN-1', '<ASNInstruction value="notAllowed"/>');
      const detail = await shipAndSettle(poId, printOrderId);
      expect(detail.printOrders[0].shipmentsNotified).toEqual([1]);
      // Nothing was queued for it, so nothing can reach the buyer later either.
      expect(detail.outbox.map((m: XmlTree) => m.kind)).not.toContain('ship_notice');
      expect(documentsFor(buyer, 'ShipNoticeRequest', 'PO-NO-ASN-1')).toEqual([]);
      // Nothing else forbids the invoice: it goes out as the buyer's settings say.
      expect((await admin(`/orders/${poId}/invoices`)).items).toHaveLength(1);
    },
    SHIP_TEST_TIMEOUT_MS,
  );
}

describe('punchgate serve obeys the buyer’s ControlKeys (SQLite)', { timeout: SHIP_TEST_TIMEOUT_MS }, () => {
  controlKeysThroughServe(useServeBesideSandbox({ adjustConfig: INVOICED_ON_SHIP }));
});

describeWithPostgres('punchgate serve obeys the buyer’s ControlKeys (PostgreSQL)', () => {
  // A database of its own, as `serve` uses one (its default schema), dropped afterwards.
  const database = useFaultDatabase();
  controlKeysThroughServe(
    useServeBesideSandbox({ adjustConfig: INVOICED_ON_SHIP, databaseUrl: () => database.url() }),
  );
});
