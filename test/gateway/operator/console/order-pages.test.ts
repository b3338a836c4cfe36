/**
 * The console's purchase-order pages over HTTP (issue 20): the list and its search by PO number and print
 * order id, the PO page with its lines, job ticket, live print order, documents and timeline, and each
 * document shown raw without its SharedSecret.
 */
import { describe, expect, it } from 'vitest';
import { setupRequest } from '../../../support/cxml-documents.ts';
import {
  createOrderStack,
  drain,
  linesOf,
  type OrderStack,
  orderConfig,
  punchOut,
  sendOrder,
} from '../../../support/order-flow.ts';
import { type Operator, signIn } from './console-support.ts';

async function orderedPo(): Promise<{
  stack: OrderStack;
  operator: Operator;
  id: string;
  printOrderId: number;
}> {
  const stack = await createOrderStack(orderConfig());
  await stack.worker.startup();
  const cart = await punchOut(stack, ['Business cards']);
  expect(await sendOrder(stack, { orderID: 'PO-4711', lines: linesOf(cart) })).toMatchObject({ code: 200 });
  await drain(stack);
  const po = (await stack.store.orders.list()).items.find((o) => o.orderId === 'PO-4711');
  expect(po?.state).toBe('ordered');
  return { stack, operator: await signIn(stack), id: po?.id ?? '', printOrderId: po?.printOrderIds[0] ?? 0 };
}

const text = async (res: Response) => {
  expect(res.status).toBe(200);
  return res.text();
};

describe('purchase order pages', () => {
  it('the list shows the PO; a search finds it by PO number and by print order id', async () => {
    const { operator, id, printOrderId } = await orderedPo();
    const link = `<a href="/admin/ui/orders/${id}">PO-4711</a>`;
    expect(await text(await operator.get('/admin/ui/orders'))).toContain(link);
    expect(await text(await operator.get('/admin/ui/orders?q=PO-4711'))).toContain(link);
    expect(await text(await operator.get(`/admin/ui/orders?q=${printOrderId}`))).toContain(link);
    expect(await text(await operator.get('/admin/ui/orders?state=ordered&buyer=acme'))).toContain(link);
    expect(await text(await operator.get('/admin/ui/orders?state=failed'))).not.toContain(link);
    expect(await text(await operator.get('/admin/ui/orders?q=PO-0000'))).toContain(
      'No purchase order matches &quot;PO-0000&quot;.',
    );
  });

  it('filters by flag and by the day received; a wrong date says what is wrong', async () => {
    const { operator, id } = await orderedPo();
    const link = `<a href="/admin/ui/orders/${id}">PO-4711</a>`;
    expect(await text(await operator.get('/admin/ui/orders?from=2026-11-22&to=2026-11-22'))).toContain(link);
    expect(await text(await operator.get('/admin/ui/orders?from=2026-11-23'))).not.toContain(link);
    expect(await text(await operator.get('/admin/ui/orders?flag=handled_by_operator'))).not.toContain(link);
    const wrong = await text(await operator.get('/admin/ui/orders?from=yesterday'));
    expect(wrong).toContain('role="alert"');
    expect(wrong).not.toContain(link);
  });

  it('the overview links the states to the filtered list', async () => {
    const { operator } = await orderedPo();
    const page = await text(await operator.get('/admin/'));
    expect(page).toContain('<a href="/admin/ui/orders?state=ordered">Ordered</a></dt><dd>1</dd>');
    expect(page).toContain('No purchase order waits for an operator.');
  });

  it('the PO page shows lines, job ticket, the live print order, documents and timeline', async () => {
    const { operator, id, printOrderId } = await orderedPo();
    const page = await text(await operator.get(`/admin/ui/orders/${id}`));
    expect(page).toContain('<h1>Purchase order PO-4711</h1>');
    expect(page).toContain('as in the cart');
    expect(page).toContain(`<h3>Print order ${printOrderId}</h3>`);
    expect(page).toContain('Purchase order PO-4711');
    expect(page).toContain('Status at the print service now:');
    expect(page).toMatch(/ConfirmationRequest<\/a>/);
    expect(page).toContain('<caption>Timeline</caption>');
  });

  it('the print service away: the PO page still answers and says so', async () => {
    const { stack, operator, id } = await orderedPo();
    stack.printServiceDown = true;
    const page = await text(await operator.get(`/admin/ui/orders/${id}`));
    expect(page).toContain('The print service could not be read:');
    expect(page).toContain('<caption>Timeline</caption>');
  });

  it('documents are shown raw without SharedSecrets, only on their own PO', async () => {
    const { stack, operator, id } = await orderedPo();
    const request = await text(await operator.get(`/admin/ui/orders/${id}/documents/order-request`));
    expect(request).toContain('&lt;SharedSecret&gt;[redacted]&lt;/SharedSecret&gt;');
    expect(request).toContain('PO-4711');
    const confirmation = (await stack.store.outbox.list({ poId: id })).items.find(
      (m) => m.kind === 'confirmation',
    );
    expect(confirmation).toBeDefined();
    const sent = await text(await operator.get(`/admin/ui/orders/${id}/documents/${confirmation?.id}`));
    expect(sent).toContain('ConfirmationRequest');
    expect(sent).toContain('&lt;SharedSecret&gt;[redacted]&lt;/SharedSecret&gt;');
    expect(sent).not.toContain('printco-secret');
    const other = await operator.get(`/admin/ui/orders/${id}/documents/no-such-message`);
    expect(other.status).toBe(404);
    expect((await operator.get('/admin/ui/orders/no-such-po')).status).toBe(404);
  });

  it('the buyers page lists each buyer with its settings and latest POs, no secret', async () => {
    const { operator, id } = await orderedPo();
    const page = await text(await operator.get('/admin/ui/buyers'));
    expect(page).toContain('<a href="/admin/ui/buyers" aria-current="page">Buyers</a>');
    expect(page).toMatch(/<h2>[^<]*\(acme\)<\/h2>|<h2>acme<\/h2>/);
    expect(page).toContain('<dt>Protocol</dt><dd>SAP OCI</dd>');
    expect(page).toContain(`<a href="/admin/ui/orders/${id}">PO-4711</a>`);
    expect(page).not.toContain('printco-secret');
    // The onboarding text names the SharedSecret and the password field, never their values nor a config key.
    expect(page).not.toMatch(/-secret\b|sharedSecret|previousPasswords|"password"/);
    expect(page).toContain(
      'PASSWORD=the password agreed with us (sent to you separately; never written here)',
    );
  });

  it("the buyers page counts each buyer's punch-outs of the last 24 hours and its failed authentications", async () => {
    const { stack, operator } = await orderedPo();
    const section = async (who: Operator, id: string) => {
      const page = await text(await who.get('/admin/ui/buyers'));
      return (
        page.split('<h2>').find((part) => part.includes(`(${id})</h2>`) || part.startsWith(`${id}</h2>`)) ??
        ''
      );
    };
    for (const _ of [1, 2]) await stack.postCxml(setupRequest({ secret: 'wrong' }));
    let acme = await section(operator, 'acme');
    expect(acme).toContain('<dt>Punch-outs, last 24 hours</dt><dd>1</dd>');
    expect(acme).toContain(
      '<dt>Failed authentications</dt><dd>2 in the last 15 minutes (locked at 5), counted by every instance</dd>',
    );
    expect(acme).not.toContain('Locked');
    const sap = await section(operator, 'sap1');
    expect(sap).toContain('<dt>Punch-outs, last 24 hours</dt><dd>0</dd>');
    expect(sap).toContain('<dt>Failed authentications</dt><dd>0 in the last 15 minutes');
    // The fifth wrong secret locks the buyer: the page says for how long.
    for (const _ of [3, 4, 5]) await stack.postCxml(setupRequest({ secret: 'wrong' }));
    acme = await section(operator, 'acme');
    expect(acme).toContain(
      '<dd><strong>Locked</strong>: punch-outs from addresses off its allow-list refused for another 900 seconds</dd>',
    );
    // A day later the punch-out is no longer among the last 24 hours' (a new session: the old one expired).
    stack.clock.advance(86_400 + 1);
    acme = await section(await signIn(stack), 'acme');
    expect(acme).toContain('<dt>Punch-outs, last 24 hours</dt><dd>0</dd>');
    expect(acme).toContain('<dt>Failed authentications</dt><dd>0 in the last 15 minutes');
  });
});
