/**
 * `GET /admin/openapi.json`: the admin JSON API described as OpenAPI 3.1, generated with zod's own
 * `z.toJSONSchema` (draft 2020-12, OpenAPI 3.1's dialect) from the schemas the handlers parse with and the
 * views are typed from. ADMIN_ENDPOINTS names every route the admin app mounts; a test fails for a route
 * without its entry here.
 */
import * as z from 'zod';
import {
  AttachBody,
  DeadLetters,
  ErrorAnswer,
  HandledBody,
  IdParams,
  InvoiceList,
  JobListQuery,
  JobPage,
  MessageAnswer,
  OrderAnswer,
  OrderDetail,
  OrderListQuery,
  OrderPage,
  OutboxListQuery,
  OutboxMessageWithBody,
  OutboxPage,
  Overview,
  StaleGuard,
} from './admin-schemas.ts';

export interface AdminEndpoint {
  method: 'get' | 'post';
  /** As Hono mounts it under `/admin`: `/orders/:id`. */
  path: string;
  summary: string;
  query?: z.ZodObject;
  body?: z.ZodObject;
  /** The body may be left out (`{}`). */
  bodyOptional?: boolean;
  status: 200 | 202;
  answer: z.ZodType;
  /** Refusals this endpoint answers besides 400, 401, 429 (every endpoint) and 404 (those with an id). */
  conflict?: string;
}

const ORDER_ACTION_CONFLICT =
  'The PO changed since expectedState/expectedUpdatedAt (error.current says how it is now), or the action does not apply to it now.';

export const ADMIN_ENDPOINTS: readonly AdminEndpoint[] = [
  { method: 'get', path: '/openapi.json', summary: 'This description', status: 200, answer: z.unknown() },
  {
    method: 'get',
    path: '/overview',
    summary:
      'POs by state, those waiting for an operator, outbox backlog, last round, print-service failures',
    status: 200,
    answer: Overview,
  },
  {
    method: 'get',
    path: '/orders',
    summary: 'Purchase orders, newest first, with their print orders; search and filters',
    query: OrderListQuery,
    status: 200,
    answer: OrderPage,
  },
  {
    method: 'get',
    path: '/orders/:id',
    summary: 'One PO: request header, lines, differences from the cart, timeline, documents, raw',
    status: 200,
    answer: OrderDetail,
  },
  {
    method: 'post',
    path: '/orders/:id/retry',
    summary: 'Process a failed PO (or one waiting for an operator) again',
    body: StaleGuard,
    bodyOptional: true,
    status: 202,
    answer: OrderAnswer,
    conflict: `${ORDER_ACTION_CONFLICT} Refused when an earlier create of its print order may have gone through.`,
  },
  {
    method: 'post',
    path: '/orders/:id/attach',
    summary: 'Attach an existing print order (verified to carry the PO number); processing carries on',
    body: AttachBody,
    status: 202,
    answer: OrderAnswer,
    conflict: ORDER_ACTION_CONFLICT,
  },
  {
    method: 'post',
    path: '/orders/:id/handled',
    summary: 'A PO waiting for an operator leaves the queue with a note; no document is sent',
    body: HandledBody,
    status: 200,
    answer: OrderAnswer,
    conflict: ORDER_ACTION_CONFLICT,
  },
  {
    method: 'get',
    path: '/orders/:id/invoices',
    summary: "The PO's invoices and credit memos with their deliveries",
    status: 200,
    answer: InvoiceList,
  },
  {
    method: 'post',
    path: '/orders/:id/invoice',
    summary: "Invoice now, as the buyer's settings say (never a second invoice)",
    body: StaleGuard,
    bodyOptional: true,
    status: 200,
    answer: InvoiceList,
    conflict: ORDER_ACTION_CONFLICT,
  },
  {
    method: 'post',
    path: '/invoices/:id/resend',
    summary: 'The same invoice document (same invoiceID and payloadID) again',
    status: 202,
    answer: MessageAnswer,
    conflict: 'No document queued yet, or a copy is still being delivered.',
  },
  {
    method: 'get',
    path: '/outbox',
    summary: 'Documents to buyers, newest first',
    query: OutboxListQuery,
    status: 200,
    answer: OutboxPage,
  },
  {
    method: 'get',
    path: '/outbox/:id',
    summary: 'One document with its body',
    status: 200,
    answer: OutboxMessageWithBody,
  },
  {
    method: 'post',
    path: '/outbox/:id/retry',
    summary: 'A dead-lettered document is sent again',
    status: 202,
    answer: MessageAnswer,
    conflict: 'The message is not dead.',
  },
  {
    method: 'post',
    path: '/outbox/:id/resend',
    summary: 'A delivered or dead document is sent again, the same bytes',
    status: 202,
    answer: MessageAnswer,
    conflict: 'A copy of the document is still being delivered.',
  },
  {
    method: 'get',
    path: '/dead-letters',
    summary: 'Dead documents and dead jobs',
    status: 200,
    answer: DeadLetters,
  },
  {
    method: 'get',
    path: '/jobs',
    summary: 'Background jobs, newest first',
    query: JobListQuery,
    status: 200,
    answer: JobPage,
  },
];

type JsonSchema = Record<string, unknown>;

/**
 * One schema as JSON Schema: requests as they are sent (`input`), answers as they are produced (`output`).
 * Moments are Dates in the views and ISO 8601 text on the wire (`JSON.stringify`), so a date says so.
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

const errorContent = (description: string) => ({
  description,
  content: { 'application/json': { schema: { $ref: '#/components/schemas/Error' } } },
});

function parameters(endpoint: AdminEndpoint): JsonSchema[] {
  const path = endpoint.path.includes(':id')
    ? [{ name: 'id', in: 'path', required: true, schema: jsonSchema(IdParams.shape.id, 'input') }]
    : [];
  const query = Object.entries(endpoint.query?.shape ?? {}).map(([name, schema]) => {
    const { description, ...rest } = jsonSchema(schema as z.ZodType, 'input');
    return {
      name,
      in: 'query',
      required: false,
      ...(description !== undefined && { description }),
      schema: rest,
    };
  });
  return [...path, ...query];
}

function operation(endpoint: AdminEndpoint): JsonSchema {
  const responses: JsonSchema = {
    [endpoint.status]: {
      description: endpoint.summary,
      content: { 'application/json': { schema: jsonSchema(endpoint.answer, 'output') } },
    },
    400: errorContent('The request is not valid: error.message says what to change.'),
    401: errorContent('No valid admin bearer token.'),
    ...(endpoint.path.includes(':id') && { 404: errorContent('No such record.') }),
    ...(endpoint.conflict !== undefined && { 409: errorContent(endpoint.conflict) }),
    429: errorContent('Too many wrong admin tokens from this address; see Retry-After.'),
  };
  return {
    operationId: `${endpoint.method}${endpoint.path.replace(/[/:.](\w)/g, (_m, c: string) => c.toUpperCase())}`,
    summary: endpoint.summary,
    parameters: parameters(endpoint),
    ...(endpoint.body !== undefined && {
      requestBody: {
        required: endpoint.bodyOptional !== true,
        content: { 'application/json': { schema: jsonSchema(endpoint.body, 'input') } },
      },
    }),
    responses,
  };
}

/** `/orders/:id` as OpenAPI writes a path under the server: `/admin/orders/{id}`. */
export function openApiPath(path: string): string {
  return `/admin${path.replace(/:(\w+)/g, '{$1}')}`;
}

let built: JsonSchema | undefined;

/** The document; built once, on first request, since the schemas do not change while running. */
export function adminOpenApi(): JsonSchema {
  if (built !== undefined) return built;
  const paths: Record<string, JsonSchema> = {};
  for (const endpoint of ADMIN_ENDPOINTS) {
    const path = openApiPath(endpoint.path);
    paths[path] = { ...paths[path], [endpoint.method]: operation(endpoint) };
  }
  built = {
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
      schemas: { Error: jsonSchema(ErrorAnswer, 'output') },
    },
  };
  return built;
}
