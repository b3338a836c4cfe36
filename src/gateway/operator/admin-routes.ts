/**
 * `/admin`: the operators' JSON API over purchase orders, their print orders and the documents sent to
 * buyers. Every request needs `Authorization: Bearer <adminToken>`, or one of `previousAdminTokens` while
 * operators' tooling switches over (compared in constant time).
 *
 * - `GET /admin/openapi.json` — this API described (OpenAPI 3.1), generated from the route definitions the
 *   routes are mounted from (admin-openapi.ts);
 * - `GET /admin/overview` — POs by state, those waiting for an operator, backlog, last round, failures;
 * - `GET /admin/orders[?state&buyer&q&flag&from&to&limit&cursor]` — POs, newest first, with print orders;
 * - `GET /admin/orders/:id` — one PO: lines, differences from the cart, flags, timeline, documents, raw;
 * - `POST /admin/orders/:id/retry` — a failed PO (or one waiting for an operator) is processed again;
 *   refused (409) when an earlier create of its print order may have gone through;
 * - `POST /admin/orders/:id/attach {printOrderId}` — that print order, verified to carry the PO number,
 *   becomes the PO's and its processing carries on (history, accept, tracking);
 * - `POST /admin/orders/:id/handled {note}` — a PO waiting for an operator leaves the queue, no document;
 * - `POST /admin/orders/:id/cancellation {decision, note}` — a buyer's cancellation of a shipped or
 *   invoiced order carried out (print orders cancelled, invoices credited) or refused, the buyer told;
 * - `GET /admin/orders/:id/attachments` — the files that came with the PO (multipart/related parts);
 * - `GET /admin/orders/:id/attachments/:position` — one of them downloaded (attachment, inert type);
 * - `GET /admin/orders/:id/invoices` — the PO's invoices and credit memos, each with its deliveries;
 * - `POST /admin/orders/:id/invoice` — invoice now: the PO's print orders read again and invoiced as the
 *   buyer's settings say, held invoices at the prices the body names (`{"prices": "po" | "print-order"}`,
 *   default `po`); never a second one;
 * - `POST /admin/orders/:id/waive-invoice` — the PO's held invoices are not sent (`{"note": "…"}`);
 * - `POST /admin/invoices/:id/resend` — the same invoice document (same invoiceID, same payloadID) again;
 * - `GET /admin/outbox[?state&buyer&po&limit&cursor]`, `GET /admin/outbox/:id` (with the document);
 * - `POST /admin/outbox/:id/retry` — a dead-lettered document is sent again;
 * - `POST /admin/outbox/:id/resend` — a delivered or dead document is sent again, the same bytes but for
 *   our SharedSecret, as configured now;
 * - `GET /admin/dead-letters` — dead documents and dead jobs;
 * - `GET /admin/jobs[?state&kind&limit&cursor]`;
 * - `GET /admin/refusals[?buyer&from&to&limit&cursor]` — the refusals log: refused punch-outs and buyer
 *   documents, newest first, each with the answer sent and the document as received (secrets blanked).
 * - `POST /admin/orders/:id/notes {text}` — a note on the PO, at any time, kept with it (201);
 * - `GET /admin/export/{orders,invoices,refusals}.csv[?from&to&buyer]` — CSV
 *   for accounting, streamed page by page (csv-exports.ts).
 *
 * Actions on a PO take an optional `expectedState` / `expectedUpdatedAt` and are refused (409, with the PO's
 * current state) when it changed since the operator looked.
 */
import { type Context, Hono, type MiddlewareHandler } from 'hono';
import type * as z from 'zod';
import { constantTimeEqual } from '../../kernel/constant-time.ts';
import type { OutboxMessage, PurchaseOrder } from '../../store/types.ts';
import type { GatewayContext } from '../context.ts';
import { GatewayError } from '../http/errors.ts';
import { jsonError } from '../http/json-answers.ts';
import {
  documentDeliveries,
  documentKey,
  invoicePoNow,
  refuseWithheldDocument,
  resendDocument,
  resendInvoice,
  waiveHeldInvoices,
} from '../invoices/invoicing.ts';
import { retryPurchaseOrder } from '../orders/process-order.ts';
import {
  type DescribedRoutes,
  deadLettersRoute,
  describedRoutes,
  invoiceResendRoute,
  invoicesExportRoute,
  jobsRoute,
  openApiRoute,
  orderAttachmentRoute,
  orderAttachmentsRoute,
  orderAttachRoute,
  orderCancellationRoute,
  orderHandledRoute,
  orderInvoiceRoute,
  orderInvoicesRoute,
  orderNotesRoute,
  orderRetryRoute,
  orderRoute,
  ordersExportRoute,
  refusalsExportRoute,
  ordersRoute,
  orderWaiveInvoiceRoute,
  outboxMessageRoute,
  outboxResendRoute,
  outboxRetryRoute,
  outboxRoute,
  overviewRoute,
  parsed,
  refusalsRoute,
} from './admin-openapi.ts';
import { adminOverview } from './admin-overview.ts';
import {
  AttachBody,
  AttachmentParams,
  CancellationDecisionBody,
  HandledBody,
  InvoiceBody,
  NoteBody,
  StaleGuard,
  WaiveInvoiceBody,
} from './admin-schemas.ts';
import { adminTokenFailures } from './admin-token-failures.ts';
import { attachmentResponse, attachmentView } from './attachment-download.ts';
import {
  invoiceList,
  jobView,
  messageView,
  orderDetail,
  orderSummary,
  refusalFilter,
  refusalView,
  searchOrders,
} from './admin-views.ts';
import { type AuditTrailOptions, auditTrail } from './audit-trail.ts';
import { decideCancellation } from './cancellation-decision.ts';
import { exportResponse } from './csv-exports.ts';
import { attachPrintOrder, markHandled, refuseIfStale } from './operator-actions.ts';
import { addOrderNote, NOTE_AUTHORS, orderNoteView } from './order-notes.ts';

const API_AUDIT: AuditTrailOptions = {
  refused: (status) => status === 401 || status === 429,
  message: 'admin api call',
  refusedMessage: 'admin api call refused',
};

function requireAdminToken(ctx: GatewayContext): MiddlewareHandler {
  const failures = adminTokenFailures(ctx);
  return async (c, next) => {
    const address = ctx.clientAddress(c);
    const wait = failures.lockedFor(address);
    if (wait > 0) {
      throw new GatewayError(
        'throttled',
        `Too many wrong admin tokens from this address; try again in ${wait} seconds.`,
        { retryAfterSeconds: wait },
      );
    }
    const header = c.req.header('Authorization') ?? '';
    const sent = /^Bearer[ \t]+(\S+)\s*$/i.exec(header)?.[1] ?? '';
    // Compared even when nothing was sent, so the answer takes as long either way; and with every accepted
    // token (the current one and those being retired), without early exit, so timing tells none apart.
    let matches = false;
    for (const token of [ctx.config.adminToken, ...ctx.config.previousAdminTokens]) {
      const equal = constantTimeEqual(sent, token);
      matches = matches || equal;
    }
    if (sent === '' || !matches) {
      await failures.fail(address);
      throw new GatewayError('unauthorized', 'A valid admin bearer token is required.');
    }
    await next();
    c.header('Cache-Control', 'no-store');
  };
}

/** The JSON object an operator's action sends, whatever its Content-Type says; anything else is a 400. */
async function jsonObject(c: Context): Promise<Record<string, unknown>> {
  let body: unknown;
  try {
    body = await c.req.json();
  } catch {
    throw new GatewayError('bad_request', 'The request body must be a JSON object.');
  }
  if (typeof body !== 'object' || body === null || Array.isArray(body)) {
    throw new GatewayError('bad_request', 'The request body must be a JSON object.');
  }
  return body as Record<string, unknown>;
}

/**
 * An action's body read with its schema (one of the REQUEST_BODIES its route describes), its first problem
 * the 400's message; read once the record was found. Where the body is optional (retry, invoice), none at
 * all reads as `{}`.
 */
async function readBody<S extends z.ZodObject>(
  c: Context,
  schema: S,
  options: { optional?: boolean } = {},
): Promise<z.output<S>> {
  const value = options.optional === true && (await c.req.text()).trim() === '' ? {} : await jsonObject(c);
  return parsed(schema, value);
}

/** The routes over purchase orders: reads, search, and the operator's actions on one PO. */
function orderRoutes(routes: DescribedRoutes, ctx: GatewayContext): void {
  const { store } = ctx;
  async function orderOr404(id: string): Promise<PurchaseOrder> {
    const order = await store.orders.get(id);
    if (order === undefined) throw new GatewayError('not_found', `No purchase order record ${id}.`);
    return order;
  }
  const summary = async (order: PurchaseOrder) =>
    orderSummary(order, await store.printOrders.listByPo(order.id));

  routes.mount(overviewRoute, async (c) => c.json(await adminOverview(ctx)));

  routes.mount(ordersRoute, async (c, { query }) => {
    const page = await searchOrders(ctx, query);
    const items = [];
    for (const order of page.items) items.push(await summary(order));
    return c.json({ items, nextCursor: page.nextCursor ?? null });
  });

  routes.mount(orderRoute, async (c, { id }) => {
    const order = await orderOr404(id);
    return c.json(await orderDetail(ctx, order));
  });

  routes.mount(orderRetryRoute, async (c, { id }) => {
    const found = await orderOr404(id);
    refuseIfStale(found, await readBody(c, StaleGuard, { optional: true }));
    const order = await retryPurchaseOrder(ctx, found);
    ctx.logger.info('purchase order retried by an operator', { po: order.id });
    return c.json({ order: await summary(order) }, 202);
  });

  routes.mount(orderAttachRoute, async (c, { id }) => {
    const order = await orderOr404(id);
    const body = await readBody(c, AttachBody);
    refuseIfStale(order, body);
    const attached = await attachPrintOrder(ctx, order, body.printOrderId);
    return c.json({ order: await summary(attached) }, 202);
  });

  routes.mount(orderHandledRoute, async (c, { id }) => {
    const order = await orderOr404(id);
    const body = await readBody(c, HandledBody);
    refuseIfStale(order, body);
    const handled = await markHandled(ctx, order, body.note);
    return c.json({ order: await summary(handled) });
  });

  routes.mount(orderNotesRoute, async (c, { id }) => {
    const order = await orderOr404(id);
    const { text } = await readBody(c, NoteBody);
    const note = await addOrderNote(ctx, order, text, NOTE_AUTHORS.api);
    return c.json({ note: orderNoteView(note) }, 201);
  });

  routes.mount(orderCancellationRoute, async (c, { id }) => {
    const order = await orderOr404(id);
    const body = await readBody(c, CancellationDecisionBody);
    refuseIfStale(order, body);
    const decided = await decideCancellation(ctx, order, body.decision, body.note);
    return c.json({ order: await summary(decided) });
  });

  routes.mount(orderAttachmentsRoute, async (c, { id }) => {
    const order = await orderOr404(id);
    const items = (await store.attachments.list(order.id)).map((file) => attachmentView(file, '/admin'));
    return c.json({ items });
  });

  routes.mount(orderAttachmentRoute, async (c, { id }) => {
    const { position } = parsed(AttachmentParams, c.req.param());
    const order = await orderOr404(id);
    const file = await store.attachments.get(order.id, Number(position));
    if (file === undefined) {
      throw new GatewayError('not_found', `Purchase order record ${order.id} has no attachment ${position}.`);
    }
    ctx.logger.info('attachment downloaded by an operator', { po: order.id, position: file.position });
    return attachmentResponse(file);
  });

  routes.mount(orderInvoicesRoute, async (c, { id }) => {
    const order = await orderOr404(id);
    return c.json(await invoiceList(ctx, order.id));
  });

  routes.mount(orderInvoiceRoute, async (c, { id }) => {
    const order = await orderOr404(id);
    const body = await readBody(c, InvoiceBody, { optional: true });
    refuseIfStale(order, body);
    await invoicePoNow(ctx, order, body.prices);
    ctx.logger.info('purchase order invoiced by an operator', { po: order.id, prices: body.prices });
    return c.json(await invoiceList(ctx, order.id));
  });

  routes.mount(orderWaiveInvoiceRoute, async (c, { id }) => {
    const order = await orderOr404(id);
    const body = await readBody(c, WaiveInvoiceBody);
    refuseIfStale(order, body);
    await waiveHeldInvoices(ctx, order, body.note);
    return c.json(await invoiceList(ctx, order.id));
  });
}

/** The routes over documents to buyers (outbox, invoices) and background jobs. */
function documentRoutes(routes: DescribedRoutes, ctx: GatewayContext): void {
  const { store } = ctx;
  async function messageOr404(id: string): Promise<OutboxMessage> {
    const message = await store.outbox.get(id);
    if (message === undefined) throw new GatewayError('not_found', `No outbox message ${id}.`);
    return message;
  }

  routes.mount(invoiceResendRoute, async (c, { id }) => {
    const invoice = await store.invoices.get(id);
    if (invoice === undefined) throw new GatewayError('not_found', `No invoice record ${id}.`);
    const message = await resendInvoice(ctx, invoice);
    ctx.logger.info('invoice re-sent by an operator', { invoice: invoice.invoiceId, message: message.id });
    return c.json({ message: messageView(message, false) }, 202);
  });

  routes.mount(outboxRoute, async (c, { query }) => {
    const { state, buyer, po, limit, cursor } = query;
    const page = await store.outbox.list({
      ...(state !== undefined && { state }),
      ...(buyer !== undefined && { buyerId: buyer }),
      ...(po !== undefined && { poId: po }),
      ...(limit !== undefined && { limit }),
      ...(cursor !== undefined && { cursor }),
    });
    return c.json({
      items: page.items.map((m) => messageView(m, false)),
      nextCursor: page.nextCursor ?? null,
    });
  });

  routes.mount(outboxMessageRoute, async (c, { id }) => c.json(messageView(await messageOr404(id), true)));

  routes.mount(outboxRetryRoute, async (c, { id }) => {
    const message = await messageOr404(id);
    await refuseWithheldDocument(
      ctx,
      message,
      documentKey(message),
      `The ${message.kind} document ${message.dedupeKey}`,
    );
    const revived = await store.outbox.resurrect(id);
    if (revived === undefined) {
      throw new GatewayError(
        'conflict',
        `Outbox message ${id} is ${message.state}; only dead messages can be retried.`,
      );
    }
    ctx.logger.info('document retried by an operator', { message: id, dedupeKey: message.dedupeKey });
    return c.json({ message: messageView(revived, false) }, 202);
  });

  routes.mount(outboxResendRoute, async (c, { id }) => {
    const message = await messageOr404(id);
    const key = documentKey(message);
    const deliveries = await documentDeliveries(ctx, message.poId, key);
    const sent = await resendDocument(ctx, deliveries, key, `The ${message.kind} document ${key}`);
    ctx.logger.info('document re-sent by an operator', { message: message.id, resent: sent.id });
    return c.json({ message: messageView(sent, false) }, 202);
  });

  routes.mount(deadLettersRoute, async (c) => {
    const messages = await store.outbox.list({ state: 'dead', limit: 500 });
    const jobs = await store.jobs.list({ state: 'dead', limit: 500 });
    return c.json({
      messages: messages.items.map((m) => messageView(m, false)),
      jobs: jobs.items.map(jobView),
    });
  });

  routes.mount(jobsRoute, async (c, { query }) => {
    const { state, kind, limit, cursor } = query;
    const page = await store.jobs.list({
      ...(state !== undefined && { state }),
      ...(kind !== undefined && { kind }),
      ...(limit !== undefined && { limit }),
      ...(cursor !== undefined && { cursor }),
    });
    return c.json({ items: page.items.map(jobView), nextCursor: page.nextCursor ?? null });
  });

  routes.mount(refusalsRoute, async (c, { query }) => {
    const page = await store.refusals.list(refusalFilter(query));
    return c.json({ items: page.items.map(refusalView), nextCursor: page.nextCursor ?? null });
  });
}

export function createAdminRoutes(ctx: GatewayContext): Hono {
  const app = new Hono();
  app.onError((error, c) => jsonError(ctx, c, error));

  app.use('*', auditTrail(ctx, API_AUDIT));
  app.use('*', requireAdminToken(ctx));

  // Behind the token like the rest: it names every action, and operators' tooling holds the token anyway.
  const routes = describedRoutes(app);
  routes.mount(openApiRoute, (c) => c.json(routes.document()));
  orderRoutes(routes, ctx);
  documentRoutes(routes, ctx);
  routes.mount(ordersExportRoute, (_c, { query }) => exportResponse(ctx, 'orders', query));
  routes.mount(invoicesExportRoute, (_c, { query }) => exportResponse(ctx, 'invoices', query));
  routes.mount(refusalsExportRoute, (_c, { query }) => exportResponse(ctx, 'refusals', query));

  // Last, so it only catches what no route above matched (a sub-app's notFound is not used once mounted).
  app.all('*', (c) => jsonError(ctx, c, new GatewayError('not_found', 'No such admin endpoint.')));
  return app;
}
