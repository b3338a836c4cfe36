/**
 * The order-status endpoint's work: read a ConfirmationRequest or ShipNoticeRequest, find the purchase
 * order by OrderReference@orderID, check the supplier's SharedSecret when the profile expects one, store
 * the document on the order, and answer with a cXML Status:
 *
 * | code | when                                                                         |
 * |------|------------------------------------------------------------------------------|
 * | 200  | stored on the order                                                          |
 * | 400  | a required element or attribute is missing (OrderReference@orderID, …)      |
 * | 401  | the profile expects a supplier SharedSecret and no Sender credential has it |
 * | 406  | not well-formed XML, or not cXML                                             |
 * | 417  | no purchase order with that orderID is known here                            |
 * | 450  | a cXML Request of another kind                                               |
 */
import { buildStatusResponse } from './build-status-response.ts';
import { buyerPayloadId } from './cxml-document.ts';
import { type BuyerProfile, DEFAULT_BUYER_PROFILES } from './profiles.ts';
import { readStatusDocument, type StatusDocument } from './read-status-document.ts';
import type { StatusAnswer } from './requisition.ts';
import { findProfile, type SimulatorContext, withDocument, withNotice } from './simulator-context.ts';
import { SimulatorError, type SimulatorErrorCode } from './simulator-error.ts';

const STATUS_FOR_ERROR: Readonly<Record<SimulatorErrorCode, { code: number; text: string }>> = {
  malformed_xml: { code: 406, text: 'Not Acceptable' },
  not_cxml: { code: 406, text: 'Not Acceptable' },
  unexpected_document: { code: 450, text: 'Not Implemented' },
  missing_field: { code: 400, text: 'Bad Request' },
  bad_form: { code: 400, text: 'Bad Request' },
};

export interface OrderStatusOutcome {
  readonly status: StatusAnswer;
  /** The cXML Response to send back. */
  readonly response: string;
}

function describe(document: StatusDocument): string {
  if (document.kind === 'ConfirmationRequest') {
    const c = document.content;
    return `Confirmation "${c.type}" for ${c.orderID}${c.comments === '' ? '' : `: ${c.comments}`}`;
  }
  const s = document.content;
  const tracking = s.tracking.map((t) => t.number).join(', ');
  return `Ship notice ${s.shipmentID} for ${s.orderID}${tracking === '' ? '' : `, tracking ${tracking}`}`;
}

/** Supplier comments often end with their own full stop ("Accepted as print order 1021."). */
function asSentence(text: string): string {
  return /[.!?]$/.test(text) ? text : `${text}.`;
}

/**
 * @example
 * const { response } = receiveOrderStatus(ctx, await c.req.text());
 * return c.body(response, 200, { 'Content-Type': 'text/xml; charset=UTF-8' });
 */
export function receiveOrderStatus(ctx: SimulatorContext, xml: string): OrderStatusOutcome {
  const now = ctx.clock.now();
  const route = `POST ${ctx.publicUrl}/order-status`;
  let profile: BuyerProfile | undefined;
  let document: StatusDocument | undefined;
  let requisitionId: string | undefined;
  let status: StatusAnswer;

  try {
    document = readStatusDocument(xml);
    const orderID = document.content.orderID;
    const requisition = ctx.store.findByOrderId(orderID);
    profile = requisition === undefined ? undefined : findProfile(ctx, requisition.profileId);
    if (requisition === undefined) {
      status = {
        code: 417,
        text: 'Expectation Failed',
        detail: `No purchase order ${orderID} is known here.`,
      };
    } else if (
      profile?.supplierSecret !== undefined &&
      !document.senderSecrets.includes(profile.supplierSecret)
    ) {
      status = {
        code: 401,
        text: 'Unauthorized',
        detail: 'No Sender credential carries the SharedSecret agreed with this buyer.',
      };
    } else {
      requisitionId = requisition.id;
      status = { code: 200, text: 'OK', detail: '' };
    }
  } catch (error) {
    if (!(error instanceof SimulatorError)) throw error;
    const mapped = STATUS_FOR_ERROR[error.code];
    status = { ...mapped, detail: error.message };
  }

  const style = (profile ?? ctx.profiles[0] ?? DEFAULT_BUYER_PROFILES[0])?.style;
  if (style === undefined) throw new TypeError('The simulator needs at least one profile');
  const response = buildStatusResponse({
    style,
    payloadID: buyerPayloadId(style, ctx.randomId, now),
    timestamp: now,
    status,
  });
  const title = document?.kind ?? 'Order-status document';
  ctx.store.recordInbound({
    at: now.toISOString(),
    title,
    code: status.code,
    text: status.text,
    detail: status.detail,
    ...(document !== undefined && { orderID: document.content.orderID }),
    ...(requisitionId !== undefined && { requisitionId }),
    body: xml,
  });

  if (requisitionId !== undefined && document !== undefined) {
    const stored = document;
    ctx.store.update(requisitionId, (r) => {
      const order = r.order;
      if (order === undefined) return r;
      const receivedAt = now.toISOString();
      const nextOrder =
        stored.kind === 'ConfirmationRequest'
          ? { ...order, confirmations: [...order.confirmations, { ...stored.content, receivedAt }] }
          : { ...order, shipNotices: [...order.shipNotices, { ...stored.content, receivedAt }] };
      let next = withDocument({ ...r, order: nextOrder }, now, {
        direction: 'received',
        title: stored.kind,
        route,
        body: xml,
      });
      next = withDocument(next, now, {
        direction: 'sent',
        title: `Response to ${stored.kind}`,
        route: `answer to ${route}`,
        body: response,
      });
      const referenced = stored.content.orderPayloadID;
      if (referenced !== undefined && referenced !== order.payloadID) {
        next = withNotice(
          next,
          now,
          'warning',
          `${stored.kind} refers to payloadID ${referenced}, but OrderRequest ${order.orderID} had payloadID ${order.payloadID}.`,
        );
      }
      return withNotice(
        next,
        now,
        'info',
        `${asSentence(describe(stored))} Answered ${status.code} ${status.text}.`,
      );
    });
  }
  return { status, response };
}

/** The answer to a post refused before it could be read (too large), as cXML so the sender can read it. */
export function refuseOrderStatus(ctx: SimulatorContext, detail: string): string {
  const now = ctx.clock.now();
  const style = (ctx.profiles[0] ?? DEFAULT_BUYER_PROFILES[0])?.style;
  if (style === undefined) throw new TypeError('The simulator needs at least one profile');
  return buildStatusResponse({
    style,
    payloadID: buyerPayloadId(style, ctx.randomId, now),
    timestamp: now,
    status: { code: 406, text: 'Not Acceptable', detail },
  });
}
