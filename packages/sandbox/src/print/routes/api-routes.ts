/**
 * The /api/v2 endpoints (and /api/v1, which serves the same except that its reports answer empty data,
 * V02): ping, orders and their files, customers, product renderings, hooks, reports, and the PIPO routes.
 * Every route authenticates first (BusinessPlus for ping and PIPO, Enterprise for the rest), then reads
 * its path and body, then acts.
 */
import { type Context, Hono } from 'hono';
import { CreateHookBody, ShippedBody, StatusBody } from 'punchgate/schemas/print-api';
import { requireApiKey, type SandboxEnv } from '../authentication.ts';
import { createHook, deleteHook, hookEntry, listHooks } from '../hook-operations.ts';
import {
  changeStatus,
  findLicensedOrder,
  findOrderItem,
  isMerged,
  markShipped,
} from '../order-operations.ts';
import { designOfProduct, itemAssetsZip, itemZip, orderZip, renderingPng } from '../print-files.ts';
import { readReportScope, reportTypeOf, runReport } from '../reports.ts';
import { pathId, readId, readJsonBody } from '../request-input.ts';
import { interfaceJson } from '../interface-json.ts';
import { customerResource, orderResource } from '../resources.ts';
import { SandboxError } from '../sandbox-error.ts';
import type { SandboxService } from '../service.ts';
import { keepAliveOf } from './keep-alive.ts';
import { pipoRoutes } from './pipo-routes.ts';

/** A JSON answer with the interface's decimals (a fractional part on every decimal field). */
function interfaceAnswer(c: Context, value: unknown): Response {
  return c.body(interfaceJson(value), 200, { 'Content-Type': 'application/json' });
}

function zipAnswer(c: Context, bytes: Uint8Array, fileName: string): Response {
  return c.body(bytes as Uint8Array<ArrayBuffer>, 200, {
    'Content-Type': 'application/zip',
    'Content-Disposition': `attachment; filename=${fileName}`,
  });
}

export function apiRoutes(service: SandboxService, version: 1 | 2): Hono<SandboxEnv> {
  const api = new Hono<SandboxEnv>();
  const businessPlus = requireApiKey(service, 'BusinessPlus');
  const enterprise = requireApiKey(service, 'Enterprise');
  const caller = (c: Context<SandboxEnv>) => c.get('caller');
  const order = (c: Context<SandboxEnv>) =>
    findLicensedOrder(service, caller(c).license.id, pathId(c.req.param('orderId'), 'orderNotFound'));
  const item = (c: Context<SandboxEnv>) => {
    const found = order(c);
    return { order: found, item: findOrderItem(found, pathId(c.req.param('itemId'), 'itemNotFound')) };
  };

  api.get('/ping', businessPlus, (c) => c.body(null, 204));

  // ---- Orders ----
  api.get('/order/:orderId', enterprise, (c) => interfaceAnswer(c, orderResource(service.state, order(c))));

  api.get('/order/:orderId/download', enterprise, async (c) => {
    const found = order(c);
    if (!found.items.every((i) => isMerged(service, i))) throw SandboxError.of('orderFilesNotReady');
    return zipAnswer(c, await orderZip(service, found), `order-${found.id}.zip`);
  });

  api.get('/order/:orderId/download/:itemId', enterprise, async (c) => {
    const found = item(c);
    if (!isMerged(service, found.item)) throw SandboxError.of('itemFilesNotReady');
    return zipAnswer(c, await itemZip(service, found.order, found.item), `item-${found.item.id}.zip`);
  });

  api.get('/order/:orderId/assets/:itemId', enterprise, async (c) => {
    const found = item(c);
    return zipAnswer(
      c,
      await itemAssetsZip(service, found.order, found.item),
      `item-assets-${found.item.id}.zip`,
    );
  });

  api.patch('/order/:orderId/shipped', enterprise, async (c) => {
    const found = order(c);
    const body = await readJsonBody(c, ShippedBody, { emptyAs: {} });
    markShipped(service, found, null, body.tracking_number, keepAliveOf(c));
    return c.body(null, 204);
  });

  api.patch('/order/:orderId/shipped/:itemId', enterprise, async (c) => {
    const found = item(c);
    const body = await readJsonBody(c, ShippedBody, { emptyAs: {} });
    markShipped(service, found.order, found.item, body.tracking_number, keepAliveOf(c));
    return c.body(null, 204);
  });

  api.patch('/order/:orderId/status', enterprise, async (c) => {
    const found = order(c);
    const body = await readJsonBody(c, StatusBody);
    changeStatus(service, found, null, body, 'api', keepAliveOf(c));
    return c.body(null, 204);
  });

  api.patch('/order/:orderId/status/:itemId', enterprise, async (c) => {
    const found = item(c);
    const body = await readJsonBody(c, StatusBody);
    changeStatus(service, found.order, found.item, body, 'api', keepAliveOf(c));
    return c.body(null, 204);
  });

  // ---- Customers ----
  api.get('/customer/:customerId', enterprise, (c) => {
    const notFound = SandboxError.own('notFound', 'Customer not found.');
    const customer = service.state.customers.get(pathId(c.req.param('customerId'), notFound));
    const storefront =
      customer === undefined ? undefined : service.state.storefronts.get(customer.storefrontId);
    if (customer === undefined || customer.deleted || storefront?.licenseId !== caller(c).license.id) {
      throw notFound;
    }
    return c.json(customerResource(service.state, customer));
  });

  // ---- Products ----
  const licensedProduct = (c: Context<SandboxEnv>) => {
    const found = designOfProduct(service, pathId(c.req.param('productId'), 'renderingsNotFound'));
    const storefront = found && service.state.storefronts.get(found.template.storefrontId);
    if (
      found === undefined ||
      found.project?.deleted === true ||
      storefront?.licenseId !== caller(c).license.id
    ) {
      throw SandboxError.of('renderingsNotFound');
    }
    if (found.template.renderings.length === 0) throw SandboxError.of('renderingsNotFound');
    return found;
  };

  api.get('/product/:productId/renderings', enterprise, (c) => {
    const { template } = licensedProduct(c);
    return c.json(template.renderings.map((r) => ({ id: r.id, name: r.name })));
  });

  api.get('/product/:productId/renderings/:renderingId', enterprise, (c) => {
    const { template, project } = licensedProduct(c);
    const renderingId = readId(c.req.param('renderingId'));
    const rendering = template.renderings.find((r) => r.id === renderingId);
    if (rendering === undefined) throw SandboxError.of('renderingNotFound');
    const productId = project?.id ?? template.id;
    return c.body(renderingPng(template, rendering, project) as Uint8Array<ArrayBuffer>, 200, {
      'Content-Type': 'image/png',
      'Content-Disposition': `attachment; filename=rendering-${productId}-${rendering.id}.png`,
    });
  });

  // ---- Hooks ----
  api.get('/hooks', enterprise, (c) => c.json(listHooks(service, caller(c).key.token)));

  api.post('/hooks', enterprise, async (c) => {
    const body = await readJsonBody(c, CreateHookBody);
    return c.json(hookEntry(createHook(service, caller(c).key.token, body.target_url, body.event)), 201);
  });

  api.delete('/hooks/:id', enterprise, (c) => {
    deleteHook(service, caller(c).key.token, pathId(c.req.param('id'), 'hookNotFound'));
    return c.body(null, 204);
  });

  // ---- Reports ----
  api.get('/report/:reportType', enterprise, (c) => {
    const type = reportTypeOf(c.req.param('reportType'));
    if (version === 1) return c.json([]);
    const scope = readReportScope(service, caller(c).license.id, type, {
      storefrontId: c.req.query('storefrontId'),
      fromDate: c.req.query('fromDate'),
      toDate: c.req.query('toDate'),
      viewBy: c.req.query('viewBy'),
    });
    return interfaceAnswer(c, runReport(service, type, scope));
  });

  api.route('/pipo', pipoRoutes(service, businessPlus));
  return api;
}
