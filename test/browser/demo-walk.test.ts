/**
 * The demo in a real browser, as a person walks it after `npm start`: for each procurement profile, punch
 * out from the buyer simulator, design business cards in the sandbox editor inside the catalog frame, save,
 * check the cart, transfer it, order it, advance the print order and see the ship notice arrive, and for
 * the cXML profiles (whose demo buyers have `invoices.send` "on-ship") the invoice after it. Every check
 * reads what is on the screen (headings, roles, table cells, status lines). Each walk gets a fresh demo on
 * its own port and SQLite file; one Chromium serves the three walks in turn.
 */
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { Browser, FrameLocator, Locator, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type RunningDemo, startDemo } from '../../src/runtime/demo.ts';
import { launchChromium } from './chromium.ts';
import { type Step, stepsWithScreenshots } from './failure-screenshots.ts';

interface Walk {
  /** The profile's name on the simulator's home page. */
  profile: string;
  slug: string;
  gatewayBuyer: string;
  /** The text typed into the card's Name field. */
  designName: string;
  /** The unit the requisition shows: the gateway hands SAP its own ST for EA (the buyer's unitMap). */
  uom: string;
  cartArrived: string;
  /** cXML carts can be reopened per line before ordering; OCI carts cannot. */
  lineActions: boolean;
  /**
   * The invoice the demo's gateway sends once the print order has shipped (fixtures/demo.config.json):
   * where the simulator took it and whether its tax is per line (Coupa) or in the summary (Ariba). None
   * for the SAP walk, whose demo buyer is not invoiced.
   */
  invoice?: { endpoint: string; taxInLine: boolean };
}

const WALKS: readonly Walk[] = [
  {
    profile: 'Ariba-style cXML',
    slug: 'ariba',
    gatewayBuyer: 'acme',
    designName: 'Ada Lovelace',
    uom: 'EA',
    cartArrived: '1 line added from the catalog.',
    lineActions: true,
    invoice: { endpoint: '/buyer/order-status', taxInLine: false },
  },
  {
    profile: 'Coupa-style cXML',
    slug: 'coupa',
    gatewayBuyer: 'coupa',
    designName: 'Grace Hopper',
    uom: 'EA',
    cartArrived: '1 line added from the catalog.',
    lineActions: true,
    invoice: { endpoint: '/buyer/coupa/invoices', taxInLine: true },
  },
  {
    profile: 'SAP-style OCI',
    slug: 'sap',
    gatewayBuyer: 'sap1',
    designName: 'Käthe Müller',
    uom: 'ST',
    // The demo's shipping and tax come as items of their own (chargeLines): FREIGHT and TAX.
    cartArrived: '3 lines added from the catalog (OCI, UTF-8).',
    lineActions: false,
  },
];

/** How long a person would wait for the page to react; the worker ticks every second. */
const SCREEN_WAIT_MS = 10_000;
/** The ship notice travels sandbox → webhook → gateway outbox → simulator; the page polls every 3 s. */
const SHIP_NOTICE_WAIT_MS = 15_000;
/**
 * The invoice comes with a later worker round than the ship notice (the webhook's look, then the outbox);
 * the page polls every 3 s.
 */
const INVOICE_WAIT_MS = 15_000;
/** The demo buyers' payment term (the default `paymentTermDays`). */
const PAYMENT_TERM_DAYS = 30;
/** Each fresh demo's sandbox numbers its shipments' tracking from 1. */
const FIRST_TRACKING_NUMBER = '1Z999AA100000001';

/** A table as a person reads it: one record per body row, keyed by the column headers. */
async function readTable(table: Locator): Promise<Record<string, string>[]> {
  return table.evaluate((element) => {
    const clean = (cell: Element) => (cell as HTMLElement).innerText.replace(/\s+/g, ' ').trim();
    const headers = Array.from(element.querySelectorAll('thead th'), clean);
    return Array.from(element.querySelectorAll('tbody tr'), (row) => {
      const record: Record<string, string> = {};
      Array.from(row.children).forEach((cell, index) => {
        record[headers[index] || `column ${index + 1}`] = clean(cell);
      });
      return record;
    });
  });
}

/** A definition list as a person reads it: each term with its description. */
async function readFacts(list: Locator): Promise<Record<string, string>> {
  return list.evaluate((element) => {
    const clean = (node: Element) => (node as HTMLElement).innerText.replace(/\s+/g, ' ').trim();
    const facts: Record<string, string> = {};
    for (const term of Array.from(element.querySelectorAll('dt'))) {
      const description = term.nextElementSibling;
      if (description?.tagName === 'DD') facts[clean(term)] = clean(description);
    }
    return facts;
  });
}

async function visibleText(locator: Locator): Promise<string> {
  return (await locator.innerText()).replace(/\s+/g, ' ').trim();
}

/**
 * Waits for a document's heading (a ship notice, an invoice); the page reloads itself on news, and a
 * manual reload covers a missed poll.
 */
async function waitForDocument(page: Page, name: RegExp, waitMs: number): Promise<Locator> {
  const notice = page.getByRole('heading', { level: 3, name });
  const deadline = Date.now() + waitMs;
  for (;;) {
    const left = deadline - Date.now();
    try {
      await notice.waitFor({ state: 'visible', timeout: Math.min(4000, Math.max(left, 1)) });
      return notice;
    } catch (error) {
      if (Date.now() >= deadline) throw error;
      await page.reload();
    }
  }
}

async function walkThroughDemo(browser: Browser, demo: RunningDemo, walk: Walk): Promise<void> {
  const context = await browser.newContext({ viewport: { width: 1280, height: 900 } });
  const page = await context.newPage();
  page.setDefaultTimeout(SCREEN_WAIT_MS);
  const pageErrors: string[] = [];
  page.on('pageerror', (error) => pageErrors.push(error.message));
  const step: Step = stepsWithScreenshots(page, walk.slug);
  const catalog: FrameLocator = page.frameLocator('iframe[title^="Supplier catalog"]');

  try {
    await step('open the buyer simulator', async () => {
      await page.goto(demo.urls.buyer);
      await page.getByRole('heading', { level: 1, name: 'Buyer simulator' }).waitFor();
    });

    await step('punch out', async () => {
      await page.getByRole('radio', { name: new RegExp(`^${walk.profile}`) }).check();
      await page.getByRole('radio', { name: /^Jane Roe/ }).check();
      await page.getByRole('button', { name: 'Punch out', exact: true }).click();
      await page.getByRole('heading', { level: 1, name: /^Requisition REQ-\w+ In catalog$/ }).waitFor();
      expect(await visibleText(page.locator('dl.facts').first())).toContain(
        `${walk.profile} ${walk.slug === 'sap' ? 'OCI' : 'cXML'} · gateway buyer ${walk.gatewayBuyer}`,
      );
      await catalog.getByRole('heading', { name: 'Choose a product to design' }).waitFor();
      expect(await visibleText(catalog.locator('body'))).toContain('Cart (0)');
    });

    await step('design business cards', async () => {
      await catalog.getByRole('link', { name: 'Design Business cards' }).click();
      await catalog.getByRole('heading', { level: 1, name: 'Business cards' }).waitFor();
      await catalog.getByLabel('Name', { exact: true }).fill(walk.designName);
      // The editor's preview follows the typing, as the person sees the card change.
      await catalog.getByRole('region', { name: 'Preview' }).getByText(walk.designName).waitFor();
    });

    await step('save the design and see the cart', async () => {
      await catalog.getByRole('button', { name: 'Save design' }).click();
      await catalog.getByRole('heading', { level: 1, name: 'Your cart' }).waitFor();
      const [line, ...others] = await readTable(catalog.getByRole('table'));
      expect(others).toEqual([]);
      expect(line?.Item).toMatch(/^Business cards \(design \d+\) SKU BC-STD · design \S+ · ref \S+/);
      expect(line?.['Unit price']).toBe('0.12 USD / EA');
      expect(line?.Total).toBe('12.00 USD');
      await expect(catalog.getByRole('spinbutton', { name: 'Quantity' }).inputValue()).resolves.toBe('100');
      expect(await visibleText(catalog.locator('tfoot'))).toBe('Cart total 12.00 USD');
      await catalog.getByRole('link', { name: 'Proof (PDF)' }).waitFor();
    });

    await step('transfer the cart to the requisition', async () => {
      await catalog.getByRole('button', { name: 'Transfer cart to procurement system' }).click();
      await page.getByRole('heading', { level: 1, name: /^Requisition REQ-\w+ Draft$/ }).waitFor();
      await expect(page.getByRole('status').first().innerText()).resolves.toBe(walk.cartArrived);
      const lines = page.getByRole('table').filter({ has: page.locator('caption', { hasText: 'Lines' }) });
      const rows = await readTable(lines);
      expect(rows).toHaveLength(walk.slug === 'sap' ? 3 : 1);
      expect(rows[0]).toMatchObject({
        '#': '1',
        'Part number': 'BC-STD',
        Qty: '100',
        'Unit price': '0.12 USD',
        UOM: walk.uom,
        Total: '12.00 USD',
        UNSPSC: '82121512',
      });
      expect(rows[0]?.Description).toMatch(/^Business cards/);
      if (walk.lineActions) {
        await page.getByRole('button', { name: 'Edit line 1 in the catalog' }).waitFor();
      }
      // A cXML cart carries the demo's shipping and 8.25 % tax beside the lines; OCI, without charge
      // fields, as the items FREIGHT and TAX after the line.
      if (walk.slug === 'sap') {
        expect(rows.slice(1).map((row) => [row['Part number'], row.Total])).toEqual([
          ['FREIGHT', '9.95 USD'],
          ['TAX', '0.99 USD'],
        ]);
      }
      expect(await visibleText(lines.locator('tfoot'))).toMatch(
        walk.slug === 'sap'
          ? /^Total 22\.94 USD/
          : /^Lines 12\.00 USD\s+Shipping \(Shipping\) 9\.95 USD\s+Tax \(Sales tax\) 0\.99 USD\s+Total 22\.94 USD/,
      );
      // The cart arrived as a document a person can open and read.
      const cartDocument = walk.slug === 'sap' ? 'OCI cart (NEW_ITEM-* fields)' : 'PunchOutOrderMessage';
      await page.locator('summary', { hasText: cartDocument }).click();
      await page
        .locator('details[open] pre')
        .getByText(walk.slug === 'sap' ? /NEW_ITEM-DESCRIPTION\[1\]/ : /<PunchOutOrderMessage>/)
        .waitFor();
    });

    await step('submit the purchase order', async () => {
      await page.getByRole('button', { name: 'Submit purchase order' }).click();
      await page.getByRole('heading', { level: 1, name: /^Requisition REQ-\w+ Ordered$/ }).waitFor();
      const accepted = await page.getByRole('status').first().innerText();
      expect(accepted).toMatch(/^Purchase order PO-\d+ was accepted: 200 OK\.$/);
      expect(await visibleText(page.locator('dd', { has: page.locator('.pill') }).first())).toBe('200 OK');
    });

    await step('see the confirmation', async () => {
      // The page reloads itself when the gateway's ConfirmationRequest arrives.
      await page.getByRole('heading', { level: 3, name: 'Confirmation accept' }).waitFor();
      const confirmation = page.locator('article', { hasText: 'Confirmation accept' });
      expect(await visibleText(confirmation)).toMatch(/Comments Accepted as print order \d+\./);
      expect(await page.getByRole('status').first().innerText()).toMatch(
        /^Confirmation "accept" for PO-\d+: Accepted as print order \d+\. Answered 200 OK\.$/,
      );
      await page
        .locator('button:enabled', { hasText: 'Advance print order: merge files and ship' })
        .waitFor();
    });

    await step('advance the print order', async () => {
      await page.getByRole('button', { name: 'Advance print order: merge files and ship' }).click();
      await page
        .getByRole('status')
        .getByText(/^Print order for PO-\d+ advanced: files merged and shipped\./)
        .waitFor();
    });

    await step('see the ship notice with its tracking number', async () => {
      const heading = await waitForDocument(page, /^Ship notice/, SHIP_NOTICE_WAIT_MS);
      expect(await heading.innerText()).toMatch(/^Ship notice \d+-1 shipped$/);
      // The invoice may follow in the next worker round before this look: Invoiced then.
      await page
        .getByRole('heading', {
          level: 1,
          name: walk.invoice ? /^Requisition REQ-\w+ (Shipped|Invoiced)$/ : /^Requisition REQ-\w+ Shipped$/,
        })
        .waitFor();
      const notice = page.locator('article', { has: heading });
      expect(await visibleText(notice)).toContain(`Tracking ${FIRST_TRACKING_NUMBER}`);
      const shipped = await readTable(notice.getByRole('table'));
      // The notice names the PO's unit, and SAP's PO goes out in cXML's EA, not the requisition's ST.
      expect(shipped).toEqual([
        {
          Line: '1',
          'Part number': 'BC-STD',
          Description: expect.stringMatching(/^Business cards \(design \d+\)$/),
          Qty: '100',
          UOM: 'EA',
        },
      ]);
      // The page's activity, newest first: the ship notice's line (the latest notice may be the invoice's).
      expect(await page.locator('ol.timeline li').allInnerTexts()).toContainEqual(
        expect.stringMatching(
          new RegExp(
            `Ship notice \\d+-1 for PO-\\d+, tracking ${FIRST_TRACKING_NUMBER}\\. Answered 200 OK\\.$`,
          ),
        ),
      );
      // The ship notice itself, as the gateway sent it.
      await page.locator('summary', { hasText: 'ShipNoticeRequest' }).first().click();
      await page.locator('details[open] pre').getByText(FIRST_TRACKING_NUMBER).first().waitFor();
    });

    const invoice = walk.invoice;
    if (invoice !== undefined) {
      await step('see the invoice with its lines, totals and due date', async () => {
        const heading = await waitForDocument(page, /^Invoice /, INVOICE_WAIT_MS);
        expect(await heading.innerText()).toBe('Invoice INV-000001 accepted');
        await page.getByRole('heading', { level: 1, name: /^Requisition REQ-\w+ Invoiced$/ }).waitFor();
        const article = page.locator('article', { has: heading });
        const facts = await readFacts(article.locator('dl.facts'));
        expect(facts).toMatchObject({
          Purpose: 'standard',
          'Payment term': `net ${PAYMENT_TERM_DAYS} days`,
          'Amount due': '22.94 USD',
          At: `${new URL(demo.urls.buyer).origin}${invoice.endpoint}`,
        });
        // Due the invoice date's own calendar day + the payment term.
        const invoiceDay = facts['Invoice date']?.slice(0, 10) ?? '';
        expect(invoiceDay).toMatch(/^\d{4}-\d{2}-\d{2}$/);
        const due = new Date(`${invoiceDay}T00:00:00Z`);
        due.setUTCDate(due.getUTCDate() + PAYMENT_TERM_DAYS);
        expect(facts['Due date']).toBe(due.toISOString().slice(0, 10));
        // The PO's line at the PO's quantity and price, and the PO's shipping and tax, which the cart
        // quoted by the demo's charges (9.95, 8.25 %) and the demo shop charges alike: due = the PO's total.
        const lines = await readTable(article.getByRole('table').filter({ hasText: 'Invoiced lines' }));
        expect(lines).toEqual([
          {
            'Invoice line': '1',
            'PO line': '1',
            'Part number': 'BC-STD',
            Description: expect.stringMatching(/^Business cards/),
            Qty: '100',
            UOM: 'EA',
            'Unit price': '0.12 USD',
            Subtotal: '12.00 USD',
            ...(invoice.taxInLine && { Tax: '0.99 USD' }),
          },
        ]);
        const totals = await readTable(article.getByRole('table').filter({ hasText: 'Totals of invoice' }));
        expect(totals.map((row) => `${row['column 1']} ${row['column 2']}`)).toEqual([
          'Subtotal 12.00 USD',
          'Tax 0.99 USD',
          'Shipping 9.95 USD',
          'Discount 0.00 USD',
          'Net 22.94 USD',
        ]);
        expect(await visibleText(article.locator('tfoot'))).toBe('Due 22.94 USD');
        expect(await page.locator('ol.timeline li').allInnerTexts()).toContainEqual(
          expect.stringMatching(/Invoice INV-000001 for PO-\d+, due 22\.94 USD\. Answered 200 OK\.$/),
        );
        // The invoice itself, as the gateway sent it.
        await page.locator('summary', { hasText: 'InvoiceDetailRequest' }).first().click();
        await page.locator('details[open] pre').getByText('invoiceID="INV-000001"').first().waitFor();
      });
    }

    await step('find the order on the home page', async () => {
      await page.getByRole('link', { name: 'Buyer simulator' }).first().click();
      const requisitions = await readTable(
        page.getByRole('table').filter({ has: page.getByRole('columnheader', { name: 'Requisition' }) }),
      );
      expect(requisitions).toHaveLength(1);
      expect(requisitions[0]).toMatchObject({
        Profile: walk.profile,
        User: 'Jane Roe',
        // The SAP requisition holds its FREIGHT and TAX items too.
        Lines: walk.slug === 'sap' ? '3' : '1',
        State: walk.invoice ? 'Invoiced' : 'Shipped',
      });
      const inbox = await readTable(page.getByRole('table').filter({ hasText: 'Order-status inbox' }));
      const documents = inbox.map((row) => `${row.Document} ${row.Answered}`);
      expect(documents).toContain('ShipNoticeRequest 200 OK');
      // Exactly one invoice, however many rounds looked at the shipped print order since.
      expect(documents.filter((d) => d.startsWith('InvoiceDetailRequest'))).toEqual(
        walk.invoice ? ['InvoiceDetailRequest 200 OK'] : [],
      );
    });

    expect(pageErrors).toEqual([]);
  } finally {
    await context.close();
  }
}

describe('the demo in Chromium', () => {
  let browser: Browser;
  beforeAll(async () => {
    browser = await launchChromium();
  });
  afterAll(async () => {
    await browser?.close();
  });

  for (const walk of WALKS) {
    const what = walk.invoice ? 'ship notice, invoice' : 'ship notice';
    it(`${walk.profile}: punch out, design, cart, order, ${what}`, { timeout: 60_000 }, async () => {
      const folder = await mkdtemp(join(tmpdir(), `punchgate-browser-${walk.slug}-`));
      const demo = await startDemo({ port: 0, quiet: true, storePath: join(folder, 'demo.db') });
      try {
        await walkThroughDemo(browser, demo, walk);
      } finally {
        await demo.close();
        await rm(folder, { recursive: true, force: true });
      }
    });
  }
});
