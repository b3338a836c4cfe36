/**
 * `GET /admin/ui/orders/:id`: one purchase order as the JSON API describes it (`orderDetail`, the same
 * view), laid out for an operator: what the buyer ordered beside what was in the cart (deviations
 * highlighted), the job ticket its print orders carry, each print order as the print service has it now,
 * every document exchanged with the buyer, the invoices and the timeline. The print service is read live;
 * when it does not answer, the page says so and shows what the gateway knows.
 */
import type { Order as PrintOrder } from '../../../../schemas/print-api.ts';
import type {
  AttachmentInfo,
  OutboxMessage,
  PurchaseOrder,
  TrackedPrintOrder,
} from '../../../store/types.ts';
import type { GatewayContext } from '../../context.ts';
import { publicMessage, toGatewayError } from '../../http/errors.ts';
import { html, type SafeHtml } from '../../http/html.ts';
import { invoiceKeyText } from '../../invoices/invoice-figures.ts';
import { openHolds } from '../../invoices/invoice-holds.ts';
import { accountingText, extrinsicsText, printOrderComment } from '../../orders/history-comment.ts';
import { lineSku, ownerGroups, type PoDocument, type PoLine, poDocument } from '../../orders/po-record.ts';
import { readPrintOrder } from '../../orders/read-print-order.ts';
import { findProductBySku } from '../../punchout/catalog.ts';
import { orderDetail } from '../admin-views.ts';
import { messageActionForm, orderActionForms } from './actions.ts';
import { modeText, STATE_LABELS, timeText } from './format.ts';
import { message } from './layout.ts';
import { notesSection } from './notes.ts';

type Detail = Awaited<ReturnType<typeof orderDetail>>;

export const orderPath = (id: string) => `/admin/ui/orders/${encodeURIComponent(id)}`;

function facts(order: PurchaseOrder, detail: Detail): SafeHtml {
  return html`<dl class="facts">
<dt>PO number</dt><dd>${order.orderId}</dd>
<dt>Buyer</dt><dd>${order.buyerId}</dd>
<dt>Mode and storefront</dt><dd>${modeText(order)}</dd>
<dt>Type</dt><dd>${order.type}${order.orderVersion === undefined ? '' : ` (orderVersion ${order.orderVersion})`}</dd>
<dt>State</dt><dd>${STATE_LABELS[order.state] ?? order.state}</dd>
<dt>Reason</dt><dd>${order.lastError ?? '—'}</dd>
<dt>Flags</dt><dd>${order.flags.join(', ') || '—'}</dd>
<dt>Buyer's instructions</dt><dd>${
    detail.instructions.inForce.length === 0
      ? 'none (every document is sent as configured)'
      : html`<ul>${detail.instructions.inForce.map((effect) => html`<li>${effect}</li>`)}</ul>`
  }</dd>
<dt>payloadID</dt><dd>${order.payloadId}</dd>
<dt>Answer to the buyer</dt><dd>${order.answer.code} ${order.answer.text}</dd>
<dt>Order date</dt><dd>${detail.request.orderDate ?? '—'}</dd>
<dt>Received</dt><dd>${timeText(order.createdAt)}</dd>
<dt>Last change</dt><dd>${timeText(order.updatedAt)}</dd>
</dl>`;
}

/** A cell showing the PO's value, and the cart's beside it when they differ. */
function compared(po: string, cart: string, deviates: boolean): SafeHtml {
  return deviates
    ? html`<td><span class="deviation-note">${po}</span><br><span class="muted">cart: ${cart}</span></td>`
    : html`<td>${po}</td>`;
}

function linesTable(detail: Detail): SafeHtml {
  const byLine = new Map<string, Detail['mismatches']>();
  for (const m of detail.mismatches) byLine.set(m.lineRef, [...(byLine.get(m.lineRef) ?? []), m]);
  const rows = detail.lines.map((line: PoLine) => {
    const found = (line.lineRef !== undefined && byLine.get(line.lineRef)) || [];
    const has = (field: string) => found.some((m) => m.field === field);
    const { cart } = line;
    const quantity = `${line.quantity} ${line.unitOfMeasure}`;
    const price = `${line.unitPrice.value} ${line.unitPrice.currency}`;
    const check =
      cart === undefined
        ? 'no cart line: the catalog product as it is'
        : found.length === 0
          ? 'as in the cart'
          : html`<span class="deviation-note">${found.map((m) => m.text).join('; ')}</span>`;
    return html`<tr${found.length > 0 ? html` class="deviation"` : ''}>
<td>${line.lineNumber}</td><td>${line.supplierPartID}</td><td>${line.description}</td>
${cart === undefined ? html`<td>${quantity}</td>` : compared(quantity, String(cart.quantity), has('quantity'))}
${cart === undefined ? html`<td>${price}</td>` : compared(price, `${cart.unitPrice} ${cart.currency}`, has('price'))}
<td>${lineSku(line)}</td><td>${line.asIs ? `product ${line.designId}` : line.designId}</td><td>${line.storefrontId}</td>
<td>${check}</td></tr>`;
  });
  return html`<table><caption>Lines as ordered, beside the punch-out cart (deviations highlighted)</caption>
<thead><tr><th scope="col">Line</th><th scope="col">Part ID</th><th scope="col">Description</th><th scope="col">Quantity</th><th scope="col">Unit price</th><th scope="col">Cart SKU</th><th scope="col">Design</th><th scope="col">Storefront</th><th scope="col">Check</th></tr></thead>
<tbody>${rows}</tbody></table>`;
}

/** Lines left out of the print orders, each with the reason the buyer reads in its `reject` status. */
function rejectedLinesTable(detail: Detail): SafeHtml | '' {
  if (detail.rejectedLines.length === 0) return '';
  const rows = detail.rejectedLines.map(
    (line) =>
      html`<tr><td>${line.lineNumber}</td><td>${line.supplierPartID}</td><td>${line.reason}</td></tr>`,
  );
  return html`<table><caption>Lines not produced: rejected to the buyer by line</caption>
<thead><tr><th scope="col">Line</th><th scope="col">Part ID</th><th scope="col">Why</th></tr></thead>
<tbody>${rows}</tbody></table>`;
}

/** Each line's accounting (Distribution) and its own Extrinsics, as the buyer sent them. */
function accountingTable(detail: Detail): SafeHtml {
  const rows = detail.lines
    .filter((line) => (line.distribution ?? []).length > 0 || (line.extrinsics ?? []).length > 0)
    .map(
      (line: PoLine) => html`<tr><td>${line.lineNumber}</td>
<td>${(line.distribution ?? []).length === 0 ? '—' : html`<ul>${(line.distribution ?? []).map((d) => html`<li>${accountingText(d)}</li>`)}</ul>`}</td>
<td>${extrinsicsText(line.extrinsics ?? []) || '—'}</td></tr>`,
    );
  if (rows.length === 0) return html`<p class="muted">No accounting or line fields on the lines.</p>`;
  return html`<table><caption>Accounting (Distribution) and the buyer's line fields (Extrinsics)</caption>
<thead><tr><th scope="col">Line</th><th scope="col">Accounting</th><th scope="col">Line fields</th></tr></thead>
<tbody>${rows}</tbody></table>`;
}

/** The history note each print order carries (or will carry): the same text the order job writes. */
function jobTickets(
  ctx: GatewayContext,
  order: PurchaseOrder,
  document: PoDocument,
  attachments: readonly AttachmentInfo[],
): SafeHtml {
  if (order.type !== 'new' || document.lines.length === 0)
    return html`<p class="muted">No job ticket: this request makes no print order.</p>`;
  const buyer = ctx.buyers.byId(order.buyerId);
  const buyerName = buyer?.name === undefined ? order.buyerId : `${buyer.name} (${order.buyerId})`;
  return html`${ownerGroups(document.lines).map((group) => {
    const storefront = ctx.config.storefronts.find((s) => s.id === group.storefrontId);
    const names = {
      buyer: buyerName,
      product: (sku: string) =>
        storefront === undefined ? undefined : findProductBySku(storefront, sku)?.name,
      attachments,
    };
    const printOrderId = order.printOrderIds[group.index];
    const heading =
      printOrderId === undefined
        ? `Ticket of print order ${group.index + 1} (not created yet)`
        : `Ticket of print order ${printOrderId}`;
    return html`<h3>${heading}</h3><pre>${printOrderComment(order, group, names, document)}</pre>`;
  })}`;
}

function shipmentsTable(live: PrintOrder): SafeHtml {
  if (live.shipments.length === 0) return html`<p class="muted">No shipments.</p>`;
  const rows = live.shipments.map(
    (s) =>
      html`<tr><td>${s.index}</td><td>${s.provider ?? '—'}</td><td>${s.service ?? '—'}</td><td>${s.tracking_numbers ?? '—'}</td><td>${s.shipped_on ?? 'not shipped'}</td></tr>`,
  );
  return html`<table><caption>Shipments of print order ${live.id}</caption>
<thead><tr><th scope="col">Shipment</th><th scope="col">Carrier</th><th scope="col">Service</th><th scope="col">Tracking</th><th scope="col">Shipped</th></tr></thead>
<tbody>${rows}</tbody></table>`;
}

async function printOrderSection(
  ctx: GatewayContext,
  tracked: TrackedPrintOrder,
  detail: Detail,
): Promise<SafeHtml> {
  const accept = !detail.instructions.confirmation
    ? 'not sent: the buyer allows no confirmation (OCInstruction notAllowed)'
    : tracked.confirmed
      ? 'yes'
      : 'no';
  const known = html`<dl class="facts">
<dt>Storefront</dt><dd>${tracked.storefrontId}</dd>
<dt>Followed by the gateway</dt><dd>${tracked.state === 'open' ? 'yes (open)' : 'no longer (closed)'}</dd>
<dt>Last status seen</dt><dd>${tracked.lastStatus ?? '—'} (${timeText(tracked.lastCheckedAt)})</dd>
<dt>Accept sent to the buyer</dt><dd>${accept}</dd>
<dt>Shipments reported (or withheld by the buyer's instructions)</dt><dd>${tracked.shipmentsNotified.length === 0 ? 'none' : `shipments ${tracked.shipmentsNotified.join(', ')}`}</dd>
</dl>`;
  let live: SafeHtml;
  try {
    const order = await readPrintOrder(ctx, tracked.storefrontId, tracked.printOrderId);
    live = html`<p>Status at the print service now: <strong>${order.status}</strong></p>${shipmentsTable(order)}`;
  } catch (error) {
    live = message(
      'error',
      `The print service could not be read: ${publicMessage(toGatewayError(error), 'page')}`,
    );
  }
  return html`<h3>Print order ${tracked.printOrderId}</h3>${known}${live}`;
}

const KIND_LABELS: Readonly<Record<string, string>> = {
  confirmation: 'ConfirmationRequest',
  ship_notice: 'ShipNoticeRequest',
  status_update: 'StatusUpdateRequest',
  invoice: 'InvoiceDetailRequest',
};

function documentsTable(
  order: PurchaseOrder,
  detail: Detail,
  messages: readonly OutboxMessage[],
  csrf: string,
): SafeHtml {
  const rows = detail.outbox.map((m) => {
    const stored = messages.find((s) => s.id === m.id);
    const action = stored === undefined ? '' : messageActionForm(order, stored, csrf);
    return html`<tr><td><a href="${orderPath(order.id)}/documents/${encodeURIComponent(m.id)}">${KIND_LABELS[m.kind] ?? m.kind}</a></td>
<td>${m.dedupeKey}</td><td>${m.state}</td><td>${m.attempts}</td><td>${timeText(m.deliveredAt)}</td><td>${m.lastError ?? '—'}</td><td>${timeText(m.createdAt)}</td><td>${action}</td></tr>`;
  });
  return html`<table><caption>Documents exchanged with the buyer</caption>
<thead><tr><th scope="col">Document</th><th scope="col">Key</th><th scope="col">Delivery</th><th scope="col">Attempts</th><th scope="col">Delivered</th><th scope="col">Last error</th><th scope="col">Queued</th><th scope="col">Action</th></tr></thead>
<tbody><tr><td><a href="${orderPath(order.id)}/documents/order-request">OrderRequest</a> (from the buyer)</td><td>${order.payloadId}</td><td>received</td><td>—</td><td>${timeText(order.createdAt)}</td><td>—</td><td>—</td><td></td></tr>
<tr><td>Answer to the OrderRequest</td><td>—</td><td>${order.answer.code} ${order.answer.text}</td><td>—</td><td>${timeText(order.createdAt)}</td><td>—</td><td>—</td><td></td></tr>
${rows}</tbody></table>`;
}

/** The buyer's latest word on an invoice: its InvoiceStatus, and whether it was paid, in part or whole. */
function buyerStatusText(invoice: Detail['invoices'][number]): string {
  if (invoice.buyerStatus === null) return 'nothing reported';
  const partial =
    invoice.buyerStatusHistory.findLast((u) => u.invoiceStatus === 'paid')?.partialAmount ?? null;
  const paid = partial === null ? 'paid' : `paid ${partial.value} ${partial.currency} (in part)`;
  if (invoice.buyerStatus === 'paid') return paid;
  return invoice.paid ? `${invoice.buyerStatus} (${paid} before)` : invoice.buyerStatus;
}

function invoicesTable(detail: Detail): SafeHtml {
  if (detail.invoices.length === 0) return html`<p class="muted">No invoices.</p>`;
  const rows = detail.invoices.map(
    (
      i,
    ) => html`<tr${i.buyerStatus === 'rejected' ? html` class="deviation"` : ''}><td>${i.invoiceId}</td><td>${i.purpose}</td><td>${i.printOrderId}</td><td>${invoiceKeyText(i.scope)}</td>
<td class="num">${i.amounts.due} ${i.amounts.currency}</td>
<td>${i.deliveries.map((d) => `${d.state}${d.deliveredAt === null ? '' : ` ${timeText(d.deliveredAt)}`}`).join('; ') || 'not queued'}</td>
<td>${buyerStatusText(i)}</td></tr>`,
  );
  return html`<table><caption>Invoices and credit memos</caption>
<thead><tr><th scope="col">Invoice</th><th scope="col">Purpose</th><th scope="col">Print order</th><th scope="col">Covers</th><th scope="col" class="num">Due</th><th scope="col">Delivery</th><th scope="col">Buyer's status</th></tr></thead>
<tbody>${rows}</tbody></table>`;
}

/** Every StatusUpdateRequest the buyer sent about the PO's documents, oldest first: the invoices' history. */
function statusUpdatesTable(detail: Detail): SafeHtml {
  if (detail.statusUpdates.length === 0) return html``;
  const kindOf = (documentId: string | null) => {
    const kind = detail.outbox.find((m) => m.id === documentId)?.kind;
    return kind === undefined ? 'a document' : (KIND_LABELS[kind] ?? kind);
  };
  const rows = detail.statusUpdates.map((u) => {
    const about =
      u.invoiceId === null ? `${kindOf(u.documentId)} ${u.documentId ?? ''}` : `invoice ${u.invoiceId}`;
    const said = [
      u.invoiceStatus ?? '',
      `Status ${u.status.code} ${u.status.text}`,
      u.status.message,
      u.partialAmount === null ? '' : `paid ${u.partialAmount.value} ${u.partialAmount.currency}`,
    ].filter((t) => t !== '');
    return html`<tr${u.invoiceStatus === 'rejected' ? html` class="deviation"` : ''}><td>${timeText(u.receivedAt)}</td><td>${about}</td><td>${said.join(' · ')}</td><td>${u.comments || '—'}</td><td>${u.payloadId}</td></tr>`;
  });
  return html`<table><caption>What the buyer reported on our documents (StatusUpdateRequest)</caption>
<thead><tr><th scope="col">Received</th><th scope="col">About</th><th scope="col">Status</th><th scope="col">Buyer's comments</th><th scope="col">payloadID</th></tr></thead>
<tbody>${rows}</tbody></table>`;
}

/** The files that came with the PO, each a download through the console session. */
function attachmentsTable(order: PurchaseOrder, attachments: readonly AttachmentInfo[]): SafeHtml {
  if (attachments.length === 0) return html`<p class="muted">No attachments came with this PO.</p>`;
  const rows = attachments.map(
    (
      a,
    ) => html`<tr><td><a href="${orderPath(order.id)}/attachments/${a.position}">${a.filename ?? `part ${a.position}`}</a></td>
<td>${a.contentType}</td><td class="num">${a.size}</td><td>${a.contentId === undefined ? '—' : `cid:${a.contentId}`}</td></tr>`,
  );
  return html`<table><caption>Files that came with the PO (kept by the gateway: the print service takes no files)</caption>
<thead><tr><th scope="col">File</th><th scope="col">Type</th><th scope="col" class="num">Bytes</th><th scope="col">Content-ID</th></tr></thead>
<tbody>${rows}</tbody></table>`;
}

/** Every hold the PO's invoices had, and how each was settled. */
function holdsTable(detail: Detail): SafeHtml {
  if (detail.invoiceHolds.length === 0) return html``;
  const rows = detail.invoiceHolds.map(
    (
      h,
    ) => html`<tr><td>${h.printOrderId}</td><td>${invoiceKeyText(h.scope)}</td><td>${h.state}</td><td>${h.reason}</td>
<td>${[h.invoiceId === null ? '' : `invoice ${h.invoiceId}`, h.note ?? ''].filter((t) => t !== '').join(': ')}</td><td>${timeText(h.updatedAt)}</td></tr>`,
  );
  return html`<table><caption>Invoice holds</caption>
<thead><tr><th scope="col">Print order</th><th scope="col">Covers</th><th scope="col">State</th><th scope="col">Why it was held</th><th scope="col">Settled</th><th scope="col">Last change</th></tr></thead>
<tbody>${rows}</tbody></table>`;
}

function timelineTable(detail: Detail): SafeHtml {
  const rows = detail.timeline.map(
    (e) => html`<tr><td>${timeText(e.at)}</td><td>${e.event}</td><td>${e.detail}</td></tr>`,
  );
  return html`<table><caption>Timeline</caption>
<thead><tr><th scope="col">When</th><th scope="col">What</th><th scope="col">Detail</th></tr></thead>
<tbody>${rows}</tbody></table>`;
}

/**
 * The PO page's body, with the operator's action forms (under the session's `csrf`) and, above all, what
 * the last action did or why it was refused.
 */
export async function orderPageBody(
  ctx: GatewayContext,
  order: PurchaseOrder,
  csrf: string,
  notice?: SafeHtml,
): Promise<SafeHtml> {
  const detail = await orderDetail(ctx, order);
  const printOrders = await ctx.store.printOrders.listByPo(order.id);
  const messages = (await ctx.store.outbox.list({ poId: order.id, limit: 500 })).items;
  const attachments = await ctx.store.attachments.list(order.id);
  const sections: SafeHtml[] = [];
  for (const tracked of printOrders) sections.push(await printOrderSection(ctx, tracked, detail));
  return html`${notice ?? ''}${facts(order, detail)}
${orderActionForms(order, csrf, await openHolds(ctx, order.id))}
<h2>Lines</h2>${linesTable(detail)}${rejectedLinesTable(detail)}
<h2>Accounting</h2>${accountingTable(detail)}
<h2>Attachments</h2>${attachmentsTable(order, attachments)}
<h2>Job ticket</h2>${jobTickets(ctx, order, poDocument(order), attachments)}
<h2>Print orders</h2>${sections.length === 0 ? html`<p class="muted">No print order yet.</p>` : sections}
<h2>Documents</h2>${documentsTable(order, detail, messages, csrf)}
<h2>Invoices</h2>${invoicesTable(detail)}${statusUpdatesTable(detail)}${holdsTable(detail)}
<h2 id="notes">Notes</h2>${notesSection(order, detail.notes, csrf)}
<h2>Timeline</h2>${timelineTable(detail)}`;
}
