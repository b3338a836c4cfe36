/**
 * `/_sandbox/...`: the control API over HTTP (JSON, camelCase like the seed). It has no authentication, by
 * design: it is for tests and demos on a developer's machine and must never be exposed to a network.
 */
import { type Context, Hono } from 'hono';
import { z } from 'zod';
import { SeedAddress, SeedPayment } from '../../sandbox-seed.ts';
import type { SandboxControl } from '../control.ts';
import { pathId, readId, readJsonBody } from '../request-input.ts';
import { SandboxError } from '../sandbox-error.ts';
import type { SandboxService } from '../service.ts';

const Id = z.number().int().min(1);
const OptionInput = z.strictObject({
  name: z.string().min(1),
  value: z.string(),
  price: z.number().min(0).default(0),
  optionIntegrationId: z.string().nullable().default(null),
  valueIntegrationId: z.string().nullable().default(null),
});

const CheckoutBody = z.strictObject({
  customerId: Id,
  items: z
    .array(
      z.strictObject({
        productId: Id,
        quantity: z.number().int().min(1).max(1_000_000),
        options: z.array(OptionInput).optional(),
      }),
    )
    .min(1),
  payment: SeedPayment.optional(),
});

const StatusChangeBody = z.strictObject({
  status: z.string().min(1),
  itemId: Id.optional(),
  comments: z.string().optional(),
  notifyCustomer: z.boolean().optional(),
});

const ShipmentSplitBody = z.strictObject({
  itemIds: z.array(Id).min(1),
  shipTo: SeedAddress.optional(),
  provider: z.string().min(1).optional(),
  service: z.string().min(1).optional(),
});

const Amount = z.number().min(0).max(1e12).nullable().optional();
const TotalsBody = z
  .strictObject({ subTotal: Amount, taxTotal: Amount, shippingTotal: Amount, promotionTotal: Amount })
  .refine((body) => Object.keys(body).length > 0, {
    message: 'name at least one of subTotal, taxTotal, shippingTotal, promotionTotal',
  });

const NewCustomerBody = z.strictObject({
  storefrontId: Id,
  username: z.string().min(1),
  password: z.string().min(1),
  email: z.string(),
  firstName: z.string(),
  lastName: z.string(),
  company: z.string().optional(),
});

const CustomerChangesBody = z.strictObject({
  email: z.string().optional(),
  firstName: z.string().optional(),
  lastName: z.string().optional(),
  company: z.string().optional(),
  receiveMarketingEmails: z.boolean().optional(),
  taxExempt: z.boolean().optional(),
});

const AdvanceBody = z.strictObject({
  seconds: z
    .number()
    .min(0)
    .max(10 * 365 * 86_400),
});

/** Where the sandbox answers: the configured public base URL, else the request's URL up to /_sandbox. */
function sandboxBaseUrl(service: SandboxService, c: Context): string {
  if (service.publicBaseUrl !== undefined) return service.publicBaseUrl;
  const url = new URL(c.req.url);
  const at = url.pathname.indexOf('/_sandbox');
  return `${url.origin}${at === -1 ? '' : url.pathname.slice(0, at)}`;
}

function optionalId(c: Context, name: string): number | undefined {
  const text = c.req.query(name);
  if (text === undefined) return undefined;
  const id = readId(text);
  if (id === undefined) throw SandboxError.invalid(`${name} must be a positive integer.`);
  return id;
}

export function controlRoutes(service: SandboxService, control: SandboxControl): Hono {
  const routes = new Hono();
  const orderId = (c: Context) => pathId(c.req.param('orderId'), 'orderNotFound');
  const customerId = (c: Context) =>
    pathId(c.req.param('customerId'), SandboxError.own('notFound', 'Customer not found.'));

  routes.get('/', async (c) => {
    const base = sandboxBaseUrl(service, c);
    return c.json({
      apiBaseUrl: base,
      apiUrl: `${base}/api/v2`,
      editorUrl: `${base}/editor`,
      controlUrl: `${base}/_sandbox`,
      ...(await control.overview()),
    });
  });

  routes.post('/reset', (c) => {
    control.reset();
    return c.body(null, 204);
  });

  routes.get('/clock', (c) =>
    c.json({ now: control.now().toISOString(), offsetSeconds: service.clock.offsetSeconds }),
  );

  routes.post('/clock/advance', async (c) => {
    const body = await readJsonBody(c, AdvanceBody);
    const now = control.advanceClock(body.seconds);
    return c.json({ now: now.toISOString(), offsetSeconds: service.clock.offsetSeconds });
  });

  routes.post('/merges/finish', (c) => c.json({ finished: control.finishMerges() }));

  routes.post('/orders', async (c) => {
    const body = await readJsonBody(c, CheckoutBody);
    return c.json(control.checkout(body), 201);
  });

  routes.post('/orders/:orderId/status', async (c) => {
    const id = orderId(c);
    const body = await readJsonBody(c, StatusChangeBody);
    return c.json(control.setOrderStatus(id, body));
  });

  routes.post('/orders/:orderId/shipments', async (c) => {
    const id = orderId(c);
    const body = await readJsonBody(c, ShipmentSplitBody);
    return c.json(control.splitShipment(id, body), 201);
  });

  routes.post('/orders/:orderId/totals', async (c) => {
    const id = orderId(c);
    const body = await readJsonBody(c, TotalsBody);
    return c.json(control.overrideTotals(id, body));
  });

  routes.delete('/orders/:orderId', (c) => c.json(control.deleteOrder(orderId(c))));

  routes.get('/orders/:orderId/history', (c) => c.json(control.orderHistory(orderId(c))));

  routes.post('/customers', async (c) => {
    const body = await readJsonBody(c, NewCustomerBody);
    return c.json(control.createCustomer(body), 201);
  });

  routes.patch('/customers/:customerId', async (c) => {
    const id = customerId(c);
    const body = await readJsonBody(c, CustomerChangesBody);
    return c.json(control.updateCustomer(id, body));
  });

  routes.delete('/customers/:customerId', (c) => c.json(control.deleteCustomer(customerId(c))));

  routes.delete('/api-keys/:token', (c) => c.json(control.deleteApiKey(c.req.param('token').toLowerCase())));

  routes.get('/deliveries', (c) => c.json(control.deliveries()));

  routes.post('/idle', async (c) => {
    await control.idle();
    return c.body(null, 204);
  });

  routes.get('/users', (c) => c.json(control.users(optionalId(c, 'storefrontId'))));

  routes.get('/projects', (c) => c.json(control.projects(optionalId(c, 'ownerId'))));

  return routes;
}
