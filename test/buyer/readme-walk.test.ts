/**
 * The README's "walk through the demo", step by step, as a user does it: `startDemo` on a port, and every
 * step through the buyer simulator's HTTP (the requisition form, the catalog in its frame, the sandbox's
 * editor, the cart's quantity 500 and "Update", the transfer's self-submitting form, "Submit purchase
 * order", "Advance print order"). It ends with the invoice the README promises: due what the PO totals.
 */
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type RunningDemo, startDemo } from '../../src/runtime/demo.ts';
import { decodeEntities, findForms, formBody } from '../support/html-forms.ts';
import {
  changeQuantity,
  clickButton,
  designProduct,
  returnFormOf,
  submit,
} from '../support/punchout-flow.ts';
import { type BrowserResponse, followRedirects } from '../support/stack.ts';

const WAIT_MS = 30_000;

let demo: RunningDemo;
let folder: string;
const browser = { browse: followRedirects((url, init) => fetch(url, { ...init, redirect: 'manual' })) };

beforeAll(async () => {
  folder = await mkdtemp(join(tmpdir(), 'punchgate-readme-walk-'));
  demo = await startDemo({ port: 0, quiet: true, storePath: join(folder, 'demo.db') });
});

afterAll(async () => {
  await demo?.close();
  await rm(folder, { recursive: true, force: true });
});

/** The documents on the requisition page, verbatim (their `<pre>` text, unescaped), oldest first. */
function documentsOf(page: BrowserResponse): string[] {
  return [...page.text.matchAll(/<pre[^>]*>([\s\S]*?)<\/pre>/g)].map((m) => decodeEntities(m[1] ?? ''));
}

/** The requisition page, polled (as its own script does every 3 s) until `ready` says it shows what we wait for. */
async function requisitionUntil(url: string, what: string, ready: (page: BrowserResponse) => boolean) {
  const deadline = Date.now() + WAIT_MS;
  for (;;) {
    const page = await browser.browse(url);
    if (ready(page)) return page;
    if (Date.now() > deadline) throw new Error(`the requisition never showed ${what}:\n${page.text}`);
    await new Promise((resolve) => setTimeout(resolve, 250));
  }
}

async function post(page: BrowserResponse, action: string, fields: [string, string][] = []) {
  return browser.browse(new URL(action, page.url).toString(), {
    method: 'POST',
    body: formBody(fields),
    headers: { 'Content-Type': 'application/x-www-form-urlencoded' },
  });
}

describe('the README walk (Ariba-style cXML)', () => {
  it('quantity 500 at 0.09 ends with invoice INV-000001 due the PO total, 58.66 USD', async () => {
    // 1. Choose a procurement system and a user, then "Punch out".
    const home = await browser.browse(demo.urls.buyer);
    const user = /name="user" value="([^"]+)"/.exec(home.text)?.[1] ?? '';
    const requisition = await post(home, `${demo.urls.buyer}/requisitions`, [
      ['profile', 'ariba'],
      ['user', user],
    ]);
    expect(requisition.text).toMatch(/<h1>Requisition REQ-\w+ <span[^>]*>In catalog<\/span><\/h1>/);
    const requisitionUrl = requisition.url.replace(/\?.*$/, '');
    const frame = decodeEntities(/<iframe[^>]*src="([^"]+)"/.exec(requisition.text)?.[1] ?? '');
    const catalog = await browser.browse(frame);
    expect(catalog.status).toBe(200);

    // 2. "Design Business cards", save; the cart: quantity 100 at 0.12, total 12.00; quantity 500 at 0.09.
    const cart = await designProduct(browser, catalog, 'Business cards', { Name: 'Jane Roe' });
    expect(cart.text).toContain('12.00 USD');
    const updated = await changeQuantity(browser, cart, '500');
    expect(updated.status).toBe(200);
    expect(updated.text).toContain('0.09 USD');
    expect(updated.text).toContain('45.00 USD');

    // 3. "Transfer cart to procurement system": the self-submitting form posts the cart to the simulator.
    const transfer = await clickButton(browser, updated, 'Transfer cart to procurement system');
    const draft = await submit(browser, transfer, returnFormOf(transfer));
    expect(draft.text).toMatch(/Requisition REQ-\w+ <span[^>]*>Draft<\/span>/);
    expect(draft.text).toContain('<td class="mono">BC-STD</td>');
    expect(draft.text).toMatch(/Shipping \(Shipping\)<\/td><td class="num">9\.95 USD/);
    expect(draft.text).toMatch(/Tax \(Sales tax\)<\/td><td class="num">3\.71 USD/);
    expect(draft.text).toMatch(/Total<\/td><td class="num">58\.66 USD/);

    // 4. "Submit purchase order": accepted 200 OK, then the ConfirmationRequest arrives.
    const order = findForms(draft.text).find((f) => f.action.endsWith('/order'));
    expect(order, 'the "Submit purchase order" form').toBeDefined();
    await submit(browser, draft, order as NonNullable<typeof order>);
    await requisitionUntil(requisitionUrl, 'the confirmation', (page) =>
      /Accepted as print order \d+/.test(page.text),
    );

    // 5. "Advance print order: merge files and ship"; 6. the ship notice, then the invoice.
    const ordered = await browser.browse(requisitionUrl);
    await post(ordered, `${requisitionUrl}/advance`);
    const invoiced = await requisitionUntil(requisitionUrl, 'the invoice', (page) =>
      page.text.includes('Invoice <span class="mono">INV-000001</span>'),
    );
    expect(invoiced.text).toContain('<span class="pill good">accepted</span>');
    expect(invoiced.text).toContain('<dt>Amount due</dt><dd><strong>58.66 USD</strong></dd>');

    // The documents as exchanged (Ariba writes comments between elements): the PO's Total, with its
    // Shipping and Tax, and the invoice's DueAmount are the same amount.
    const documents = documentsOf(invoiced);
    const po = documents.find((d) => d.includes('<OrderRequest>'));
    const invoice = documents.find((d) => d.includes('<InvoiceDetailRequest>'));
    const poTotal = /<OrderRequestHeader[\s\S]*?<Total>[\s\S]*?<Money currency="USD">([^<]+)</.exec(
      po ?? '',
    )?.[1];
    const due = /<DueAmount>[\s\S]*?<Money currency="USD">([^<]+)</.exec(invoice ?? '')?.[1];
    expect([poTotal, due]).toEqual(['58.66', '58.66']);
    expect(po).toMatch(/<Shipping>[\s\S]*?<Money currency="USD">9\.95<\/Money>/);
    expect(po).toMatch(/<Tax>[\s\S]*?<Money currency="USD">3\.71<\/Money>/);
    expect(invoice).not.toContain('InvoiceDetailDiscount');
  });
});
