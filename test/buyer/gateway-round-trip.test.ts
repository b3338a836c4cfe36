/**
 * The simulator against the real gateway in process: the stack's gateway (with the orders feature), the
 * sandbox print service and its editor, and a "browser" that follows redirects and posts forms across the
 * simulator, the gateway and the editor. No port, no network. Each walk ends with the gateway's invoice,
 * which the simulator checks against the PO it sent and accepts.
 */

import { createBuyerSimulator, createMemoryBuyerStore } from '@punchgate/sandbox/buyer';
import { Hono } from 'hono';
import { describe, expect, it } from 'vitest';
import { createOrderWorker } from '../../src/gateway/orders/index.ts';
import { createPrintApi } from '../../src/print-api/index.ts';
import { findForms, type HtmlForm } from '../support/html-forms.ts';
import { drain, type OrderStack, orderConfig } from '../support/order-flow.ts';
import { clickButton, designProduct, returnFormOf, submit } from '../support/punchout-flow.ts';
import {
  type BrowserResponse,
  createStack,
  followRedirects,
  GATEWAY_KEY,
  GATEWAY_ORIGIN,
  GATEWAY_TOKEN,
  SANDBOX_ORIGIN,
} from '../support/stack.ts';

const BUYER = 'http://buyer.example/buyer';

/**
 * The test config with the simulator's host allowed for returns and its order-status endpoint set, every
 * buyer invoiced on ship: Ariba-style with header tax, Coupa-style with line tax at its own invoice URL.
 */
function simulatorConfig() {
  const config = orderConfig();
  const invoices = { send: 'on-ship' as const };
  return {
    ...config,
    buyers: config.buyers.map((b) => {
      if (b.id === 'acme') return { ...b, orderStatusUrl: `${BUYER}/order-status`, invoices };
      if (b.id === 'coupa') {
        return {
          ...b,
          cartEncoding: 'urlencoded' as const,
          returnUrlHosts: ['buyer.example'],
          orderStatusUrl: `${BUYER}/order-status`,
          invoices: { ...invoices, taxAt: 'line' as const, url: `${BUYER}/coupa/invoices` },
        };
      }
      if (b.id === 'sap1' && b.protocol === 'oci') {
        return {
          ...b,
          hookUrlHosts: ['buyer.example'],
          frameAncestors: ['buyer.example'],
          orderStatusUrl: `${BUYER}/order-status`,
          invoices,
        };
      }
      return b;
    }),
  };
}

async function harness() {
  const base = await createStack(simulatorConfig());
  const stack: OrderStack = Object.assign(base, {
    worker: createOrderWorker(base.gateway.context),
    api: createPrintApi({
      baseUrl: SANDBOX_ORIGIN,
      token: GATEWAY_TOKEN,
      key: GATEWAY_KEY,
      fetch: (input, init) => Promise.resolve(base.sandbox.app.fetch(new Request(input, init))),
      retries: 0,
    }),
  });
  await stack.worker.startup();
  const advanced: string[][] = [];
  const simulator = createBuyerSimulator({
    gatewayUrl: GATEWAY_ORIGIN,
    publicUrl: BUYER,
    fetch: (input, init) => stack.request(new Request(input, init).url, init),
    clock: stack.clock,
    store: createMemoryBuyerStore({ firstOrderNumber: 4500 }),
    advanceOrder: async (printOrderIds) => {
      advanced.push([...printOrderIds]);
      stack.clock.advance(5);
      for (const id of printOrderIds)
        await stack.api.markShipped(Number(id), { trackingNumber: '1Z999AA10123456784' });
      await drain(stack);
      return 'Print order shipped.';
    },
  });
  const root = new Hono().route('/buyer', simulator.app);
  // The gateway's order-status documents go to the simulator, as they would over HTTP.
  stack.answerOrderStatus = (post) =>
    root.fetch(
      new Request(post.url, {
        method: 'POST',
        headers: { 'Content-Type': post.contentType },
        body: post.body,
      }),
    );

  const request = (url: string, init?: RequestInit): Promise<Response> =>
    url.startsWith(BUYER) ? Promise.resolve(root.fetch(new Request(url, init))) : stack.request(url, init);
  const browse = followRedirects(request);
  const post = (url: string, fields: [string, string][]) =>
    browse(url, {
      method: 'POST',
      headers: { 'Content-Type': 'application/x-www-form-urlencoded' },
      body: new URLSearchParams(fields).toString(),
    });
  return { stack, browse, post, advanced };
}

function iframeSrc(page: string): string {
  const src = /<iframe name="catalog-\d+" title="[^"]*" src="([^"]+)"/.exec(page)?.[1];
  if (src === undefined) throw new Error('no catalog frame on the requisition page');
  return src.replaceAll('&amp;', '&');
}

type Harness = Awaited<ReturnType<typeof harness>>;

/** From the requisition with its cart: order, let the gateway work, see the accept, advance, see the ship notice. */
async function orderAndShip(h: Harness, base: string, cartPage: BrowserResponse) {
  const orderForm = findForms(cartPage.text).find((f) => f.action === `${base}/order`) as HtmlForm;
  let page = await submit(h, cartPage, orderForm);
  expect(page.text).toContain('Purchase order PO-4500 was accepted: 200 OK.');

  await drain(h.stack);
  page = await h.browse(base);
  expect(page.text).toContain('Confirmed (accept)');
  const printOrderId = /<dt>Supplier order<\/dt><dd class="mono">(\d+)<\/dd>/.exec(page.text)?.[1];
  expect(printOrderId).toBeDefined();

  const advance = findForms(page.text).find((f) => f.action === `${base}/advance`) as HtmlForm;
  page = await submit(h, page, advance);
  expect(h.advanced).toEqual([[printOrderId]]);
  expect(page.text).toContain('Print order shipped.');
  expect(page.text).toContain('<span class="mono">1Z999AA10123456784</span>');
  // Shipped is invoiced at once: the simulator checked the invoice against the PO it sent and accepted it.
  expect(page.text).toContain('<span class="pill good">Invoiced</span>');
  expect(page.text).toContain(
    '<h3 id="invoice-1">Invoice <span class="mono">INV-000001</span> <span class="pill good">accepted</span></h3>',
  );
  const invoices = h.stack.orderStatusPosts.filter((p) => p.body.includes('<InvoiceDetailRequest>'));
  expect(invoices).toHaveLength(1);
  return { invoice: invoices[0], printOrderId: Number(printOrderId) };
}

describe('buyer simulator: a requisition of the test account', () => {
  it('punches out and orders with deploymentMode="test", shown as Test; the gateway keeps it apart and answers in kind', async () => {
    const h = await harness();
    const requisition = await h.post(`${BUYER}/requisitions`, [
      ['profile', 'ariba'],
      ['user', 'jroe'],
      ['test', 'yes'],
    ]);
    expect(requisition.status).toBe(200);
    expect(requisition.text).toContain('<span class="pill test">Test</span>');
    const base = requisition.url.replace(/\?catalog=1$/, '');
    const catalog = await h.browse(iframeSrc(requisition.text));
    const cart = await designProduct(h, catalog, 'Business cards', { Name: 'Jane Roe' });
    const transfer = await clickButton(h, cart, 'Transfer cart to procurement system');
    let page = await submit(h, transfer, returnFormOf(transfer));
    const orderForm = findForms(page.text).find((f) => f.action === `${base}/order`) as HtmlForm;
    page = await submit(h, page, orderForm);
    expect(page.text).toContain('Purchase order PO-4500 was accepted: 200 OK.');
    await drain(h.stack);
    page = await h.browse(base);
    expect(page.text).toContain('Confirmed (accept)');

    // The gateway: a test PO, confirmed, never sent to the print service (acme has no test storefront here).
    const po = (await h.stack.store.orders.list()).items.find((o) => o.orderId === 'PO-4500');
    expect(po).toMatchObject({
      deploymentMode: 'test',
      state: 'ordered',
      flags: ['test_not_sent'],
      printOrderIds: [],
    });
    expect(po?.raw).toContain('<Request deploymentMode="test">');
    const [confirmation] = h.stack.orderStatusPosts.filter((p) => p.body.includes('<ConfirmationRequest'));
    expect(confirmation?.body).toContain('<Request deploymentMode="test">');
    const home = await h.browse(BUYER);
    expect(home.text).toContain('<span class="pill test">Test</span>');
  });

  it('an OCI profile has no test account: refused with a page that says so', async () => {
    const h = await harness();
    const refused = await h.post(`${BUYER}/requisitions`, [
      ['profile', 'sap'],
      ['user', 'jroe'],
      ['test', 'yes'],
    ]);
    expect(refused.status).toBe(400);
    expect(refused.text).toContain(
      'SAP OCI has no deployment mode: test requisitions are for the cXML profiles.',
    );
  });
});

describe('buyer simulator ↔ gateway round trip', () => {
  it.each([
    ['ariba', 'cxml-base64'],
    ['coupa', 'cxml-urlencoded'],
  ])(
    '%s: punch out, design, transfer (%s), order, confirmation, advance, ship notice, invoice, credit memo',
    async (profile, field) => {
      const h = await harness();
      const requisition = await h.post(`${BUYER}/requisitions`, [
        ['profile', profile],
        ['user', 'jroe'],
      ]);
      expect(requisition.status).toBe(200);
      expect(requisition.url).toMatch(/\/buyer\/requisitions\/REQ-[A-Z0-9]+\?catalog=1$/);
      const base = requisition.url.replace(/\?catalog=1$/, '');

      const catalog = await h.browse(iframeSrc(requisition.text));
      expect(catalog.status).toBe(200);
      const cart = await designProduct(h, catalog, 'Business cards', { Name: 'Jane Roe' });
      expect(cart.text).toContain('Business cards');
      const transfer = await clickButton(h, cart, 'Transfer cart to procurement system');
      const form = returnFormOf(transfer);
      expect(form.action).toBe(`${base}/cart`);
      expect(form.target).toBe('_top');
      expect(form.fields.map(([name]) => name)).toEqual([field]);

      const page = await submit(h, transfer, form);
      expect(page.url).toBe(base);
      expect(page.text).toContain('1 line added from the catalog.');
      expect(page.text).toContain('<td class="mono">BC-STD</td>');
      expect(page.text).toContain('<td colspan="6">Total</td><td class="num">12.00 USD</td>');
      expect(page.text).not.toContain('class="notice warning"');

      const { invoice, printOrderId } = await orderAndShip(h, base, page);
      const invoiceUrl = profile === 'coupa' ? `${BUYER}/coupa/invoices` : `${BUYER}/order-status`;
      expect(invoice?.url).toBe(invoiceUrl);
      expect(invoice?.body.includes('isTaxInLine="yes"')).toBe(profile === 'coupa');

      // The print shop cancels the shipped order: the credit memo takes the invoice back, and is accepted.
      h.stack.sandbox.control.setOrderStatus(printOrderId, { status: 'Cancelled' });
      await drain(h.stack);
      const cancelled = await h.browse(base);
      expect(cancelled.text).toContain(
        '<h3 id="invoice-2">Credit memo <span class="mono">INV-000001-CR</span> <span class="pill good">accepted</span></h3>',
      );
      expect(h.stack.orderStatusPosts.at(-1)?.url).toBe(invoiceUrl);
    },
  );

  it('sap: OCI punch-in into the frame, NEW_ITEM cart to the HOOK_URL, cXML order, ship notice, invoice', async () => {
    const h = await harness();
    const requisition = await h.post(`${BUYER}/requisitions`, [
      ['profile', 'sap'],
      ['user', 'mmueller'],
    ]);
    const base = requisition.url.replace(/\?catalog=1$/, '');
    const punchIn = findForms(requisition.text).find(
      (f) => f.action === `${GATEWAY_ORIGIN}/oci/sap1`,
    ) as HtmlForm;
    expect(punchIn.target).toBe('catalog-1');
    const catalog = await submit(h, requisition, punchIn);
    expect(catalog.status).toBe(200);
    const cart = await designProduct(h, catalog, 'Business cards', { Name: 'Max Müller' });
    const transfer = await clickButton(h, cart, 'Transfer cart to procurement system');
    const [form] = findForms(transfer.text);
    expect(form?.action).toBe(`${base}/oci-cart`);
    expect(form?.target).toBe('_parent');

    const page = await submit(h, transfer, form as HtmlForm);
    expect(page.url).toBe(base);
    expect(page.text).toContain('1 line added from the catalog (OCI, UTF-8).');
    expect(page.text).toContain('<td class="mono">BC-STD</td>');
    expect(page.text).toContain('<td>ST</td>');
    expect(page.text).not.toContain('class="notice warning"');

    await orderAndShip(h, base, page);
  });
});

describe('buyer simulator ↔ gateway: accounts payable answers the invoice', () => {
  it('ariba: the invoice rejected with a comment parks the PO at the gateway; reported paid, the gateway marks it paid', async () => {
    const h = await harness();
    const requisition = await h.post(`${BUYER}/requisitions`, [
      ['profile', 'ariba'],
      ['user', 'jroe'],
    ]);
    const base = requisition.url.replace(/\?catalog=1$/, '');
    const cart = await designProduct(h, await h.browse(iframeSrc(requisition.text)), 'Business cards');
    const transfer = await clickButton(h, cart, 'Transfer cart to procurement system');
    await orderAndShip(h, base, await submit(h, transfer, returnFormOf(transfer)));

    const answer = async (type: 'rejected' | 'paid', comments: string) => {
      const page = await h.browse(base);
      const form = findForms(page.text).find((f) => f.action === `${base}/invoice-status`) as HtmlForm;
      expect(form.fields).toEqual([
        ['invoiceID', 'INV-000001'],
        ['comments', ''],
      ]);
      return submit(h, page, { ...form, fields: [...form.fields, ['type', type]] }, { comments });
    };
    const po = async () => (await h.stack.store.orders.list()).items.find((o) => o.orderId === 'PO-4500');

    const rejected = await answer('rejected', 'Shipping & tax were not on the PO.');
    expect(rejected.text).toContain('The supplier took invoice INV-000001 as rejected: 200 OK.');
    expect(rejected.text).toContain(
      '<td><span class="pill bad">rejected</span></td><td>Shipping &amp; tax were not on the PO.</td><td>200 OK</td>',
    );
    expect(rejected.text).toContain('StatusUpdateRequest: invoice INV-000001 rejected');
    const parked = await po();
    expect(parked?.state).toBe('needs_operator');
    expect(parked?.flags).toContain('invoice_rejected');
    expect(parked?.lastError).toBe(
      'Invoice rejected by the buyer: INV-000001 (their comments: Shipping & tax were not on the PO.). ' +
        'Answer the buyer (a credit memo, a corrected invoice), then mark the PO handled.',
    );

    const paid = await answer('paid', '');
    expect(paid.text).toContain('The supplier took invoice INV-000001 as paid: 200 OK.');
    expect((await po())?.state).toBe('ordered');
    const updates = await h.stack.store.statusUpdates.listByPo(parked?.id ?? '');
    expect(updates.map((u) => [u.invoiceStatus, u.comments])).toEqual([
      ['rejected', 'Shipping & tax were not on the PO.'],
      ['paid', ''],
    ]);
  });
});
