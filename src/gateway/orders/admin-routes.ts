/**
 * `/admin`: the operators' JSON API over purchase orders, their print orders and the documents sent to
 * buyers. Every request needs `Authorization: Bearer <adminToken>`, or one of `previousAdminTokens` while
 * operators' tooling switches over (compared in constant time).
 *
 * - `GET /admin/orders[?state&buyer&limit&cursor]` — POs, newest first, with their print orders;
 * - `GET /admin/orders/:id` — one PO: lines, differences from the cart, flags, timeline, documents, raw;
 * - `POST /admin/orders/:id/retry` — a failed PO (or one waiting for an operator) is processed again;
 *   refused (409) when an earlier create of its print order may have gone through;
 * - `POST /admin/orders/:id/attach {printOrderId}` — that print order, verified to carry the PO number,
 *   becomes the PO's and its processing carries on (history, accept, tracking);
 * - `POST /admin/orders/:id/handled {note}` — a PO waiting for an operator leaves the queue, no document;
 * - `GET /admin/orders/:id/invoices` — the PO's invoices and credit memos, each with its deliveries;
 * - `POST /admin/orders/:id/invoice` — invoice now: the PO's print orders read again and invoiced as the
 *   buyer's settings say (a held invoice once its figures are put right; never a second one);
 * - `POST /admin/invoices/:id/resend` — the same invoice document (same invoiceID, same payloadID) again;
 * - `GET /admin/outbox[?state&buyer&po&limit&cursor]`, `GET /admin/outbox/:id` (with the document);
 * - `POST /admin/outbox/:id/retry` — a dead-lettered document is sent again;
 * - `GET /admin/dead-letters` — dead documents and dead jobs;
 * - `GET /admin/jobs[?state&kind&limit&cursor]`.
 */
import { type Context, Hono, type MiddlewareHandler } from 'hono';
import { constantTimeEqual } from '../../kernel/constant-time.ts';
import {
  type Invoice,
  JOB_STATES,
  type Job,
  ORDER_STATES,
  OUTBOX_STATES,
  type OutboxMessage,
  type PageRequest,
  type PurchaseOrder,
  type TrackedPrintOrder,
} from '../../store/types.ts';
import type { GatewayContext } from '../context.ts';
import { GatewayError } from '../http/errors.ts';
import { requestIdOf } from '../http/request-id.ts';
import { createFailureCounter, type FailureLimit } from '../punchout/throttle.ts';
import { mismatchSummary } from './history-comment.ts';
import { invoiceDeliveries, invoicePoNow, resendInvoice } from './invoicing.ts';
import { jsonError } from './json-answers.ts';
import { attachPrintOrder, MAX_NOTE_LENGTH, markHandled } from './operator-actions.ts';
import { poDocument, storedRequest } from './po-record.ts';
import { retryPurchaseOrder } from './process-order.ts';

function oneOf<T extends string>(
  name: string,
  value: string | undefined,
  allowed: readonly T[],
): T | undefined {
  if (value === undefined || value === '') return undefined;
  if (!(allowed as readonly string[]).includes(value)) {
    throw new GatewayError('bad_request', `${name} must be one of ${allowed.join(', ')}.`);
  }
  return value as T;
}

function paging(query: (name: string) => string | undefined): { limit?: number; cursor?: string } {
  const limit = query('limit');
  const cursor = query('cursor');
  if (limit !== undefined && !/^\d{1,3}$/.test(limit)) {
    throw new GatewayError('bad_request', 'limit must be a whole number up to 500.');
  }
  return {
    ...(limit !== undefined && { limit: Number(limit) }),
    ...(cursor !== undefined && cursor !== '' && { cursor }),
  };
}

/**
 * A list call's filter from the query: paging, `state` (one of `states`), and each text filter that
 * `fields` maps from its query parameter to its filter field, when given and not empty.
 */
function listFilter<S extends string, F extends string>(
  query: (name: string) => string | undefined,
  states: readonly S[],
  fields: Readonly<Record<string, F>>,
): PageRequest & { state?: S } & Partial<Record<F, string>> {
  const state = oneOf('state', query('state'), states);
  const given = Object.entries(fields).flatMap(([name, field]) => {
    const value = query(name);
    return value === undefined || value === '' ? [] : [[field, value] as const];
  });
  return {
    ...paging(query),
    ...(state !== undefined && { state }),
    ...(Object.fromEntries(given) as Partial<Record<F, string>>),
  };
}

function printOrderView(p: TrackedPrintOrder) {
  return {
    storefrontId: p.storefrontId,
    printOrderId: p.printOrderId,
    state: p.state,
    lastStatus: p.lastStatus ?? null,
    confirmed: p.confirmed,
    shipmentsNotified: p.shipmentsNotified,
    lastCheckedAt: p.lastCheckedAt ?? null,
    createdAt: p.createdAt,
  };
}

function orderSummary(order: PurchaseOrder, printOrders: readonly TrackedPrintOrder[]) {
  return {
    id: order.id,
    buyerId: order.buyerId,
    orderId: order.orderId,
    payloadId: order.payloadId,
    type: order.type,
    state: order.state,
    answer: order.answer,
    printOrderIds: order.printOrderIds,
    printOrders: printOrders.map(printOrderView),
    flags: order.flags,
    lastError: order.lastError ?? null,
    createdAt: order.createdAt,
    updatedAt: order.updatedAt,
  };
}

function messageView(message: OutboxMessage, withBody: boolean) {
  return {
    id: message.id,
    buyerId: message.buyerId,
    poId: message.poId,
    kind: message.kind,
    dedupeKey: message.dedupeKey,
    url: message.url,
    state: message.state,
    attempts: message.attempts,
    nextAttemptAt: message.nextAttemptAt,
    lastError: message.lastError ?? null,
    deliveredAt: message.deliveredAt ?? null,
    createdAt: message.createdAt,
    updatedAt: message.updatedAt,
    ...(withBody && { body: message.body }),
  };
}

async function invoiceView(ctx: GatewayContext, invoice: Invoice) {
  return {
    id: invoice.id,
    invoiceId: invoice.invoiceId,
    purpose: invoice.purpose,
    scope: invoice.scope,
    storefrontId: invoice.storefrontId,
    printOrderId: invoice.printOrderId,
    invoiceDate: invoice.invoiceDate,
    amounts: invoice.amounts,
    creditsInvoice: invoice.creditsInvoice ?? null,
    sequence: invoice.sequence ?? null,
    createdAt: invoice.createdAt,
    deliveries: (await invoiceDeliveries(ctx, invoice)).map((m) => messageView(m, false)),
  };
}

async function invoiceList(ctx: GatewayContext, poId: string) {
  const items = [];
  for (const invoice of await ctx.store.invoices.listByPo(poId)) items.push(await invoiceView(ctx, invoice));
  return { items };
}

function jobView(job: Job) {
  return {
    id: job.id,
    kind: job.kind,
    key: job.key,
    payload: job.payload,
    state: job.state,
    attempts: job.attempts,
    maxAttempts: job.maxAttempts,
    runAt: job.runAt,
    lastError: job.lastError ?? null,
    createdAt: job.createdAt,
    updatedAt: job.updatedAt,
  };
}

interface TimelineEntry {
  at: Date;
  event: string;
  detail: string;
}

/** What happened to a PO, from its records: received, print orders made, documents queued and sent. */
function timeline(
  order: PurchaseOrder,
  printOrders: readonly TrackedPrintOrder[],
  messages: readonly OutboxMessage[],
): TimelineEntry[] {
  const entries: TimelineEntry[] = [
    {
      at: order.createdAt,
      event: 'received',
      detail: `OrderRequest type ${order.type}, payloadID ${order.payloadId}`,
    },
  ];
  for (const p of printOrders) {
    entries.push({ at: p.createdAt, event: 'print_order_created', detail: `print order ${p.printOrderId}` });
  }
  for (const m of messages) {
    entries.push({ at: m.createdAt, event: `${m.kind}_queued`, detail: m.dedupeKey });
    if (m.deliveredAt !== undefined) {
      entries.push({ at: m.deliveredAt, event: `${m.kind}_delivered`, detail: m.dedupeKey });
    }
    if (m.state === 'dead') {
      entries.push({
        at: m.updatedAt,
        event: `${m.kind}_dead`,
        detail: `${m.dedupeKey}: ${m.lastError ?? ''}`,
      });
    }
  }
  if (order.lastError !== undefined) {
    entries.push({ at: order.updatedAt, event: order.state, detail: order.lastError });
  }
  return entries.sort((a, b) => a.at.getTime() - b.at.getTime());
}

/**
 * The audit trail: every call with how it ended, refused ones included. Never the token; the path names
 * records, not secrets, and is cut short since a refused caller chooses it.
 */
function auditTrail(ctx: GatewayContext): MiddlewareHandler {
  return async (c, next) => {
    await next();
    const fields = {
      requestId: requestIdOf(c),
      method: c.req.method,
      path: c.req.path.slice(0, 200),
      status: c.res.status,
      address: ctx.clientAddress(c),
    };
    if (c.res.status === 401 || c.res.status === 429) ctx.logger.warn('admin api call refused', fields);
    else ctx.logger.info('admin api call', fields);
  };
}

/**
 * Wrong admin tokens per client address: from the 31st within 15 minutes the address is refused (429 with
 * Retry-After), the right token included, for 15 minutes, doubling while it goes on (up to 4 hours). Per
 * address, not overall, so a guesser cannot lock the operators out; an operator's own typos stay far below.
 */
export const ADMIN_FAILURE_LIMIT: FailureLimit = {
  maxFailures: 30,
  windowSeconds: 900,
  maxLockSeconds: 14_400,
};

function requireAdminToken(ctx: GatewayContext): MiddlewareHandler {
  const failures = createFailureCounter({ clock: ctx.clock, limit: ADMIN_FAILURE_LIMIT });
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
      failures.fail(address);
      throw new GatewayError('unauthorized', 'A valid admin bearer token is required.');
    }
    await next();
    c.header('Cache-Control', 'no-store');
  };
}

/** `GET /admin/orders/:id`: the PO with its request header, lines, differences, timeline and documents. */
async function orderDetail(ctx: GatewayContext, order: PurchaseOrder) {
  const { store } = ctx;
  const printOrders = await store.printOrders.listByPo(order.id);
  const messages = (await store.outbox.list({ poId: order.id, limit: 500 })).items;
  const document = poDocument(order);
  const request = storedRequest(order);
  return {
    ...orderSummary(order, printOrders),
    request: {
      orderDate: request.orderDate?.raw ?? null,
      orderVersion: request.orderVersion ?? null,
      previousPayloadID: request.previousPayloadID ?? null,
      total: request.total ?? null,
      shipTo: request.shipTo ?? null,
      billTo: request.billTo ?? null,
      shipping: request.shipping ?? null,
      tax: request.tax ?? null,
      contacts: request.contacts ?? [],
      comments: request.comments ?? '',
      extrinsics: request.extrinsics?.list ?? [],
      requestedDeliveryDate: request.requestedDeliveryDate?.raw ?? null,
    },
    lines: document.lines,
    mismatches: document.mismatches.map((m, i) => ({
      ...m,
      text: mismatchSummary(document.mismatches)[i],
    })),
    timeline: timeline(order, printOrders, messages),
    outbox: messages.map((m) => messageView(m, false)),
    invoices: (await invoiceList(ctx, order.id)).items,
    raw: order.raw,
  };
}

/** The JSON object an operator's action sends; anything else is a 400. */
async function jsonBody(c: Context): Promise<Record<string, unknown>> {
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

export function createAdminRoutes(ctx: GatewayContext): Hono {
  const app = new Hono();
  const { store } = ctx;
  app.onError((error, c) => jsonError(ctx, c, error));

  app.use('*', auditTrail(ctx));
  app.use('*', requireAdminToken(ctx));

  async function orderOr404(id: string): Promise<PurchaseOrder> {
    const order = await store.orders.get(id);
    if (order === undefined) throw new GatewayError('not_found', `No purchase order record ${id}.`);
    return order;
  }

  async function messageOr404(id: string): Promise<OutboxMessage> {
    const message = await store.outbox.get(id);
    if (message === undefined) throw new GatewayError('not_found', `No outbox message ${id}.`);
    return message;
  }

  app.get('/orders', async (c) => {
    const page = await store.orders.list(
      listFilter((n) => c.req.query(n), ORDER_STATES, { buyer: 'buyerId' }),
    );
    const items = [];
    for (const order of page.items)
      items.push(orderSummary(order, await store.printOrders.listByPo(order.id)));
    return c.json({ items, nextCursor: page.nextCursor ?? null });
  });

  app.get('/orders/:id', async (c) => {
    const order = await orderOr404(c.req.param('id'));
    return c.json(await orderDetail(ctx, order));
  });

  app.post('/orders/:id/retry', async (c) => {
    const order = await retryPurchaseOrder(ctx, await orderOr404(c.req.param('id')));
    ctx.logger.info('purchase order retried by an operator', { po: order.id });
    return c.json({ order: orderSummary(order, await store.printOrders.listByPo(order.id)) }, 202);
  });

  app.post('/orders/:id/attach', async (c) => {
    const order = await orderOr404(c.req.param('id'));
    const { printOrderId } = await jsonBody(c);
    if (typeof printOrderId !== 'number' || !Number.isSafeInteger(printOrderId) || printOrderId < 1) {
      throw new GatewayError('bad_request', 'printOrderId must be a positive whole number.');
    }
    const attached = await attachPrintOrder(ctx, order, printOrderId);
    return c.json({ order: orderSummary(attached, await store.printOrders.listByPo(attached.id)) }, 202);
  });

  app.post('/orders/:id/handled', async (c) => {
    const order = await orderOr404(c.req.param('id'));
    const { note } = await jsonBody(c);
    if (typeof note !== 'string' || note.trim() === '' || note.length > MAX_NOTE_LENGTH) {
      throw new GatewayError('bad_request', `note must be text of 1 to ${MAX_NOTE_LENGTH} characters.`);
    }
    const handled = await markHandled(ctx, order, note.trim());
    return c.json({ order: orderSummary(handled, await store.printOrders.listByPo(handled.id)) });
  });

  app.get('/orders/:id/invoices', async (c) => {
    const order = await orderOr404(c.req.param('id'));
    return c.json(await invoiceList(ctx, order.id));
  });

  app.post('/orders/:id/invoice', async (c) => {
    const order = await orderOr404(c.req.param('id'));
    await invoicePoNow(ctx, order);
    ctx.logger.info('purchase order invoiced by an operator', { po: order.id });
    return c.json(await invoiceList(ctx, order.id));
  });

  app.post('/invoices/:id/resend', async (c) => {
    const id = c.req.param('id');
    const invoice = await store.invoices.get(id);
    if (invoice === undefined) throw new GatewayError('not_found', `No invoice record ${id}.`);
    const message = await resendInvoice(ctx, invoice);
    ctx.logger.info('invoice re-sent by an operator', { invoice: invoice.invoiceId, message: message.id });
    return c.json({ message: messageView(message, false) }, 202);
  });

  app.get('/outbox', async (c) => {
    const page = await store.outbox.list(
      listFilter((n) => c.req.query(n), OUTBOX_STATES, { buyer: 'buyerId', po: 'poId' }),
    );
    return c.json({
      items: page.items.map((m) => messageView(m, false)),
      nextCursor: page.nextCursor ?? null,
    });
  });

  app.get('/outbox/:id', async (c) => c.json(messageView(await messageOr404(c.req.param('id')), true)));

  app.post('/outbox/:id/retry', async (c) => {
    const id = c.req.param('id');
    const message = await messageOr404(id);
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

  app.get('/dead-letters', async (c) => {
    const messages = await store.outbox.list({ state: 'dead', limit: 500 });
    const jobs = await store.jobs.list({ state: 'dead', limit: 500 });
    return c.json({
      messages: messages.items.map((m) => messageView(m, false)),
      jobs: jobs.items.map(jobView),
    });
  });

  app.get('/jobs', async (c) => {
    const page = await store.jobs.list(listFilter((n) => c.req.query(n), JOB_STATES, { kind: 'kind' }));
    return c.json({ items: page.items.map(jobView), nextCursor: page.nextCursor ?? null });
  });

  // Last, so it only catches what no route above matched (a sub-app's notFound is not used once mounted).
  app.all('*', (c) => jsonError(ctx, c, new GatewayError('not_found', 'No such admin endpoint.')));
  return app;
}
