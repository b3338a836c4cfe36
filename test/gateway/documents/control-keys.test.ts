/**
 * The buyer's ControlKeys in process, through the sandbox: what the gateway does NOT send when the
 * OrderRequest forbids it — no ConfirmationRequest under OCInstruction notAllowed (and an operator told what
 * one would have said), no ShipNoticeRequest (or none naming a line) under ASNInstruction notAllowed, a ship
 * notice held until a confirmation was delivered under requiredBeforeASN, and no invoice nor credit memo
 * under ERS on any path: on ship, by the reconciliation, after a cancellation, or an operator's "invoice now".
 */
import { describe, expect, it } from 'vitest';
import type { GatewayConfigInput, InvoiceConfig } from '../../../schemas/config.ts';
import {
  adminJson,
  confirmationsReceived,
  createOrderStack,
  drain,
  linesOf,
  type OrderLineIn,
  type OrderStack,
  orderConfig,
  printOrdersFor,
  punchOut,
  receivedDocuments,
  sendOrder,
  type XmlTree,
  buyersWith,
} from '../../support/order-flow.ts';
import { cxmlStatusAnswer } from '../../support/stack.ts';
import { signIn } from '../operator/console/console-support.ts';

function configWith(invoices?: Partial<InvoiceConfig>): GatewayConfigInput {
  const base = orderConfig();
  return {
    ...base,
    buyers: base.buyers.map((b) => (b.id === 'acme' && invoices !== undefined ? { ...b, invoices } : b)),
  };
}

const keys = (inner: string) => `<ControlKeys>${inner}</ControlKeys>`;

interface Placed {
  poId: string;
  printOrderId: number;
}

/** A punch-out of `products` ordered with `headerXml` (and per-line markup), placed and settled. */
async function placeWith(
  stack: OrderStack,
  orderID: string,
  options: {
    headerXml?: string;
    lineXml?: string[];
    products?: string[];
    edit?: (l: OrderLineIn[]) => OrderLineIn[];
  },
): Promise<Placed> {
  await stack.worker.startup();
  const cart = await punchOut(stack, options.products ?? ['Business cards']);
  const lines = linesOf(cart).map((line, i) => ({ ...line, itemXml: options.lineXml?.[i] ?? '' }));
  const payloadID = `${orderID}@ariba.example`;
  const answer = await sendOrder(stack, {
    payloadID,
    orderID,
    lines: options.edit === undefined ? lines : options.edit(lines),
    ...(options.headerXml !== undefined && { headerXml: options.headerXml }),
  });
  expect(answer).toMatchObject({ code: 200 });
  await drain(stack);
  const [printOrderId] = await printOrdersFor(stack, orderID);
  const po = await stack.store.orders.getByPayloadId('acme', payloadID);
  if (po === undefined || printOrderId === undefined) throw new Error('the order was not placed');
  return { poId: po.id, printOrderId };
}

const invoicesPosted = (stack: OrderStack) =>
  stack.orderStatusPosts.filter((post) => post.body.includes('<InvoiceDetailRequest'));

const shipNoticeLines = (notice: XmlTree): string[] =>
  [notice.doc.Request.ShipNoticeRequest.ShipNoticePortion.ShipNoticeItem]
    .flat()
    .map((item: XmlTree) => item['@lineNumber']);

describe('OCInstruction notAllowed', () => {
  it('a plain accept is not sent and needs nobody; the PO is ordered and its shipment still notified', async () => {
    const stack = await createOrderStack(configWith());
    const { poId, printOrderId } = await placeWith(stack, 'PO-OC-NONE', {
      headerXml: keys('<OCInstruction value="notAllowed"/>'),
    });
    expect(confirmationsReceived(stack)).toEqual([]);
    expect(await stack.store.orders.get(poId)).toMatchObject({ state: 'ordered', flags: [] });

    await stack.api.markShipped(printOrderId, { trackingNumber: '1Z999AA10123456784' });
    await drain(stack);
    expect(confirmationsReceived(stack)).toEqual([]);
    expect(receivedDocuments(stack, 'ShipNoticeRequest')).toHaveLength(1);
    const operator = await signIn(stack);
    const page = await (await operator.get(`/admin/ui/orders/${poId}`)).text();
    expect(page).toContain(
      '<dt>Accept sent to the buyer</dt><dd>not sent: the buyer allows no confirmation (OCInstruction notAllowed)</dd>',
    );
    const { body } = await adminJson(stack, `/admin/orders/${poId}`);
    expect(body.instructions).toEqual({
      confirmation: false,
      confirmationBeforeShipNotice: false,
      shipNotice: true,
      invoice: true,
      inForce: [
        'OCInstruction notAllowed (order): no order confirmation is sent; what one would say goes to an operator',
      ],
    });
  });

  it("a line's own notAllowed withholds the confirmation of the whole order", async () => {
    const stack = await createOrderStack(configWith());
    await placeWith(stack, 'PO-OC-LINE', {
      products: ['Business cards', 'A5 flyer'],
      lineXml: ['', keys('<OCInstruction value="notAllowed"/>')],
    });
    expect(confirmationsReceived(stack)).toEqual([]);
  });

  it('a line header-forbidden but allowed on every line is confirmed', async () => {
    const stack = await createOrderStack(configWith());
    await placeWith(stack, 'PO-OC-LIFTED', {
      headerXml: keys('<OCInstruction value="notAllowed"/>'),
      lineXml: [keys('<OCInstruction value="allowed"/>')],
    });
    expect(confirmationsReceived(stack).map((c) => c.type)).toEqual(['accept']);
  });

  it('what a withheld confirmation would have said (a price deviation) goes to an operator instead', async () => {
    const stack = await createOrderStack(configWith());
    const { poId } = await placeWith(stack, 'PO-OC-DEVIATES', {
      headerXml: keys('<OCInstruction value="notAllowed"/>'),
      edit: (lines) => lines.map((line) => ({ ...line, unitPrice: '0.10' })),
    });
    expect(confirmationsReceived(stack)).toEqual([]);
    const po = await stack.store.orders.get(poId);
    expect(po).toMatchObject({
      state: 'needs_operator',
      flags: ['price_mismatch', 'confirmation_withheld'],
    });
    expect(po?.lastError).toMatch(
      /^No ConfirmationRequest was sent \(the buyer's OrderRequest allows no ConfirmationRequest: OCInstruction notAllowed \(order\)\); it would have said \(accept\): Accepted as print order \d+\. The quantities or prices of line 1 differ from the cart; they are confirmed as this order states them\.$/,
    );
  });
});

describe('OCInstruction notAllowed, when something goes wrong or changes', () => {
  it('a PO that could not be placed fails without a reject to the buyer; the operator reads what it would have said', async () => {
    const stack = await createOrderStack(configWith());
    await stack.worker.startup();
    const cart = await punchOut(stack, ['Business cards']);
    stack.printServiceDown = true;
    const answer = await sendOrder(stack, {
      payloadID: 'po-oc-down@ariba.example',
      orderID: 'PO-OC-DOWN',
      lines: linesOf(cart),
      headerXml: keys('<OCInstruction value="notAllowed"/>'),
    });
    expect(answer).toMatchObject({ code: 200 });
    for (const seconds of [0, 30, 60]) {
      stack.clock.advance(seconds);
      await drain(stack);
    }
    expect(confirmationsReceived(stack)).toEqual([]);
    const po = await stack.store.orders.getByPayloadId('acme', 'po-oc-down@ariba.example');
    expect(po).toMatchObject({ state: 'failed', flags: ['confirmation_withheld'] });
    expect(po?.lastError).toBe(
      'The print service could not create the print order (unavailable). No ConfirmationRequest was sent ' +
        "(the buyer's OrderRequest allows no ConfirmationRequest: OCInstruction notAllowed (order)); it " +
        'would have said (reject): The supplier could not place this order: The print service could not ' +
        'create the print order (unavailable).',
    );
  });

  it('a change gets no change notice; it waits for an operator as every change does, and the order stays ordered', async () => {
    const stack = await createOrderStack(configWith());
    const header = keys('<OCInstruction value="notAllowed"/>');
    await stack.worker.startup();
    const cart = await punchOut(stack, ['Business cards']);
    const lines = linesOf(cart);
    await sendOrder(stack, {
      payloadID: 'po-oc-v1@ariba.example',
      orderID: 'PO-OC-CHANGE',
      lines,
      headerXml: header,
    });
    await drain(stack);
    await sendOrder(stack, {
      payloadID: 'po-oc-v2@ariba.example',
      orderID: 'PO-OC-CHANGE',
      type: 'update',
      orderVersion: '2',
      previousPayloadID: 'po-oc-v1@ariba.example',
      lines: lines.map((line) => ({ ...line, quantity: '500' })),
      headerXml: header,
    });
    await drain(stack);
    expect(confirmationsReceived(stack)).toEqual([]);
    expect(await stack.store.orders.getByPayloadId('acme', 'po-oc-v1@ariba.example')).toMatchObject({
      state: 'ordered',
      flags: ['changed_by_buyer'],
    });
    expect(await stack.store.orders.getByPayloadId('acme', 'po-oc-v2@ariba.example')).toMatchObject({
      state: 'needs_operator',
      flags: ['quantity_mismatch', 'update_needs_operator'],
    });
  });
});

describe('ASNInstruction notAllowed', () => {
  it('no ShipNoticeRequest goes out, and the shipped print order is closed all the same', async () => {
    const stack = await createOrderStack(configWith());
    const { printOrderId } = await placeWith(stack, 'PO-ASN-NONE', {
      headerXml: keys('<ASNInstruction value="notAllowed"/>'),
    });
    await stack.api.markShipped(printOrderId, { trackingNumber: '1Z999AA10123456784' });
    await drain(stack);
    stack.clock.advance(3600);
    await drain(stack);
    expect(confirmationsReceived(stack).map((c) => c.type)).toEqual(['accept']);
    expect(receivedDocuments(stack, 'ShipNoticeRequest')).toEqual([]);
    expect(await stack.store.printOrders.get('demo', printOrderId)).toMatchObject({
      state: 'closed',
      shipmentsNotified: [1],
    });
  });

  it('on one line only: the ship notice names the other line', async () => {
    const stack = await createOrderStack(configWith());
    const { printOrderId } = await placeWith(stack, 'PO-ASN-LINE', {
      products: ['Business cards', 'A5 flyer'],
      lineXml: ['', keys('<ASNInstruction value="notAllowed"/>')],
    });
    await stack.api.markShipped(printOrderId, { trackingNumber: '1Z999AA10123456784' });
    await drain(stack);
    const notices = receivedDocuments(stack, 'ShipNoticeRequest');
    expect(notices.map(shipNoticeLines)).toEqual([['1']]);
  });
});

describe('OCInstruction requiredBeforeASN', () => {
  it('the ship notice waits until a confirmation was delivered, then the reconciliation sends it', async () => {
    const stack = await createOrderStack(configWith());
    // The buyer's endpoint is down for confirmations: the accept stays in the outbox.
    stack.answerOrderStatus = (post) =>
      post.body.includes('<ConfirmationRequest')
        ? new Response('unavailable', { status: 503 })
        : cxmlStatusAnswer(200, 'OK');
    const { poId, printOrderId } = await placeWith(stack, 'PO-OC-BEFORE-ASN', {
      headerXml: keys('<OCInstruction value="requiredBeforeASN"/>'),
    });
    await stack.api.markShipped(printOrderId, { trackingNumber: '1Z999AA10123456784' });
    await drain(stack);
    expect(receivedDocuments(stack, 'ShipNoticeRequest')).toEqual([]);
    expect(await stack.store.printOrders.get('demo', printOrderId)).toMatchObject({
      state: 'open',
      shipmentsNotified: [],
    });
    const outbox = await stack.store.outbox.list({ poId });
    expect(outbox.items.map((m) => [m.kind, m.state])).toEqual([['confirmation', 'pending']]);

    stack.answerOrderStatus = () => cxmlStatusAnswer(200, 'OK');
    stack.clock.advance(3600);
    await drain(stack);
    stack.clock.advance(3600);
    await drain(stack);
    const after = (await stack.store.outbox.list({ poId })).items.sort(
      (a, b) => a.createdAt.getTime() - b.createdAt.getTime(),
    );
    expect(after.map((m) => [m.kind, m.state])).toEqual([
      ['confirmation', 'delivered'],
      ['ship_notice', 'delivered'],
    ]);
    expect(receivedDocuments(stack, 'ShipNoticeRequest')).toHaveLength(1);
    expect(await stack.store.printOrders.get('demo', printOrderId)).toMatchObject({
      state: 'closed',
      shipmentsNotified: [1],
    });
  });
});

describe('InvoiceInstruction isERS (evaluated receipt settlement)', () => {
  it('confirmed and shipped but never invoiced: not on ship, not by the reconciliation, not after a cancellation, and invoice now refuses', async () => {
    const stack = await createOrderStack(configWith({ send: 'on-ship' }));
    const { poId, printOrderId } = await placeWith(stack, 'PO-ERS', {
      headerXml: keys('<InvoiceInstruction value="isERS"/>'),
    });
    await stack.api.markShipped(printOrderId, { trackingNumber: '1Z999AA10123456784' });
    await drain(stack);
    stack.clock.advance(3600);
    await drain(stack);
    expect(confirmationsReceived(stack).map((c) => c.type)).toEqual(['accept']);
    expect(receivedDocuments(stack, 'ShipNoticeRequest')).toHaveLength(1);
    expect(invoicesPosted(stack)).toEqual([]);
    expect(await stack.store.printOrders.get('demo', printOrderId)).toMatchObject({ state: 'closed' });

    expect(await adminJson(stack, `/admin/orders/${poId}/invoice`, { method: 'POST' })).toEqual({
      status: 409,
      body: {
        error: {
          code: 'conflict',
          message:
            `Purchase order record ${poId} is not invoiced: the buyer's OrderRequest allows no invoice or ` +
            'credit memo: InvoiceInstruction isERS (order).',
        },
      },
    });
    stack.sandbox.control.setOrderStatus(printOrderId, { status: 'Cancelled' });
    await drain(stack);
    stack.clock.advance(3600);
    await drain(stack);
    expect(invoicesPosted(stack)).toEqual([]);
    expect(await stack.store.invoices.listByPo(poId)).toEqual([]);
    expect((await adminJson(stack, `/admin/orders/${poId}/invoices`)).body).toEqual({ items: [], holds: [] });
  });

  it('notAllowed and a TemporaryPrice of yes on the line withhold the invoice too; isNotERS on the line lifts the header ERS', async () => {
    for (const [orderID, headerXml, lineXml, invoiced] of [
      ['PO-INV-NOTALLOWED', keys('<InvoiceInstruction value="notAllowed"/>'), '', 0],
      [
        'PO-INV-TEMPORARY',
        '',
        keys('<InvoiceInstruction><TemporaryPrice value="yes"/></InvoiceInstruction>'),
        0,
      ],
      [
        'PO-INV-LIFTED',
        keys('<InvoiceInstruction value="isERS"/>'),
        keys('<InvoiceInstruction value="isNotERS"/>'),
        1,
      ],
    ] as const) {
      const stack = await createOrderStack(configWith({ send: 'on-ship' }));
      const { printOrderId } = await placeWith(stack, orderID, { headerXml, lineXml: [lineXml] });
      await stack.api.markShipped(printOrderId, { trackingNumber: '1Z999AA10123456784' });
      await drain(stack);
      expect(invoicesPosted(stack), orderID).toHaveLength(invoiced);
    }
  });
});

/**
 * A document queued before the buyer's instructions were read (by an older punchgate): in the outbox, dead,
 * so only an operator's retry or resend could send it.
 */
async function legacyDeadDocument(
  stack: OrderStack,
  poId: string,
  kind: 'confirmation' | 'ship_notice' | 'invoice',
  dedupeKey: string,
  body: string,
) {
  const { message } = await stack.store.outbox.enqueue({
    buyerId: 'acme',
    poId,
    kind,
    dedupeKey,
    url: 'https://buyer.example/order-status',
    body,
  });
  const [claimed] = await stack.store.outbox.claimDue(stack.clock.now(), 60_000, 10);
  expect(claimed?.id).toBe(message.id);
  if (claimed !== undefined) await stack.store.outbox.markDead(claimed, 'HTTP 500 (older punchgate)');
  return message.id;
}

/** The body of the first document of `kind` the buyer received in `other` (a stack without instructions). */
function bodyOf(stack: OrderStack, request: string): string {
  const post = stack.orderStatusPosts.find((p) => p.body.includes(`<${request}`));
  if (post === undefined) throw new Error(`no ${request} was received`);
  return post.body;
}

/** An operator's retry and resend of outbox message `id`: both answers. */
async function retryAndResend(stack: OrderStack, id: string) {
  return [
    await adminJson(stack, `/admin/outbox/${id}/retry`, { method: 'POST' }),
    await adminJson(stack, `/admin/outbox/${id}/resend`, { method: 'POST' }),
  ];
}

const refused = (message: string) => ({ status: 409, body: { error: { code: 'conflict', message } } });

describe('OCInstruction notAllowed, on every path that sends a confirmation', () => {
  it('the supplier cancelling the print order: no reject reaches the buyer; the operator reads what it would have said', async () => {
    const stack = await createOrderStack(configWith());
    const { poId, printOrderId } = await placeWith(stack, 'PO-OC-SUPPLIER-CANCEL', {
      headerXml: keys('<OCInstruction value="notAllowed"/>'),
    });
    stack.sandbox.control.setOrderStatus(printOrderId, { status: 'Cancelled' });
    await drain(stack);
    expect(confirmationsReceived(stack)).toEqual([]);
    const po = await stack.store.orders.get(poId);
    expect(po).toMatchObject({
      state: 'needs_operator',
      flags: ['cancelled_by_supplier', 'confirmation_withheld'],
    });
    // Both reasons kept: the cancellation, and the reject the buyer did not get.
    expect(po?.lastError).toBe(
      `Print order ${printOrderId} was set to "Cancelled" on the print service. ` +
        "No ConfirmationRequest was sent (the buyer's OrderRequest allows no ConfirmationRequest: OCInstruction " +
        `notAllowed (order)); it would have said (reject): Print order ${printOrderId} was cancelled by the ` +
        'supplier (status "Cancelled"). No line of this order will be delivered.',
    );
  });

  it('status notices of a confirmDetails buyer, by webhook or by the reconciliation, are not sent', async () => {
    const base = configWith();
    const stack = await createOrderStack({
      ...base,
      buyers: buyersWith(base.buyers, 'acme', { confirmDetails: true }),
    });
    const { poId, printOrderId } = await placeWith(stack, 'PO-OC-NOTICES', {
      headerXml: keys('<OCInstruction value="notAllowed"/>'),
    });
    stack.sandbox.control.setOrderStatus(printOrderId, { status: 'In Production' });
    await drain(stack);
    stack.webhooksLost = true;
    await stack.api.markShipped(printOrderId, { trackingNumber: '1Z999AA10123456784' });
    stack.clock.advance(300);
    await drain(stack);
    expect(confirmationsReceived(stack)).toEqual([]);
    expect(receivedDocuments(stack, 'ShipNoticeRequest')).toHaveLength(1);
    // Notices say nothing an operator must act on: the PO is not put before one.
    expect(await stack.store.orders.get(poId)).toMatchObject({ state: 'ordered', flags: [] });
  });

  it("an operator's retry of a failed PO places it without an accept", async () => {
    const stack = await createOrderStack(configWith());
    await stack.worker.startup();
    const cart = await punchOut(stack, ['Business cards']);
    stack.printServiceDown = true;
    await sendOrder(stack, {
      payloadID: 'po-oc-retry@ariba.example',
      orderID: 'PO-OC-RETRY',
      lines: linesOf(cart),
      headerXml: keys('<OCInstruction value="notAllowed"/>'),
    });
    for (const seconds of [0, 30, 60]) {
      stack.clock.advance(seconds);
      await drain(stack);
    }
    const po = await stack.store.orders.getByPayloadId('acme', 'po-oc-retry@ariba.example');
    expect(po?.state).toBe('failed');
    stack.printServiceDown = false;
    expect((await adminJson(stack, `/admin/orders/${po?.id}/retry`, { method: 'POST' })).status).toBe(202);
    await drain(stack);
    expect(await printOrdersFor(stack, 'PO-OC-RETRY')).toHaveLength(1);
    expect(confirmationsReceived(stack)).toEqual([]);
  });

  it('a confirmation queued before the instructions were read is neither retried nor re-sent', async () => {
    const other = await createOrderStack(configWith());
    await placeWith(other, 'PO-OC-LEGACY-SOURCE', {});
    const stack = await createOrderStack(configWith());
    const { poId } = await placeWith(stack, 'PO-OC-LEGACY', {
      headerXml: keys('<OCInstruction value="notAllowed"/>'),
    });
    const id = await legacyDeadDocument(
      stack,
      poId,
      'confirmation',
      `confirm:${poId}:legacy`,
      bodyOf(other, 'ConfirmationRequest'),
    );
    const why = "the buyer's OrderRequest allows no ConfirmationRequest: OCInstruction notAllowed (order).";
    expect(await retryAndResend(stack, id)).toEqual([
      refused(`The confirmation document confirm:${poId}:legacy is not sent again: ${why}`),
      refused(`The confirmation document confirm:${poId}:legacy is not sent again: ${why}`),
    ]);
    await drain(stack);
    expect(confirmationsReceived(stack)).toEqual([]);
  });
});

describe('ASNInstruction notAllowed, on every path that sends a ship notice', () => {
  it('a shipment seen only by the reconciliation (the webhook lost) gets no notice either', async () => {
    const stack = await createOrderStack(configWith());
    const { printOrderId } = await placeWith(stack, 'PO-ASN-RECONCILED', {
      headerXml: keys('<ASNInstruction value="notAllowed"/>'),
    });
    stack.webhooksLost = true;
    await stack.api.markShipped(printOrderId, { trackingNumber: '1Z999AA10123456784' });
    await drain(stack);
    stack.clock.advance(300);
    await drain(stack);
    expect(await stack.store.printOrders.get('demo', printOrderId)).toMatchObject({
      state: 'closed',
      shipmentsNotified: [1],
    });
    expect(receivedDocuments(stack, 'ShipNoticeRequest')).toEqual([]);
  });

  it('a ship notice queued before the instructions were read is neither retried nor re-sent', async () => {
    const other = await createOrderStack(configWith());
    const source = await placeWith(other, 'PO-ASN-LEGACY-SOURCE', {});
    await other.api.markShipped(source.printOrderId, { trackingNumber: '1Z999AA10123456784' });
    await drain(other);
    const stack = await createOrderStack(configWith());
    const { poId } = await placeWith(stack, 'PO-ASN-LEGACY', {
      headerXml: keys('<ASNInstruction value="notAllowed"/>'),
    });
    const id = await legacyDeadDocument(
      stack,
      poId,
      'ship_notice',
      'ship:demo:legacy:1',
      bodyOf(other, 'ShipNoticeRequest'),
    );
    const why = "the buyer's OrderRequest allows no ShipNoticeRequest: ASNInstruction notAllowed (order).";
    expect(await retryAndResend(stack, id)).toEqual([
      refused(`The ship_notice document ship:demo:legacy:1 is not sent again: ${why}`),
      refused(`The ship_notice document ship:demo:legacy:1 is not sent again: ${why}`),
    ]);
    await drain(stack);
    expect(receivedDocuments(stack, 'ShipNoticeRequest')).toEqual([]);
  });
});

describe('InvoiceInstruction isERS or notAllowed, on every path that sends an invoice or a credit memo', () => {
  it("an operator's retry of a failed ERS PO places it; shipped, it is still never invoiced", async () => {
    const stack = await createOrderStack(configWith({ send: 'on-ship' }));
    await stack.worker.startup();
    const cart = await punchOut(stack, ['Business cards']);
    stack.printServiceDown = true;
    await sendOrder(stack, {
      payloadID: 'po-ers-retry@ariba.example',
      orderID: 'PO-ERS-RETRY',
      lines: linesOf(cart),
      headerXml: keys('<InvoiceInstruction value="isERS"/>'),
    });
    for (const seconds of [0, 30, 60]) {
      stack.clock.advance(seconds);
      await drain(stack);
    }
    const po = await stack.store.orders.getByPayloadId('acme', 'po-ers-retry@ariba.example');
    stack.printServiceDown = false;
    expect((await adminJson(stack, `/admin/orders/${po?.id}/retry`, { method: 'POST' })).status).toBe(202);
    await drain(stack);
    const [printOrderId] = await printOrdersFor(stack, 'PO-ERS-RETRY');
    await stack.api.markShipped(printOrderId as number, { trackingNumber: '1Z999AA10123456784' });
    await drain(stack);
    stack.clock.advance(3600);
    await drain(stack);
    expect(receivedDocuments(stack, 'ShipNoticeRequest')).toHaveLength(1);
    expect(invoicesPosted(stack)).toEqual([]);
    expect(await stack.store.invoices.listByPo(po?.id ?? '')).toEqual([]);
  });

  it('invoice now refuses an InvoiceInstruction notAllowed PO with the instruction named', async () => {
    const stack = await createOrderStack(configWith({ send: 'on-ship' }));
    const { poId, printOrderId } = await placeWith(stack, 'PO-INV-NOW-NOTALLOWED', {
      headerXml: keys('<InvoiceInstruction value="notAllowed"/>'),
    });
    await stack.api.markShipped(printOrderId, { trackingNumber: '1Z999AA10123456784' });
    await drain(stack);
    expect(await adminJson(stack, `/admin/orders/${poId}/invoice`, { method: 'POST' })).toEqual(
      refused(
        `Purchase order record ${poId} is not invoiced: the buyer's OrderRequest allows no invoice or credit ` +
          'memo: InvoiceInstruction notAllowed (order).',
      ),
    );
    expect(invoicesPosted(stack)).toEqual([]);
  });

  it('an invoice issued before the instructions were read: cancelled after it, no credit memo; and it is neither re-sent nor retried', async () => {
    const other = await createOrderStack(configWith({ send: 'on-ship' }));
    const source = await placeWith(other, 'PO-ERS-LEGACY-SOURCE', {});
    await other.api.markShipped(source.printOrderId, { trackingNumber: '1Z999AA10123456784' });
    await drain(other);
    const stack = await createOrderStack(configWith({ send: 'on-ship' }));
    const { poId, printOrderId } = await placeWith(stack, 'PO-ERS-LEGACY', {
      headerXml: keys('<InvoiceInstruction value="isERS"/>'),
    });
    const { invoice } = await stack.store.invoices.issue({
      buyerId: 'acme',
      poId,
      storefrontId: 'demo',
      printOrderId,
      scope: 'order',
      purpose: 'standard',
      idPrefix: 'PG-',
      invoiceDate: stack.clock.now(),
      amounts: {
        currency: 'EUR',
        subtotal: '12.00',
        tax: '0.00',
        shipping: '0.00',
        discount: '0.00',
        due: '12.00',
      },
    });
    const id = await legacyDeadDocument(
      stack,
      poId,
      'invoice',
      invoice.dedupeKey,
      invoicesPosted(other)[0]?.body ?? '',
    );

    // Cancelled on the print service after it was invoiced: under ERS nothing is credited either.
    stack.sandbox.control.setOrderStatus(printOrderId, { status: 'Cancelled' });
    await drain(stack);
    stack.clock.advance(3600);
    await drain(stack);
    expect((await stack.store.invoices.listByPo(poId)).map((i) => i.purpose)).toEqual(['standard']);

    const why =
      "the buyer's OrderRequest allows no invoice or credit memo: InvoiceInstruction isERS (order).";
    expect(await retryAndResend(stack, id)).toEqual([
      refused(`The invoice document ${invoice.dedupeKey} is not sent again: ${why}`),
      refused(`The invoice document ${invoice.dedupeKey} is not sent again: ${why}`),
    ]);
    expect(await adminJson(stack, `/admin/invoices/${invoice.id}/resend`, { method: 'POST' })).toEqual(
      refused(`Invoice ${invoice.invoiceId} is not sent again: ${why}`),
    );
    await drain(stack);
    expect(invoicesPosted(stack)).toEqual([]);
  });
});
