/**
 * The demo in a real browser, as a person walks it after `npm start`: for each procurement profile, punch
 * out from the buyer simulator, design business cards in the sandbox editor inside the catalog frame, save,
 * check the cart, transfer it, order it, advance the print order and see the ship notice arrive. Every
 * check reads what is on the screen (headings, roles, table cells, status lines). Each walk gets a fresh
 * demo on its own port and SQLite file; one Chromium serves the three walks in turn.
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
  },
  {
    profile: 'Coupa-style cXML',
    slug: 'coupa',
    gatewayBuyer: 'coupa',
    designName: 'Grace Hopper',
    uom: 'EA',
    cartArrived: '1 line added from the catalog.',
    lineActions: true,
  },
  {
    profile: 'SAP-style OCI',
    slug: 'sap',
    gatewayBuyer: 'sap1',
    designName: 'Käthe Müller',
    uom: 'ST',
    cartArrived: '1 line added from the catalog (OCI, UTF-8).',
    lineActions: false,
  },
];

/** How long a person would wait for the page to react; the worker ticks every second. */
const SCREEN_WAIT_MS = 10_000;
/** The ship notice travels sandbox → webhook → gateway outbox → simulator; the page polls every 3 s. */
const SHIP_NOTICE_WAIT_MS = 15_000;
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

async function visibleText(locator: Locator): Promise<string> {
  return (await locator.innerText()).replace(/\s+/g, ' ').trim();
}

/** Waits for the ship notice; the page reloads itself on news, and a manual reload covers a missed poll. */
async function waitForShipNotice(page: Page): Promise<Locator> {
  const notice = page.getByRole('heading', { level: 3, name: /^Ship notice/ });
  const deadline = Date.now() + SHIP_NOTICE_WAIT_MS;
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
      expect(rows).toHaveLength(1);
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
      expect(await visibleText(lines.locator('tfoot'))).toMatch(/^Total 12\.00 USD/);
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
      const heading = await waitForShipNotice(page);
      expect(await heading.innerText()).toMatch(/^Ship notice \d+-1 shipped$/);
      await page.getByRole('heading', { level: 1, name: /^Requisition REQ-\w+ Shipped$/ }).waitFor();
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
      expect(await page.getByRole('status').first().innerText()).toMatch(
        new RegExp(
          `^Ship notice \\d+-1 for PO-\\d+, tracking ${FIRST_TRACKING_NUMBER}\\. Answered 200 OK\\.$`,
        ),
      );
      // The ship notice itself, as the gateway sent it.
      await page.locator('summary', { hasText: 'ShipNoticeRequest' }).first().click();
      await page.locator('details[open] pre').getByText(FIRST_TRACKING_NUMBER).first().waitFor();
    });

    await step('find the order on the home page', async () => {
      await page.getByRole('link', { name: 'Buyer simulator' }).first().click();
      const requisitions = await readTable(
        page.getByRole('table').filter({ has: page.getByRole('columnheader', { name: 'Requisition' }) }),
      );
      expect(requisitions).toHaveLength(1);
      expect(requisitions[0]).toMatchObject({
        Profile: walk.profile,
        User: 'Jane Roe',
        Lines: '1',
        State: 'Shipped',
      });
      const inbox = await readTable(page.getByRole('table').filter({ hasText: 'Order-status inbox' }));
      expect(inbox.map((row) => `${row.Document} ${row.Answered}`)).toContain('ShipNoticeRequest 200 OK');
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
    it(`${walk.profile}: punch out, design, cart, order, ship notice`, { timeout: 45_000 }, async () => {
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
