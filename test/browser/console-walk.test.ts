/**
 * The operator console in a real browser (issue 20), as an operator walks it: sign in with the admin
 * token, find a PO by its number, open it and see the confirmation the buyer got, then settle a PO whose
 * print-order create was cut off by attaching the print order that create made — after which the PO has
 * its print order and the print service was never asked to create another — move the dead accept back to
 * the outbox (the PO waits for an operator until it is delivered), and re-send a delivered confirmation. The gateway is the in-process test stack (its print
 * service and the buyer's endpoint can be made to fail), served on a loopback port; each step saves a
 * screenshot when it fails.
 */
import type { AddressInfo } from 'node:net';
import { type ServerType, serve } from '@hono/node-server';
import type { Browser, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { creates, parkedPo, settle } from '../gateway/operator/console/console-support.ts';
import { ADMIN_TOKEN, drain, linesOf, type OrderStack, punchOut, sendOrder } from '../support/order-flow.ts';
import { cxmlStatusAnswer } from '../support/stack.ts';
import { launchChromium } from './chromium.ts';
import { stepsWithScreenshots } from './failure-screenshots.ts';

function listen(stack: OrderStack): Promise<{ server: ServerType; origin: string }> {
  return new Promise((resolve) => {
    const server = serve(
      { fetch: (request) => stack.gateway.app.fetch(request), port: 0, hostname: '127.0.0.1' },
      (info: AddressInfo) => resolve({ server, origin: `http://127.0.0.1:${info.port}` }),
    );
  });
}

async function signIn(page: Page, origin: string): Promise<void> {
  await page.goto(`${origin}/admin/`);
  await page.getByLabel('Admin token').fill(ADMIN_TOKEN);
  await page.getByRole('button', { name: 'Sign in' }).click();
  await page.getByRole('heading', { level: 1, name: 'Overview' }).waitFor();
}

describe('the operator console in Chromium', () => {
  let browser: Browser;
  beforeAll(async () => {
    browser = await launchChromium();
  });
  afterAll(async () => {
    await browser?.close();
  });

  it('sign in, find a PO, see its confirmation, attach a print order, move a document back, re-send one', {
    timeout: 60_000,
  }, async () => {
    const { stack, made } = await parkedPo();
    const cart = await punchOut(stack, ['Business cards']);
    expect(await sendOrder(stack, { orderID: 'PO-4711', lines: linesOf(cart) })).toMatchObject({ code: 200 });
    await drain(stack);
    const { server, origin } = await listen(stack);
    const context = await browser.newContext({ viewport: { width: 1280, height: 900 } });
    const page = await context.newPage();
    const step = stepsWithScreenshots(page, 'console');
    try {
      await step('a wrong token is refused with a message', async () => {
        await page.goto(`${origin}/admin/`);
        await page.getByLabel('Admin token').fill('not-the-token');
        await page.getByRole('button', { name: 'Sign in' }).click();
        await page.getByRole('alert').filter({ hasText: 'That is not the admin token.' }).waitFor();
      });
      await step('sign in', () => signIn(page, origin));
      await step('the overview lists the PO waiting for an operator', async () => {
        const waiting = page.getByRole('table', { name: /Waiting for an operator/ });
        await waiting.getByRole('link', { name: 'PO-CUT' }).waitFor();
      });
      await step('find PO-4711 by its number', async () => {
        await page
          .getByRole('navigation', { name: 'Console' })
          .getByRole('link', { name: 'Purchase orders' })
          .click();
        await page.getByLabel('PO number or print order id').fill('PO-4711');
        await page.getByRole('button', { name: 'Search' }).click();
        await page.getByRole('link', { name: 'PO-4711' }).click();
        await page.getByRole('heading', { level: 1, name: 'Purchase order PO-4711' }).waitFor();
      });
      await step('see the confirmation the buyer got', async () => {
        const documents = page.getByRole('table', { name: 'Documents exchanged with the buyer' });
        const row = documents.getByRole('row').filter({ hasText: 'ConfirmationRequest' });
        expect(await row.getByRole('cell').nth(2).textContent()).toBe('delivered');
        await row.getByRole('link', { name: 'ConfirmationRequest' }).click();
        const text = await page.getByLabel('Document').textContent();
        expect(text).toContain('<ConfirmationHeader');
        expect(text).toContain('orderID="PO-4711"');
        expect(text).not.toContain('printco-secret');
      });
      const before = creates(stack);
      await step('open PO-CUT from the overview', async () => {
        await page.getByRole('link', { name: 'Overview' }).click();
        await page.getByRole('link', { name: 'PO-CUT' }).click();
        await page.getByRole('heading', { level: 1, name: 'Purchase order PO-CUT' }).waitFor();
      });
      await step('attach the print order the cut-off create made, confirming', async () => {
        await page.getByLabel('Print order id').fill(String(made));
        await page.getByRole('button', { name: 'Attach print order…' }).click();
        await page.getByText(`Attach print order ${made} to purchase order PO-CUT?`).waitFor();
        await page.getByRole('button', { name: 'Confirm' }).click();
        await page.getByRole('status').filter({ hasText: 'The print order is attached.' }).waitFor();
      });
      await step(
        'after the next rounds the PO has its print order, no second one, and waits over its dead accept',
        async () => {
          // The buyer's endpoint is away meanwhile, so the accept ends up a dead letter (moved back below),
          // which puts the PO back among those waiting for an operator.
          stack.answerOrderStatus = () => new Response('down', { status: 503 });
          await settle(stack);
          await page.reload();
          const facts = await page.locator('dl.facts').first().textContent();
          expect(facts).toContain('StateWaiting for an operator');
          expect(facts).toContain('document_dead');
          await page.getByRole('heading', { level: 3, name: `Print order ${made}`, exact: true }).waitFor();
          expect(creates(stack)).toBe(before);
        },
      );
      await step('move the dead accept back to the outbox; it is delivered', async () => {
        const documents = page.getByRole('table', { name: 'Documents exchanged with the buyer' });
        const row = documents.getByRole('row').filter({ hasText: 'ConfirmationRequest' });
        expect(await row.getByRole('cell').nth(2).textContent()).toBe('dead');
        await row.getByRole('button', { name: 'Move back to the outbox…' }).click();
        await page.getByRole('button', { name: 'Confirm' }).click();
        await page.getByRole('status').filter({ hasText: 'The document is back in the outbox' }).waitFor();
        stack.answerOrderStatus = () => cxmlStatusAnswer(200, 'OK');
        await drain(stack);
        await page.reload();
        expect(await row.getByRole('cell').nth(2).textContent()).toBe('delivered');
        expect(await page.locator('dl.facts').first().textContent()).toContain('StateOrdered');
      });
      await step('re-send the confirmation of PO-4711', async () => {
        await page.getByRole('link', { name: 'Purchase orders' }).click();
        await page.getByLabel('PO number or print order id').fill('PO-4711');
        await page.getByRole('button', { name: 'Search' }).click();
        await page.getByRole('link', { name: 'PO-4711' }).click();
        const documents = page.getByRole('table', { name: 'Documents exchanged with the buyer' });
        const row = documents.getByRole('row').filter({ hasText: 'ConfirmationRequest' });
        const posts = stack.orderStatusPosts.length;
        await row.getByRole('button', { name: 'Re-send…' }).click();
        await page.getByText(/to the buyer again\?/).waitFor();
        await page.getByRole('button', { name: 'Confirm' }).click();
        await page
          .getByRole('status')
          .filter({ hasText: 'The document is queued to be sent again' })
          .waitFor();
        await drain(stack);
        await page.reload();
        const copies = documents.getByRole('row').filter({ hasText: 'ConfirmationRequest' });
        expect(await copies.count()).toBe(2);
        expect(stack.orderStatusPosts.length).toBe(posts + 1);
      });
    } finally {
      await context.close();
      server.close();
    }
  });
});
