/**
 * The admin API described: `/admin/openapi.json` is OpenAPI 3.1 generated from the route
 * definitions the admin app is mounted with, and each endpoint's real answers parse with the schema the
 * document gives them.
 */
import { describe, expect, it } from 'vitest';
import * as z from 'zod';
import { ErrorAnswer } from '../../../src/gateway/operator/admin-schemas.ts';
import {
  adminJson,
  adminRequest,
  createOrderStack,
  drain,
  linesOf,
  type OrderStack,
  orderConfig,
  printOrdersFor,
  punchOut,
  sendOrder,
  buyersWith,
} from '../../support/order-flow.ts';

type Operation = {
  operationId: string;
  responses: Record<string, { content: { 'application/json': { schema: object } } }>;
  parameters?: { name: string }[];
  requestBody?: unknown;
};
type Doc = {
  openapi: string;
  info: { title: string; version: string; description: string };
  security: unknown[];
  paths: Record<string, Record<string, Operation>>;
  components: { securitySchemes: Record<string, unknown>; schemas: Record<string, object> };
};

/** The endpoints as they have been since the admin API was described: method, path, success status. */
const ENDPOINTS = [
  'get /admin/openapi.json 200',
  'get /admin/overview 200',
  'get /admin/orders 200',
  'get /admin/orders/{id} 200',
  'post /admin/orders/{id}/retry 202',
  'post /admin/orders/{id}/attach 202',
  'post /admin/orders/{id}/handled 200',
  'post /admin/orders/{id}/cancellation 200',
  'get /admin/orders/{id}/invoices 200',
  'get /admin/orders/{id}/attachments 200',
  'get /admin/orders/{id}/attachments/{position} 200',
  'post /admin/orders/{id}/invoice 200',
  'post /admin/orders/{id}/waive-invoice 200',
  'post /admin/invoices/{id}/resend 202',
  'get /admin/outbox 200',
  'get /admin/outbox/{id} 200',
  'post /admin/outbox/{id}/retry 202',
  'post /admin/outbox/{id}/resend 202',
  'get /admin/dead-letters 200',
  'get /admin/jobs 200',
  'get /admin/refusals 200',
  'post /admin/orders/{id}/notes 201',
  'get /admin/export/orders.csv 200',
  'get /admin/export/invoices.csv 200',
  'get /admin/export/refusals.csv 200',
];

/** The one endpoint that answers a file rather than JSON. */
const DOWNLOAD = '/admin/orders/{id}/attachments/{position}';
/** The CSV exports, whose answers test/gateway/operator/csv-exports.test.ts checks exactly. */
const CSV_EXPORTS = ['/admin/export/orders.csv', '/admin/export/invoices.csv', '/admin/export/refusals.csv'];

const operations = (doc: Doc) =>
  Object.entries(doc.paths).flatMap(([path, item]) =>
    Object.entries(item).map(([method, operation]) => ({ method, path, operation })),
  );

/** The answer of `status` as the document describes it, as a zod schema (its components resolved). */
function describedAnswer(doc: Doc, operation: Operation, status: number): z.ZodType {
  const response = operation.responses[String(status)];
  if (response === undefined) throw new Error(`${operation.operationId} does not describe a ${status}`);
  const answer = response.content['application/json'].schema as { $defs?: object };
  // Its own definitions (a recursive one: a job's JSON payload) beside the document's components.
  const schema = { ...answer, $defs: { ...answer.$defs, ...doc.components.schemas } };
  return z.fromJSONSchema(JSON.parse(JSON.stringify(schema).replaceAll('#/components/schemas/', '#/$defs/')));
}

const post = (stack: OrderStack, path: string, body?: unknown) =>
  adminJson(stack, path, {
    method: 'POST',
    ...(body !== undefined && {
      headers: { 'Content-Type': 'application/json' },
      body: JSON.stringify(body),
    }),
  });

/**
 * PO-A1 placed and confirmed (its confirmation delivered), PO-B2 waiting for an operator; with `shipped`,
 * acme is invoiced on shipping and PO-A1's print order shipped, so it has an invoice too.
 */
async function twoOrders(shipped = false): Promise<{ stack: OrderStack; placed: string; waiting: string }> {
  const base = orderConfig();
  const invoiced = {
    ...base,
    buyers: buyersWith(base.buyers, 'acme', { invoices: { send: 'on-ship' as const } }),
  };
  const stack = await createOrderStack(shipped ? invoiced : base);
  await stack.worker.startup();
  const first = await punchOut(stack, ['Business cards']);
  await sendOrder(stack, { payloadID: 'a1@ariba.example', orderID: 'PO-A1', lines: linesOf(first) });
  await drain(stack);
  if (shipped) {
    const [printOrderId] = await printOrdersFor(stack, 'PO-A1');
    await stack.api.markShipped(printOrderId ?? 0, { trackingNumber: '1Z999AA10123456784' });
    await drain(stack);
  }
  const second = await punchOut(stack, ['A5 flyer']);
  await sendOrder(stack, { payloadID: 'b2@ariba.example', orderID: 'PO-B2', lines: linesOf(second) });
  const placed = await stack.store.orders.getByPayloadId('acme', 'a1@ariba.example');
  const other = await stack.store.orders.getByPayloadId('acme', 'b2@ariba.example');
  if (placed === undefined || other === undefined) throw new Error('the orders were not taken in');
  await stack.store.orders.update(other.id, {
    state: 'needs_operator',
    flags: ['uncertain_print_order'],
    lastError: 'the create of its print order may have gone through',
  });
  return { stack, placed: placed.id, waiting: other.id };
}

describe('GET /admin/openapi.json', () => {
  it('is an OpenAPI 3.1 document with the bearer scheme, describing every admin endpoint', async () => {
    const stack = await createOrderStack();
    const { status, body } = await adminJson(stack, '/admin/openapi.json');
    expect(status).toBe(200);
    const doc = body as Doc;
    expect(doc.openapi).toBe('3.1.0');
    expect(doc.info).toMatchObject({ title: 'punchgate admin API', version: '1' });
    expect(doc.info.description).toContain('Bearer');
    expect(doc.components.securitySchemes.adminToken).toEqual({ type: 'http', scheme: 'bearer' });
    expect(doc.security).toEqual([{ adminToken: [] }]);

    const described = operations(doc).map(({ method, path, operation }) => {
      const success = Object.keys(operation.responses).filter((code) => code.startsWith('2'));
      return `${method} ${path} ${success.join(' ')}`;
    });
    expect(described.sort()).toEqual([...ENDPOINTS].sort());
    expect(doc.paths['/admin/orders/{id}/invoices']?.get?.operationId).toBe('getOrders/IdInvoices');
    expect(doc.paths['/admin/dead-letters']?.get?.operationId).toBe('getDead-letters');

    for (const { method, path, operation } of operations(doc)) {
      for (const code of ['400', '401', '429', ...(path.includes('{id}') ? ['404'] : [])]) {
        expect(operation.responses[code], `${method} ${path} ${code}`).toMatchObject({
          content: { 'application/json': { schema: { $ref: '#/components/schemas/Error' } } },
        });
      }
      if (path.includes('{id}')) expect(operation.parameters?.map((p) => p.name)).toContain('id');
      expect(operation.responses['413'] !== undefined, `${method} ${path} 413`).toBe(method === 'post');
    }
    const orders = doc.paths['/admin/orders']?.get;
    expect(orders?.parameters?.map((p) => p.name)).toEqual([
      'state',
      'buyer',
      'q',
      'flag',
      'from',
      'to',
      'limit',
      'cursor',
    ]);
    // Moments go out as ISO 8601 text.
    expect(JSON.stringify(orders?.responses['200'])).toContain(
      '"createdAt":{"type":"string","format":"date-time"}',
    );
    expect(doc.paths['/admin/orders/{id}/attach']?.post?.requestBody).toEqual({
      required: true,
      content: { 'application/json': { schema: { $ref: '#/components/schemas/AttachBody' } } },
    });
    expect(doc.paths['/admin/orders/{id}/retry']?.post?.requestBody).toMatchObject({ required: false });
    expect(doc.components.schemas.AttachBody).toMatchObject({
      properties: { printOrderId: { type: 'integer' } },
      required: ['printOrderId'],
    });
  });

  it('is behind the admin token like the rest of /admin', async () => {
    const stack = await createOrderStack();
    const res = await adminRequest(stack, '/admin/openapi.json', {}, '');
    expect(res.status).toBe(401);
    expect(ErrorAnswer.parse(await res.json()).error.code).toBe('unauthorized');
  });

  it('each described endpoint answers as its schema says', async () => {
    const { stack, placed, waiting } = await twoOrders(true);
    const messages = (await stack.store.outbox.list({ poId: placed })).items;
    const confirmation = messages.find((m) => m.kind === 'confirmation');
    const [invoice] = await stack.store.invoices.listByPo(placed);
    if (confirmation === undefined || invoice === undefined) throw new Error('no confirmation or invoice');
    // Every kind of record in the answers: print orders, deliveries, an invoice with its delivery.
    expect(messages.map((m) => m.kind)).toEqual(expect.arrayContaining(['confirmation', 'invoice']));
    const ids: Record<string, string> = {
      '/admin/orders/{id}': placed,
      '/admin/orders/{id}/invoices': placed,
      '/admin/orders/{id}/attachments': placed,
      '/admin/orders/{id}/invoice': placed,
      '/admin/orders/{id}/waive-invoice': placed,
      '/admin/orders/{id}/notes': placed,
      '/admin/orders/{id}/retry': waiting,
      '/admin/orders/{id}/handled': waiting,
      '/admin/orders/{id}/cancellation': placed,
      '/admin/orders/{id}/attach': waiting,
      '/admin/outbox/{id}': confirmation.id,
      '/admin/outbox/{id}/resend': confirmation.id,
      '/admin/outbox/{id}/retry': confirmation.id,
      '/admin/invoices/{id}/resend': invoice.id,
    };
    const bodies: Record<string, unknown> = {
      '/admin/orders/{id}/handled': { note: 'settled by phone', expectedState: 'needs_operator' },
      '/admin/orders/{id}/attach': { printOrderId: 0 },
      '/admin/orders/{id}/waive-invoice': { note: 'self-billed' },
      '/admin/orders/{id}/notes': { text: 'The buyer phoned: deliver to gate 2.' },
      '/admin/orders/{id}/cancellation': { decision: 'refuse', note: 'shipped already' },
    };
    const doc = (await adminJson(stack, '/admin/openapi.json')).body as Doc;
    const answered: string[] = [];
    for (const { method, path, operation } of operations(doc)) {
      // A download is bytes, not JSON: test/gateway/cxml/attachments.test.ts checks its answer exactly.
      if (path === DOWNLOAD || CSV_EXPORTS.includes(path)) continue;
      const url = path.replace('{id}', ids[path] ?? '');
      const { status, body } =
        method === 'get' ? await adminJson(stack, url) : await post(stack, url, bodies[path]);
      const where = `${method} ${url}: ${JSON.stringify(body).slice(0, 300)}`;
      answered.push(`${method} ${path} ${status}`);
      // Every read answers as described; the refusals this stack provokes (a dead-only retry of a
      // delivered document, a bad print order id) are described error answers.
      if (method === 'get') expect(status, where).toBe(200);
      expect(() => describedAnswer(doc, operation, status).parse(body), where).not.toThrow();
    }
    expect(answered.sort()).toEqual(
      [
        ...ENDPOINTS.filter(
          (e) => e.startsWith('get ') && !e.includes(DOWNLOAD) && !CSV_EXPORTS.some((p) => e.includes(p)),
        ),
        'post /admin/orders/{id}/notes 201',
        'post /admin/orders/{id}/retry 409',
        'post /admin/orders/{id}/attach 400',
        'post /admin/orders/{id}/handled 200',
        'post /admin/orders/{id}/cancellation 409',
        'post /admin/orders/{id}/invoice 200',
        'post /admin/orders/{id}/waive-invoice 409',
        'post /admin/invoices/{id}/resend 202',
        'post /admin/outbox/{id}/retry 409',
        'post /admin/outbox/{id}/resend 202',
      ].sort(),
    );
    // The error schema of the document is the one the answers are built by.
    expect(() =>
      describedAnswer(doc, doc.paths['/admin/orders/{id}']?.get as Operation, 404).parse({
        error: { code: 'not_found', message: 'No purchase order record 999.' },
      }),
    ).not.toThrow();
    const invoices = await adminJson(stack, `/admin/orders/${placed}/invoices`);
    expect(invoices.body.items[0].deliveries.length).toBeGreaterThan(1);
  });
});

describe('requests the routes refuse answer as the admin API always has', () => {
  const refused = (message: string) => ({ status: 400, body: { error: { code: 'bad_request', message } } });

  it("a query its route's schema refuses is a 400 through the error funnel, naming the first problem", async () => {
    const stack = await createOrderStack();
    expect(await adminJson(stack, '/admin/jobs?limit=5000')).toEqual(
      refused('limit must be a whole number up to 500.'),
    );
    expect(await adminJson(stack, '/admin/outbox?state=lost&limit=x')).toEqual(
      refused('state must be one of pending, sending, delivered, dead.'),
    );
    // A parameter given twice counts with its first value, as it always has.
    expect(await adminJson(stack, '/admin/orders?state=lost&state=failed')).toEqual(
      refused('state must be one of received, processing, ordered, failed, cancelled, needs_operator.'),
    );
    expect((await adminJson(stack, '/admin/orders?state=failed&state=lost')).status).toBe(200);
    expect(await adminJson(stack, '/admin/orders?state=&limit=')).toEqual(
      refused('limit must be a whole number up to 500.'),
    );
    expect((await adminJson(stack, '/admin/orders?state=&buyer=')).status).toBe(200);
  });

  it('an action looks for its record before its body, and reads a JSON object whatever the Content-Type', async () => {
    const { stack, waiting } = await twoOrders();
    expect(await post(stack, '/admin/orders/po_nope/handled', { note: '' })).toEqual({
      status: 404,
      body: { error: { code: 'not_found', message: 'No purchase order record po_nope.' } },
    });
    const send = (path: string, init: RequestInit) => adminJson(stack, path, { method: 'POST', ...init });
    expect(
      await send(`/admin/orders/${waiting}/handled`, {
        headers: { 'Content-Type': 'application/json' },
        body: '[1]',
      }),
    ).toEqual(refused('The request body must be a JSON object.'));
    expect(
      await send(`/admin/orders/${waiting}/retry`, {
        headers: { 'Content-Type': 'application/json' },
        body: '',
      }),
    ).toMatchObject({ status: 409, body: { error: { code: 'conflict' } } });
    // As `curl -d` sends it.
    const handled = await send(`/admin/orders/${waiting}/handled`, {
      headers: { 'Content-Type': 'application/x-www-form-urlencoded' },
      body: JSON.stringify({ note: 'settled by phone' }),
    });
    expect(handled).toMatchObject({ status: 200, body: { order: { id: waiting, state: 'cancelled' } } });
  });

  it('a body over the limit is refused unread with the 413 the document describes', async () => {
    const { stack, waiting } = await twoOrders();
    const doc = (await adminJson(stack, '/admin/openapi.json')).body as Doc;
    const path = '/admin/orders/{id}/handled';
    const tooLarge = await post(stack, path.replace('{id}', waiting), { note: 'x'.repeat(70_000) });
    expect(tooLarge).toEqual({
      status: 413,
      body: {
        error: {
          code: 'payload_too_large',
          message: 'The request body is larger than 64 KB; nothing was done with it.',
        },
      },
    });
    const operation = doc.paths[path]?.post as Operation;
    expect(() => describedAnswer(doc, operation, 413).parse(tooLarge.body)).not.toThrow();
    expect((await stack.store.orders.get(waiting))?.state).toBe('needs_operator');
  });
});

describe('admin overview, search and actions for the console', () => {
  it('GET /admin/overview: POs by state, those waiting first with their reason, backlog and round', async () => {
    const { stack, waiting } = await twoOrders();
    const round = new Date(stack.clock.now().getTime() - 30_000);
    stack.gateway.context.metrics.backgroundRoundCompleted(round);
    const { status, body } = await adminJson(stack, '/admin/overview');
    expect(status).toBe(200);
    expect(body).toMatchObject({
      ordersByState: { ordered: 1, needs_operator: 1, received: 0 },
      waitingForOperator: [
        {
          id: waiting,
          orderId: 'PO-B2',
          reason: 'the create of its print order may have gone through',
          flags: ['uncertain_print_order'],
        },
      ],
      oldestUnprocessedAt: null,
      oldestUnprocessedAgeSeconds: null,
      outbox: { pending: 0, dead: 0 },
      deadJobs: 0,
      lastBackgroundRoundAt: round.toISOString(),
      printApiFailuresLastHour: 0,
    });
  });

  it('GET /admin/orders searches by PO number, print order id and buyer, and filters by flag and date', async () => {
    const { stack, placed, waiting } = await twoOrders();
    const ids = async (query: string) => {
      const { status, body } = await adminJson(stack, `/admin/orders?${query}`);
      expect(status, query).toBe(200);
      return (body.items as { id: string }[]).map((o) => o.id);
    };
    const printOrderId = (await stack.store.orders.get(placed))?.printOrderIds[0];
    expect(await ids('q=PO-')).toEqual([waiting, placed]);
    expect(await ids('q=PO-A1')).toEqual([placed]);
    expect(await ids(`q=${printOrderId}`)).toEqual([placed]);
    expect(await ids('q=acme')).toEqual([waiting, placed]);
    expect(await ids('q=PO-Z')).toEqual([]);
    expect(await ids('flag=uncertain_print_order')).toEqual([waiting]);
    const today = stack.clock.now().toISOString().slice(0, 10);
    expect(await ids(`from=${today}&to=${today}`)).toEqual([waiting, placed]);
    expect(await ids('to=2000-01-01')).toEqual([]);
    const page = await adminJson(stack, '/admin/orders?q=PO-&limit=1');
    expect(page.body.items.map((o: { id: string }) => o.id)).toEqual([waiting]);
    const rest = await adminJson(stack, `/admin/orders?q=PO-&limit=1&cursor=${page.body.nextCursor}`);
    expect(rest.body.items.map((o: { id: string }) => o.id)).toEqual([placed]);
    expect(await adminJson(stack, '/admin/orders?from=yesterday')).toEqual({
      status: 400,
      body: {
        error: {
          code: 'bad_request',
          message: 'from must be a date (YYYY-MM-DD) or an ISO 8601 date-time.',
        },
      },
    });
  });

  it('an action on a PO that changed meanwhile is refused with its current state, and nothing is done', async () => {
    const { stack, waiting } = await twoOrders();
    const before = await stack.store.orders.get(waiting);
    const stale = await post(stack, `/admin/orders/${waiting}/handled`, {
      note: 'done',
      expectedState: 'failed',
    });
    expect(stale.status).toBe(409);
    expect(stale.body.error).toMatchObject({
      code: 'conflict',
      message: expect.stringContaining('it is now needs_operator'),
      current: { state: 'needs_operator', updatedAt: before?.updatedAt.toISOString() },
    });
    const moved = await post(stack, `/admin/orders/${waiting}/retry`, {
      expectedUpdatedAt: '2000-01-01T00:00:00.000Z',
    });
    expect(moved.status).toBe(409);
    expect(await stack.store.orders.get(waiting)).toEqual(before);

    const fresh = await post(stack, `/admin/orders/${waiting}/handled`, {
      note: 'done',
      expectedState: 'needs_operator',
      expectedUpdatedAt: before?.updatedAt.toISOString(),
    });
    expect(fresh.status).toBe(200);
    expect(fresh.body.order.state).not.toBe('needs_operator');
  });

  it('POST /admin/outbox/:id/resend sends a delivered document again, the same bytes, once at a time', async () => {
    const { stack, placed } = await twoOrders();
    const [confirmation] = (await stack.store.outbox.list({ poId: placed })).items;
    expect(confirmation?.state).toBe('delivered');
    const id = confirmation?.id ?? '';
    const resent = await post(stack, `/admin/outbox/${id}/resend`);
    expect(resent.status).toBe(202);
    expect(resent.body.message).toMatchObject({ state: 'pending', kind: confirmation?.kind });
    const copy = await stack.store.outbox.get(resent.body.message.id);
    expect(copy?.body).toBe(confirmation?.body);
    const again = await post(stack, `/admin/outbox/${resent.body.message.id}/resend`);
    expect(again.status).toBe(409);
    expect(again.body.error.message).toContain('is still being delivered');
    const posts = stack.orderStatusPosts.length;
    await drain(stack);
    // Stored without our SharedSecret, posted with it: the very bytes of the first post.
    expect(confirmation?.body).toContain('<SharedSecret>[redacted]</SharedSecret>');
    const sent = confirmation?.body.replaceAll('[redacted]', 'printco-secret');
    expect(stack.orderStatusPosts.slice(0, posts).filter((p) => p.body === sent)).toHaveLength(1);
    expect(stack.orderStatusPosts.slice(posts).map((p) => p.body)).toEqual([sent]);
    const third = await post(stack, `/admin/outbox/${id}/resend`);
    expect(third.status).toBe(202);
    expect(third.body.message.dedupeKey).toBe(`${confirmation?.dedupeKey}#resend-2`);
  });
});
