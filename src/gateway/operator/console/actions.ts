/**
 * What an operator does to a PO from its page, through the very functions the JSON API calls (so console
 * and API cannot differ on what is allowed): attach a print order (verified against the print service),
 * retry (refused where the create may have gone through), mark handled with a note, settle a held invoice
 * (invoice at the PO's or the print order's prices, or waive it with a note), move a dead letter back to
 * the outbox, re-send a delivered document (the same bytes).
 *
 * Each action is two POSTs with the session's CSRF token: the first only shows what will happen and asks
 * for confirmation, the second does it. Both carry the PO's `updatedAt` as the page showed it: if the PO
 * changed meanwhile (the worker moved it, another operator acted), the action is refused and the PO's
 * current state is shown, since what the operator decided on is no longer what is there.
 */
import type { InvoiceHold, InvoiceHoldPrices, OutboxMessage, PurchaseOrder } from '../../../store/types.ts';
import type { GatewayContext } from '../../context.ts';
import { GatewayError } from '../../http/errors.ts';
import { html, type SafeHtml } from '../../http/html.ts';
import { invoiceKeyText } from '../../invoices/invoice-figures.ts';
import {
  documentDeliveries,
  documentKey,
  invoicePoNow,
  refuseWithheldDocument,
  resendDocument,
  waiveHeldInvoices,
} from '../../invoices/invoicing.ts';
import { FLAG } from '../../orders/po-record.ts';
import { retryPurchaseOrder } from '../../orders/process-order.ts';
import { firstProblem, MAX_NOTE_LENGTH, StaleGuard } from '../admin-schemas.ts';
import { decideCancellation } from '../cancellation-decision.ts';
import { attachPrintOrder, markHandled, refuseIfStale } from '../operator-actions.ts';

export const ORDER_ACTIONS = [
  'attach',
  'retry',
  'handled',
  'invoice-po',
  'invoice-print-order',
  'waive-invoice',
  'cancel-and-credit',
  'refuse-cancellation',
] as const;
export type OrderAction = (typeof ORDER_ACTIONS)[number];
export const MESSAGE_ACTIONS = ['revive', 'resend'] as const;
export type MessageAction = (typeof MESSAGE_ACTIONS)[number];

/** The PO's version as a form carries it: its last change, to the millisecond. */
const versionOf = (order: PurchaseOrder) => order.updatedAt.toISOString();

/** What a form's fields ask for, checked; a `bad_request` names the field that is wrong. */
function printOrderIdOf(form: Record<string, string>): number {
  const text = (form.printOrderId ?? '').trim();
  if (!/^\d{1,15}$/.test(text) || Number(text) < 1) {
    throw new GatewayError('bad_request', 'The print order id must be a positive whole number.');
  }
  return Number(text);
}

function noteOf(form: Record<string, string>): string {
  const note = (form.note ?? '').trim();
  if (note === '' || note.length > MAX_NOTE_LENGTH) {
    throw new GatewayError('bad_request', `The note must be text of 1 to ${MAX_NOTE_LENGTH} characters.`);
  }
  return note;
}

const PRICES_OF: Readonly<Record<OrderAction, InvoiceHoldPrices | undefined>> = {
  attach: undefined,
  retry: undefined,
  handled: undefined,
  'invoice-po': 'po',
  'invoice-print-order': 'print-order',
  'waive-invoice': undefined,
  'cancel-and-credit': undefined,
  'refuse-cancellation': undefined,
};

/** Each held invoice with what it bills at `prices` (or, for a waiver, at the PO's), for the question. */
function heldAmounts(holds: readonly InvoiceHold[], prices: InvoiceHoldPrices): string {
  return holds
    .map((hold) => {
      const due = prices === 'po' ? hold.amounts.atPoPrices : hold.amounts.atPrintOrderPrices;
      const what = `print order ${hold.printOrderId} (${invoiceKeyText(hold.scope)})`;
      return due === undefined
        ? `${what}: cannot be worked out at these prices (it would stay held)`
        : `${what}: ${due} ${hold.amounts.currency} due`;
    })
    .join('; ');
}

/**
 * What retry and mark handled leave of the PO's held invoices, said in their questions: neither releases
 * nor drops an invoice, so an operator who reads only the question does not take either for a way to
 * settle one. `condition` ("If not,") leads the sentence where the action may still send them (a retry's
 * look at a print order put right).
 */
function stillHeld(holds: readonly InvoiceHold[], condition?: string): string {
  if (holds.length === 0) return '';
  const one = holds.length === 1;
  const sentence =
    `${one ? 'the held invoice stays' : `the ${holds.length} held invoices stay`} held — at the PO's prices, ` +
    `${heldAmounts(holds, 'po')} — and the PO waits for an operator until ${one ? 'it is' : 'they are'} invoiced or waived.`;
  return condition === undefined
    ? ` ${sentence[0]?.toUpperCase()}${sentence.slice(1)}`
    : ` ${condition} ${sentence}`;
}

/** The sentence the confirmation page asks the operator to confirm; `holds` are the PO's open invoice holds. */
export function orderActionQuestion(
  action: OrderAction,
  order: PurchaseOrder,
  form: Record<string, string>,
  holds: readonly InvoiceHold[],
): string {
  const invoices = holds.length === 1 ? 'the held invoice' : `the ${holds.length} held invoices`;
  switch (action) {
    case 'invoice-po':
    case 'invoice-print-order': {
      const prices = PRICES_OF[action]!;
      const whose = prices === 'po' ? "the PO's prices" : "the print order's prices for the lines concerned";
      return `Send ${invoices} of purchase order ${order.orderId} to the buyer at ${whose}? ${heldAmounts(holds, prices)}.`;
    }
    case 'waive-invoice':
      return `Send no invoice for ${invoices} of purchase order ${order.orderId} (at the PO's prices: ${heldAmounts(holds, 'po')}), with the note "${noteOf(form)}"? The buyer is not invoiced for ${holds.length === 1 ? 'it' : 'them'} by the gateway.`;
    case 'attach':
      return `Attach print order ${printOrderIdOf(form)} to purchase order ${order.orderId}? The gateway checks that the print order carries this PO number, then sends the buyer the accept and follows the print order. No print order is created.`;
    case 'retry':
      return order.flags.includes(FLAG.shipToMissing) && order.printOrderIds.length === 0
        ? `Place purchase order ${order.orderId}? It has a line without a usable ship-to address: its print order is created all the same, and the print shop ships to the address you got from the buyer.${stillHeld(holds)}`
        : holds.length > 0 && order.printOrderIds.length > 0
          ? `Look at the held invoice${holds.length === 1 ? '' : 's'} of purchase order ${order.orderId} again, as the print service has ${holds.length === 1 ? 'its print order' : 'the print orders'} now? Nothing is placed again; an invoice goes out only if its print order was put right.${stillHeld(holds, 'If not,')}`
          : `Process purchase order ${order.orderId} again? Its print order is created anew where none was made.${stillHeld(holds)}`;
    case 'handled':
      return holds.length > 0
        ? `Mark purchase order ${order.orderId} handled with the note "${noteOf(form)}"? The buyer gets no document.${stillHeld(holds)}`
        : `Mark purchase order ${order.orderId} handled with the note "${noteOf(form)}"? It leaves the operator's queue and the buyer gets no document.`;
    case 'cancel-and-credit':
      return `Cancel purchase order ${order.orderId} as the buyer asked, with the note "${noteOf(form)}"? Its print orders are set to the cancel status, every invoice of it is credited, and the buyer's lines are confirmed rejected.`;
    case 'refuse-cancellation':
      return `Refuse the buyer's cancellation of purchase order ${order.orderId} with the note "${noteOf(form)}"? The order stands; the buyer's lines are confirmed accepted again, with the note.`;
  }
}

/** Carries the action out through the API's own functions; their refusals reach the operator as they are. */
export async function runOrderAction(
  ctx: GatewayContext,
  action: OrderAction,
  order: PurchaseOrder,
  form: Record<string, string>,
): Promise<void> {
  switch (action) {
    case 'attach':
      await attachPrintOrder(ctx, order, printOrderIdOf(form));
      return;
    case 'retry':
      await retryPurchaseOrder(ctx, order);
      ctx.logger.info('purchase order retried by an operator', { po: order.id });
      return;
    case 'handled':
      await markHandled(ctx, order, noteOf(form));
      return;
    case 'invoice-po':
    case 'invoice-print-order':
      await invoicePoNow(ctx, order, PRICES_OF[action]);
      ctx.logger.info('purchase order invoiced by an operator', { po: order.id, prices: PRICES_OF[action] });
      return;
    case 'waive-invoice':
      await waiveHeldInvoices(ctx, order, noteOf(form));
      return;
    case 'cancel-and-credit':
      await decideCancellation(ctx, order, 'cancel', noteOf(form));
      return;
    case 'refuse-cancellation':
      await decideCancellation(ctx, order, 'refuse', noteOf(form));
      return;
  }
}

export function messageActionQuestion(action: MessageAction, message: OutboxMessage): string {
  switch (action) {
    case 'revive':
      return `Move the dead ${message.kind} document ${message.dedupeKey} back to the outbox? It is sent again, byte for byte, with the next background round.`;
    case 'resend':
      return `Send the ${message.kind} document ${documentKey(message)} to the buyer again? The same document (same payloadID) is queued once more and sent with the next background round.`;
  }
}

export async function runMessageAction(
  ctx: GatewayContext,
  action: MessageAction,
  message: OutboxMessage,
): Promise<void> {
  switch (action) {
    case 'revive': {
      await refuseWithheldDocument(ctx, message, documentKey(message), `The document ${message.dedupeKey}`);
      const revived = await ctx.store.outbox.resurrect(message.id);
      if (revived === undefined) {
        throw new GatewayError(
          'conflict',
          `The document ${message.dedupeKey} is ${message.state}; only a dead letter can be moved back.`,
        );
      }
      ctx.logger.info('document retried by an operator', {
        message: message.id,
        dedupeKey: message.dedupeKey,
      });
      return;
    }
    case 'resend': {
      // As POST /admin/outbox/:id/resend: every copy of the document, then the same bytes once more.
      const key = documentKey(message);
      const deliveries = await documentDeliveries(ctx, message.poId, key);
      const sent = await resendDocument(ctx, deliveries, key, `The ${message.kind} document ${key}`);
      ctx.logger.info('document re-sent by an operator', { message: message.id, resent: sent.id });
      return;
    }
  }
}

/**
 * Refuses the action when the PO is no longer as the operator's page showed it (the API's own check,
 * `refuseIfStale`); a form without the PO's version is refused too, as it cannot say what was seen.
 */
export function checkNotStale(order: PurchaseOrder, form: Record<string, string>): void {
  const guard = StaleGuard.safeParse({ expectedUpdatedAt: form.seen, expectedState: form.state });
  if (!guard.success || form.seen === undefined || form.seen === '') {
    const why = guard.success
      ? 'it does not say which version of the PO it was made on'
      : firstProblem(guard.error);
    throw new GatewayError('bad_request', `The form was refused: ${why}. Open the page again.`);
  }
  refuseIfStale(order, guard.data);
}

/** Hidden fields every action form carries. */
function carried(csrf: string, order: PurchaseOrder): SafeHtml {
  return html`<input type="hidden" name="csrf" value="${csrf}"><input type="hidden" name="seen" value="${versionOf(order)}"><input type="hidden" name="state" value="${order.state}">`;
}

/** The forms that settle held invoices: invoice at either side's prices, or waive with a note. */
function heldInvoiceForms(order: PurchaseOrder, csrf: string, holds: readonly InvoiceHold[]): SafeHtml {
  if (holds.length === 0) return html``;
  const base = `/admin/ui/orders/${encodeURIComponent(order.id)}/actions`;
  const rows = holds.map(
    (
      hold,
    ) => html`<tr><td>${hold.printOrderId}</td><td>${invoiceKeyText(hold.scope)}</td><td>${hold.reason}</td>
<td class="num">${hold.amounts.atPoPrices ?? '—'} ${hold.amounts.currency}</td><td class="num">${hold.amounts.atPrintOrderPrices ?? '—'} ${hold.amounts.currency}</td></tr>`,
  );
  return html`<h2>Held invoices</h2>
<table><caption>Invoices held for an operator: nothing is sent until one of the actions below</caption>
<thead><tr><th scope="col">Print order</th><th scope="col">Covers</th><th scope="col">Why it is held</th><th scope="col" class="num">Due at the PO's prices</th><th scope="col" class="num">Due at the print order's prices</th></tr></thead>
<tbody>${rows}</tbody></table>
<form method="post" action="${base}/invoice-po" class="actions">${carried(csrf, order)}<button type="submit">Invoice at the PO's prices…</button></form>
<form method="post" action="${base}/invoice-print-order" class="actions">${carried(csrf, order)}<button type="submit">Accept the print order's price…</button></form>
<form method="post" action="${base}/waive-invoice" class="actions">${carried(csrf, order)}
<div class="field"><label for="waive-note">Note (why no invoice is sent)</label><textarea id="waive-note" name="note" maxlength="${MAX_NOTE_LENGTH}" required></textarea></div>
<button type="submit">Waive the invoice…</button></form>`;
}

/**
 * The PO page's action forms: only those the PO's state allows (the functions would refuse the rest), and
 * those settling its held invoices (`holds`, the open ones).
 */
export function orderActionForms(
  order: PurchaseOrder,
  csrf: string,
  holds: readonly InvoiceHold[],
): SafeHtml {
  const base = `/admin/ui/orders/${encodeURIComponent(order.id)}/actions`;
  const forms: SafeHtml[] = [];
  if (order.type === 'new' && (order.state === 'needs_operator' || order.state === 'failed')) {
    forms.push(html`<form method="post" action="${base}/attach" class="actions">${carried(csrf, order)}
<div class="field"><label for="printOrderId">Print order id</label><input id="printOrderId" name="printOrderId" inputmode="numeric" pattern="[0-9]+" required></div>
<button type="submit">Attach print order…</button></form>`);
  }
  if (order.type !== 'update' && ['failed', 'needs_operator', 'processing'].includes(order.state)) {
    forms.push(
      html`<form method="post" action="${base}/retry" class="actions">${carried(csrf, order)}<button type="submit">Retry…</button></form>`,
    );
  }
  if (order.type === 'new' && order.flags.includes(FLAG.cancelAfterShip)) {
    forms.push(html`<form method="post" action="${base}/cancel-and-credit" class="actions">${carried(csrf, order)}
<div class="field"><label for="cancel-note">Note to the buyer (the cancellation carried out)</label><textarea id="cancel-note" name="note" maxlength="${MAX_NOTE_LENGTH}" required></textarea></div>
<button type="submit">Cancel and credit…</button></form>`);
    forms.push(html`<form method="post" action="${base}/refuse-cancellation" class="actions">${carried(csrf, order)}
<div class="field"><label for="refuse-note">Note to the buyer (why the order stands)</label><textarea id="refuse-note" name="note" maxlength="${MAX_NOTE_LENGTH}" required></textarea></div>
<button type="submit">Refuse the cancellation…</button></form>`);
  }
  if (order.state === 'needs_operator') {
    forms.push(html`<form method="post" action="${base}/handled" class="actions">${carried(csrf, order)}
<div class="field"><label for="note">Note (why nothing more is needed)</label><textarea id="note" name="note" maxlength="${MAX_NOTE_LENGTH}" required></textarea></div>
<button type="submit">Mark handled…</button></form>`);
  }
  const held = heldInvoiceForms(order, csrf, holds);
  if (forms.length === 0) return held;
  return html`${held}<h2>Actions</h2>${forms}`;
}

/** The form of a document action, for its row in the documents table. */
export function messageActionForm(order: PurchaseOrder, message: OutboxMessage, csrf: string): SafeHtml {
  const base = `/admin/ui/orders/${encodeURIComponent(order.id)}/documents/${encodeURIComponent(message.id)}`;
  if (message.state === 'dead') {
    return html`<form method="post" action="${base}/revive">${carried(csrf, order)}<button type="submit">Move back to the outbox…</button></form>`;
  }
  if (message.state === 'delivered') {
    return html`<form method="post" action="${base}/resend">${carried(csrf, order)}<button type="submit">Re-send…</button></form>`;
  }
  return html``;
}

/** The fields a confirmation page carries on: the form's own, nothing a caller added. */
const CARRIED_FIELDS = ['csrf', 'seen', 'state', 'printOrderId', 'note'] as const;

/** What the PO page says after an action went through (`?done=<action>`, after the redirect). */
export const DONE_TEXT: Readonly<Record<OrderAction | MessageAction | 'note', string>> = {
  note: 'The note is kept with the purchase order.',
  attach:
    "The print order is attached. The buyer's accept and the tracking follow with the next background round.",
  retry:
    'Retried: what is not placed yet is processed with the next background round, and held invoices were looked at again as the print service has them now (what stands is below).',
  handled: 'The purchase order is marked handled.',
  'invoice-po':
    "The held invoices are issued at the PO's prices; they go to the buyer with the next background round.",
  'invoice-print-order':
    "The held invoices are issued at the print order's prices; they go to the buyer with the next background round.",
  'waive-invoice': 'The held invoices are waived: no invoice is sent for them.',
  'cancel-and-credit':
    'The purchase order is cancelled as the buyer asked; the credit memos and the confirmation go with the next background round.',
  'refuse-cancellation':
    "The buyer's cancellation is refused; the confirmation with your note goes with the next background round.",
  revive: 'The document is back in the outbox; it is sent with the next background round.',
  resend: 'The document is queued to be sent again; it goes with the next background round.',
};

/** The confirmation page's body: the question, the same fields again with `confirmed`, and a way back. */
export function confirmationBody(
  question: string,
  action: string,
  form: Record<string, string>,
  backHref: string,
): SafeHtml {
  const fields = CARRIED_FIELDS.filter((name) => form[name] !== undefined).map(
    (name) => html`<input type="hidden" name="${name}" value="${form[name]}">`,
  );
  return html`<p>${question}</p>
<form method="post" action="${action}" class="actions">${fields}<input type="hidden" name="confirmed" value="yes">
<button class="primary" type="submit">Confirm</button> <a class="button" href="${backHref}">Cancel</a></form>`;
}
