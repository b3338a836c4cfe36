/**
 * A product priced per thousand (`priceUnit: 1000`) end to end in process, on the sandbox print service:
 * the cart sends its price per 1,000 with PriceBasisQuantity and a total of quantity × price ÷ 1,000, the
 * PO that repeats it is read per unit (so does one a buyer's system rewrote per piece), and the invoice
 * bills the PO's price with its basis, to the cent. A storefront in BHD gets a cart in fils.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { GatewayConfigInput } from '../../../schemas/config.ts';
import { setupRequest } from '../../support/cxml-documents.ts';
import {
  disposeDtdValidators,
  requireDtdValidator,
  validateAgainstDtd,
} from '../../support/dtd-validation.ts';
import {
  adminJson,
  createOrderStack,
  drain,
  type OrderLineIn,
  type OrderStack,
  orderConfig,
  parseXml,
  printOrdersFor,
  sendOrder,
  type XmlTree,
  buyersWith,
} from '../../support/order-flow.ts';
import {
  clickButton,
  cxmlFromForm,
  designProduct,
  returnFormOf,
  startUrlOf,
} from '../../support/punchout-flow.ts';

beforeAll(() => requireDtdValidator());
afterAll(() => disposeDtdValidators());

/** The order config with the business cards priced per 1,000 (the sandbox charges 0.12 a piece) in `currency`. */
function perThousandConfig(currency = 'USD'): GatewayConfigInput {
  const base = orderConfig();
  return {
    ...base,
    storefronts: base.storefronts.map((s) => ({
      ...s,
      currency,
      products: s.products.map((p) =>
        p.sku === 'BC-STD'
          ? {
              ...p,
              priceUnit: 1000,
              prices: [
                { minQuantity: 1, unitPrice: 120 },
                { minQuantity: 500, unitPrice: 90 },
              ],
            }
          : p,
      ),
    })),
    buyers: buyersWith(base.buyers, 'acme', { invoices: { send: 'on-ship' } }),
  };
}

/** One user's punch-out of the business cards: the cart page and the PunchOutOrderMessage handed back. */
async function cartOfCards(stack: OrderStack): Promise<{ cartPage: string; poom: string }> {
  const answer = await stack.postCxml(setupRequest({}));
  const catalog = await stack.browse(startUrlOf(answer));
  const cart = await designProduct(stack, catalog, 'Business cards', { Name: 'Jane Roe' });
  expect(cart.status).toBe(200);
  const transfer = await clickButton(stack, cart, 'Transfer cart to procurement system');
  return { cartPage: cart.text, poom: cxmlFromForm(returnFormOf(transfer)) };
}

const compact = (xml: string) => xml.replace(/>\s+</g, '><');
const PER_THOUSAND_XML =
  '<PriceBasisQuantity quantity="1000" conversionFactor="1"><UnitOfMeasure>EA</UnitOfMeasure></PriceBasisQuantity>';

async function flagsOf(stack: OrderStack, orderID: string): Promise<string[]> {
  const { body } = await adminJson(stack, '/admin/orders');
  return body.items.find((item: XmlTree) => item.orderId === orderID)?.flags;
}

/** The PO line the cart's one item becomes, as the buyer's system repeats it. */
function poLineOf(poom: string): OrderLineIn {
  const item = parseXml(poom).cXML.Message.PunchOutOrderMessage.ItemIn[0];
  return {
    lineRef: item.ItemID.SupplierPartAuxiliaryID,
    sku: item.ItemID.SupplierPartID,
    quantity: item['@quantity'],
    unitPrice: item.ItemDetail.UnitPrice.Money['#text'],
    currency: item.ItemDetail.UnitPrice.Money['@currency'],
    uom: item.ItemDetail.UnitOfMeasure,
  };
}

describe('a product priced per thousand', () => {
  it('round-trips cart → PO → invoice exactly, its price per 1,000 with PriceBasisQuantity all the way', async () => {
    const stack = await createOrderStack(perThousandConfig());
    await stack.worker.startup();
    const { cartPage, poom } = await cartOfCards(stack);
    expect(cartPage).toContain('120.00 USD / 1,000 EA');

    expect(validateAgainstDtd(poom, 'cXML')).toEqual({ ok: true, messages: '' });
    const message = parseXml(poom).cXML.Message.PunchOutOrderMessage;
    const item = message.ItemIn[0];
    expect(item['@quantity']).toBe('100');
    expect(item.ItemDetail.UnitPrice.Money).toEqual({ '#text': '120.00', '@currency': 'USD' });
    expect(compact(poom)).toContain(`<UnitOfMeasure>EA</UnitOfMeasure>${PER_THOUSAND_XML}`);
    // 100 × 120.00 ÷ 1,000.
    expect(message.PunchOutOrderMessageHeader.Total.Money).toEqual({ '#text': '12.00', '@currency': 'USD' });

    const line = { ...poLineOf(poom), detailXml: PER_THOUSAND_XML };
    expect(
      await sendOrder(stack, { orderID: 'PO-PER-1000', payloadID: 'po-1000@ariba.example', lines: [line] }),
    ).toMatchObject({ code: 200 });
    await drain(stack);
    expect(await flagsOf(stack, 'PO-PER-1000')).toEqual([]);
    const [printOrderId] = await printOrdersFor(stack, 'PO-PER-1000');
    expect(printOrderId).toBeDefined();

    await stack.api.markShipped(printOrderId ?? 0, { trackingNumber: '1Z999AA10123456784' });
    await drain(stack);
    const invoices = stack.orderStatusPosts.filter((post) => post.body.includes('<InvoiceDetailRequest>'));
    expect(invoices).toHaveLength(1);
    const body = invoices[0]?.body ?? '';
    expect(validateAgainstDtd(body, 'InvoiceDetail')).toEqual({ ok: true, messages: '' });
    const invoiceItem = parseXml(body).cXML.Request.InvoiceDetailRequest.InvoiceDetailOrder.InvoiceDetailItem;
    expect(invoiceItem['@quantity']).toBe('100');
    expect(invoiceItem.UnitPrice.Money['#text']).toBe('120.00');
    expect(compact(body)).toContain(
      `<UnitPrice><Money currency="USD">120.00</Money></UnitPrice>${PER_THOUSAND_XML}`,
    );
    expect(invoiceItem.SubtotalAmount.Money['#text']).toBe('12.00');
    // No price deviation to explain: the print service's 0.12 a piece is the PO's 120.00 per 1,000.
    expect(body).not.toContain('differ within tolerance');
  });

  it('reads a PO per unit: one rewritten per piece matches the cart, one that drops the basis does not', async () => {
    const stack = await createOrderStack(perThousandConfig());
    const perPiece = poLineOf((await cartOfCards(stack)).poom);
    expect(
      await sendOrder(stack, { orderID: 'PO-PIECE', lines: [{ ...perPiece, unitPrice: '0.12' }] }),
    ).toMatchObject({ code: 200 });
    await drain(stack);
    expect(await flagsOf(stack, 'PO-PIECE')).toEqual([]);

    const noBasis = poLineOf((await cartOfCards(stack)).poom);
    expect(await sendOrder(stack, { orderID: 'PO-NOBASIS', lines: [noBasis] })).toMatchObject({ code: 200 });
    await drain(stack);
    // 120.00 a piece is a thousand times the cart's price.
    expect(await flagsOf(stack, 'PO-NOBASIS')).toEqual(['price_mismatch']);
  });

  it('a PO at another price per 1,000 is confirmed with that price and its basis, in an ItemIn', async () => {
    const stack = await createOrderStack(perThousandConfig());
    await stack.worker.startup();
    const line = { ...poLineOf((await cartOfCards(stack)).poom), detailXml: PER_THOUSAND_XML };
    // The cart said 120.00 per 1,000; the PO says 110.00 per 1,000: accepted at the PO's terms, detailed.
    expect(
      await sendOrder(stack, { orderID: 'PO-1000-DETAIL', lines: [{ ...line, unitPrice: '110.00' }] }),
    ).toMatchObject({ code: 200 });
    await drain(stack);
    const [confirmation] = stack.orderStatusPosts.filter((post) =>
      post.body.includes('<ConfirmationRequest>'),
    );
    const body = confirmation?.body ?? '';
    expect(validateAgainstDtd(body, 'Fulfill')).toEqual({ ok: true, messages: '' });
    const request = parseXml(body).cXML.Request.ConfirmationRequest;
    expect(request.ConfirmationHeader['@type']).toBe('detail');
    const status = request.ConfirmationItem.ConfirmationStatus;
    expect(status['@type']).toBe('detail');
    // Never a bare UnitPrice, which Fulfill.dtd reads per piece: 110.00 a card.
    expect(status.UnitPrice).toBeUndefined();
    const [itemIn] = status.ItemIn;
    expect(itemIn.ItemDetail.UnitPrice.Money).toEqual({ '#text': '110.00', '@currency': 'USD' });
    expect(compact(body)).toContain(`<UnitOfMeasure>EA</UnitOfMeasure>${PER_THOUSAND_XML}`);
    expect(itemIn.ItemID.SupplierPartAuxiliaryID).toBe(line.lineRef);
  });

  it('a PO whose PriceBasisQuantity is 0 is refused naming the line', async () => {
    const stack = await createOrderStack(perThousandConfig());
    const line = poLineOf((await cartOfCards(stack)).poom);
    const answer = await sendOrder(stack, {
      orderID: 'PO-ZERO-BASIS',
      lines: [{ ...line, detailXml: PER_THOUSAND_XML.replace('quantity="1000"', 'quantity="0"') }],
    });
    expect(answer).toMatchObject({ code: 400, text: 'Bad Request' });
    expect(answer.detail).toContain(
      `ItemOut line 1 (SupplierPartAuxiliaryID ${line.lineRef})/ItemDetail/PriceBasisQuantity quantity "0" is not a number above zero`,
    );
  });
});

describe('a storefront in BHD', () => {
  it('hands back a DTD-valid cart with three decimals', async () => {
    const stack = await createOrderStack(perThousandConfig('BHD'));
    const { cartPage, poom } = await cartOfCards(stack);
    expect(cartPage).toContain('120.000 BHD / 1,000 EA');
    expect(validateAgainstDtd(poom, 'cXML')).toEqual({ ok: true, messages: '' });
    const message = parseXml(poom).cXML.Message.PunchOutOrderMessage;
    expect(message.ItemIn[0].ItemDetail.UnitPrice.Money).toEqual({ '#text': '120.000', '@currency': 'BHD' });
    expect(message.PunchOutOrderMessageHeader.Total.Money).toEqual({ '#text': '12.000', '@currency': 'BHD' });
  });
});
