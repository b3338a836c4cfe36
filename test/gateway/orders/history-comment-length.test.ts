/**
 * History comments within `orders.maxHistoryCommentLength` (issue 16): a PO whose comments are long is
 * written into the print order's history as several entries, each within the maximum, split at line
 * breaks and labelled "(part i of n)", with nothing of the PO lost; a short one stays a single entry.
 */
import { describe, expect, it } from 'vitest';
import { historyEntries } from '../../../src/gateway/orders/history-comment.ts';
import {
  createOrderStack,
  drain,
  linesOf,
  orderConfig,
  printOrdersFor,
  punchOut,
  receivedDocuments,
  sendOrder,
} from '../../support/order-flow.ts';

const MAX = 300;

describe('history comments longer than the maximum', () => {
  it('become several history entries over HTTP, each within the maximum, the PO whole across them', async () => {
    const base = orderConfig();
    const stack = await createOrderStack({
      ...base,
      orders: { ...base.orders, maxHistoryCommentLength: MAX },
    });
    await stack.worker.startup();
    const cart = await punchOut(stack, ['Business cards']);
    const buyerComments = Array.from(
      { length: 12 },
      (_, i) => `Remark ${i + 1}: deliver to gate ${i + 1}.`,
    ).join('\n');
    const lineNote = 'x'.repeat(700);
    const lines = linesOf(cart).map((line) => ({ ...line, comments: lineNote }));
    expect(
      await sendOrder(stack, {
        payloadID: 'po-long@ariba.example',
        orderID: 'PO-LONG',
        lines,
        comments: buyerComments,
      }),
    ).toMatchObject({ code: 200 });
    await drain(stack);

    const [printOrderId] = await printOrdersFor(stack, 'PO-LONG');
    const history = stack.sandbox.control.orderHistory(printOrderId ?? 0).history;
    const entries = history.map((h) => h.comments ?? '').filter((c) => c.startsWith('(part '));
    expect(entries.length).toBeGreaterThan(2);
    for (const [i, entry] of entries.entries()) {
      expect(entry.length).toBeLessThanOrEqual(MAX);
      expect(entry.startsWith(`(part ${i + 1} of ${entries.length})\n`)).toBe(true);
    }
    const whole = entries.map((e) => e.slice(e.indexOf('\n') + 1)).join('\n');
    expect(whole).toContain('Purchase order PO-LONG');
    expect(whole).toContain('Remark 12: deliver to gate 12.');
    expect(whole.replace(/\s/g, '')).toContain(`note:${lineNote}`);
    // Every entry kept the print order's status, and the PO was accepted as usual.
    expect(new Set(history.slice(-entries.length).map((h) => h.status)).size).toBe(1);
    expect(
      receivedDocuments(stack, 'ConfirmationRequest').map(
        ({ doc }) => doc.Request.ConfirmationRequest.ConfirmationHeader['@type'],
      ),
    ).toEqual(['accept']);
    expect((await stack.store.orders.getByPayloadId('acme', 'po-long@ariba.example'))?.state).toBe('ordered');
  });

  it('a comment within the default maximum stays one entry', async () => {
    const stack = await createOrderStack();
    await stack.worker.startup();
    const cart = await punchOut(stack, ['Business cards']);
    await sendOrder(stack, {
      payloadID: 'po-short@ariba.example',
      orderID: 'PO-SHORT',
      lines: linesOf(cart),
    });
    await drain(stack);
    const [printOrderId] = await printOrdersFor(stack, 'PO-SHORT');
    const comments = stack.sandbox.control
      .orderHistory(printOrderId ?? 0)
      .history.map((h) => h.comments ?? '');
    expect(comments.filter((c) => c.includes('Purchase order PO-SHORT'))).toHaveLength(1);
    expect(comments.some((c) => c.startsWith('(part '))).toBe(false);
  });
});

describe('historyEntries', () => {
  it('splits at line breaks, cuts an over-long line at spaces, and drops nothing', () => {
    const comment = ['first line', 'second line', `${'word '.repeat(30)}end`].join('\n');
    const parts = historyEntries(comment, 80);
    for (const part of parts) expect(part.length).toBeLessThanOrEqual(80);
    const bodies = parts.map((p) => p.slice(p.indexOf('\n') + 1));
    expect(bodies.join(' ').replace(/\s+/g, ' ')).toBe(comment.replace(/\s+/g, ' '));
    expect(historyEntries('short', 80)).toEqual(['short']);
  });
});
