/**
 * The cart coming back through the user's browser: a PunchOutOrderMessage posted to the BrowserFormPost
 * URL (`cxml-base64` preferred, else `cxml-urlencoded`; names case-insensitive), or OCI `NEW_ITEM-*`
 * fields posted to the HOOK_URL. The lines are applied as a procurement system applies them:
 *
 * | cart                 | create          | edit                          | inspect |
 * |----------------------|-----------------|-------------------------------|---------|
 * | lines                | added           | replace the requisition's     | ignored |
 * | no lines             | nothing added   | the requisition's are removed | ignored |
 * | Message Status 204   | no change       | no change                     | ignored |
 *
 * OCI carts are always added (OCI has no edit). Every received document is kept verbatim, readable or not.
 */
import { linesTotalText, sameAmount } from './amount-text.ts';
import type { FormBody } from './form-body.ts';
import { formField } from './form-body.ts';
import { readOciCart } from './read-oci-cart.ts';
import { type OrderMessage, readOrderMessage } from './read-order-message.ts';
import type {
  CartCharge,
  PunchoutSession,
  Requisition,
  RequisitionCharges,
  RequisitionLine,
} from './requisition.ts';
import {
  findProfile,
  requisitionUrl,
  type SimulatorContext,
  withDocument,
  withNotice,
} from './simulator-context.ts';
import { SimulatorError } from './simulator-error.ts';

export type CartOutcome = { readonly ok: true } | { readonly ok: false; readonly message: string };

function decodeBase64Document(value: string): { xml: string; charset: string } {
  const compact = value.replace(/\s+/g, '');
  let binary: string;
  try {
    binary = atob(compact);
  } catch {
    throw new SimulatorError('bad_form', 'The cxml-base64 field is not valid base64.');
  }
  const bytes = Uint8Array.from(binary, (c) => c.charCodeAt(0));
  // cxml-base64 is application/xml: the declaration's encoding counts, UTF-8 by default.
  const declared = /^<\?xml[^>]*encoding\s*=\s*["']([^"']+)["']/i.exec(binary)?.[1]?.toLowerCase();
  if (declared === 'iso-8859-1' || declared === 'latin1' || declared === 'windows-1252') {
    return { xml: binary, charset: 'ISO-8859-1 (declared)' };
  }
  try {
    return { xml: new TextDecoder('utf-8', { fatal: true }).decode(bytes), charset: 'UTF-8' };
  } catch {
    throw new SimulatorError(
      'bad_form',
      'The base64-decoded document is not valid UTF-8 and declares no other encoding.',
    );
  }
}

function lineTotals(lines: readonly RequisitionLine[], currency: string): string | undefined {
  return linesTotalText(lines, currency);
}

/** The requisition's charges with a create cart's added: a procurement system sums its carts' charges. */
function addedCharges(
  current: RequisitionCharges | undefined,
  added: RequisitionCharges,
): RequisitionCharges | undefined {
  const sum = (a: CartCharge | undefined, b: CartCharge | undefined): CartCharge | undefined => {
    if (a === undefined || b === undefined) return a ?? b;
    return { ...b, value: linesTotalText([], b.currency, [a.value, b.value]) ?? b.value };
  };
  const shipping = sum(current?.shipping, added.shipping);
  const tax = sum(current?.tax, added.tax);
  if (shipping === undefined && tax === undefined) return undefined;
  return { ...(shipping !== undefined && { shipping }), ...(tax !== undefined && { tax }) };
}

/** The requisition with `charges` in place of its own (an edit's cart replaces everything). */
function withCharges(requisition: Requisition, charges: RequisitionCharges | undefined): Requisition {
  const { charges: _old, ...rest } = requisition;
  return charges === undefined || (charges.shipping === undefined && charges.tax === undefined)
    ? rest
    : { ...rest, charges };
}

function markReturned(requisition: Requisition, number: number): Requisition {
  return {
    ...requisition,
    punchouts: requisition.punchouts.map((p) => (p.number === number ? { ...p, state: 'returned' } : p)),
  };
}

/**
 * A cart that adds to the requisition (a cXML create session, any OCI cart): its lines are appended, and
 * an empty one means the user cancelled. `via` ends the success notice (how the cart came).
 */
function addCartLines(
  requisition: Requisition,
  lines: readonly RequisitionLine[],
  at: Date,
  via = '',
): Requisition {
  const count = lines.length;
  if (count === 0) {
    return withNotice(
      requisition,
      at,
      'info',
      'The catalog returned an empty cart: nothing was added (the user cancelled).',
    );
  }
  return withNotice(
    { ...requisition, lines: [...requisition.lines, ...lines] },
    at,
    'success',
    `${count} ${count === 1 ? 'line' : 'lines'} added from the catalog${via}.`,
  );
}

/** The requisition after applying a readable cart of punch-out `session`. */
function applyOrderMessage(
  requisition: Requisition,
  session: PunchoutSession,
  cart: OrderMessage,
  at: Date,
): Requisition {
  let next = markReturned(requisition, session.number);
  const count = cart.lines.length;
  const plural = count === 1 ? 'line' : 'lines';
  if (cart.status !== undefined && cart.status.code === 204) {
    return withNotice(
      next,
      at,
      'info',
      'The catalog session ended without changes (Message Status 204 No Content).',
    );
  }
  if (cart.status !== undefined && (cart.status.code < 200 || cart.status.code >= 300)) {
    return withNotice(
      next,
      at,
      'error',
      `The catalog returned Status ${cart.status.code} ${cart.status.text}; the cart was not applied.`,
    );
  }
  if (cart.total !== undefined && count > 0) {
    const sum = lineTotals(cart.lines, cart.total.currency);
    if (sum !== undefined && !sameAmount(cart.total.value, sum)) {
      next = withNotice(
        next,
        at,
        'warning',
        `The cart's Total ${cart.total.value} differs from the sum of its lines, ${sum}.`,
      );
    }
  }
  switch (session.operation) {
    case 'inspect':
      return withNotice(
        next,
        at,
        'info',
        `Inspect session: the returned cart (${count} ${plural}) is ignored, as cXML prescribes.`,
      );
    case 'edit':
      if (count === 0) {
        return withNotice(
          { ...withCharges(next, undefined), lines: [] },
          at,
          'warning',
          "The edit session returned an empty cart, so the requisition's lines were removed (cXML: an empty cart on edit deletes the lines; Status 204 would have kept them).",
        );
      }
      return withNotice(
        { ...withCharges(next, cart.charges), lines: cart.lines },
        at,
        'success',
        `The catalog replaced the cart: ${count} ${plural}.`,
      );
    case 'create':
      return addCartLines(withCharges(next, addedCharges(next.charges, cart.charges)), cart.lines, at);
  }
}

/**
 * Receives a PunchOutOrderMessage form post for the requisition.
 *
 * @example
 * const outcome = receiveCxmlCart(ctx, id, await readFormBody(c.req.raw));
 */
export function receiveCxmlCart(ctx: SimulatorContext, requisitionId: string, form: FormBody): CartOutcome {
  const requisition = ctx.store.get(requisitionId);
  if (requisition === undefined) return { ok: false, message: `There is no requisition ${requisitionId}.` };
  const profile = findProfile(ctx, requisition.profileId);
  const now = ctx.clock.now();
  const base64 = formField(form, 'cxml-base64');
  const urlencoded = base64 === undefined ? formField(form, 'cxml-urlencoded') : undefined;
  const fieldName = base64 !== undefined ? 'cxml-base64' : 'cxml-urlencoded';
  const route = `POST ${requisitionUrl(ctx, requisitionId)}/cart`;

  const refuse = (message: string, body: string, note: string): CartOutcome => {
    ctx.store.update(requisitionId, (r) =>
      withNotice(
        withDocument(r, now, { direction: 'received', title: 'Cart form post (refused)', route, body, note }),
        now,
        'error',
        message,
      ),
    );
    return { ok: false, message };
  };

  if (base64 === undefined && urlencoded === undefined) {
    const names = form.fields.map(([name]) => name).join(', ') || 'none';
    return refuse(
      `The cart post has no cxml-base64 or cxml-urlencoded field (fields received: ${names}).`,
      form.fields.map(([name, value]) => `${name}=${value}`).join('\n'),
      `form fields, ${form.charset}`,
    );
  }
  let xml: string;
  let note: string;
  try {
    if (base64 !== undefined) {
      const decoded = decodeBase64Document(base64);
      xml = decoded.xml;
      note = `form field cxml-base64, decoded as ${decoded.charset}`;
    } else {
      xml = urlencoded ?? '';
      // cxml-urlencoded is text/xml without a charset: US-ASCII, whatever the declaration says.
      note = `form field cxml-urlencoded, form read as ${form.charset}`;
    }
  } catch (error) {
    if (!(error instanceof SimulatorError)) throw error;
    return refuse(error.message, base64 ?? '', `form field ${fieldName}, undecodable`);
  }

  let cart: OrderMessage;
  try {
    cart = readOrderMessage(xml);
  } catch (error) {
    if (!(error instanceof SimulatorError)) throw error;
    return refuse(`The cart could not be read: ${error.message}`, xml, note);
  }

  const session = requisition.punchouts.find(
    (p) => p.protocol === 'cxml' && p.buyerCookie === cart.buyerCookie,
  );
  const received = { direction: 'received' as const, title: 'PunchOutOrderMessage', route, body: xml, note };
  if (session === undefined) {
    const sent = requisition.punchouts.flatMap((p) =>
      p.buyerCookie === undefined ? [] : [`"${p.buyerCookie}"`],
    );
    const message = `The cart's BuyerCookie "${cart.buyerCookie}" matches no punch-out of this requisition (sent: ${sent.join(', ') || 'none'}); a procurement system cannot place it.`;
    ctx.store.update(requisitionId, (r) => withNotice(withDocument(r, now, received), now, 'error', message));
    return { ok: false, message };
  }
  if (requisition.order !== undefined) {
    const message = `Requisition ${requisitionId} is already ordered (${requisition.order.orderID}); the cart was not applied.`;
    ctx.store.update(requisitionId, (r) =>
      withNotice(withDocument(r, now, received), now, 'warning', message),
    );
    return { ok: false, message };
  }
  ctx.store.update(requisitionId, (r) => {
    let next = withDocument(r, now, received);
    if (
      profile?.protocol === 'cxml' &&
      !profile.cartEncodings.includes(base64 !== undefined ? 'base64' : 'urlencoded')
    ) {
      next = withNotice(
        next,
        now,
        'warning',
        `This profile is set up to read ${profile.cartEncodings.map((e) => `cxml-${e}`).join(' or ')}, but the cart came as ${fieldName}; check the buyer's cartEncoding in the gateway config.`,
      );
    }
    return applyOrderMessage(next, session, cart, now);
  });
  return { ok: true };
}

/**
 * Receives an OCI cart (NEW_ITEM-* fields posted to the HOOK_URL).
 *
 * @example
 * const outcome = receiveOciCart(ctx, id, await readFormBody(c.req.raw));
 */
export function receiveOciCart(ctx: SimulatorContext, requisitionId: string, form: FormBody): CartOutcome {
  const requisition = ctx.store.get(requisitionId);
  if (requisition === undefined) return { ok: false, message: `There is no requisition ${requisitionId}.` };
  const profile = findProfile(ctx, requisition.profileId);
  const now = ctx.clock.now();
  const received = {
    direction: 'received' as const,
    title: 'OCI cart (NEW_ITEM-* fields)',
    route: `POST ${requisitionUrl(ctx, requisitionId)}/oci-cart`,
    body: form.fields.map(([name, value]) => `${name}=${value}`).join('\n'),
    note: `form decoded as ${form.charset}: ${form.charsetReason}`,
  };
  if (profile?.protocol !== 'oci') {
    const message = `Requisition ${requisitionId} punched out with cXML; an OCI cart does not belong to it.`;
    ctx.store.update(requisitionId, (r) => withNotice(withDocument(r, now, received), now, 'error', message));
    return { ok: false, message };
  }
  if (requisition.order !== undefined) {
    const message = `Requisition ${requisitionId} is already ordered (${requisition.order.orderID}); the cart was not applied.`;
    ctx.store.update(requisitionId, (r) =>
      withNotice(withDocument(r, now, received), now, 'warning', message),
    );
    return { ok: false, message };
  }
  const cart = readOciCart(form, profile);
  const session = [...requisition.punchouts]
    .reverse()
    .find((p) => p.protocol === 'oci' && p.state === 'open');
  ctx.store.update(requisitionId, (r) => {
    let next = withDocument(session === undefined ? r : markReturned(r, session.number), now, received);
    if (session === undefined) {
      next = withNotice(
        next,
        now,
        'warning',
        'An OCI cart arrived while no catalog session was open; it was added anyway.',
      );
    }
    for (const warning of cart.warnings) next = withNotice(next, now, 'warning', warning);
    return addCartLines(next, cart.lines, now, ` (OCI, ${form.charset})`);
  });
  return { ok: true };
}
