/**
 * The console's action routes: `POST /admin/ui/orders/:id/actions/:action` (attach, retry, handled) and
 * `POST /admin/ui/orders/:id/documents/:doc/:action` (revive). The session and its CSRF token are checked
 * before these run (index.ts); here: the PO still as the operator saw it, the confirmation step, the
 * action itself, then back to the PO page (Post/Redirect/Get, so reloading it does nothing again).
 * `POST /admin/ui/orders/:id/notes` adds a note: allowed at any time and changing nothing else, it needs
 * neither the PO's version nor a confirmation; the note is checked as the admin API checks it.
 */
import type { Context, Hono } from 'hono';
import type { PurchaseOrder } from '../../../store/types.ts';
import type { GatewayContext } from '../../context.ts';
import {
  ERROR_ANSWERS,
  GatewayError,
  publicMessage,
  StaleRecordError,
  toGatewayError,
} from '../../http/errors.ts';
import type { PageStatus } from '../../http/send-page.ts';
import { openHolds } from '../../invoices/invoice-holds.ts';
import { parsed } from '../admin-openapi.ts';
import { NoteBody } from '../admin-schemas.ts';
import { addOrderNote, NOTE_AUTHORS } from '../order-notes.ts';
import {
  checkNotStale,
  confirmationBody,
  MESSAGE_ACTIONS,
  type MessageAction,
  messageActionQuestion,
  ORDER_ACTIONS,
  type OrderAction,
  orderActionQuestion,
  runMessageAction,
  runOrderAction,
} from './actions.ts';
import { message, sendConsolePage } from './layout.ts';
import { orderPageBody, orderPath } from './order-page.ts';
import type { ConsoleEnv } from './session.ts';

const REFUSAL_STATUSES: readonly PageStatus[] = [400, 404, 409, 502, 503];

/** The PO page as it is now, with why the action was refused above it; nothing was changed. */
async function refused(
  ctx: GatewayContext,
  c: Context<ConsoleEnv>,
  poId: string,
  error: unknown,
): Promise<Response> {
  const known = toGatewayError(error);
  const http = ERROR_ANSWERS[known.code].http as PageStatus;
  if (!REFUSAL_STATUSES.includes(http)) throw error;
  const current = await ctx.store.orders.get(poId);
  if (current === undefined) throw error;
  const csrf = c.get('session').csrf;
  return sendConsolePage(
    c,
    {
      title: `Purchase order ${current.orderId}`,
      body: await orderPageBody(ctx, current, csrf, message('error', refusal(known))),
      signedIn: { csrf, section: 'orders' },
    },
    http,
  );
}

/** Why the action was refused, and for a PO that changed meanwhile, where to look now. */
function refusal(error: GatewayError): string {
  const text = publicMessage(error, 'page');
  return error instanceof StaleRecordError
    ? `${text} The page below shows the purchase order as it is now; repeat the action if it still applies.`
    : text;
}

function confirmPage(c: Context<ConsoleEnv>, order: PurchaseOrder, question: string): Promise<Response> {
  return sendConsolePage(c, {
    title: 'Confirm the action',
    body: confirmationBody(question, c.req.path, c.get('form'), orderPath(order.id)),
    signedIn: { csrf: c.get('session').csrf, section: 'orders' },
  });
}

/**
 * One action on one PO: refused unless the PO is as the operator's page showed it; without `confirmed`
 * only the question; with it, `run`, then the PO page saying it is done.
 */
async function act(
  ctx: GatewayContext,
  c: Context<ConsoleEnv>,
  order: PurchaseOrder,
  done: string,
  steps: { question(): Promise<string>; run(): Promise<void> },
): Promise<Response> {
  const form = c.get('form');
  try {
    checkNotStale(order, form);
    if (form.confirmed !== 'yes') return await confirmPage(c, order, await steps.question());
    await steps.run();
  } catch (error) {
    return refused(ctx, c, order.id, error);
  }
  ctx.logger.info('admin console action done', {
    action: done,
    po: order.id,
    session: c.get('session').sid,
  });
  return c.redirect(`${orderPath(order.id)}?done=${done}`, 303);
}

export function mountActionRoutes(
  app: Hono<ConsoleEnv>,
  ctx: GatewayContext,
  orderOr404: (id: string) => Promise<PurchaseOrder>,
): void {
  app.post('/ui/orders/:id/actions/:action', async (c) => {
    const action = c.req.param('action') as OrderAction;
    if (!ORDER_ACTIONS.includes(action)) throw new GatewayError('not_found', 'There is no such action.');
    const order = await orderOr404(c.req.param('id'));
    const form = c.get('form');
    return act(ctx, c, order, action, {
      question: async () => orderActionQuestion(action, order, form, await openHolds(ctx, order.id)),
      run: () => runOrderAction(ctx, action, order, form),
    });
  });

  app.post('/ui/orders/:id/notes', async (c) => {
    const order = await orderOr404(c.req.param('id'));
    try {
      const { text } = parsed(NoteBody, { text: c.get('form').text });
      await addOrderNote(ctx, order, text, NOTE_AUTHORS.console(c.get('session').sid));
    } catch (error) {
      return refused(ctx, c, order.id, error);
    }
    return c.redirect(`${orderPath(order.id)}?done=note`, 303);
  });

  app.post('/ui/orders/:id/documents/:doc/:action', async (c) => {
    const action = c.req.param('action') as MessageAction;
    if (!MESSAGE_ACTIONS.includes(action)) throw new GatewayError('not_found', 'There is no such action.');
    const order = await orderOr404(c.req.param('id'));
    const doc = await ctx.store.outbox.get(c.req.param('doc'));
    if (doc === undefined || doc.poId !== order.id) {
      throw new GatewayError('not_found', `Purchase order ${order.orderId} has no such document.`);
    }
    return act(ctx, c, order, action, {
      question: async () => messageActionQuestion(action, doc),
      run: () => runMessageAction(ctx, action, doc),
    });
  });
}
