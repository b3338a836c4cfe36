/**
 * The admin JSON API's routes as OpenAPI route definitions: path, method, parameters, body, the answer and
 * the refusals of each. `admin-routes.ts` mounts every one with its handler through `describedRoutes`, which
 * keeps the definition and reads the query with its schema, so a route cannot be served without its
 * description, and `/admin/openapi.json` is built from the definitions mounted, not from a table kept beside
 * them. (Not `@hono/zod-openapi`: it hands zod's whole namespace to its generator, which puts
 * every zod locale into the Worker, about 75 KiB gzip over the bundle the gateway holds to.)
 */
import type { Context, Hono } from 'hono';
import * as z from 'zod';
import { ADMIN_JSON_BODY_BYTES } from '../http/body-limits.ts';
import { GatewayError } from '../http/errors.ts';
import {
  AttachBody,
  AttachmentList,
  AttachmentParams,
  DeadLetters,
  ErrorAnswer,
  ExportQuery,
  firstProblem,
  HandledBody,
  CancellationDecisionBody,
  InvoiceBody,
  IdParams,
  InvoiceList,
  JobListQuery,
  JobPage,
  MessageAnswer,
  NoteAnswer,
  NoteBody,
  OrderAnswer,
  OrderDetail,
  OrderListQuery,
  OrderPage,
  OutboxListQuery,
  OutboxMessageWithBody,
  OutboxPage,
  Overview,
  RefusalListQuery,
  RefusalPage,
  StaleGuard,
  WaiveInvoiceBody,
} from './admin-schemas.ts';

const refusal = (description: string) => ({
  description,
  content: { 'application/json': { schema: ErrorAnswer } },
});

/**
 * What every endpoint may refuse with (400, 401, 429), 404 for those naming a record, and 409 with what
 * makes this one conflict.
 */
function refusals(options: { record?: boolean; conflict?: string } = {}) {
  return {
    400: refusal('The request is not valid: error.message says what to change.'),
    401: refusal('No valid admin bearer token.'),
    ...(options.record === true && { 404: refusal('No such record.') }),
    ...(options.conflict !== undefined && { 409: refusal(options.conflict) }),
    429: refusal('Too many wrong admin tokens from this address; see Retry-After.'),
  };
}

const answer = (description: string, schema: z.ZodType) => ({
  description,
  content: { 'application/json': { schema } },
});

/**
 * The bodies of the operators' actions, as components the routes refer to. The handler reads them
 * (`readBody` in admin-routes.ts), once it has found the record the action is on, so an unknown one is a 404
 * whatever the body.
 */
export const REQUEST_BODIES = {
  StaleGuard,
  AttachBody,
  HandledBody,
  CancellationDecisionBody,
  InvoiceBody,
  WaiveInvoiceBody,
  NoteBody,
} as const;

function body(name: keyof typeof REQUEST_BODIES, required: boolean) {
  return {
    required,
    content: { 'application/json': { schema: { $ref: `#/components/schemas/${name}` } } },
  };
}

/** A JSON answer described by its schema, or a download described as it is (any type, binary). */
interface Answer {
  description: string;
  content:
    | { 'application/json': { schema: z.ZodType } }
    | { '*/*': { schema: JsonSchema } }
    | { 'text/csv': { schema: JsonSchema } };
  headers?: JsonSchema;
}

/** One endpoint of the admin API; `path` as OpenAPI writes it under `/admin`: `/orders/{id}`. */
export interface AdminRoute<Q extends z.ZodObject = z.ZodObject> {
  method: 'get' | 'post';
  path: string;
  operationId?: string;
  summary: string;
  request?: {
    params?: typeof IdParams | typeof AttachmentParams;
    query?: Q;
    body?: ReturnType<typeof body>;
  };
  responses: Record<number, Answer>;
}

/** What the app's body limit answers a POST whose body is too large, before the route reads it. */
const TOO_LARGE = refusal(`The body is larger than ${ADMIN_JSON_BODY_BYTES / 1024} KB; nothing was done.`);

/**
 * A route with its operationId, named as since the API was first described (clients generated from the
 * document keep their method names): `get` `/orders/{id}/invoices` is `getOrders/IdInvoices`. A POST may be
 * refused for the size of its body (413).
 */
function adminRoute<Q extends z.ZodObject>(route: AdminRoute<Q>): AdminRoute<Q> {
  const operationId = `${route.method}${honoPath(route.path).replace(/[/:.](\w)/g, (_m, c: string) => c.toUpperCase())}`;
  const responses = route.method === 'post' ? { ...route.responses, 413: TOO_LARGE } : route.responses;
  return { operationId, ...route, responses };
}

/** `/orders/{id}` as Hono routes it: `/orders/:id`. */
const honoPath = (path: string) => path.replace(/\{(\w+)\}/g, ':$1');

/** What a route's handler gets besides the context: the record id of its path, its query read. */
type RouteHandler<Q extends z.ZodObject> = (
  c: Context,
  input: { id: string; query: z.output<Q> },
) => Promise<Response> | Response;

/** `value` read with `schema`; its first problem is the 400's message. */
export function parsed<S extends z.ZodType>(schema: S, value: unknown): z.output<S> {
  const result = schema.safeParse(value);
  if (!result.success) throw new GatewayError('bad_request', firstProblem(result.error));
  return result.data;
}

export interface DescribedRoutes {
  /**
   * Mounts `route` with its handler and keeps it for the document. The query is the first value of each
   * parameter the route's schema names, read with it before the handler runs.
   */
  mount<Q extends z.ZodObject>(route: AdminRoute<Q>, handler: RouteHandler<Q>): void;
  /** The description of the routes mounted; built on first call, when all are. */
  document(): JsonSchema;
}

export function describedRoutes(app: Hono): DescribedRoutes {
  const mounted: AdminRoute[] = [];
  let description: JsonSchema | undefined;
  function mount<Q extends z.ZodObject>(route: AdminRoute<Q>, handler: RouteHandler<Q>): void {
    mounted.push(route);
    const schema = route.request?.query;
    app.on(route.method.toUpperCase(), honoPath(route.path), async (c) => {
      const given = Object.keys(schema?.shape ?? {}).map((name) => [name, c.req.query(name)]);
      // A route without a query schema reads no parameters: its handler gets an empty query.
      const query = schema === undefined ? {} : parsed(schema, Object.fromEntries(given));
      return handler(c, { id: c.req.param('id') ?? '', query: query as z.output<Q> });
    });
  }
  return {
    mount,
    document: () => {
      description ??= adminOpenApiDocument(mounted);
      return description;
    },
  };
}

const ORDER_ACTION_CONFLICT =
  'The PO changed since expectedState/expectedUpdatedAt (error.current says how it is now), or the action does not apply to it now.';

export const openApiRoute = adminRoute({
  method: 'get',
  path: '/openapi.json',
  summary: 'This description',
  responses: {
    200: answer('This description', z.record(z.string(), z.unknown())),
    ...refusals(),
  },
});

export const overviewRoute = adminRoute({
  method: 'get',
  path: '/overview',
  summary: 'POs by state, those waiting for an operator, outbox backlog, last round, print-service failures',
  responses: { 200: answer('The overview', Overview), ...refusals() },
});

export const ordersRoute = adminRoute({
  method: 'get',
  path: '/orders',
  summary: 'Purchase orders, newest first, with their print orders; search and filters',
  request: { query: OrderListQuery },
  responses: { 200: answer('A page of POs', OrderPage), ...refusals() },
});

export const orderRoute = adminRoute({
  method: 'get',
  path: '/orders/{id}',
  summary:
    "One PO: request header, lines, differences from the cart, timeline, documents, invoices with the buyer's status of each, raw",
  request: { params: IdParams },
  responses: { 200: answer('The PO', OrderDetail), ...refusals({ record: true }) },
});

export const orderRetryRoute = adminRoute({
  method: 'post',
  path: '/orders/{id}/retry',
  summary: 'Process a failed PO (or one waiting for an operator) again',
  request: { params: IdParams, body: body('StaleGuard', false) },
  responses: {
    202: answer('The PO as it now stands', OrderAnswer),
    ...refusals({
      record: true,
      conflict: `${ORDER_ACTION_CONFLICT} Refused when an earlier create of its print order may have gone through.`,
    }),
  },
});

export const orderAttachRoute = adminRoute({
  method: 'post',
  path: '/orders/{id}/attach',
  summary: 'Attach an existing print order (verified to carry the PO number); processing carries on',
  request: { params: IdParams, body: body('AttachBody', true) },
  responses: {
    202: answer('The PO with the print order', OrderAnswer),
    ...refusals({ record: true, conflict: ORDER_ACTION_CONFLICT }),
  },
});

export const orderHandledRoute = adminRoute({
  method: 'post',
  path: '/orders/{id}/handled',
  summary: 'A PO waiting for an operator leaves the queue with a note; no document is sent',
  request: { params: IdParams, body: body('HandledBody', true) },
  responses: {
    200: answer('The PO as it now stands', OrderAnswer),
    ...refusals({ record: true, conflict: ORDER_ACTION_CONFLICT }),
  },
});

export const orderCancellationRoute = adminRoute({
  method: 'post',
  path: '/orders/{id}/cancellation',
  summary:
    "Decides the buyer's cancellation of a shipped or invoiced order: cancel and credit, or refuse with a note to the buyer",
  request: { params: IdParams, body: body('CancellationDecisionBody', true) },
  responses: {
    200: answer('The PO as it now stands', OrderAnswer),
    ...refusals({ record: true, conflict: ORDER_ACTION_CONFLICT }),
  },
});

export const orderInvoicesRoute = adminRoute({
  method: 'get',
  path: '/orders/{id}/invoices',
  summary: "The PO's invoices and credit memos with their deliveries",
  request: { params: IdParams },
  responses: { 200: answer("The PO's invoices", InvoiceList), ...refusals({ record: true }) },
});

export const orderInvoiceRoute = adminRoute({
  method: 'post',
  path: '/orders/{id}/invoice',
  summary:
    "Invoice now, as the buyer's settings say (never a second invoice); held invoices go out at the prices named",
  request: { params: IdParams, body: body('InvoiceBody', false) },
  responses: {
    200: answer("The PO's invoices", InvoiceList),
    ...refusals({
      record: true,
      conflict: `${ORDER_ACTION_CONFLICT} Or a held invoice would still be held at those prices: nothing was invoiced.`,
    }),
  },
});

export const orderWaiveInvoiceRoute = adminRoute({
  method: 'post',
  path: '/orders/{id}/waive-invoice',
  summary:
    "The PO's held invoices are not sent, with a note (the buyer self-bills, or it was settled elsewhere)",
  request: { params: IdParams, body: body('WaiveInvoiceBody', true) },
  responses: {
    200: answer("The PO's invoices", InvoiceList),
    ...refusals({ record: true, conflict: `${ORDER_ACTION_CONFLICT} Or no invoice of the PO is held.` }),
  },
});

export const orderAttachmentsRoute = adminRoute({
  method: 'get',
  path: '/orders/{id}/attachments',
  summary:
    'The files that came with the PO (multipart/related parts): name, type, size, Content-ID, download path',
  request: { params: IdParams },
  responses: { 200: answer("The PO's attachments", AttachmentList), ...refusals({ record: true }) },
});

export const orderAttachmentRoute = adminRoute({
  method: 'get',
  path: '/orders/{id}/attachments/{position}',
  summary:
    'Download one attachment: always Content-Disposition attachment, served as its declared type only when that is inert (PDF, images, plain text, …), else application/octet-stream',
  request: { params: AttachmentParams },
  responses: {
    200: {
      description: 'The bytes as the buyer sent them, decoded',
      content: { '*/*': { schema: { type: 'string', format: 'binary' } } },
      headers: {
        'Content-Disposition': {
          description: 'attachment; filename="…"; filename*=UTF-8\'\'…',
          schema: { type: 'string' },
        },
      },
    },
    ...refusals({ record: true }),
  },
});

export const orderNotesRoute = adminRoute({
  method: 'post',
  path: '/orders/{id}/notes',
  summary:
    "A note on the PO, at any time: kept with it and shown in its timeline; the PO's state is not changed",
  request: { params: IdParams, body: body('NoteBody', true) },
  responses: { 201: answer('The note as kept', NoteAnswer), ...refusals({ record: true }) },
});

/** A CSV download's answer: the file, streamed, with the name it is saved under. */
function csvAnswer(description: string): Answer {
  return {
    description: `${description}. UTF-8 with a byte-order mark, a heading row, CRLF line ends; a cell that would start with = + - or @ (but a plain number) starts with ' instead, so no spreadsheet runs it as a formula.`,
    content: { 'text/csv': { schema: { type: 'string' } } },
    headers: {
      'Content-Disposition': {
        description: 'attachment; filename="<kind>-<from>-to-<to>[-<buyer>].csv"',
        schema: { type: 'string' },
      },
    },
  };
}

export const ordersExportRoute = adminRoute({
  method: 'get',
  path: '/export/orders.csv',
  summary:
    'Purchase orders received in a window, oldest first, as CSV for accounting (streamed: a year of POs is never held in memory)',
  request: { query: ExportQuery },
  responses: { 200: csvAnswer('The POs'), ...refusals() },
});

export const invoicesExportRoute = adminRoute({
  method: 'get',
  path: '/export/invoices.csv',
  summary: 'Invoices and credit memos dated in a window, oldest first, as CSV for accounting (streamed)',
  request: { query: ExportQuery },
  responses: { 200: csvAnswer('The invoices'), ...refusals() },
});

export const refusalsExportRoute = adminRoute({
  method: 'get',
  path: '/export/refusals.csv',
  summary:
    'The refusals log in a window, newest first, as CSV: time, claimed buyer, channel, document, address and the answer sent (the documents stay in GET /admin/refusals)',
  request: { query: ExportQuery },
  responses: { 200: csvAnswer('The refusals'), ...refusals() },
});

export const invoiceResendRoute = adminRoute({
  method: 'post',
  path: '/invoices/{id}/resend',
  summary: 'The same invoice document (same invoiceID and payloadID) again',
  request: { params: IdParams },
  responses: {
    202: answer('The message that carries it', MessageAnswer),
    ...refusals({ record: true, conflict: 'No document queued yet, or a copy is still being delivered.' }),
  },
});

export const outboxRoute = adminRoute({
  method: 'get',
  path: '/outbox',
  summary: 'Documents to buyers, newest first',
  request: { query: OutboxListQuery },
  responses: { 200: answer('A page of documents', OutboxPage), ...refusals() },
});

export const outboxMessageRoute = adminRoute({
  method: 'get',
  path: '/outbox/{id}',
  summary: 'One document with its body',
  request: { params: IdParams },
  responses: { 200: answer('The document', OutboxMessageWithBody), ...refusals({ record: true }) },
});

export const outboxRetryRoute = adminRoute({
  method: 'post',
  path: '/outbox/{id}/retry',
  summary: 'A dead-lettered document is sent again',
  request: { params: IdParams },
  responses: {
    202: answer('The message, back in the queue', MessageAnswer),
    ...refusals({ record: true, conflict: 'The message is not dead.' }),
  },
});

export const outboxResendRoute = adminRoute({
  method: 'post',
  path: '/outbox/{id}/resend',
  summary: 'A delivered or dead document is sent again, the same bytes',
  request: { params: IdParams },
  responses: {
    202: answer('The message that sends it again', MessageAnswer),
    ...refusals({ record: true, conflict: 'A copy of the document is still being delivered.' }),
  },
});

export const deadLettersRoute = adminRoute({
  method: 'get',
  path: '/dead-letters',
  summary: 'Dead documents and dead jobs',
  responses: { 200: answer('Dead documents and jobs', DeadLetters), ...refusals() },
});

export const jobsRoute = adminRoute({
  method: 'get',
  path: '/jobs',
  summary: 'Background jobs, newest first',
  request: { query: JobListQuery },
  responses: { 200: answer('A page of jobs', JobPage), ...refusals() },
});

export const refusalsRoute = adminRoute({
  method: 'get',
  path: '/refusals',
  summary:
    'The refusals log: every refused punch-out (cXML setup, OCI punch-in), PO and other buyer document, newest first, with the answer sent and the document as received (secrets blanked)',
  request: { query: RefusalListQuery },
  responses: { 200: answer('A page of refusals', RefusalPage), ...refusals() },
});

type JsonSchema = Record<string, unknown>;

/**
 * One schema as JSON Schema, by zod's own `z.toJSONSchema` (draft 2020-12, OpenAPI 3.1's dialect): requests
 * as they are sent (`input`), answers as they are produced (`output`). Moments are Dates in the views and
 * ISO 8601 text on the wire (`JSON.stringify`), so a date says so.
 */
function jsonSchema(schema: z.ZodType, io: 'input' | 'output'): JsonSchema {
  const { $schema: _dialect, ...rest } = z.toJSONSchema(schema, {
    io,
    target: 'draft-2020-12',
    unrepresentable: 'any',
    override: ({ zodSchema, jsonSchema: out }) => {
      if (zodSchema._zod.def.type === 'date') Object.assign(out, { type: 'string', format: 'date-time' });
    },
  });
  return rest;
}

/** An answer's JSON as produced, the refusals referring to the one Error component; a download as given. */
function described(content: Answer['content']): JsonSchema {
  if (!('application/json' in content)) return content;
  const { schema } = content['application/json'];
  return {
    'application/json': {
      schema: schema === ErrorAnswer ? { $ref: '#/components/schemas/Error' } : jsonSchema(schema, 'output'),
    },
  };
}

/** Path and query parameters, one per key of the route's schemas, described as they are sent. */
function parameters(request: AdminRoute['request']): JsonSchema[] {
  const where = [
    ['path', request?.params],
    ['query', request?.query],
  ] as const;
  return where.flatMap(([place, schema]) =>
    Object.entries(schema?.shape ?? {}).map(([name, param]) => {
      const { description, ...rest } = jsonSchema(param as z.ZodType, 'input');
      return {
        name,
        in: place,
        required: place === 'path',
        ...(description !== undefined && { description }),
        schema: rest,
      };
    }),
  );
}

function operation(route: AdminRoute): JsonSchema {
  const { method: _method, path: _path, request, responses, ...rest } = route;
  const answers = Object.entries(responses).map(([status, answer]) => [
    status,
    { ...answer, content: described(answer.content) },
  ]);
  return {
    ...rest,
    parameters: parameters(request),
    ...(request?.body !== undefined && { requestBody: request.body }),
    responses: Object.fromEntries(answers),
  };
}

/**
 * The description of the routes mounted, under `/admin` where index.ts mounts the admin app, with the
 * bodies and the error answer as components.
 */
function adminOpenApiDocument(mounted: readonly AdminRoute[]): JsonSchema {
  const paths: Record<string, JsonSchema> = {};
  for (const route of mounted) {
    const path = `/admin${route.path}`;
    paths[path] = { ...paths[path], [route.method]: operation(route) };
  }
  const bodies = Object.entries(REQUEST_BODIES).map(([name, schema]) => [name, jsonSchema(schema, 'input')]);
  return {
    openapi: '3.1.0',
    jsonSchemaDialect: 'https://json-schema.org/draft/2020-12/schema',
    info: {
      title: 'punchgate admin API',
      version: '1',
      description:
        "The operators' JSON API over purchase orders, print orders and documents to buyers. Every call, this description included, needs `Authorization: Bearer <adminToken>`; wrong tokens are throttled per address (429).",
    },
    security: [{ adminToken: [] }],
    paths,
    components: {
      securitySchemes: { adminToken: { type: 'http', scheme: 'bearer' } },
      schemas: { Error: jsonSchema(ErrorAnswer, 'output'), ...Object.fromEntries(bodies) },
    },
  };
}
