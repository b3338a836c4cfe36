/**
 * The operator's exceptions settled in Chromium on what ships: `punchgate sandbox` and `punchgate serve
 * --config FILE` as processes, the config written as docs/configuration.md and docs/operations.md write it
 * (secrets and the webhook URL from the environment, `notifications` pointing at a webhook receiver and an
 * SMTP server on loopback, `orders.outboxMaxAttempts` 1 so a refused document is given up at once). Two
 * buyers: `acme`, the buyer simulator's Ariba-style profile on its own port, for the README walk; and
 * `shop`, a procurement system whose order-status endpoint can be made to refuse. One serve and one
 * Chromium for all cases, which run in order: a held invoice survives Retry and Mark handled and is sent
 * at the PO's prices, a dead confirmation is revived from the dead-letters page, a refused setup is read
 * on the refusals page, a PO waiting for an operator is announced once per channel, and the README walk
 * (quantity 500) ends with its invoice.
 */
import type { Browser, BrowserContext, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createBuyerSimulator } from '@punchgate/sandbox/buyer';
import { type RunningServer, serveNode } from '../../src/runtime/node.ts';
import { setupRequest } from '../support/cxml-documents.ts';
import {
  type MailServer,
  startMailServer,
  startWebhookReceiver,
  type WebhookReceiver,
} from '../support/notification-receivers.ts';
import {
  linesOf,
  type OrderLineIn,
  orderRequest,
  parseXml,
  punchOutCart,
  type XmlTree,
} from '../support/order-flow.ts';
import { cxmlStatusAnswer } from '../support/stack.ts';
import type { BuyerSystem } from '../ship/buyer-system.ts';
import { eventually, type SandboxProcess } from '../ship/processes.ts';
import { printShopApi, serveBrowser, useServeBesideSandbox } from '../ship/serve-beside-sandbox.ts';
import { ADMIN_TOKEN, SUPPLIER_SECRET } from '../ship/user-config.ts';
import { launchChromium } from './chromium.ts';
import { type Step, stepsWithScreenshots } from './failure-screenshots.ts';

const SHOP = { id: 'shop', identity: 'AN01000000777', secret: 'shop-shared-secret-0123' };
const SMTP_PASSWORD = 'browser-test-smtp-password-0123';
/** How long a person waits for a page to react; serve runs a background round every second. */
const SCREEN_WAIT_MS = 15_000;

/** The buyer simulator on a port of its own; its app is built once serve's URL is known. */
async function startSimulatorServer() {
  let app: { fetch(request: Request): Response | Promise<Response> } | undefined;
  const server: RunningServer = await serveNode(
    { fetch: (request: Request) => app?.fetch(request) ?? new Response('starting', { status: 503 }) },
    { port: 0 },
  );
  return {
    server,
    url: server.url,
    /** The simulator talking to serve; "Advance print order" does what the print shop's staff would. */
    build(gatewayUrl: string, sandbox: SandboxProcess) {
      let tracking = 0;
      app = createBuyerSimulator({
        gatewayUrl,
        publicUrl: server.url,
        async advanceOrder(printOrderIds) {
          await fetch(`${sandbox.url}/_sandbox/merges/finish`, { method: 'POST' });
          for (const id of printOrderIds) {
            tracking += 1;
            const trackingNumber = `1Z999AA1${String(tracking).padStart(8, '0')}`;
            await printShopApi(sandbox).markShipped(Number(id), { trackingNumber });
          }
          await fetch(`${sandbox.url}/_sandbox/idle`, { method: 'POST' });
        },
      }).app;
    },
  };
}

type SimulatorServer = Awaited<ReturnType<typeof startSimulatorServer>>;

/** The documents of one request type the shop's system received for one PO, parsed. */
function postsFor(buyer: BuyerSystem, request: string, orderID: string): XmlTree[] {
  return buyer.orderStatusPosts
    .map((post) => parseXml(post.body).cXML as XmlTree)
    .filter((doc) => doc?.Request?.[request] !== undefined && JSON.stringify(doc).includes(`"${orderID}"`));
}

async function signIn(page: Page, origin: string): Promise<void> {
  await page.goto(`${origin}/admin/`);
  await page.getByLabel('Admin token').fill(ADMIN_TOKEN);
  await page.getByRole('button', { name: 'Sign in' }).click();
  await page.getByRole('heading', { level: 1, name: 'Overview' }).waitFor();
}

/** The PO page's first facts list as a person reads it. */
async function facts(page: Page): Promise<string> {
  return ((await page.locator('dl.facts').first().innerText()) ?? '').replace(/\s+/g, ' ');
}

describe('the operator settles exceptions in the console of punchgate serve', { timeout: 90_000 }, () => {
  let hook: WebhookReceiver;
  let smtp: MailServer;
  let simulator: SimulatorServer;
  let browser: Browser;
  let context: BrowserContext;
  let page: Page;
  const serveEnv: Record<string, string> = {};
  // Before the stack's own beforeAll (registered below), so the config can name the receivers.
  beforeAll(async () => {
    browser = await launchChromium();
    context = await browser.newContext({ viewport: { width: 1280, height: 900 } });
    page = await context.newPage();
    page.setDefaultTimeout(SCREEN_WAIT_MS);
    hook = await startWebhookReceiver();
    smtp = await startMailServer({ password: SMTP_PASSWORD });
    simulator = await startSimulatorServer();
    Object.assign(serveEnv, {
      PUNCHGATE_NOTIFY_WEBHOOK_URL: hook.url,
      SMTP_PASSWORD,
      SHOP_SHARED_SECRET: SHOP.secret,
    });
  });
  afterAll(async () => {
    await context?.close();
    await browser?.close();
    await hook?.close();
    await smtp?.close();
    await simulator?.server.close();
  });

  const stack = useServeBesideSandbox({
    serveEnv,
    adjustConfig(config, sandbox) {
      simulator.build(config.publicUrl, sandbox);
      const [storefront] = config.storefronts;
      // The demo shop's charges and poster, as fixtures/demo.config.json quotes them.
      storefront.charges = { shipping: { kind: 'flat', amount: '9.95' }, tax: { percent: '8.25' } };
      storefront.products.push({
        productId: 103,
        sku: 'POS-CUSTOM',
        name: 'Custom-size poster',
        uom: 'EA',
        prices: [{ minQuantity: 1, unitPrice: 18.5 }],
      });
      // One try per document to a buyer: a refusing endpoint makes a dead letter at once.
      config.orders = { outboxMaxAttempts: 1 };
      const [acme] = config.buyers;
      // The shop's procurement system is the stack's buyer system, which the config names for acme.
      const shopSystem = { returnUrlHosts: acme.returnUrlHosts, orderStatusUrl: acme.orderStatusUrl };
      Object.assign(acme, {
        cartEncoding: 'base64',
        returnUrlHosts: [new URL(simulator.url).host],
        orderStatusUrl: `${simulator.url}/order-status`,
        invoices: { send: 'on-ship' },
      });
      config.buyers.push({
        id: SHOP.id,
        name: 'Shop (cXML)',
        storefront: 'printco',
        protocol: 'cxml',
        from: [{ domain: 'NetworkID', identity: SHOP.identity }],
        sharedSecret: { env: 'SHOP_SHARED_SECRET' },
        ...shopSystem,
        authAllowedAddresses: ['127.0.0.1'],
        unknownLines: 'hold',
        invoices: { send: 'on-ship' },
      });
      config.notifications = {
        webhook: { url: { env: 'PUNCHGATE_NOTIFY_WEBHOOK_URL' } },
        email: {
          url: smtp.url,
          from: 'punchgate@printco.example',
          to: ['orders@printco.example'],
          username: 'gateway',
          password: { env: 'SMTP_PASSWORD' },
        },
      };
    },
  });
  const http = serveBrowser(() => stack.serve);

  const processes = () => [stack.serve.process, stack.sandbox.process];

  /** A PO of the shop's from a punch-out of `products`, its Total and charges as the cart quoted them. */
  async function shopOrders(orderID: string, products: string[], extraLines: OrderLineIn[] = []) {
    const cart = await punchOutCart(http, products, {
      identity: SHOP.identity,
      secret: SHOP.secret,
      browserFormPost: stack.buyer.returnUrl,
    });
    const { lines: cartLines, ...quoted } = cart;
    const lines = [...linesOf(cartLines), ...extraLines];
    const total = (
      lines.reduce((sum, l) => sum + Number(l.unitPrice) * Number(l.quantity), 0) +
      Number(quoted.shipping ?? 0) +
      Number(quoted.tax ?? 0)
    ).toFixed(2);
    const charges = { ...quoted, total };
    const answer = await http.postCxml(
      orderRequest({ orderID, identity: SHOP.identity, secret: SHOP.secret, lines, charges }),
    );
    expect(answer).toMatch(/<Status code="200" text="OK"/);
    return { lines, charges };
  }

  /** The admin API's view of a PO, by its number. */
  async function adminOrder(orderID: string): Promise<XmlTree | undefined> {
    const answer = await fetch(`${stack.serve.url}/admin/orders?limit=100`, {
      headers: { Authorization: `Bearer ${ADMIN_TOKEN}` },
    });
    const { items } = (await answer.json()) as { items: XmlTree[] };
    return items.find((o) => o.orderId === orderID);
  }

  /** Waits until serve has completed `rounds` more background rounds (its overview says when the last was). */
  async function moreRounds(rounds: number): Promise<void> {
    const lastRoundAt = async () => {
      const answer = await fetch(`${stack.serve.url}/admin/overview`, {
        headers: { Authorization: `Bearer ${ADMIN_TOKEN}` },
      });
      const { lastBackgroundRoundAt } = (await answer.json()) as { lastBackgroundRoundAt: string | null };
      return lastBackgroundRoundAt === null ? 0 : Date.parse(lastBackgroundRoundAt);
    };
    const from = await lastRoundAt();
    await eventually(
      `${rounds} more background rounds`,
      async () => ((await lastRoundAt()) >= from + rounds * 1000 ? true : undefined),
      { processes: processes() },
    );
  }

  /** The `punchgate_invoices_held` gauge of serve's /metrics: the held-invoice alert's figure. */
  async function invoicesHeld(): Promise<number> {
    const metrics = await (await fetch(`${stack.serve.url}/metrics`)).text();
    return Number(/^punchgate_invoices_held (\S+)$/m.exec(metrics)?.[1]);
  }

  async function openOrder(step: Step, orderID: string): Promise<void> {
    await step(`open ${orderID} from the overview`, async () => {
      await page.getByRole('navigation', { name: 'Console' }).getByRole('link', { name: 'Overview' }).click();
      const waiting = page.getByRole('table', { name: /Waiting for an operator/ });
      await waiting.getByRole('link', { name: orderID }).click();
      await page.getByRole('heading', { level: 1, name: `Purchase order ${orderID}` }).waitFor();
    });
  }

  async function confirm(question: string | RegExp, done: string): Promise<void> {
    await page.getByText(question).waitFor();
    await page.getByRole('button', { name: 'Confirm' }).click();
    await page.getByRole('status').filter({ hasText: done }).waitFor();
  }

  it('(a) a held invoice survives Retry and Mark handled, and is sent at the PO’s prices', async () => {
    const step = stepsWithScreenshots(page, 'held-invoice');
    const po = await shopOrders('PO-HELD-1', ['Custom-size poster']);
    // Cart and PO at the config's 18.50 with the demo's charges; the sandbox charges 19.75 (beyond 1 %).
    expect(po.lines.map((l) => l.unitPrice)).toEqual(['18.50']);
    expect(po.charges).toMatchObject({ shipping: '9.95', tax: '1.53', total: '29.98' });
    const [accept] = await eventually(
      'the accept of PO-HELD-1',
      () => {
        const found = postsFor(stack.buyer, 'ConfirmationRequest', 'PO-HELD-1');
        return found.length > 0 ? found : undefined;
      },
      { processes: processes() },
    );
    const printOrderId = Number(accept?.Request.ConfirmationRequest.ConfirmationHeader['@confirmID']);
    await printShopApi(stack.sandbox).markShipped(printOrderId, { trackingNumber: '1Z999AA10000000901' });
    await eventually(
      'the invoice of PO-HELD-1 held',
      async () => ((await adminOrder('PO-HELD-1'))?.flags.includes('invoice_held') ? true : undefined),
      { processes: processes() },
    );

    await step('sign in', () => signIn(page, stack.serve.url));
    await openOrder(step, 'PO-HELD-1');
    await step('Retry the PO, confirming', async () => {
      await page.getByRole('heading', { level: 2, name: 'Held invoices' }).waitFor();
      await page.getByRole('button', { name: 'Retry…' }).click();
      await confirm(
        /^Look at the held invoice of purchase order PO-HELD-1 again, as the print service has its print order now\? .* If not, the held invoice stays held — at the PO's prices, .*: 29\.98 USD due — and the PO waits for an operator until it is invoiced or waived\.$/,
        'Retried:',
      );
    });
    /** After a few rounds the PO still waits (a retry keeps it in the queue) with its hold intact. */
    const stillHeld = async () => {
      await moreRounds(2);
      await page.reload();
      const shown = await facts(page);
      expect(shown).toContain('State Waiting for an operator');
      expect(shown).toContain('invoice_held');
      await page.getByRole('heading', { level: 2, name: 'Held invoices' }).waitFor();
      expect(postsFor(stack.buyer, 'InvoiceDetailRequest', 'PO-HELD-1')).toEqual([]);
      expect(await invoicesHeld()).toBe(1);
    };
    await step('after more rounds the invoice is still held and the PO waits', stillHeld);
    await step('Mark handled, confirming: the question says the invoice stays held', async () => {
      await page.getByLabel('Note (why nothing more is needed)').fill('buyer called about the poster');
      await page.getByRole('button', { name: 'Mark handled…' }).click();
      await confirm(/The buyer gets no document\. The held invoice stays held — /, 'marked handled');
    });
    await step('after more rounds the invoice is still held and the PO waits, again', stillHeld);
    await openOrder(step, 'PO-HELD-1');
    await step('invoice at the PO’s prices, confirming the amount', async () => {
      await page.getByRole('button', { name: "Invoice at the PO's prices…" }).click();
      await confirm(
        `Send the held invoice of purchase order PO-HELD-1 to the buyer at the PO's prices? print order ${printOrderId} (shipment 1): 29.98 USD due.`,
        "The held invoices are issued at the PO's prices",
      );
    });
    const [invoice] = await eventually('the invoice of PO-HELD-1 at the shop', () => {
      const found = postsFor(stack.buyer, 'InvoiceDetailRequest', 'PO-HELD-1');
      return found.length > 0 ? found : undefined;
    });
    // The invoice bills what the PO says: its line at 18.50, its shipping and tax, due its Total.
    const request = invoice?.Request.InvoiceDetailRequest;
    const item = request.InvoiceDetailOrder.InvoiceDetailItem;
    const summary = request.InvoiceDetailSummary;
    expect([item['@quantity'], item.UnitPrice.Money['#text'], item.SubtotalAmount.Money['#text']]).toEqual([
      '1',
      '18.50',
      '18.50',
    ]);
    expect({
      subtotal: summary.SubtotalAmount.Money['#text'],
      tax: summary.Tax.Money['#text'],
      shipping: summary.ShippingAmount.Money['#text'],
      due: summary.DueAmount.Money['#text'],
    }).toEqual({ subtotal: '18.50', tax: '1.53', shipping: '9.95', due: '29.98' });
    expect(await invoicesHeld()).toBe(0);
    await step('the PO no longer waits', async () => {
      await page.reload();
      expect(await facts(page)).toContain('State Ordered');
      await page.getByRole('link', { name: 'Overview' }).click();
      expect(await page.getByRole('link', { name: 'PO-HELD-1' }).count()).toBe(0);
    });
  });

  it('(b) a dead confirmation is found on the dead-letters page and revived', async () => {
    const step = stepsWithScreenshots(page, 'dead-letter');
    stack.buyer.answerOrderStatus = () => new Response('maintenance', { status: 503 });
    await shopOrders('PO-DEAD-1', ['Business cards']);
    await eventually(
      'the confirmation of PO-DEAD-1 given up',
      async () => ((await adminOrder('PO-DEAD-1'))?.flags.includes('document_dead') ? true : undefined),
      { processes: processes() },
    );
    stack.buyer.answerOrderStatus = () => cxmlStatusAnswer(200, 'OK');
    const row = page
      .getByRole('table', { name: /Documents to buyers given up/ })
      .getByRole('row')
      .filter({ hasText: 'PO-DEAD-1' });
    await step('follow the overview’s dead-letter count', async () => {
      await page.getByRole('navigation', { name: 'Console' }).getByRole('link', { name: 'Overview' }).click();
      await page
        .locator('div', { has: page.getByText('Dead letters (documents)', { exact: true }) })
        .getByRole('link')
        .click();
      await page.getByRole('heading', { level: 1, name: 'Dead letters' }).waitFor();
      const text = (await row.innerText()).replace(/\s+/g, ' ');
      // Its PO, kind and key, destination, attempts and last error.
      expect(text).toContain(`PO-DEAD-1 (shop) confirmation confirm:`);
      expect(text).toContain(`:accept ${stack.buyer.orderStatusUrl} 1 HTTP 503 `);
    });
    await step('move it back to the outbox, confirming', async () => {
      await row.getByRole('button', { name: 'Move back to the outbox…' }).click();
      await confirm(
        /^Move the dead confirmation document confirm:\S+ back to the outbox\?/,
        'back in the outbox',
      );
    });
    const delivered = await eventually('the revived confirmation delivered', () => {
      const found = postsFor(stack.buyer, 'ConfirmationRequest', 'PO-DEAD-1');
      return found.length >= 2 ? found : undefined;
    });
    expect(delivered[1]).toStrictEqual(delivered[0]);
    await step('no dead document is left, and the PO no longer waits', async () => {
      await moreRounds(1);
      await page.goto(`${stack.serve.url}/admin/ui/dead-letters`);
      await page.getByRole('status').filter({ hasText: 'No dead document.' }).waitFor();
      await page.getByRole('navigation', { name: 'Console' }).getByRole('link', { name: 'Overview' }).click();
      expect(await page.getByRole('link', { name: 'PO-DEAD-1' }).count()).toBe(0);
    });
  });

  it('(c) a refused setup shows on the refusals page with its reason', async () => {
    const step = stepsWithScreenshots(page, 'refusals');
    const payloadID = `wrong-secret-${Date.now()}@shop.example`;
    const answer = await http.postCxml(
      setupRequest({ identity: SHOP.identity, secret: 'last-years-secret', payloadID }),
    );
    expect(answer).toContain(
      '<Status code="401" text="Unauthorized" xml:lang="en-US">Authentication failed: the Sender SharedSecret is not valid.</Status>',
    );
    await step('search the refusals of the shop', async () => {
      await page.getByRole('navigation', { name: 'Console' }).getByRole('link', { name: 'Refusals' }).click();
      await page.getByLabel('Buyer').selectOption(SHOP.id);
      await page.getByRole('button', { name: 'Search' }).click();
      const row = page.getByRole('row').filter({ hasText: payloadID });
      const text = (await row.innerText()).replace(/\s+/g, ' ');
      expect(text).toContain('cXML PunchOutSetupRequest');
      expect(text).toContain(
        '401 Unauthorized: Authentication failed: the Sender SharedSecret is not valid.',
      );
      await row.locator('summary').click();
      const received = await row.locator('pre').innerText();
      expect(received).toContain('<SharedSecret>[redacted]</SharedSecret>');
      expect(received).not.toContain('last-years-secret');
    });
    await step('the shop’s section of the Buyers page shows it too', async () => {
      await page.getByRole('navigation', { name: 'Console' }).getByRole('link', { name: 'Buyers' }).click();
      const latest = page.getByRole('table', { name: 'Latest refusals of Shop (cXML)' });
      expect((await latest.innerText()).replace(/\s+/g, ' ')).toContain(
        '401 Unauthorized: Authentication failed: the Sender SharedSecret is not valid.',
      );
      await latest.getByText(payloadID, { exact: true }).waitFor();
    });
  });

  it('(d) a PO waiting for an operator is announced by one e-mail and one webhook call', async () => {
    const step = stepsWithScreenshots(page, 'notifications');
    const freight = { sku: 'FREIGHT', quantity: '1', unitPrice: '25.00' };
    await shopOrders('PO-WAITS-1', ['Business cards'], [freight]);
    const about = (orderID: string) => ({
      calls: hook.received.filter((call) => call.body.includes(orderID)),
      mails: smtp.mails.filter((mail) => mail.text.includes(orderID)),
    });
    await eventually('the webhook call and the e-mail', () => {
      const { calls, mails } = about('PO-WAITS-1');
      return calls.length > 0 && mails.length > 0 ? true : undefined;
    });
    await moreRounds(3);
    const { calls, mails } = about('PO-WAITS-1');
    expect(calls).toHaveLength(1);
    expect(mails).toHaveLength(1);
    const call = JSON.parse(calls[0]?.body ?? '') as { event: string; text: string };
    expect(call.event).toBe('po_needs_operator');
    expect(call.text).toContain(
      'PO PO-WAITS-1 of buyer shop needs an operator: Line 2 (SupplierPartID FREIGHT) is not a product of this catalog',
    );
    expect(mails[0]?.data).toMatch(/^Subject: \[punchgate\] A PO needs an operator\r$/m);
    expect(mails[0]?.text).toContain(call.text);
    // The held invoice of (a) and the dead confirmation of (b) were each announced as what they are, once,
    // and not also as a PO needing an operator.
    const events = (orderID: string) =>
      about(orderID).calls.map((c) => (JSON.parse(c.body) as { event: string }).event);
    expect(events('PO-HELD-1')).toEqual(['invoice_held']);
    expect(events('PO-DEAD-1')).toEqual(['document_dead']);
    expect([about('PO-HELD-1').mails.length, about('PO-DEAD-1').mails.length]).toEqual([1, 1]);
    for (const secret of [SHOP.secret, SMTP_PASSWORD, ADMIN_TOKEN, SUPPLIER_SECRET]) {
      for (const message of [...hook.received.map((c) => c.body), ...smtp.mails.map((m) => m.data)]) {
        expect(message).not.toContain(secret);
      }
    }
    await step('the link in the message opens the PO', async () => {
      const link = /https?:\/\/\S+\/admin\/ui\/orders\/\S+/.exec(call.text)?.[0] ?? '';
      await page.goto(link);
      await page.getByRole('heading', { level: 1, name: 'Purchase order PO-WAITS-1' }).waitFor();
      expect(await facts(page)).toContain('State Waiting for an operator');
    });
  });

  it('(e) the README walk, quantity 500 included, ends with the invoice', async () => {
    const step = stepsWithScreenshots(page, 'readme-walk');
    const catalog = page.frameLocator('iframe[title^="Supplier catalog"]');
    await step('1. choose Ariba-style cXML and a user, then "Punch out"', async () => {
      await page.goto(simulator.url);
      await page.getByRole('radio', { name: /^Ariba-style cXML/ }).check();
      await page.getByRole('radio', { name: /^Jane Roe/ }).check();
      await page.getByRole('button', { name: 'Punch out', exact: true }).click();
      await page.getByRole('heading', { level: 1, name: /^Requisition REQ-\w+ In catalog$/ }).waitFor();
      await catalog.getByRole('heading', { name: 'Choose a product to design' }).waitFor();
    });
    await step(
      '2. design business cards, save; quantity 500 and "Update" drops the price to 0.09',
      async () => {
        await catalog.getByRole('link', { name: 'Design Business cards' }).click();
        await catalog.getByLabel('Name', { exact: true }).fill('Jane Roe');
        await catalog.getByRole('button', { name: 'Save design' }).click();
        await catalog.getByRole('heading', { level: 1, name: 'Your cart' }).waitFor();
        expect(await catalog.locator('tfoot').innerText()).toMatch(/12\.00 USD/);
        await catalog.getByRole('spinbutton', { name: 'Quantity' }).fill('500');
        await catalog.getByRole('button', { name: 'Update' }).click();
        await catalog.getByRole('cell', { name: '0.09 USD / EA' }).waitFor();
        expect(await catalog.locator('tfoot').innerText()).toMatch(/45\.00 USD/);
      },
    );
    await step('3. transfer the cart: lines 45.00, shipping 9.95, tax 3.71, total 58.66 USD', async () => {
      await catalog.getByRole('button', { name: 'Transfer cart to procurement system' }).click();
      await page.getByRole('heading', { level: 1, name: /^Requisition REQ-\w+ Draft$/ }).waitFor();
      const lines = page.getByRole('table').filter({ has: page.locator('caption', { hasText: 'Lines' }) });
      expect((await lines.locator('tfoot').innerText()).replace(/\s+/g, ' ')).toMatch(
        /^Lines 45\.00 USD Shipping \(Shipping\) 9\.95 USD Tax \(Sales tax\) 3\.71 USD Total 58\.66 USD/,
      );
    });
    await step('4. submit the purchase order; the confirmation arrives', async () => {
      await page.getByRole('button', { name: 'Submit purchase order' }).click();
      await page.getByRole('heading', { level: 1, name: /^Requisition REQ-\w+ Ordered$/ }).waitFor();
      await page.getByRole('heading', { level: 3, name: 'Confirmation accept' }).waitFor();
    });
    await step('5. advance the print order: merge files and ship', async () => {
      await page.getByRole('button', { name: 'Advance print order: merge files and ship' }).click();
      await page
        .getByRole('status')
        .getByText(/advanced: files merged and shipped/)
        .waitFor();
    });
    await step('6. the invoice: 500 × 0.09, the PO’s tax and shipping, due 58.66 USD', async () => {
      const invoice = page.getByRole('heading', { level: 3, name: /^Invoice INV-\d+ accepted$/ });
      await eventually(
        'the invoice on the requisition',
        async () => {
          if (await invoice.isVisible()) return true;
          await page.reload();
          return undefined;
        },
        { intervalMs: 1000, processes: processes() },
      );
      await page.getByRole('heading', { level: 1, name: /^Requisition REQ-\w+ Invoiced$/ }).waitFor();
      const article = page.locator('article', { has: invoice });
      const text = (await article.innerText()).replace(/\s+/g, ' ');
      expect(text).toContain('Amount due 58.66 USD');
      expect(text).toMatch(/BC-STD .* 500 EA 0\.09 USD 45\.00 USD/);
    });
  });
});
