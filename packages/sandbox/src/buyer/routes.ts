/**
 * The simulator's HTTP surface, relative to wherever it is mounted (`/buyer` in the demo); every link and
 * redirect is built from `publicUrl`. State changes are POSTs answered with 303 to the requisition page,
 * so reloading a page never repeats an action. HTML pages carry a strict CSP and `no-store`.
 */
import { type Context, Hono, type MiddlewareHandler } from 'hono';
import { bodyLimit } from 'hono/body-limit';
import { receiveCxmlCart, receiveOciCart } from './cart-receipt.ts';
import { formField, readFormBody } from './form-body.ts';
import { isInvoiceStatusChoice, sendInvoiceStatus } from './invoice-status.ts';
import { receiveOrderStatus, refuseOrderStatus } from './order-status.ts';
import { renderHomePage } from './pages/home-page.ts';
import { simulatorContentSecurityPolicy } from './pages/layout.ts';
import { renderMessagePage } from './pages/message-page.ts';
import { renderRequisitionPage } from './pages/requisition-page.ts';
import { printOrderIds } from './print-order-ids.ts';
import { startPunchout } from './punchout.ts';
import { submitPurchaseOrder } from './purchase-order.ts';
import type { PunchoutOperation, Requisition } from './requisition.ts';
import {
  findProfile,
  findUser,
  requisitionUrl,
  type SimulatorContext,
  withNotice,
} from './simulator-context.ts';

/** Largest form or document the simulator reads. */
const MAX_BODY_BYTES = 2 * 1024 * 1024;

const OPERATIONS: ReadonlySet<string> = new Set<PunchoutOperation>(['create', 'edit', 'inspect']);

function newRequisitionId(ctx: SimulatorContext): string {
  // Short ids read well in a demo; the full random part is the fallback if short ones keep colliding.
  for (let attempt = 0; ; attempt++) {
    const random = ctx
      .randomId()
      .replace(/[^A-Za-z0-9]/g, '')
      .toUpperCase();
    const id = `REQ-${attempt < 10 ? random.slice(-6) : random}`;
    if (ctx.store.get(id) === undefined) return id;
  }
}

/** The text of a posted XML document: its declaration decides Latin-1, anything else is read as UTF-8. */
function decodeXmlBody(bytes: Uint8Array): string {
  let head = '';
  for (const byte of bytes.subarray(0, 200)) head += String.fromCharCode(byte);
  if (/^\s*<\?xml[^>]*encoding\s*=\s*["'](iso-8859-1|latin1|windows-1252)["']/i.test(head)) {
    let text = '';
    for (const byte of bytes) text += String.fromCharCode(byte);
    return text;
  }
  return new TextDecoder('utf-8').decode(bytes);
}

/**
 * What the demo's "Advance print order" does: asks the print shop's side (`advanceOrder`) to finish and ship
 * the requisition's print orders, and says how it went.
 */
async function advanceOrder(
  ctx: SimulatorContext,
  requisition: Requisition,
): Promise<{ level: 'success' | 'error'; text: string }> {
  const order = requisition.order;
  const profile = findProfile(ctx, requisition.profileId);
  const advance = ctx.advanceOrder;
  let level: 'success' | 'error' = 'error';
  let text: string;
  if (advance === undefined) text = 'This simulator has no print-order control.';
  else if (
    order === undefined ||
    order.answer.code < 200 ||
    order.answer.code >= 300 ||
    profile === undefined
  ) {
    text = 'Only an accepted purchase order can be advanced.';
  } else if (printOrderIds(order).length === 0) {
    text = "No print order is known yet: the supplier's confirmation names it; wait for it to arrive.";
  } else {
    try {
      const message = await advance(printOrderIds(order), {
        orderID: order.orderID,
        payloadID: order.payloadID,
        profileId: profile.id,
        gatewayBuyerId: profile.gatewayBuyerId,
      });
      level = 'success';
      text =
        typeof message === 'string' && message !== ''
          ? message
          : `Print order for ${order.orderID} advanced: files merged and shipped. The ship notice arrives when the gateway delivers it.`;
    } catch (error) {
      text = `Advancing the print order failed: ${error instanceof Error ? error.message : String(error)}`;
    }
  }
  return { level, text };
}

/** A new, empty requisition of a user under a procurement profile (in its test account for `test`), stored. */
function createRequisition(
  ctx: SimulatorContext,
  profileId: string,
  userId: string,
  test: boolean,
): Requisition {
  const requisition: Requisition = {
    id: newRequisitionId(ctx),
    profileId,
    userId,
    ...(test && { deploymentMode: 'test' as const }),
    createdAt: ctx.clock.now().toISOString(),
    lines: [],
    punchouts: [],
    documents: [],
    notices: [],
    revision: 0,
  };
  ctx.store.create(requisition);
  return requisition;
}

/** The requisition the home page's form asks for, stored; or the title and text of why it cannot start. */
function requisitionFromForm(
  ctx: SimulatorContext,
  form: Parameters<typeof formField>[0],
): Requisition | { refusal: [string, string] } {
  const profile = findProfile(ctx, formField(form, 'profile') ?? '');
  const user = findUser(ctx, formField(form, 'user') ?? '');
  if (profile === undefined || user === undefined) {
    return { refusal: ['Choose a profile and a user', 'The form named an unknown profile or user.'] };
  }
  const test = formField(form, 'test') === 'yes';
  if (test && profile.protocol === 'oci') {
    return {
      refusal: [
        'No test mode over OCI',
        'SAP OCI has no deployment mode: test requisitions are for the cXML profiles.',
      ],
    };
  }
  return createRequisition(ctx, profile.id, user.id, test);
}

/** Why this punch-out cannot start from the requisition as it is, if it cannot. */
function punchoutRefusal(
  requisition: Requisition,
  protocol: string | undefined,
  operation: string,
): string | undefined {
  if (!OPERATIONS.has(operation)) return `Unknown punch-out operation "${operation}".`;
  if (requisition.order !== undefined) return 'The requisition is ordered; its cart can no longer change.';
  if (operation !== 'create' && protocol !== 'cxml') {
    return 'OCI has no edit or inspect punch-out; only cXML profiles reopen a cart.';
  }
  if (operation !== 'create' && requisition.lines.length === 0) return `There are no lines to ${operation}.`;
  return undefined;
}

/** Pages get the simulator's CSP and are never cached or sniffed. */
const pageHeaders: MiddlewareHandler = async (c, next) => {
  await next();
  if ((c.res.headers.get('content-type') ?? '').startsWith('text/html')) {
    c.res.headers.set('Content-Security-Policy', await simulatorContentSecurityPolicy());
    c.res.headers.set('Cache-Control', 'no-store');
    c.res.headers.set('Referrer-Policy', 'same-origin');
    c.res.headers.set('X-Content-Type-Options', 'nosniff');
  }
};

/** The profiles' own invoice URLs, relative to the simulator (`/coupa/invoices`). */
function invoicePaths(ctx: SimulatorContext): string[] {
  return ctx.profiles.flatMap((profile) => (profile.invoicePath === undefined ? [] : [profile.invoicePath]));
}

/** Bodies over 2 MiB are refused: the cXML endpoints in cXML whatever happens, people with a page. */
function limitBodies(ctx: SimulatorContext): MiddlewareHandler {
  const cxmlPaths = ['/order-status', ...invoicePaths(ctx)];
  return bodyLimit({
    maxSize: MAX_BODY_BYTES,
    onError: (c) =>
      cxmlPaths.some((path) => c.req.path.endsWith(path))
        ? c.body(refuseOrderStatus(ctx, 'The document is larger than 2 MiB.'), 200, {
            'Content-Type': 'text/xml; charset=UTF-8',
          })
        : c.html(renderMessagePage(ctx, 'Too large', 'The request body is larger than 2 MiB.'), 413),
  });
}

/**
 * Where suppliers post cXML: the order-status endpoint, and each profile's own invoice URL (Coupa's),
 * which takes InvoiceDetailRequests for that profile's orders only. cXML answers travel with HTTP 200
 * whatever their Status says; senders read the Status.
 */
function addDocumentEndpoints(app: Hono, ctx: SimulatorContext): void {
  const answer = (c: Context, response: string) =>
    c.body(response, 200, { 'Content-Type': 'text/xml; charset=UTF-8' });
  app.post('/order-status', async (c) => {
    const xml = decodeXmlBody(new Uint8Array(await c.req.arrayBuffer()));
    return answer(c, receiveOrderStatus(ctx, xml).response);
  });
  for (const profile of ctx.profiles) {
    const path = profile.invoicePath;
    if (path === undefined) continue;
    app.post(path, async (c) => {
      const xml = decodeXmlBody(new Uint8Array(await c.req.arrayBuffer()));
      return answer(c, receiveOrderStatus(ctx, xml, { path, invoicesOf: profile }).response);
    });
  }
}

/**
 * Accounts payable answering an invoice: the form's `invoiceID`, `type` (`rejected`, `paid`) and `comments`
 * become a StatusUpdateRequest to the gateway; the page shows what was sent and the answer.
 */
function addInvoiceStatusRoute(app: Hono, ctx: SimulatorContext, backTo: (id: string) => Response): void {
  app.post('/requisitions/:id/invoice-status', async (c) => {
    const id = c.req.param('id');
    if (ctx.store.get(id) === undefined) return c.text('unknown requisition', 404);
    const form = await readFormBody(c.req.raw);
    const type = formField(form, 'type') ?? '';
    const invoiceID = formField(form, 'invoiceID') ?? '';
    if (!isInvoiceStatusChoice(type)) {
      const now = ctx.clock.now();
      ctx.store.update(id, (r) => withNotice(r, now, 'error', `Unknown invoice status "${type}".`));
      return backTo(id);
    }
    await sendInvoiceStatus(ctx, id, invoiceID, type, formField(form, 'comments') ?? '');
    return backTo(id);
  });
}

export function createSimulatorRoutes(ctx: SimulatorContext): Hono {
  const app = new Hono({ strict: false });
  const home = ctx.publicUrl;

  app.use('*', pageHeaders);
  app.use('*', limitBodies(ctx));

  const unknown = (c: Context, id: string) =>
    c.html(
      renderMessagePage(
        ctx,
        'Unknown requisition',
        `There is no requisition ${id} in this simulator (it keeps requisitions in memory, so a restart forgets them).`,
      ),
      404,
    );

  app.get('/', (c) => c.html(renderHomePage(ctx)));

  app.post('/requisitions', async (c) => {
    const started = requisitionFromForm(ctx, await readFormBody(c.req.raw));
    if ('refusal' in started) return c.html(renderMessagePage(ctx, ...started.refusal), 400);
    return redirectAfterPunchout(started.id, await startPunchout(ctx, started.id, 'create'));
  });

  function redirectAfterPunchout(id: string, number: number | undefined): Response {
    const opened = ctx.store.get(id)?.punchouts.find((p) => p.number === number)?.state === 'open';
    return new Response(null, {
      status: 303,
      headers: {
        Location: opened ? `${requisitionUrl(ctx, id)}?catalog=${number}` : requisitionUrl(ctx, id),
      },
    });
  }

  const backTo = (id: string) =>
    new Response(null, { status: 303, headers: { Location: requisitionUrl(ctx, id) } });

  app.get('/requisitions/:id', (c) => {
    const id = c.req.param('id');
    const requisition = ctx.store.get(id);
    if (requisition === undefined) return unknown(c, id);
    const shown = Number(c.req.query('catalog'));
    return c.html(renderRequisitionPage(ctx, requisition, Number.isInteger(shown) ? shown : undefined));
  });

  app.get('/requisitions/:id/revision', (c) => {
    const requisition = ctx.store.get(c.req.param('id'));
    if (requisition === undefined) return c.text('unknown', 404);
    return c.text(String(requisition.revision), 200, { 'Cache-Control': 'no-store' });
  });

  app.post('/requisitions/:id/punchout', async (c) => {
    const id = c.req.param('id');
    const requisition = ctx.store.get(id);
    if (requisition === undefined) return unknown(c, id);
    const operation = formField(await readFormBody(c.req.raw), 'operation') ?? 'create';
    const profile = findProfile(ctx, requisition.profileId);
    const now = ctx.clock.now();
    const refuse = (text: string) => {
      ctx.store.update(id, (r) => withNotice(r, now, 'error', text));
      return backTo(id);
    };
    const refusal = punchoutRefusal(requisition, profile?.protocol, operation);
    if (refusal !== undefined) return refuse(refusal);
    return redirectAfterPunchout(id, await startPunchout(ctx, id, operation as PunchoutOperation));
  });

  app.post('/requisitions/:id/close-catalog', (c) => {
    const id = c.req.param('id');
    const now = ctx.clock.now();
    const updated = ctx.store.update(id, (r) => {
      const open = r.punchouts.some((p) => p.state === 'open');
      const closed = {
        ...r,
        punchouts: r.punchouts.map((p) => (p.state === 'open' ? { ...p, state: 'closed' as const } : p)),
      };
      return open ? withNotice(closed, now, 'info', 'The catalog was closed without a cart.') : r;
    });
    return updated === undefined ? unknown(c, id) : backTo(id);
  });

  app.post('/requisitions/:id/cart', async (c) => {
    const id = c.req.param('id');
    if (ctx.store.get(id) === undefined) return unknown(c, id);
    receiveCxmlCart(ctx, id, await readFormBody(c.req.raw));
    return backTo(id);
  });

  app.post('/requisitions/:id/oci-cart', async (c) => {
    const id = c.req.param('id');
    if (ctx.store.get(id) === undefined) return unknown(c, id);
    receiveOciCart(ctx, id, await readFormBody(c.req.raw));
    return backTo(id);
  });

  app.post('/requisitions/:id/order', async (c) => {
    const id = c.req.param('id');
    if (ctx.store.get(id) === undefined) return unknown(c, id);
    const comments = formField(await readFormBody(c.req.raw), 'comments') ?? '';
    const outcome = await submitPurchaseOrder(ctx, id, comments);
    if (!outcome.ok && ctx.store.get(id)?.order === undefined) {
      const now = ctx.clock.now();
      ctx.store.update(id, (r) => withNotice(r, now, 'error', outcome.message));
    }
    return backTo(id);
  });

  app.post('/requisitions/:id/advance', async (c) => {
    const id = c.req.param('id');
    const requisition = ctx.store.get(id);
    if (requisition === undefined) return unknown(c, id);
    const { level, text } = await advanceOrder(ctx, requisition);
    const now = ctx.clock.now();
    ctx.store.update(id, (r) => withNotice(r, now, level, text));
    return backTo(id);
  });

  addInvoiceStatusRoute(app, ctx, backTo);
  addDocumentEndpoints(app, ctx);

  app.notFound((c) =>
    c.html(renderMessagePage(ctx, 'Not found', `Nothing here. The simulator starts at ${home}`), 404),
  );
  app.onError((error, c) => {
    console.error('buyer simulator error', error);
    return c.html(
      renderMessagePage(ctx, 'Something went wrong', 'The simulator could not handle this request.'),
      500,
    );
  });
  return app;
}
